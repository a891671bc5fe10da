#include "core/workspace/desktopnotifier.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QStringList>
#include <QVariantMap>

namespace gantry::workspace {
namespace {
const QString kService = QStringLiteral("org.freedesktop.Notifications");
const QString kPath = QStringLiteral("/org/freedesktop/Notifications");
constexpr int kExpireMs = -1; // the server's default
} // namespace

DesktopNotifier::DesktopNotifier()
{
    const QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected() || !bus.interface())
        return;
    m_available = bus.interface()->isServiceRegistered(kService).value();
}

void DesktopNotifier::notify(const QString &summary, const QString &body) const
{
    if (!m_available)
        return;
    QDBusMessage call = QDBusMessage::createMethodCall(kService, kPath, kService, QStringLiteral("Notify"));
    call << QStringLiteral("Gantry") << uint(0) << QStringLiteral("gantry") << summary << body << QStringList()
         << QVariantMap() << kExpireMs;
    QDBusConnection::sessionBus().send(call); // fire and forget: a slow daemon never holds the watcher up
}

} // namespace gantry::workspace
