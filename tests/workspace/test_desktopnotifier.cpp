// The watcher's desktop notification over a real dbus-daemon: a stand-in notification service
// registers org.freedesktop.Notifications on a private session bus and receives the call.
#include "core/workspace/desktopnotifier.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QVariantMap>

using namespace gantry;

class FakeNotifications final : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")

public slots:
    uint Notify(const QString &appName, uint, const QString &, const QString &summary, const QString &body,
                const QStringList &, const QVariantMap &, int)
    {
        emit received(appName, summary, body);
        return 1;
    }

signals:
    void received(const QString &appName, const QString &summary, const QString &body);
};

class TestDesktopNotifier final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString daemon = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
        if (daemon.isEmpty())
            QSKIP("dbus-daemon is not installed (package dbus)");
        m_daemon.setProgram(daemon);
        m_daemon.setArguments({QStringLiteral("--session"), QStringLiteral("--nofork"), QStringLiteral("--print-address=1")});
        m_daemon.start();
        QVERIFY(m_daemon.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(m_daemon.canReadLine(), 10000);
        m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
        QVERIFY(!m_address.isEmpty());
        qputenv("DBUS_SESSION_BUS_ADDRESS", m_address.toUtf8()); // before the first sessionBus()
    }

    void cleanupTestCase()
    {
        m_daemon.kill();
        m_daemon.waitForFinished(5000);
    }

    void withoutServiceItDoesNothing()
    {
        const workspace::DesktopNotifier notifier;
        QVERIFY(!notifier.isAvailable());
        notifier.notify(QStringLiteral("nobody"), QStringLiteral("listens")); // no error, no wait
    }

    void notifiesTheDesktop()
    {
        QDBusConnection service = QDBusConnection::connectToBus(m_address, QStringLiteral("fake-notifications"));
        QVERIFY(service.isConnected());
        FakeNotifications fake;
        QVERIFY(service.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &fake, QDBusConnection::ExportAllSlots));
        QVERIFY(service.registerService(QStringLiteral("org.freedesktop.Notifications")));
        QSignalSpy received(&fake, &FakeNotifications::received);

        const workspace::DesktopNotifier notifier;
        QVERIFY(notifier.isAvailable());
        notifier.notify(QStringLiteral("Idle GPU on box"), QStringLiteral("terminated after 30 min idle"));
        QVERIFY(received.wait(10000));
        QCOMPARE(received.at(0).at(0).toString(), QStringLiteral("Gantry"));
        QCOMPARE(received.at(0).at(1).toString(), QStringLiteral("Idle GPU on box"));
        QCOMPARE(received.at(0).at(2).toString(), QStringLiteral("terminated after 30 min idle"));
        service.unregisterService(QStringLiteral("org.freedesktop.Notifications"));
        QDBusConnection::disconnectFromBus(QStringLiteral("fake-notifications"));
    }

private:
    QProcess m_daemon;
    QString m_address;
};

QTEST_GUILESS_MAIN(TestDesktopNotifier)
#include "test_desktopnotifier.moc"
