#include "core/workspace/secretprefetch.h"

#include <QThread>

namespace gantry::workspace {

SecretPrefetch::SecretPrefetch(SecretStore *backing, QObject *parent)
    : QObject(parent)
    , m_backing(backing)
{
}

SecretPrefetch::~SecretPrefetch()
{
    if (m_thread)
        m_thread->wait();
}

void SecretPrefetch::prefetch(const QStringList &keys)
{
    if (m_thread)
        m_thread->wait(); // one prefetch at a time (called at start-up only)
    {
        std::lock_guard lock(m_mutex);
        m_pending = QSet<QString>(keys.cbegin(), keys.cend());
    }
    m_thread.reset(QThread::create([this, keys] {
        for (const QString &key : keys) {
            Result<std::optional<QString>> value = m_backing->read(key);
            std::lock_guard lock(m_mutex);
            // Not when written or removed meanwhile: that answer is newer than this one.
            if (m_pending.remove(key) && value)
                m_fetched.insert(key, *value);
        }
        QMetaObject::invokeMethod(this, &SecretPrefetch::ready, Qt::QueuedConnection);
    }));
    m_thread->setObjectName(QStringLiteral("secrets"));
    m_thread->start();
}

bool SecretPrefetch::isPending() const
{
    std::lock_guard lock(m_mutex);
    return !m_pending.isEmpty();
}

void SecretPrefetch::release()
{
    std::lock_guard lock(m_mutex);
    m_fetched.clear();
}

Result<std::optional<QString>> SecretPrefetch::read(const QString &key)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_pending.contains(key))
            return std::optional<QString>(); // not yet: never wait for the keychain here
        if (const auto it = m_fetched.constFind(key); it != m_fetched.constEnd())
            return *it;
    }
    return m_backing->read(key);
}

Result<void> SecretPrefetch::write(const QString &key, const QString &secret)
{
    {
        std::lock_guard lock(m_mutex);
        m_pending.remove(key);
        m_fetched.remove(key);
    }
    return m_backing->write(key, secret);
}

Result<void> SecretPrefetch::remove(const QString &key)
{
    {
        std::lock_guard lock(m_mutex);
        m_pending.remove(key);
        m_fetched.remove(key);
    }
    return m_backing->remove(key);
}

} // namespace gantry::workspace
