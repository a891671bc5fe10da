// SPDX-License-Identifier: Apache-2.0
#include "core/transfer/remotefiles.h"

#include "core/ssh/session.h"
#include "core/transfer/remoteops.h"
#include "core/util/background.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <vector>

namespace gantry::transfer {

namespace {

using Sessions = std::vector<std::unique_ptr<ssh::Session>>;

Error stoppedError(const QString &host)
{
    return Error{ErrorCode::Cancelled,
                 QCoreApplication::translate("Transfer", "The operation on %1 was stopped; start it again to go on.").arg(host)};
}

// A session goes back to the pool after the host answered; after a cancel, a lost link or a
// timeout it is closed, as a half-read reply or a dead socket may remain.
bool keepsSession(const Error &error)
{
    switch (error.code) {
    case ErrorCode::NotFound:
    case ErrorCode::Conflict:
    case ErrorCode::PermissionDenied:
    case ErrorCode::Usage:
        return true;
    default:
        return false;
    }
}

// Disconnecting waits for the network: never on the owner thread.
void closeOnWorker(Sessions sessions)
{
    if (sessions.empty())
        return;
    auto held = std::make_shared<Sessions>(std::move(sessions));
    background::start([held] { held->clear(); });
}

} // namespace

struct RemoteFiles::Pool
{
    using Clock = std::chrono::steady_clock;
    struct Idle
    {
        QString host;
        std::unique_ptr<ssh::Session> session;
        Clock::time_point since;
    };
    // One operation's session and its SFTP channel (closed before the session).
    struct Lease
    {
        std::unique_ptr<ssh::Session> session;
        std::unique_ptr<SftpClient> sftp;
    };

    mutable std::mutex mutex;
    std::vector<Idle> idle;                  // under mutex
    std::map<quint64, CancelToken> running;  // under mutex: what the destructor cancels
    int pending = 0;                         // under mutex: started and not yet ended
    bool closed = false;                     // under mutex: the service is gone

    void started()
    {
        std::lock_guard lock(mutex);
        ++pending;
    }

    bool enter(quint64 id, const CancelToken &token)
    {
        std::lock_guard lock(mutex);
        if (closed)
            return false;
        running.emplace(id, token);
        return true;
    }

    void leave(quint64 id)
    {
        std::lock_guard lock(mutex);
        running.erase(id);
        --pending;
    }

    // The newest idle session to host (the likeliest to be alive), now this caller's alone.
    std::unique_ptr<ssh::Session> take(const QString &host)
    {
        std::lock_guard lock(mutex);
        for (auto it = idle.rbegin(); it != idle.rend(); ++it) {
            if (it->host != host)
                continue;
            std::unique_ptr<ssh::Session> session = std::move(it->session);
            idle.erase(std::next(it).base());
            return session;
        }
        return nullptr;
    }

    // On the operation's thread; a session the pool does not keep is closed here.
    void giveBack(const QString &host, std::unique_ptr<ssh::Session> session)
    {
        std::unique_ptr<ssh::Session> surplus;
        std::lock_guard lock(mutex);
        if (closed) {
            surplus = std::move(session);
            return;
        }
        idle.push_back(Idle{host, std::move(session), Clock::now()});
        const auto sameHost = [&host](const Idle &i) { return i.host == host; };
        if (std::count_if(idle.begin(), idle.end(), sameHost) > kMaxIdlePerHost) {
            const auto oldest = std::find_if(idle.begin(), idle.end(), sameHost);
            surplus = std::move(oldest->session);
            idle.erase(oldest);
        }
    }

    // Removes the idle sessions that idle since before `before` (all with the latest time point).
    Sessions takeIdle(Clock::time_point before)
    {
        Sessions out;
        std::lock_guard lock(mutex);
        for (auto it = idle.begin(); it != idle.end();) {
            if (it->since < before) {
                out.push_back(std::move(it->session));
                it = idle.erase(it);
            } else {
                ++it;
            }
        }
        return out;
    }

    Result<Lease> lease(const QString &host, const SessionFactory &factory, const CancelToken &token)
    {
        while (std::unique_ptr<ssh::Session> pooled = take(host)) {
            auto sftp = SftpClient::start(pooled->handle(), pooled->target().display(), token.flag());
            if (sftp)
                return Lease{std::move(pooled), std::move(*sftp)};
            if (token.isCancelled())
                return sftp.error();
            // The host dropped this one while it waited: closed here, and the next one tried.
        }
        auto session = factory(token.flag());
        if (!session)
            return session.error();
        auto sftp = SftpClient::start((*session)->handle(), (*session)->target().display(), token.flag());
        if (!sftp)
            return sftp.error();
        return Lease{std::move(*session), std::move(*sftp)};
    }

    template<typename T>
    Result<T> run(const QString &host, const Result<SessionFactory> &factory, const CancelToken &token, const Work<T> &work)
    {
        if (!factory)
            return factory.error();
        if (token.isCancelled())
            return stoppedError(host);
        auto leased = lease(host, *factory, token);
        if (!leased)
            return leased.error();
        Result<T> result = work(*leased->sftp, *leased->session, token);
        leased->sftp.reset();
        if ((result.ok() || keepsSession(result.error())) && !token.isCancelled() && leased->session->isConnected())
            giveBack(host, std::move(leased->session));
        return result;
    }
};

RemoteFiles::RemoteFiles(FactoryProvider provider, QObject *parent)
    : QObject(parent)
    , m_provider(std::move(provider))
    , m_pool(std::make_shared<Pool>())
{
    m_expiry.setInterval(std::chrono::seconds(15));
    connect(&m_expiry, &QTimer::timeout, this, &RemoteFiles::expireIdle);
}

RemoteFiles::~RemoteFiles()
{
    Sessions idle;
    {
        std::lock_guard lock(m_pool->mutex);
        m_pool->closed = true;
        for (const auto &[id, token] : m_pool->running)
            token.cancel();
        for (Pool::Idle &i : m_pool->idle)
            idle.push_back(std::move(i.session));
        m_pool->idle.clear();
    }
    closeOnWorker(std::move(idle));
}

template<typename T>
CancelToken RemoteFiles::start(const QString &host, QObject *context, Work<T> work, Done<T> done)
{
    Result<SessionFactory> factory = m_provider(host);
    const quint64 id = ++m_nextId;
    m_pool->started();
    if (!m_expiry.isActive())
        m_expiry.start();
    std::function<Result<T>(const CancelToken &)> job =
        [pool = m_pool, id, host, factory = std::move(factory), work = std::move(work)](const CancelToken &token) -> Result<T> {
        if (!pool->enter(id, token)) {
            pool->leave(id);
            return stoppedError(host);
        }
        Result<T> result = pool->run<T>(host, factory, token, work);
        pool->leave(id);
        return result;
    };
    return background::run<Result<T>>(context ? context : this, std::move(job), std::move(done));
}

CancelToken RemoteFiles::list(const QString &host, const QString &path, QObject *context, Done<RemoteListing> done)
{
    Work<RemoteListing> work = [path](SftpClient &sftp, ssh::Session &, const CancelToken &) -> Result<RemoteListing> {
        const QString asked = path.isEmpty() ? QStringLiteral(".") : path;
        const Result<QString> resolved = sftp.realpath(asked);
        const QString where = resolved ? *resolved : asked; // a missing folder: the listing says so
        auto entries = sftp.list(where);
        if (!entries)
            return entries.error();
        return RemoteListing{where, std::move(*entries)};
    };
    return start(host, context, std::move(work), std::move(done));
}

CancelToken RemoteFiles::makeFolder(const QString &host, const QString &parent, const QString &name, QObject *context,
                                    Done<QString> done)
{
    Work<QString> work = [parent, name](SftpClient &sftp, ssh::Session &, const CancelToken &) -> Result<QString> {
        if (auto ok = checkNewName(name); !ok)
            return ok.error();
        const QString path = remoteJoin(parent, name);
        if (auto made = sftp.mkdir(path); !made)
            return made.error();
        return path;
    };
    return start(host, context, std::move(work), std::move(done));
}

CancelToken RemoteFiles::rename(const QString &host, const QString &path, const QString &newName, QObject *context,
                                Done<QString> done)
{
    Work<QString> work = [path, newName](SftpClient &sftp, ssh::Session &, const CancelToken &) {
        return renameRemote(sftp, path, newName);
    };
    return start(host, context, std::move(work), std::move(done));
}

CancelToken RemoteFiles::count(const QString &host, const QStringList &paths, QObject *context, Done<RemoteTreeCount> done)
{
    Work<RemoteTreeCount> work = [paths](SftpClient &sftp, ssh::Session &session,
                                         const CancelToken &token) -> Result<RemoteTreeCount> {
        RemoteTreeCount total;
        for (const QString &path : paths) {
            auto one = countRemoteTree(session, sftp, path, token.flag());
            if (!one)
                return one.error();
            total.isDir = total.isDir || one->isDir;
            total.files += one->files;
            total.folders += one->folders;
        }
        return total;
    };
    return start(host, context, std::move(work), std::move(done));
}

CancelToken RemoteFiles::remove(const QString &host, const QStringList &paths, bool recursive, QObject *context,
                                Done<void> done)
{
    Work<void> work = [paths, recursive](SftpClient &sftp, ssh::Session &session, const CancelToken &token) -> Result<void> {
        for (const QString &path : paths) {
            if (auto removed = removeRemote(session, sftp, path, recursive, token.flag()); !removed)
                return removed.error();
        }
        return {};
    };
    return start(host, context, std::move(work), std::move(done));
}

CancelToken RemoteFiles::fetchForEdit(const QString &host, const QString &path, const QString &localFile, QObject *context,
                                      Done<EditStamp> done)
{
    Work<EditStamp> work = [path, localFile](SftpClient &sftp, ssh::Session &, const CancelToken &token) {
        return transfer::fetchForEdit(sftp, path, localFile, token.flag());
    };
    return start(host, context, std::move(work), std::move(done));
}

CancelToken RemoteFiles::storeEdited(const QString &host, const EditStamp &expected, const QString &localFile, QObject *context,
                                     Done<EditStamp> done)
{
    Work<EditStamp> work = [expected, localFile](SftpClient &sftp, ssh::Session &, const CancelToken &token) {
        return transfer::storeEdited(sftp, expected, localFile, token.flag());
    };
    return start(host, context, std::move(work), std::move(done));
}

int RemoteFiles::idleSessions(const QString &host) const
{
    std::lock_guard lock(m_pool->mutex);
    return int(std::count_if(m_pool->idle.begin(), m_pool->idle.end(), [&host](const Pool::Idle &i) { return i.host == host; }));
}

int RemoteFiles::runningOperations() const
{
    std::lock_guard lock(m_pool->mutex);
    return m_pool->pending;
}

void RemoteFiles::closeIdle()
{
    closeOnWorker(m_pool->takeIdle(Pool::Clock::time_point::max()));
}

void RemoteFiles::expireIdle()
{
    closeOnWorker(m_pool->takeIdle(Pool::Clock::now() - std::chrono::seconds(kIdleSeconds)));
    std::lock_guard lock(m_pool->mutex);
    if (m_pool->idle.empty() && m_pool->pending == 0)
        m_expiry.stop();
}

} // namespace gantry::transfer
