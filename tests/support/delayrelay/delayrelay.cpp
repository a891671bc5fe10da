// A TCP relay that adds a fixed one-way delay in both directions without capping throughput:
// bytes read are stamped with "now + delay" and queued; a chunk is forwarded once its time has
// come, so a full window of data is in flight, as on a long link. Loopback only.
//
// Usage: gantry-delayrelay --target PORT [--listen PORT] [--delay-ms MS] [--port-file FILE]
// Prints "listening PORT" on stdout once ready. Stops on SIGTERM/SIGINT.
// With GANTRY_RELAY_TRACE=FILE in the environment it appends a line every 100 ms: milliseconds
// since start, bytes forwarded up and down so far, bytes held in the relay each way (what is "in
// flight" on the emulated link) and the connections open: where a transfer drains the pipe.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kReadSize = 256 * 1024;
// Stop reading a direction when this much is queued; far above any link we emulate (BDP).
constexpr size_t kMaxQueued = 64u * 1024 * 1024;

volatile sig_atomic_t g_stop = 0;

struct Chunk
{
    Clock::time_point due;
    std::vector<char> data;
    size_t sent = 0;
};

struct Direction
{
    int from = -1;
    int to = -1;
    std::deque<Chunk> queue;
    size_t queued = 0;
    bool readEof = false;
    bool shutdownSent = false;
    bool isUp = false;
};

struct Pair
{
    Direction up;   // client -> server
    Direction down; // server -> client
    bool dead = false;
};

// Bytes forwarded over the relay's lifetime, printed on exit: what went "on the wire".
unsigned long long g_bytesUp = 0;
unsigned long long g_bytesDown = 0;

void setNonBlocking(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int connectLoopback(int port)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    setNonBlocking(fd);
    return fd;
}

// Reads what is there into the direction's queue. Returns false on a hard error.
bool pumpRead(Direction &d, std::chrono::milliseconds delay)
{
    // One scratch buffer, copied out at the size read: a fresh 256 KiB vector per read was zeroed
    // first, a tenth of the relay's CPU, taken from the tools it measures on the shared cores.
    static std::vector<char> scratch(kReadSize);
    while (!d.readEof && d.queued < kMaxQueued) {
        const ssize_t n = read(d.from, scratch.data(), scratch.size());
        if (n > 0) {
            Chunk chunk;
            chunk.data.assign(scratch.data(), scratch.data() + n);
            chunk.due = Clock::now() + delay;
            d.queued += chunk.data.size();
            d.queue.push_back(std::move(chunk));
            continue;
        }
        if (n == 0) {
            d.readEof = true;
            return true;
        }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    }
    return true;
}

bool pumpWrite(Direction &d)
{
    const auto now = Clock::now();
    while (!d.queue.empty() && d.queue.front().due <= now) {
        Chunk &c = d.queue.front();
        const ssize_t n = write(d.to, c.data.data() + c.sent, c.data.size() - c.sent);
        if (n < 0) {
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
        }
        c.sent += static_cast<size_t>(n);
        if (c.sent < c.data.size()) {
            return true; // socket full; poll for POLLOUT
        }
        d.queued -= c.data.size();
        (d.isUp ? g_bytesUp : g_bytesDown) += c.data.size();
        d.queue.pop_front();
    }
    if (d.readEof && d.queue.empty() && !d.shutdownSent) {
        shutdown(d.to, SHUT_WR);
        d.shutdownSent = true;
    }
    return true;
}

bool wantsWrite(const Direction &d)
{
    return !d.queue.empty() && d.queue.front().due <= Clock::now();
}

} // namespace

int main(int argc, char **argv)
{
    int listenPort = 0;
    int targetPort = 0;
    int delayMs = 25;
    std::string portFile;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string opt = argv[i];
        if (opt == "--listen") listenPort = std::atoi(argv[i + 1]);
        else if (opt == "--target") targetPort = std::atoi(argv[i + 1]);
        else if (opt == "--delay-ms") delayMs = std::atoi(argv[i + 1]);
        else if (opt == "--port-file") portFile = argv[i + 1];
    }
    if (targetPort <= 0) {
        std::fprintf(stderr, "usage: gantry-delayrelay --target PORT [--listen PORT] [--delay-ms MS] [--port-file FILE]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa{};
    sa.sa_handler = [](int) { g_stop = 1; };
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);

    const int lfd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(listenPort));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(lfd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || listen(lfd, 64) != 0) {
        std::perror("gantry-delayrelay: bind");
        return 1;
    }
    socklen_t len = sizeof addr;
    getsockname(lfd, reinterpret_cast<sockaddr *>(&addr), &len);
    const int port = ntohs(addr.sin_port);
    fcntl(lfd, F_SETFL, fcntl(lfd, F_GETFL) | O_NONBLOCK);
    if (!portFile.empty()) {
        const std::string tmp = portFile + ".tmp";
        if (FILE *f = std::fopen(tmp.c_str(), "w")) {
            std::fprintf(f, "%d\n", port);
            std::fclose(f);
            std::rename(tmp.c_str(), portFile.c_str());
        }
    }
    std::printf("listening %d\n", port);
    std::fflush(stdout);

    const auto delay = std::chrono::milliseconds(delayMs);
    std::vector<std::unique_ptr<Pair>> pairs;
    FILE *trace = std::getenv("GANTRY_RELAY_TRACE") ? std::fopen(std::getenv("GANTRY_RELAY_TRACE"), "a") : nullptr;
    const auto started = Clock::now();
    auto nextTrace = started;
    while (!g_stop) {
        if (trace && Clock::now() >= nextTrace) {
            unsigned long long heldUp = 0, heldDown = 0;
            for (auto &p : pairs) heldUp += p->up.queued, heldDown += p->down.queued;
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
            std::fprintf(trace, "%lld %llu %llu %llu %llu %zu\n", static_cast<long long>(ms), g_bytesUp, g_bytesDown, heldUp, heldDown,
                         pairs.size());
            std::fflush(trace);
            nextTrace += std::chrono::milliseconds(100);
        }
        std::vector<pollfd> fds;
        fds.push_back({lfd, POLLIN, 0});
        auto nextDue = Clock::time_point::max();
        for (auto &p : pairs) {
            for (Direction *d : {&p->up, &p->down}) {
                short ev = 0;
                if (!d->readEof && d->queued < kMaxQueued) ev |= POLLIN;
                fds.push_back({d->from, ev, 0});
                short wev = wantsWrite(*d) ? POLLOUT : 0;
                fds.push_back({d->to, wev, 0});
                if (!d->queue.empty() && d->queue.front().due < nextDue) nextDue = d->queue.front().due;
            }
        }
        int timeout = trace ? 100 : 1000;
        if (nextDue != Clock::time_point::max()) {
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(nextDue - Clock::now()).count();
            timeout = static_cast<int>(std::max<long long>(0, std::min<long long>(ms + 1, timeout)));
        }
        if (poll(fds.data(), fds.size(), timeout) < 0 && errno != EINTR) break;

        if (fds[0].revents & POLLIN) {
            for (;;) {
                const int cfd = accept(lfd, nullptr, nullptr);
                if (cfd < 0) break;
                const int sfd = connectLoopback(targetPort);
                if (sfd < 0) {
                    close(cfd);
                    continue;
                }
                setNonBlocking(cfd);
                auto p = std::make_unique<Pair>();
                p->up.isUp = true;
                p->up.from = cfd;
                p->up.to = sfd;
                p->down.from = sfd;
                p->down.to = cfd;
                pairs.push_back(std::move(p));
            }
        }
        for (auto &p : pairs) {
            for (Direction *d : {&p->up, &p->down}) {
                if (!pumpRead(*d, delay) || !pumpWrite(*d)) p->dead = true;
            }
            const bool done = p->up.shutdownSent && p->down.shutdownSent;
            if (p->dead || done) {
                close(p->up.from);
                close(p->down.from);
                p->dead = true;
            }
        }
        std::erase_if(pairs, [](const std::unique_ptr<Pair> &p) { return p->dead; });
    }
    for (auto &p : pairs) {
        close(p->up.from);
        close(p->down.from);
    }
    close(lfd);
    if (trace) std::fclose(trace);
    std::fprintf(stderr, "relay bytes up=%llu down=%llu\n", g_bytesUp, g_bytesDown);
    return 0;
}
