// SPDX-License-Identifier: Apache-2.0
#include "core/sync/syncholder.h"
#include "core/sync/synctext.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <thread>
#include <vector>

#include <cerrno>
#include <csignal>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

extern char **environ;

namespace gantry::sync {
namespace {

constexpr int kPollMs = 100;
constexpr int kRequestMs = 10000;     // a client names its request at once (unless descheduled)
constexpr int kReleaseMs = 120000;    // a holder ends after the round it serves, which may be long
constexpr int kTickMs = 15000;        // the idle holder's keepalive
constexpr int kSendTimeoutS = 30;     // a client that stops reading (Ctrl+Z) counts as gone

struct Fd
{
    int fd = -1;
    explicit Fd(int f) : fd(f) {}
    ~Fd() { if (fd >= 0) ::close(fd); }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
};

bool fillAddress(const QString &path, sockaddr_un &address)
{
    const QByteArray native = QFile::encodeName(path);
    address = {};
    address.sun_family = AF_UNIX;
    if (native.size() >= qsizetype(sizeof(address.sun_path))) return false;
    memcpy(address.sun_path, native.constData(), size_t(native.size()));
    return true;
}

// A connected socket, or -1 (no holder listens there, or the path is too long).
int connectTo(const QString &path)
{
    sockaddr_un address;
    if (!fillAddress(path, address)) return -1;
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

bool sendAll(int fd, const QByteArray &data)
{
    for (qsizetype done = 0; done < data.size();) {
        const ssize_t n = ::send(fd, data.constData() + done, size_t(data.size() - done), MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += n;
    }
    return true;
}

// One line from fd within ms (without its '\n'); empty when none came.
QByteArray readLine(int fd, int ms)
{
    QByteArray line;
    for (int waited = 0; waited < ms && line.size() < 64;) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, kPollMs) <= 0) {
            waited += kPollMs;
            continue;
        }
        char c = 0;
        const ssize_t n = ::recv(fd, &c, 1, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0 || c == '\n') return line;
        line.append(c);
    }
    return line;
}

// The peer closed its end (it sent all it will, so anything readable is the end).
bool peerGone(int fd)
{
    pollfd p{fd, POLLIN | POLLRDHUP, 0};
    return ::poll(&p, 1, 0) > 0;
}

// The lock taken is the file now at its path (not one its last holder removed meanwhile).
bool lockIsAtItsPath(int fd, const QByteArray &path)
{
    struct stat held{}, there{};
    return ::fstat(fd, &held) == 0 && ::stat(path.constData(), &there) == 0 && held.st_ino == there.st_ino
        && held.st_dev == there.st_dev;
}

// Seconds that also run while the machine sleeps: a holder's idle time is the user's, and a link
// held across a night's suspend is likely dead.
qint64 bootMs()
{
    timespec t{};
    ::clock_gettime(CLOCK_BOOTTIME, &t);
    return qint64(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
}

bool peerIsMe(int fd)
{
#ifdef SO_PEERCRED
    ucred cred{};
    socklen_t length = sizeof cred;
    return ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) == 0 && cred.uid == ::geteuid();
#else
    Q_UNUSED(fd);
    return true; // the socket's folder is the user's alone
#endif
}

QJsonObject resultLine(const Result<void> &r)
{
    if (r) return {{QStringLiteral("event"), QStringLiteral("result")}, {QStringLiteral("ok"), true}};
    return {{QStringLiteral("event"), QStringLiteral("result")}, {QStringLiteral("ok"), false},
            {QStringLiteral("code"), int(r.error().code)}, {QStringLiteral("message"), r.error().message}};
}

Error errorFrom(const QJsonObject &line)
{
    const int code = line.value(QStringLiteral("code")).toInt();
    const bool known = code >= int(ErrorCode::Generic) && code <= int(ErrorCode::Parse);
    return Error{known ? ErrorCode(code) : ErrorCode::Generic, line.value(QStringLiteral("message")).toString()};
}

} // namespace

Result<QString> holdSocketPath(const QByteArray &key)
{
    const QByteArray runtime = qgetenv("XDG_RUNTIME_DIR");
    const QByteArray dir = runtime.isEmpty() ? QByteArray("/tmp/gantry-sync-" + QByteArray::number(::geteuid()))
                                              : QByteArray(runtime + "/gantry-sync");
    const QString shown = QFile::decodeName(dir);
    struct stat st{};
    if ((::mkdir(dir.constData(), 0700) != 0 && errno != EEXIST) || ::lstat(dir.constData(), &st) != 0) {
        return Error{ErrorCode::Io, SyncText::tr("Cannot make %1 for held connections: %2. Check XDG_RUNTIME_DIR.")
                                        .arg(shown, QString::fromLocal8Bit(strerror(errno)))};
    }
    // Anyone may make a folder in /tmp first: it must be ours, and no one else's to enter.
    if (!S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) {
        return Error{ErrorCode::PermissionDenied, SyncText::tr("%1 is not a folder of yours, so no connection is held there; "
                                                               "remove it, or set XDG_RUNTIME_DIR to a private folder.").arg(shown)};
    }
    if ((st.st_mode & 077) != 0) {
        return Error{ErrorCode::PermissionDenied, SyncText::tr("%1 is open to other users, so no connection is held there; "
                                                               "run chmod 700 on it.").arg(shown)};
    }
    const QByteArray digest = QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(24);
    const QString path = QFile::decodeName(dir + '/' + digest + ".sock");
    sockaddr_un address;
    if (!fillAddress(path, address)) {
        return Error{ErrorCode::Usage, SyncText::tr("The folder for held connections, %1, has too long a path for a socket; "
                                                    "set XDG_RUNTIME_DIR to a shorter one.").arg(QFile::decodeName(dir))};
    }
    return path;
}

SyncHolder::SyncHolder(QString socketPath, std::chrono::milliseconds idle)
    : m_path(std::move(socketPath)), m_idle(idle)
{
}

SyncHolder::~SyncHolder()
{
    stopListening();
    if (m_lock >= 0) {
        // Held, and checked to be the file at its path: removing it cannot strand another holder.
        ::unlink(QByteArray(QFile::encodeName(m_path) + ".lock").constData());
        ::close(m_lock); // after the socket: the next holder finds none of ours
    }
}

Result<void> SyncHolder::listen()
{
    const QByteArray native = QFile::encodeName(m_path);
    // The lock says which holder owns the socket: a socket file without its lock holder is stale.
    m_lock = ::open(QByteArray(native + ".lock").constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    // A holder that was just released lets go of the lock a moment after its socket is gone.
    bool locked = false;
    for (int tries = 0; m_lock >= 0 && !locked && tries < 20; ++tries) {
        locked = ::flock(m_lock, LOCK_EX | LOCK_NB) == 0 && lockIsAtItsPath(m_lock, native + ".lock");
        if (locked) break;
        // Locked by another, or removed by the holder that had it: open the path again.
        ::close(m_lock);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        m_lock = ::open(QByteArray(native + ".lock").constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    }
    if (!locked) {
        return Error{ErrorCode::Conflict, SyncText::tr("Another process holds the connection for this sync.")};
    }
    sockaddr_un address;
    fillAddress(m_path, address);
    ::unlink(native.constData());
    m_listen = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listen < 0 || ::bind(m_listen, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0
        || ::chmod(native.constData(), 0600) != 0 || ::listen(m_listen, 8) != 0) {
        return Error{ErrorCode::Io, SyncText::tr("Cannot listen on %1: %2.").arg(m_path, QString::fromLocal8Bit(strerror(errno)))};
    }
    struct stat st{};
    if (::stat(native.constData(), &st) == 0) m_inode = quint64(st.st_ino);
    return {};
}

void SyncHolder::stopListening()
{
    if (m_listen < 0) return;
    if (stillOurs()) ::unlink(QFile::encodeName(m_path).constData()); // not a successor's
    ::close(m_listen);
    m_listen = -1;
}

bool SyncHolder::stillOurs() const
{
    struct stat st{};
    return ::stat(QFile::encodeName(m_path).constData(), &st) == 0 && quint64(st.st_ino) == m_inode;
}

SyncEventSink SyncHolder::sink()
{
    return [this](const SyncEvent &e) { send(eventToJson(e)); };
}

void SyncHolder::send(const QJsonObject &line)
{
    std::lock_guard lock(m_clientMutex);
    if (m_client < 0) return;
    if (sendAll(m_client, QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n')) return;
    // The client left, or stopped reading for kSendTimeoutS: the round stops, and no later event
    // waits on it again.
    ::shutdown(m_client, SHUT_RDWR);
    m_client = -1;
    m_token.cancel();
}

void SyncHolder::serve(const std::function<Result<void>()> &round, const std::function<void()> &idleTick)
{
    qint64 lastClient = bootMs();
    qint64 nextTick = lastClient + kTickMs;
    while (m_listen >= 0) {
        const qint64 now = bootMs();
        const qint64 left = m_idle.count() - (now - lastClient);
        if (left <= 0 || !stillOurs()) break;
        if (now >= nextTick) {
            idleTick();
            nextTick = now + kTickMs;
        }
        pollfd p{m_listen, POLLIN, 0};
        if (::poll(&p, 1, int(std::clamp<qint64>(std::min(left, nextTick - now), 1, kTickMs))) <= 0) continue;
        const int client = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) continue;
        const Fd guard(client);
        if (!peerIsMe(client)) continue;
        const timeval timeout{kSendTimeoutS, 0};
        ::setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
        const Next next = answer(client, round);
        if (next == Next::End) break;
        if (next == Next::Served) lastClient = bootMs();
    }
    stopListening(); // before the engine logs out, which may take a while
}

SyncHolder::Next SyncHolder::answer(int client, const std::function<Result<void>()> &round)
{
    const QList<QByteArray> request = readLine(client, kRequestMs).split(' ');
    if (request.value(0) == "release") {
        stopListening();
        sendAll(client, "{\"event\":\"released\"}\n");
        return Next::End;
    }
    if (request.value(0) != "round") return Next::Ignored;
    // A later sync may ask to be held longer than the first one did.
    m_idle = std::max<std::chrono::milliseconds>(m_idle, std::chrono::seconds(request.value(1).toInt()));
    // A sync that gave up while it waited for its turn (Ctrl+C) is not served.
    if (peerGone(client)) return Next::Ignored;
    return runRound(client, round);
}

SyncHolder::Next SyncHolder::runRound(int client, const std::function<Result<void>()> &round)
{
    // The client says nothing more: anything to read means it left (Ctrl+C); the round stops.
    // The pipe wakes the watch when the round ends (a timed poll would delay every answer).
    int done[2] = {-1, -1};
    if (::pipe2(done, O_CLOEXEC) != 0) return Next::End;
    const Fd doneRead(done[0]);
    const Fd doneWrite(done[1]);
    {
        std::lock_guard lock(m_clientMutex);
        m_client = client;
    }
    std::thread watch([&] {
        pollfd p[2] = {{client, POLLIN | POLLRDHUP, 0}, {done[0], POLLIN, 0}};
        while (::poll(p, 2, -1) < 0 && errno == EINTR) {}
        if (!(p[1].revents & POLLIN)) m_token.cancel();
    });
    const Result<void> r = round();
    (void)!::write(done[1], "x", 1);
    watch.join();
    send(resultLine(r));
    {
        std::lock_guard lock(m_clientMutex);
        m_client = -1;
    }
    // After a failure the next sync connects itself (and starts a fresh holder): a link or a login
    // that failed here would likely fail again in this process.
    return !r || m_token.isCancelled() ? Next::End : Next::Served;
}

Result<bool> runHeldRound(const QString &socketPath, int holdSeconds, const std::function<void(const QJsonObject &)> &onEvent,
                          const std::function<void()> &onSlow, const CancelToken &cancel)
{
    const Fd fd(connectTo(socketPath));
    if (fd.fd < 0 || !peerIsMe(fd.fd) || !sendAll(fd.fd, "round " + QByteArray::number(holdSeconds) + '\n')) return false;
    QByteArray buffer;
    bool heard = false;
    int quietMs = 0;
    QByteArray chunk(64 * 1024, Qt::Uninitialized);
    for (;;) {
        if (cancel.isCancelled()) {
            return Error{ErrorCode::Cancelled, SyncText::tr("Sync stopped; the connection held for it ends.")};
        }
        pollfd p{fd.fd, POLLIN, 0};
        if (::poll(&p, 1, kPollMs) <= 0) {
            if (!heard && (quietMs += kPollMs) == 1000 && onSlow) onSlow();
            continue;
        }
        const ssize_t n = ::recv(fd.fd, chunk.data(), size_t(chunk.size()), 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            // Nothing heard: the holder ended before it took the request (idle, or its connect
            // failed), and nothing was done; the caller syncs itself.
            if (!heard) return false;
            return Error{ErrorCode::ConnectFailed, SyncText::tr("The process holding the connection for this sync ended "
                                                                "mid-round; run the sync again.")};
        }
        buffer.append(chunk.constData(), n);
        for (qsizetype end; (end = buffer.indexOf('\n')) >= 0;) {
            const QJsonObject line = QJsonDocument::fromJson(buffer.left(end)).object();
            buffer.remove(0, end + 1);
            heard = true;
            if (line.value(QStringLiteral("event")).toString() != QLatin1String("result")) {
                onEvent(line);
                continue;
            }
            if (line.value(QStringLiteral("ok")).toBool()) return true;
            return errorFrom(line);
        }
    }
}

bool releaseHolder(const QString &socketPath)
{
    const Fd fd(connectTo(socketPath));
    return fd.fd >= 0 && peerIsMe(fd.fd) && sendAll(fd.fd, "release\n") && !readLine(fd.fd, kReleaseMs).isEmpty();
}

int releaseAllHolders(const QString &anySocketPath)
{
    const QDir dir = QFileInfo(anySocketPath).dir();
    int ended = 0;
    for (const QString &name : dir.entryList({QStringLiteral("*.sock")}, QDir::System)) {
        const QString path = dir.filePath(name);
        if (releaseHolder(path)) {
            ++ended;
            continue;
        }
        // No holder answers: if none holds its lock either, what is left is a dead one's.
        const QByteArray lockPath = QFile::encodeName(path) + ".lock";
        const Fd lock(::open(lockPath.constData(), O_RDWR | O_CLOEXEC));
        if (lock.fd >= 0 && ::flock(lock.fd, LOCK_EX | LOCK_NB) == 0) {
            ::unlink(QFile::encodeName(path).constData());
            ::unlink(lockPath.constData());
        }
    }
    return ended;
}

Result<void> startHolder(const QString &program, const QStringList &arguments, const QString &socketPath)
{
    std::vector<QByteArray> words{QFile::encodeName(program)};
    for (const QString &a : arguments) words.push_back(a.toLocal8Bit());
    const QByteArray variable = QByteArray(kHolderVariable) + '=';
    std::vector<QByteArray> env;
    for (char **e = environ; *e; ++e) {
        if (!QByteArray(*e).startsWith(variable)) env.emplace_back(*e);
    }
    env.push_back(variable + QFile::encodeName(socketPath));
    std::vector<char *> argv;
    std::vector<char *> envp;
    for (QByteArray &w : words) argv.push_back(w.data());
    for (QByteArray &e : env) envp.push_back(e.data());
    argv.push_back(nullptr);
    envp.push_back(nullptr);

    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&files, 1, 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    posix_spawn_file_actions_addclosefrom_np(&files, 3); // not this process's connections or journals
#endif
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
#ifdef POSIX_SPAWN_SETSID
    flags |= POSIX_SPAWN_SETSID; // out of the terminal's session: its Ctrl+C and hang-up are not the holder's
#endif
    posix_spawnattr_setflags(&attributes, flags);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&defaults, s);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    pid_t pid = 0;
    const int rc = ::posix_spawn(&pid, argv[0], &files, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attributes);
    if (rc != 0) {
        return Error{ErrorCode::Io, SyncText::tr("Cannot start the process that holds the connection: %1.")
                                        .arg(QString::fromLocal8Bit(strerror(rc)))};
    }
    return {};
}

void holdSync(transfer::SessionFactory factory, SyncTarget target, SyncOptions options, const QString &socketPath,
              std::chrono::seconds idle)
{
    SyncHolder holder(socketPath, idle);
    if (!holder.listen()) return;
    SyncEngine engine(std::move(factory), std::move(target), std::move(options), holder.sink(), holder.token());
    if (!engine.prepare()) return;
    holder.serve([&] { return engine.run(); }, [&] { engine.keepAlive(); });
}

} // namespace gantry::sync
