#pragma once

#include "core/util/secretstore.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>

#include <memory>
#include <mutex>

class QThread;

namespace gantry::workspace {

// The secrets the start-up needs (the providers' API keys) read off the GUI thread: the OS keychain
// may take seconds (a Secret Service over D-Bus, an unlock prompt) and its client spins a nested
// event loop while it waits. prefetch() reads them on a worker thread; until ready() a read of one of
// them answers "none yet" at once (the providers come up unconfigured), after it they answer from
// memory until release(), and then every read goes to the backing store again (so a key changed
// later, at user-action time, is read afresh). Other keys always go to the backing store.
// Thread-safe: sessions read host passwords through it from their own threads.
class SecretPrefetch final : public QObject, public SecretStore
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretPrefetch)

public:
    explicit SecretPrefetch(SecretStore *backing, QObject *parent = nullptr);
    ~SecretPrefetch() override; // waits for the worker (a keychain read ends with its D-Bus timeout)

    void prefetch(const QStringList &keys);
    bool isPending() const;
    void release(); // forget the prefetched values

    Result<std::optional<QString>> read(const QString &key) override;
    Result<void> write(const QString &key, const QString &secret) override;
    Result<void> remove(const QString &key) override;

signals:
    // On this object's thread, once every prefetched key has been read (errors included: a
    // refusing keychain is reported by the read that follows release()).
    void ready();

private:
    SecretStore *m_backing;
    mutable std::mutex m_mutex;
    QSet<QString> m_pending;                          // under m_mutex
    QHash<QString, std::optional<QString>> m_fetched; // under m_mutex
    std::unique_ptr<QThread> m_thread;
};

} // namespace gantry::workspace
