#include "core/workspace/policylock.h"

#include <QDir>
#include <QFileInfo>

namespace gantry::workspace {

PolicyLock::PolicyLock(const QString &configDir)
    : m_path(path(configDir))
    , m_file(m_path)
{
    m_file.setStaleLockTime(0); // held for days by a watcher: only a dead owner makes it stale
}

PolicyLock::~PolicyLock()
{
    release();
}

QString PolicyLock::path(const QString &configDir)
{
    return QDir(configDir).filePath(QStringLiteral("policy.lock"));
}

bool PolicyLock::tryAcquire()
{
    if (!m_owned) {
        QDir().mkpath(QFileInfo(m_path).absolutePath());
        m_owned = m_file.tryLock(0);
    }
    return m_owned;
}

QString PolicyLock::holder() const
{
    qint64 pid = 0;
    QString hostName;
    QString application;
    if (!m_file.getLockInfo(&pid, &hostName, &application))
        return {};
    return QStringLiteral("%1 (pid %2 on %3)").arg(application.isEmpty() ? QStringLiteral("?") : application).arg(pid).arg(hostName);
}

void PolicyLock::release()
{
    if (m_owned)
        m_file.unlock();
    m_owned = false;
}

} // namespace gantry::workspace
