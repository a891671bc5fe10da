// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/transfer/remoteedit.h"
#include "core/transfer/remotefileops.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/transfertypes.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>

namespace gantry::transfer {

// A folder as listed: its path resolved on the host (absolute; "." is the home folder).
struct RemoteListing
{
    QString path;
    QList<SftpEntry> entries;
};

// The operations on a machine's files that the Files tab offers — list, new folder, rename, the
// count a delete's question shows, delete — asynchronously, each on an SSH session of its own, so
// a long recursive delete never holds up a listing, another operation or the machine's
// interactive connection. Sessions come from a small pool per host: a session is handed whole to
// one operation at a time (through a mutex), kept a minute after its last use and closed on a
// worker. An operation runs on background::pool(), is stopped by the CancelToken it returns (a
// connect, an SFTP request, the host's rm or find), and delivers its Result to `done` on the main
// thread, unless `context` (an object of that thread; the service when null) was destroyed
// meanwhile, which cancels it too. The blocking steps are remotefileops.h's, which gantry-cli
// rename/rm run as well. Owner-thread only; the destructor cancels what runs and waits for none.
class RemoteFiles final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteFiles)

public:
    // How to open sessions for a machine by name (TransferQueue::savedHostProvider in the app);
    // called on the owner thread as each operation starts.
    using FactoryProvider = std::function<Result<SessionFactory>(const QString &host)>;
    template<typename T>
    using Done = std::function<void(Result<T>)>;

    explicit RemoteFiles(FactoryProvider provider, QObject *parent = nullptr);
    ~RemoteFiles() override;

    // Resolves path (realpath) and lists it.
    CancelToken list(const QString &host, const QString &path, QObject *context, Done<RemoteListing> done);
    // Creates the folder `name` (a name, checkNewName) in `parent`; the new folder's path.
    CancelToken makeFolder(const QString &host, const QString &parent, const QString &name, QObject *context,
                           Done<QString> done);
    // renameRemote: the new path; an entry of that name is never replaced (Conflict).
    CancelToken rename(const QString &host, const QString &path, const QString &newName, QObject *context,
                       Done<QString> done);
    // What deleting paths removes, summed over them (countRemoteTree).
    CancelToken count(const QString &host, const QStringList &paths, QObject *context, Done<RemoteTreeCount> done);
    // removeRemote on each path in turn; the first failure ends it.
    CancelToken remove(const QString &host, const QStringList &paths, bool recursive, QObject *context,
                       Done<void> done);
    // Editing in a local editor (remoteedit.h): path downloaded into localFile, and localFile
    // uploaded over it unless the host's file changed since `expected` (Conflict).
    CancelToken fetchForEdit(const QString &host, const QString &path, const QString &localFile, QObject *context,
                             Done<EditStamp> done);
    CancelToken storeEdited(const QString &host, const EditStamp &expected, const QString &localFile, QObject *context,
                            Done<EditStamp> done);

    // Sessions to host that wait for the next operation (what the pool holds), and operations
    // started and not yet ended on their worker (for tests).
    int idleSessions(const QString &host) const;
    int runningOperations() const;

    // How many idle sessions a host keeps, and for how long after their last use.
    static constexpr int kMaxIdlePerHost = 2;
    static constexpr int kIdleSeconds = 60;

public slots:
    // Closes every idle session (on a worker): after the saved hosts changed, no operation reuses a
    // session to an old address or user.
    void closeIdle();

private:
    struct Pool;
    template<typename T>
    using Work = std::function<Result<T>(SftpClient &, ssh::Session &, const CancelToken &)>;
    template<typename T>
    CancelToken start(const QString &host, QObject *context, Work<T> work, Done<T> done);
    void expireIdle();

    FactoryProvider m_provider;
    std::shared_ptr<Pool> m_pool; // shared with the operations on their way: they may end after the service
    QTimer m_expiry;
    quint64 m_nextId = 0;
};

} // namespace gantry::transfer
