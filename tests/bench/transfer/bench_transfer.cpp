// Transfer benchmark: gantry-cli upload vs OpenSSH scp, sftp and rsync, to one local sshd,
// directly and through the user-space delay relay (the kernel has no netem).
//
//   gantry-bench-transfer [--size MiB] [--files N] [--file-kib K] [--scp-files N] [--rtts 0,50,100]
//                         [--runs N] [--scp-only] [--no-scp-large] [--baseline-cli PATH] [--parallel N] [--gantry-arg ARG]... [--skip-small] [--skip-large] [--skip-resume]
//                         [--sync] [--sync-files N] [--sync-runs N] [--sync-max-kib K] [--sync-hold]
//                         [--download] [--download-files N] [--download-runs N] [--shell-startup-ms MS]
//
// --runs N repeats the single-file test N times, scp and gantry alternating who goes first, and
// prints each run and the medians; --scp-only leaves sftp and rsync out of it, --no-scp-large every
// reference tool (the ratio is then against its own direct-link time); --baseline-cli
// runs another gantry-cli (an earlier build) in the same runs, for before/after side by side (the
// single-file test and the folder upload of --download).
//
// --sync adds the sync scenario: a source tree of --sync-files files (1–200 KiB, most small,
// ~330 MiB for 5 000), `gantry-cli sync` against `rsync -a` for the first sync, a re-sync with
// nothing changed and one with one edited file; --sync-runs alternating runs, medians printed.
// --sync-hold keeps each tool's connection between its runs: `gantry-cli sync --hold` against rsync
// over an ssh ControlMaster with ControlPersist (both ended after each run, so every first sync
// connects afresh).
//
// --download adds the folder download scenario: a remote tree of --download-files files (1–120 KB,
// ~170 MB for 3 000), `gantry-cli download` against `rsync -a` from the host, then the downloaded
// copy uploaded again (`gantry-cli upload` against `rsync -a` to the host); --download-runs
// alternating runs, medians printed.
//
// --shell-startup-ms makes every remote command's shell wait that long first, as a conda or pyenv
// init in a GPU image's start-up files does (the fixture's sshd skips this machine's ~/.bashrc).
// Without it, --sync and --download run a second time with a 1 s start-up, after the first.
//
// Per-file tools at long RTTs need minutes per thousand files: they run on the first --scp-files
// files only and their time is scaled to --files (per-file round trips dominate; stated in the
// output). Each command is its own process; peak RSS comes from wait4().

#include "delayrelayprocess.h"
#include "sshdfixture.h"

#include "core/transfer/sha256.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QThread>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTextStream>

#include <csignal>
#include <fcntl.h>
#include <cstdio>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace gantry;

namespace {

QTextStream out(stdout);

struct Run
{
    double seconds = -1;
    long maxRssKiB = 0;
    int status = -1;
    double cpuSeconds = 0; // user + system of the tool itself (children included)
};

// Runs argv to completion; optional stdout capture with a line callback that may kill it.
Run runCommand(const QStringList &argv, const std::function<bool(const QByteArray &)> &onLine = {})
{
    std::vector<QByteArray> storage;
    std::vector<char *> args;
    for (const QString &a : argv) storage.push_back(a.toLocal8Bit());
    for (auto &s : storage) args.push_back(s.data());
    args.push_back(nullptr);
    int pipefd[2] = {-1, -1};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (onLine) {
        if (pipe(pipefd) != 0) return {};
        posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&actions, pipefd[0]);
    } else {
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    }
    // Every tool starts with no dirty pages left by the one before (writeback of an earlier
    // tool's gigabyte would otherwise slow whichever runs next).
    sync();
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    if (posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) return {};
    posix_spawn_file_actions_destroy(&actions);
    if (onLine) {
        close(pipefd[1]);
        FILE *f = fdopen(pipefd[0], "r");
        char *line = nullptr;
        size_t cap = 0;
        while (getline(&line, &cap, f) > 0) {
            if (onLine(QByteArray(line))) {
                kill(pid, SIGKILL);
                break;
            }
        }
        free(line);
        fclose(f);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    Run r;
    r.seconds = double(timer.nsecsElapsed()) / 1e9;
    r.maxRssKiB = usage.ru_maxrss;
    r.cpuSeconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
}

using Relay = test::DelayRelay;

// Where earlier runs' copies go instead of being deleted: ext4 skips inodes freed in the last 30 s
// when it allocates new ones, so a run right after thousands of deletions measured that scan
// (60 % of the machine's CPU in perf), not the tools. Removed with the work folder at the end.
QString g_trash;

void discard(const QString &dir)
{
    static int n = 0;
    if (!QFileInfo::exists(dir)) return;
    if (g_trash.isEmpty() || !QDir().rename(dir, g_trash + QLatin1Char('/') + QString::number(n++))) QDir(dir).removeRecursively();
}

void makeRandomFile(const QString &path, qint64 bytes)
{
    QFile f(path);
    if (f.size() == bytes) return;
    f.open(QIODevice::WriteOnly | QIODevice::Truncate);
    QByteArray block(4 << 20, Qt::Uninitialized);
    QRandomGenerator gen(42);
    for (qint64 left = bytes; left > 0;) {
        gen.fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
        const qint64 n = std::min<qint64>(left, block.size());
        f.write(block.constData(), n);
        left -= n;
    }
}

QString fmt(double v, int prec = 2)
{
    return v < 0 ? QStringLiteral("n/a") : QString::number(v, 'f', prec);
}

double median(QList<double> v)
{
    if (v.isEmpty()) return -1;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// A source tree: sizes 1–200 KiB, skewed to small ones as in a code base with some data files.
quint64 makeSourceTree(const QString &root, int files, int maxKiB)
{
    QRandomGenerator gen(7);
    quint64 total = 0;
    QByteArray block(qsizetype(maxKiB) * 1024, Qt::Uninitialized);
    gen.fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
    for (int i = 0; i < files; ++i) {
        const double r = gen.generateDouble();
        const qint64 size = 1024 + qint64(r * r * (maxKiB - 1) * 1024);
        const QString dir = root + QStringLiteral("/pkg%1/mod%2").arg(i % 20).arg(i % 7);
        QDir().mkpath(dir);
        QFile f(dir + QStringLiteral("/file%1.py").arg(i));
        f.open(QIODevice::WriteOnly);
        f.write(QByteArray::number(i) + block.left(size));
        total += quint64(size);
    }
    return total;
}

// The sync scenario at one link: first sync, no-change re-sync, one edited file; gantry-cli sync
// and rsync -a alternate, each on its own copy of the remote folder.
struct SyncBench
{
    std::function<Run(const QStringList &)> rsync;  // extra args, then src/ dst
    std::function<Run(const QString &dst)> gantry;  // gantry-cli sync src dst
    std::function<void()> release;                  // --sync-hold: ends both tools' held connections
    std::function<void()> forget;                   // drops what gantry-cli remembers sending there
    QString src;
    QString remote;
    int runs = 3;

    void run(const QString &link, QTextStream &o) const
    {
        QList<double> t[6];
        long rssKiB[3] = {0, 0, 0};
        for (int i = 0; i < runs; ++i) {
            discard(remote);
            QDir().mkpath(remote);
            // The remote folder is new: so is the sync (its record of what it sent is stale).
            if (forget) forget();
            const bool gantryFirst = i % 2 == 1; // alternate who goes first
            auto both = [&](int slot) {
                auto r = [&] { t[slot].append(rsync({src + QLatin1Char('/'), remote + QStringLiteral("/rsync/")}).seconds); };
                auto g = [&] {
                    const Run run = gantry(remote + QStringLiteral("/gantry"));
                    t[slot + 1].append(run.status == 0 ? run.seconds : -1);
                    rssKiB[slot / 2] = std::max(rssKiB[slot / 2], run.maxRssKiB);
                };
                if (gantryFirst) { g(); r(); } else { r(); g(); }
            };
            both(0);
            if (release) QThread::msleep(1000); // the held connections settle, as between a user's syncs
            both(2);
            QFile edit(src + QStringLiteral("/pkg3/mod3/file73.py"));
            edit.open(QIODevice::Append);
            edit.write("# edited\n");
            edit.close();
            both(4);
            if (release) release();
        }
        const char *names[] = {"first sync", "no-change re-sync", "one edited file"};
        for (int k = 0; k < 3; ++k) {
            const double r = median(t[2 * k]);
            const double g = median(t[2 * k + 1]);
            o << QStringLiteral("| %1 | sync: %2 | | | %3 | %4 | %5× rsync | %6 MiB |")
                     .arg(link, QLatin1String(names[k]), fmt(r), fmt(g), fmt(r / g, 1))
                     .arg(rssKiB[k] / 1024)
              << Qt::endl;
        }
    }
};

// A remote folder to fetch: sizes 1–120 KB, uniform, in 30 folders.
quint64 makeDownloadTree(const QString &root, int files)
{
    QRandomGenerator gen(11);
    quint64 total = 0;
    QByteArray block(120000, Qt::Uninitialized);
    gen.fillRange(reinterpret_cast<quint32 *>(block.data()), block.size() / 4);
    for (int i = 0; i < files; ++i) {
        const qint64 size = 1000 + qint64(gen.bounded(119001));
        const QString dir = root + QStringLiteral("/d%1").arg(i % 30);
        QDir().mkpath(dir);
        QFile f(dir + QStringLiteral("/f%1.bin").arg(i));
        f.open(QIODevice::WriteOnly);
        f.write(QByteArray::number(i) + block.left(size));
        total += quint64(size);
    }
    return total;
}

// The folder download at one link: gantry-cli download and rsync -a from the host alternate,
// each into a fresh local folder; medians of `runs`.
struct DownloadBench
{
    std::function<Run(const QString &dst)> rsync;  // remote tree → dst
    std::function<Run(const QString &dst)> gantry; // remote tree → dst/
    // The same tree the other way (local copy → remote dst), when set: rsync -a and gantry-cli upload.
    std::function<Run(const QString &src, const QString &dst)> rsyncUp;
    std::function<Run(const QString &src, const QString &dst)> gantryUp;
    // --baseline-cli's upload of the same copy, in the same alternation (before/after side by side).
    std::function<Run(const QString &src, const QString &dst)> baselineUp;
    QString remoteRoot;
    QString localRoot;
    int files = 0;
    int runs = 3;

    int arrived(const QString &dir) const
    {
        int n = 0;
        for (QDirIterator it(dir, QDir::Files, QDirIterator::Subdirectories); it.hasNext(); it.next()) ++n;
        return n;
    }

    void run(const QString &link, QTextStream &o) const
    {
        QList<double> r, g;
        long rssKiB = 0;
        bool ok = true;
        for (int i = 0; i < runs; ++i) {
            const QString rd = localRoot + QStringLiteral("/dl-rsync");
            const QString gd = localRoot + QStringLiteral("/dl-gantry");
            discard(rd);
            discard(gd);
            QDir().mkpath(gd);
            double cpuR = 0, cpuG = 0;
            auto doR = [&] {
                const Run run = rsync(rd);
                r.append(run.seconds);
                cpuR = run.cpuSeconds;
            };
            auto doG = [&] {
                const Run run = gantry(gd + QLatin1Char('/'));
                ok = ok && run.status == 0 && arrived(gd) == files;
                g.append(run.seconds);
                cpuG = run.cpuSeconds;
                rssKiB = std::max(rssKiB, run.maxRssKiB);
            };
            if (i % 2 == 1) { doG(); doR(); } else { doR(); doG(); }
            o << QStringLiteral("#   run %1: rsync %2 s (local CPU %3 s), gantry %4 s (local CPU %5 s)")
                     .arg(i + 1)
                     .arg(fmt(r.last()), fmt(cpuR), fmt(g.last()), fmt(cpuG))
              << Qt::endl;
            if (gantryUp) upload(i, gd + QStringLiteral("/tree"), o);
        }
        const double mr = median(r), mg = median(g);
        o << QStringLiteral("| %1 | download: %2 files | | | %3 | %4%5 | %6× rsync | %7 MiB |")
                 .arg(link).arg(files).arg(fmt(mr), fmt(mg), ok ? QString() : QStringLiteral(" (FAILED)"), fmt(mr / mg, 2))
                 .arg(rssKiB / 1024)
          << Qt::endl;
        if (gantryUp) {
            o << QStringLiteral("| %1 | upload: %2 files | | | %3 | %4%5 | %6× rsync | %7 MiB |")
                     .arg(link).arg(files).arg(fmt(median(ur)), fmt(median(ug)), upOk ? QString() : QStringLiteral(" (FAILED)"),
                                               fmt(median(ur) / median(ug), 2))
                     .arg(upRssKiB / 1024)
              << Qt::endl;
        }
        if (!ub.isEmpty()) {
            o << QStringLiteral("| %1 | upload: %2 files, baseline | | | %3 | %4 | %5× rsync | |")
                     .arg(link).arg(files).arg(fmt(median(ur)), fmt(median(ub)), fmt(median(ur) / median(ub), 2))
              << Qt::endl;
        }
    }

    // The downloaded copy sent back: gantry-cli upload and rsync -a alternate, each into a fresh
    // remote folder.
    void upload(int i, const QString &src, QTextStream &o) const
    {
        const QString rd = remoteRoot + QStringLiteral("/up-rsync");
        const QString gd = remoteRoot + QStringLiteral("/up-gantry");
        discard(rd);
        discard(gd);
        QDir().mkpath(gd);
        auto doR = [&] { ur.append(rsyncUp(src + QLatin1Char('/'), rd).seconds); };
        auto doG = [&] {
            const Run run = gantryUp(src, gd + QLatin1Char('/'));
            upOk = upOk && run.status == 0 && arrived(gd) == files;
            ug.append(run.seconds);
            upRssKiB = std::max(upRssKiB, run.maxRssKiB);
        };
        auto doB = [&] {
            if (!baselineUp) return;
            const QString bd = remoteRoot + QStringLiteral("/up-baseline");
            discard(bd);
            QDir().mkpath(bd);
            const Run run = baselineUp(src, bd + QLatin1Char('/'));
            ub.append(run.status == 0 && arrived(bd) == files ? run.seconds : -1);
        };
        if (i % 2 == 1) { doG(); doB(); doR(); } else { doR(); doB(); doG(); }
        o << QStringLiteral("#   run %1 (upload): rsync %2 s, gantry %3 s (%4× rsync)").arg(i + 1).arg(fmt(ur.last()), fmt(ug.last()), fmt(ur.last() / ug.last()))
          << (ub.isEmpty() ? QString() : QStringLiteral("; baseline gantry %1 s (%2× rsync)").arg(fmt(ub.last()), fmt(ur.last() / ub.last())))
          << Qt::endl;
    }

    mutable QList<double> ur, ug, ub;
    mutable bool upOk = true;
    mutable long upRssKiB = 0;
};

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    qint64 sizeMiB = 1024;
    int files = 20000;
    int fileKiB = 8;
    int scpFiles = 300;
    QList<int> rtts{0, 50, 100};
    bool small = true, large = true, resume = true, syncScenario = false, syncHold = false;
    int syncFiles = 5000;
    int syncRuns = 3;
    int syncMaxKiB = 200;
    bool downloadScenario = false;
    int downloadFiles = 3000;
    int downloadRuns = 3;
    int largeRuns = 1;
    bool largeDownload = false; // --large-download: the single file also comes back, gantry-cli download against scp
    bool otherTools = true;
    bool shellStartupGiven = false; // else the folder and sync scenarios run again with a 1 s login shell
    bool scpLarge = true;    // --no-scp-large: the single-file test runs gantry only (ratios against its direct-link time)
    double directLarge = -1; // the single file's median on the direct link, when it ran
    QString baselineCli; // another gantry-cli (an earlier build) run side by side in the single-file test
    QString parallel;
    QStringList gantryArgs; // passed to every gantry-cli upload, e.g. --no-verify to see what verification costs
    test::SshdFixture::Options sshdOptions;
    for (int i = 0; i < args.size(); ++i) {
        const QString a = args[i];
        const QString v = i + 1 < args.size() ? args[i + 1] : QString();
        if (a == QLatin1String("--size")) sizeMiB = v.toLongLong(), ++i;
        else if (a == QLatin1String("--files")) files = v.toInt(), ++i;
        else if (a == QLatin1String("--file-kib")) fileKiB = v.toInt(), ++i;
        else if (a == QLatin1String("--scp-files")) scpFiles = v.toInt(), ++i;
        else if (a == QLatin1String("--rtts")) {
            rtts.clear();
            for (const QString &r : v.split(QLatin1Char(','))) rtts.append(r.toInt());
            ++i;
        } else if (a == QLatin1String("--parallel")) parallel = v, ++i;
        else if (a == QLatin1String("--gantry-arg")) gantryArgs.append(v), ++i;
        else if (a == QLatin1String("--runs")) largeRuns = std::max(1, v.toInt()), ++i;
        else if (a == QLatin1String("--scp-only")) otherTools = false;
        else if (a == QLatin1String("--no-scp-large")) scpLarge = false, otherTools = false;
        else if (a == QLatin1String("--baseline-cli")) baselineCli = v, ++i;
        else if (a == QLatin1String("--skip-small")) small = false;
        else if (a == QLatin1String("--skip-large")) large = false;
        else if (a == QLatin1String("--large-download")) largeDownload = true;
        else if (a == QLatin1String("--skip-resume")) resume = false;
        else if (a == QLatin1String("--sync")) syncScenario = true;
        else if (a == QLatin1String("--sync-files")) syncFiles = v.toInt(), ++i;
        else if (a == QLatin1String("--sync-runs")) syncRuns = v.toInt(), ++i;
        else if (a == QLatin1String("--sync-max-kib")) syncMaxKiB = std::max(2, v.toInt()), ++i;
        else if (a == QLatin1String("--sync-hold")) syncHold = true;
        else if (a == QLatin1String("--download")) downloadScenario = true;
        else if (a == QLatin1String("--download-files")) downloadFiles = v.toInt(), ++i;
        else if (a == QLatin1String("--download-runs")) downloadRuns = std::max(1, v.toInt()), ++i;
        else if (a == QLatin1String("--shell-startup-ms")) sshdOptions.shellStartupMs = v.toInt(), shellStartupGiven = true, ++i;
        else {
            out << "usage: gantry-bench-transfer [--size MiB] [--files N] [--file-kib K] [--scp-files N] "
                   "[--rtts 0,50,100] [--runs N] [--scp-only] [--no-scp-large] [--baseline-cli PATH] [--parallel N] [--gantry-arg ARG]... [--skip-small] [--skip-large] [--large-download] [--skip-resume] "
                   "[--sync] [--sync-files N] [--sync-runs N] [--sync-max-kib K] [--sync-hold] "
                   "[--download] [--download-files N] [--download-runs N] [--shell-startup-ms MS]\n";
            return 2;
        }
    }
    scpFiles = std::min(scpFiles, files);

    test::SshdFixture sshd;
    if (const QString why = sshd.start(sshdOptions); !why.isEmpty()) {
        out << "cannot start sshd: " << why << Qt::endl;
        return 1;
    }
    QTemporaryDir work;
    QTemporaryDir config;
    QTemporaryDir holdDir; // --sync-hold: the held connections' sockets and ssh's, the bench's own
    if (syncHold) qputenv("XDG_RUNTIME_DIR", QFile::encodeName(holdDir.path()));
    const QString local = work.filePath(QStringLiteral("local"));
    const QString remote = work.filePath(QStringLiteral("remote"));
    QDir().mkpath(local);
    QDir().mkpath(remote);
    g_trash = work.filePath(QStringLiteral("trash"));
    QDir().mkpath(g_trash);
    const QString big = local + QStringLiteral("/big.bin");
    out << "# sshd 127.0.0.1:" << sshd.port() << " (OpenSSH, internal-sftp); user " << sshd.user() << Qt::endl;

    // known_hosts for the sshd port and every relay port.
    QByteArray hostLine;
    {
        QFile f(sshd.knownHostsPath());
        f.open(QIODevice::ReadOnly);
        hostLine = f.readAll().trimmed();
    }
    const QString knownHosts = config.filePath(QStringLiteral("known_hosts"));
    auto addKnown = [&](int port) {
        QFile f(knownHosts);
        f.open(QIODevice::Append);
        const QByteArray line = QByteArray("[127.0.0.1]:") + QByteArray::number(port) + hostLine.mid(hostLine.indexOf(' '));
        f.write(line + '\n');
    };
    addKnown(sshd.port());

    const QString sshOpts = QStringLiteral("-i %1 -o UserKnownHostsFile=%2 -o StrictHostKeyChecking=yes -o BatchMode=yes")
                                .arg(sshd.clientKeyPath(), knownHosts);
    auto sshBase = [&](int port) {
        return QStringList{QStringLiteral("-i"), sshd.clientKeyPath(), QStringLiteral("-o"),
                           QStringLiteral("UserKnownHostsFile=") + knownHosts, QStringLiteral("-o"),
                           QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
                           QStringLiteral("-P"), QString::number(port)};
    };
    const QString user = sshd.user();
    auto scp = [&](int port, const QString &src, const QString &dst, bool recursive) {
        QStringList a{QStringLiteral("scp"), QStringLiteral("-q")};
        if (recursive) a << QStringLiteral("-r");
        a += sshBase(port);
        a << src << QStringLiteral("%1@127.0.0.1:%2").arg(user, dst);
        return runCommand(a);
    };
    auto sftp = [&](int port, const QString &src, const QString &dst, bool recursive) {
        const QString batch = config.filePath(QStringLiteral("batch"));
        QFile f(batch);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(QStringLiteral("put %1 \"%2\" \"%3\"\n").arg(recursive ? QStringLiteral("-r") : QString(), src, dst).toUtf8());
        f.close();
        QStringList a{QStringLiteral("sftp"), QStringLiteral("-q"), QStringLiteral("-b"), batch};
        a += sshBase(port);
        a << QStringLiteral("%1@127.0.0.1").arg(user);
        return runCommand(a);
    };
    auto rsync = [&](int port, const QString &src, const QString &dst) {
        return runCommand({QStringLiteral("rsync"), QStringLiteral("-a"), QStringLiteral("-e"),
                           QStringLiteral("ssh %1 -p %2").arg(sshOpts).arg(port), src,
                           QStringLiteral("%1@127.0.0.1:%2").arg(user, dst)});
    };
    auto gantry = [&](int port, const QString &src, const QString &dst, const std::function<bool(const QByteArray &)> &onLine = {},
                      const QString &cli = QStringLiteral(GANTRY_CLI_PATH)) {
        QStringList a{cli, QStringLiteral("--config-dir"), config.path(), QStringLiteral("--json"),
                      QStringLiteral("upload"), QStringLiteral("-i"), sshd.clientKeyPath(), QStringLiteral("--known-hosts"),
                      knownHosts, QStringLiteral("--on-conflict"), QStringLiteral("overwrite"), QStringLiteral("--retries"),
                      QStringLiteral("0")};
        if (!parallel.isEmpty()) a << QStringLiteral("--parallel") << parallel;
        a += gantryArgs;
        a << src << QStringLiteral("%1@127.0.0.1:%2:%3").arg(user).arg(port).arg(dst);
        return runCommand(a, onLine ? onLine : [](const QByteArray &) { return false; });
    };
    // Large copies are deleted rather than kept in the trash: gigabytes of their pages left in the
    // page cache made later runs reclaim memory as they went (half the CPU of a run in rusage).
    // The last run's dirty pages are written back before the next run starts, not during it (on a
    // 2-core VM writeback of 1 GiB costs a run up to a second, whichever tool it lands on).
    auto clean = [&] {
        for (const QFileInfo &f : QDir(remote).entryInfoList(QDir::Files)) {
            if (f.size() >= 64ll * 1024 * 1024) QFile::remove(f.filePath());
        }
        discard(remote);
        QDir().mkpath(remote);
        ::sync();
    };

    struct Row
    {
        QString link, test, scp, sftp, rsync, gantry, ratio, rss;
    };
    QList<Row> rows;
    auto printRow = [&](const Row &r) {
        out << QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 | %7 | %8 |")
                   .arg(r.link, r.test, r.scp, r.sftp, r.rsync, r.gantry, r.ratio, r.rss)
            << Qt::endl;
    };
    out << "| link | test | scp s | sftp s | rsync s | gantry s | gantry vs scp | gantry peak RSS |" << Qt::endl;
    out << "|---|---|---|---|---|---|---|---|" << Qt::endl;

    if (large) makeRandomFile(big, sizeMiB * 1024 * 1024);
    const QString tree = local + QStringLiteral("/tree");
    const QString treeSubset = local + QStringLiteral("/subset");
    if (small) {
        QDir().mkpath(tree);
        QDir().mkpath(treeSubset);
        QByteArray data(fileKiB * 1024, 'x');
        for (int i = 0; i < files; ++i) {
            const QString name = QStringLiteral("/d%1/f%2.bin").arg(i / 1000).arg(i);
            QDir().mkpath(tree + QStringLiteral("/d%1").arg(i / 1000));
            data.replace(0, 8, QByteArray::number(i).rightJustified(8, '0'));
            QFile f(tree + name);
            f.open(QIODevice::WriteOnly);
            f.write(data);
            if (i < scpFiles) {
                QDir().mkpath(treeSubset + QStringLiteral("/d%1").arg(i / 1000));
                QFile::copy(tree + name, treeSubset + name);
            }
        }
    }

    const QString source = local + QStringLiteral("/source");
    if (syncScenario) {
        const quint64 bytes = makeSourceTree(source, syncFiles, syncMaxKiB);
        out << "# sync scenario: " << syncFiles << " files, " << bytes / (1024 * 1024) << " MiB, median of " << syncRuns
            << " alternating runs" << Qt::endl;
    }

    // The download scenario's tree lives beside the remote folder, which each test cleans.
    const QString downloadSource = remote + QStringLiteral("-dltree/tree");
    if (downloadScenario) {
        const quint64 bytes = makeDownloadTree(downloadSource, downloadFiles);
        out << "# download scenario: " << downloadFiles << " files, " << bytes / 1000000 << " MB, median of " << downloadRuns
            << " alternating runs" << Qt::endl;
    }

    for (int rtt : rtts) {
        Relay relay;
        int port = sshd.port();
        if (rtt > 0) {
            if (!relay.start(sshd.port(), rtt / 2, config.path())) {
                out << "cannot start the relay" << Qt::endl;
                return 1;
            }
            port = relay.port;
            addKnown(port);
        }
        const QString link = rtt == 0 ? QStringLiteral("direct") : QStringLiteral("%1 ms RTT").arg(rtt);
        if (large) {
            // scp and gantry alternate who goes first, run after run (the shared machine's load
            // drifts); sftp and rsync once, in the first run.
            QList<double> ts, tf, tr, tg, tb;
            double cpuS = 0, cpuG = 0;
            long rssKiB = 0;
            bool ok = true;
            for (int i = 0; i < largeRuns; ++i) {
                auto doScp = [&] {
                    if (!scpLarge) {
                        ts.append(qQNaN());
                        return;
                    }
                    clean();
                    const Run r = scp(port, big, remote + QStringLiteral("/scp.bin"), false);
                    ts.append(r.seconds);
                    cpuS = r.cpuSeconds;
                };
                auto doGantry = [&] {
                    clean();
                    const Run g = gantry(port, big, remote + QLatin1Char('/'));
                    ok = ok && g.status == 0
                         && transfer::sha256OfFile(big).valueOr({}) == transfer::sha256OfFile(remote + QStringLiteral("/big.bin")).valueOr({"x"});
                    tg.append(g.seconds);
                    cpuG = g.cpuSeconds;
                    rssKiB = std::max(rssKiB, g.maxRssKiB);
                };
                auto doBaseline = [&] {
                    if (baselineCli.isEmpty()) return;
                    clean();
                    const Run b = gantry(port, big, remote + QLatin1Char('/'), {}, baselineCli);
                    tb.append(b.status == 0 ? b.seconds : -1);
                };
                if (i % 2 == 1) { doGantry(); doBaseline(); doScp(); } else { doScp(); doBaseline(); doGantry(); }
                if (i == 0 && otherTools) {
                    clean();
                    tf.append(sftp(port, big, remote + QStringLiteral("/sftp.bin"), false).seconds);
                    clean();
                    tr.append(rsync(port, big, remote + QStringLiteral("/rsync.bin")).seconds);
                }
                {
                    out << QStringLiteral("#   %1, run %2: scp %3 s (local CPU %4 s), gantry %5 s (local CPU %6 s): %7×")
                               .arg(link).arg(i + 1).arg(fmt(ts.last()), fmt(cpuS), fmt(tg.last()), fmt(cpuG), fmt(ts.last() / tg.last()))
                        << (tb.isEmpty() ? QString() : QStringLiteral("; baseline gantry %1 s (%2×)").arg(fmt(tb.last()), fmt(ts.last() / tb.last())))
                        << Qt::endl;
                }
            }
            const double s = median(ts), g = median(tg);
            Row row{link, QStringLiteral("1 file, %1 MiB%2").arg(sizeMiB).arg(largeRuns > 1 ? QStringLiteral(", median of %1").arg(largeRuns) : QString()),
                    fmt(s), fmt(median(tf)), fmt(median(tr)), fmt(g) + (ok ? QString() : QStringLiteral(" (FAILED)")),
                    QStringLiteral("%1×").arg(fmt(s / g)), QStringLiteral("%1 MiB").arg(rssKiB / 1024)};
            printRow(row);
            rows.append(row);
            if (rtt == 0) directLarge = g;
            if (rtt > 0 && directLarge > 0) {
                out << QStringLiteral("#   %1: gantry %2 s, %3× the direct link's %4 s").arg(link, fmt(g), fmt(g / directLarge), fmt(directLarge))
                    << Qt::endl;
            }
            if (!tb.isEmpty()) {
                out << QStringLiteral("#   %1, baseline %2: median %3 s, %4× scp").arg(link, baselineCli, fmt(median(tb)), fmt(s / median(tb)))
                    << Qt::endl;
            }
        }
        if (large && largeDownload) {
            // The same file the other way: from a copy beside the remote folder (which clean()
            // empties) into a local folder emptied before each run; scp and gantry alternate.
            const QString source = remote + QStringLiteral("-dlbig/big.bin");
            const QString into = local + QStringLiteral("/down");
            if (!QFileInfo::exists(source)) QDir().mkpath(QFileInfo(source).path()), QFile::copy(big, source);
            const auto fresh = [&] { QDir(into).removeRecursively(), QDir().mkpath(into); };
            QList<double> ts, tg;
            long rssKiB = 0;
            bool ok = true;
            for (int i = 0; i < largeRuns; ++i) {
                auto doScp = [&] {
                    fresh();
                    QStringList a{QStringLiteral("scp"), QStringLiteral("-q")};
                    a += sshBase(port);
                    a << QStringLiteral("%1@127.0.0.1:%2").arg(user, source) << into + QLatin1Char('/');
                    ts.append(runCommand(a).seconds);
                };
                auto doGantry = [&] {
                    fresh();
                    const Run g = runCommand({QStringLiteral(GANTRY_CLI_PATH), QStringLiteral("--config-dir"), config.path(),
                                              QStringLiteral("download"), QStringLiteral("-i"), sshd.clientKeyPath(),
                                              QStringLiteral("--known-hosts"), knownHosts, QStringLiteral("--retries"), QStringLiteral("0"),
                                              QStringLiteral("%1@127.0.0.1:%2:%3").arg(user).arg(port).arg(source), into + QLatin1Char('/')});
                    ok = ok && g.status == 0
                         && transfer::sha256OfFile(big).valueOr({}) == transfer::sha256OfFile(into + QStringLiteral("/big.bin")).valueOr({"x"});
                    tg.append(g.seconds);
                    rssKiB = std::max(rssKiB, g.maxRssKiB);
                };
                if (i % 2 == 1) { doGantry(); doScp(); } else { doScp(); doGantry(); }
                out << QStringLiteral("#   %1, download run %2: scp %3 s, gantry %4 s: %5×")
                           .arg(link).arg(i + 1).arg(fmt(ts.last()), fmt(tg.last()), fmt(ts.last() / tg.last()))
                    << Qt::endl;
            }
            fresh();
            const double s = median(ts), g = median(tg);
            Row row{link, QStringLiteral("1 file down, %1 MiB%2").arg(sizeMiB).arg(largeRuns > 1 ? QStringLiteral(", median of %1").arg(largeRuns) : QString()),
                    fmt(s), QStringLiteral("n/a"), QStringLiteral("n/a"), fmt(g) + (ok ? QString() : QStringLiteral(" (FAILED)")),
                    QStringLiteral("%1×").arg(fmt(s / g)), QStringLiteral("%1 MiB").arg(rssKiB / 1024)};
            printRow(row);
            rows.append(row);
        }
        if (small) {
            // Per-file tools: full set at no delay, the subset (scaled) through the relay.
            const bool subset = rtt > 0 && scpFiles < files;
            const QString src = subset ? treeSubset : tree;
            const double scale = subset ? double(files) / scpFiles : 1.0;
            clean();
            const Run s = scp(port, src, remote + QStringLiteral("/scp"), true);
            clean();
            const Run f = sftp(port, src, remote + QStringLiteral("/sftp"), true);
            clean();
            const Run r = rsync(port, src, remote + QStringLiteral("/rsync"));
            clean();
            const Run g = gantry(port, tree, remote + QLatin1Char('/'));
            int arrived = 0;
            for (QDirIterator it(remote + QStringLiteral("/tree"), QDir::Files, QDirIterator::Subdirectories); it.hasNext(); it.next()) ++arrived;
            Row row{link, QStringLiteral("%1 × %2 KiB%3").arg(files).arg(fileKiB).arg(subset ? QStringLiteral(" (*)") : QString()),
                    fmt(s.seconds * scale), fmt(f.seconds * scale), fmt(r.seconds * scale),
                    fmt(g.seconds) + (g.status == 0 && arrived == files ? QString() : QStringLiteral(" (FAILED %1, %2 files)").arg(g.status).arg(arrived)),
                    QStringLiteral("%1×").arg(fmt(s.seconds * scale / g.seconds, 1)), QStringLiteral("%1 MiB").arg(g.maxRssKiB / 1024)};
            printRow(row);
            rows.append(row);
        }
        if (syncScenario) {
            SyncBench bench;
            bench.src = source;
            bench.remote = remote;
            bench.runs = syncRuns;
            const QString master = syncHold ? QStringLiteral(" -o ControlMaster=auto -o ControlPath=%1/cm-%C -o ControlPersist=120")
                                                  .arg(holdDir.path())
                                            : QString();
            bench.rsync = [&](const QStringList &a) {
                return runCommand(QStringList{QStringLiteral("rsync"), QStringLiteral("-a"), QStringLiteral("-e"),
                                              QStringLiteral("ssh %1%2 -p %3").arg(sshOpts, master).arg(port), a[0],
                                              QStringLiteral("%1@127.0.0.1:%2").arg(user, a[1])});
            };
            if (syncHold) {
                bench.release = [&] {
                    runCommand(QStringList{QStringLiteral(GANTRY_CLI_PATH), QStringLiteral("--config-dir"), config.path(),
                                           QStringLiteral("sync"), QStringLiteral("--release")});
                    runCommand(QString(QStringLiteral("ssh ") + sshOpts + master).split(QLatin1Char(' '), Qt::SkipEmptyParts)
                               + QStringList{QStringLiteral("-p"), QString::number(port), QStringLiteral("-O"), QStringLiteral("exit"),
                                             QStringLiteral("%1@127.0.0.1").arg(user)});
                };
            }
            bench.forget = [&] { QDir(config.filePath(QStringLiteral("sync"))).removeRecursively(); };
            bench.gantry = [&](const QString &dst) {
                QStringList a{QStringLiteral(GANTRY_CLI_PATH), QStringLiteral("--config-dir"), config.path(),
                              QStringLiteral("sync"), QStringLiteral("-i"), sshd.clientKeyPath(), QStringLiteral("--known-hosts"),
                              knownHosts};
                if (!parallel.isEmpty()) a << QStringLiteral("--parallel") << parallel;
                if (syncHold) a << QStringLiteral("--hold") << QStringLiteral("120");
                a << source << QStringLiteral("%1@127.0.0.1:%2:%3").arg(user).arg(port).arg(dst);
                return runCommand(a);
            };
            bench.run(link, out);
        }
        if (downloadScenario) {
            DownloadBench bench;
            bench.localRoot = local;
            bench.files = downloadFiles;
            bench.runs = downloadRuns;
            bench.rsync = [&](const QString &dst) {
                return runCommand({QStringLiteral("rsync"), QStringLiteral("-a"), QStringLiteral("-e"),
                                   QStringLiteral("ssh %1 -p %2").arg(sshOpts).arg(port),
                                   QStringLiteral("%1@127.0.0.1:%2/").arg(user, downloadSource), dst});
            };
            bench.gantry = [&](const QString &dst) {
                QStringList a{QStringLiteral(GANTRY_CLI_PATH), QStringLiteral("--config-dir"), config.path(),
                              QStringLiteral("download"), QStringLiteral("-i"), sshd.clientKeyPath(), QStringLiteral("--known-hosts"),
                              knownHosts, QStringLiteral("--on-conflict"), QStringLiteral("overwrite"), QStringLiteral("--retries"),
                              QStringLiteral("0")};
                if (!parallel.isEmpty()) a << QStringLiteral("--parallel") << parallel;
                a << QStringLiteral("%1@127.0.0.1:%2:%3").arg(user).arg(port).arg(downloadSource) << dst;
                return runCommand(a);
            };
            bench.remoteRoot = remote;
            bench.rsyncUp = [&](const QString &src, const QString &dst) { return rsync(port, src, dst); };
            bench.gantryUp = [&](const QString &src, const QString &dst) { return gantry(port, src, dst); };
            if (!baselineCli.isEmpty())
                bench.baselineUp = [&](const QString &src, const QString &dst) { return gantry(port, src, dst, {}, baselineCli); };
            bench.run(link, out);
        }
        relay.stop();
    }

    if (resume && large) {
        // Killed at 50 % (SIGKILL, no chance to tidy up) and run again; bytes counted by the relay.
        Relay relay;
        const int rtt = rtts.contains(50) ? 50 : (rtts.isEmpty() ? 0 : rtts.last());
        relay.start(sshd.port(), std::max(rtt / 2, 0), config.path());
        addKnown(relay.port);
        clean();
        const quint64 size = quint64(sizeMiB) * 1024 * 1024;
        const Run first = gantry(relay.port, big, remote + QLatin1Char('/'), [&](const QByteArray &line) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            return o.value(QStringLiteral("event")).toString() == QLatin1String("progress")
                   && quint64(o.value(QStringLiteral("bytes")).toInteger()) >= size / 2;
        });
        QJsonObject summary;
        const Run second = gantry(relay.port, big, remote + QLatin1Char('/'), [&](const QByteArray &line) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QStringLiteral("event")).toString() == QLatin1String("summary")) summary = o;
            return false;
        });
        const quint64 wire = relay.stop();
        const bool match = transfer::sha256OfFile(big).valueOr({}) == transfer::sha256OfFile(remote + QStringLiteral("/big.bin")).valueOr({"x"});
        out << Qt::endl
            << "resume at " << rtt << " ms RTT: first run killed (status " << first.status << ") after "
            << fmt(first.seconds) << " s; second run " << fmt(second.seconds) << " s, status " << second.status
            << ", resumed=" << (summary.value(QStringLiteral("resumed")).toBool() ? "yes" : "no")
            << "; client->server bytes through the relay (both runs, SSH framing and encryption included): " << wire
            << " = " << fmt(double(wire) / double(size), 3) << "× the file; SHA-256 " << (match ? "matches" : "DIFFERS")
            << "; peak RSS " << second.maxRssKiB / 1024 << " MiB" << Qt::endl;
    }
    if ((syncScenario || downloadScenario) && !shellStartupGiven) {
        // GPU images run conda or pyenv init in their shells' start-up files: the same scenarios
        // with every remote shell waiting a second first, in a process (and sshd) of their own.
        out << Qt::endl << "# the folder and sync scenarios again, every remote shell starting in 1 s (--shell-startup-ms 1000)" << Qt::endl;
        QStringList again{app.applicationFilePath()};
        again << app.arguments().mid(1) << QStringLiteral("--skip-small") << QStringLiteral("--skip-large")
              << QStringLiteral("--skip-resume") << QStringLiteral("--shell-startup-ms") << QStringLiteral("1000");
        runCommand(again, [](const QByteArray &line) {
            const QByteArray text = line.endsWith('\n') ? line.chopped(1) : line;
            if (!text.startsWith("(*)") && !text.startsWith("scp is") && !text.isEmpty()) out << text << Qt::endl;
            return false;
        });
    }
    out << Qt::endl
        << "(*) through the relay, scp/sftp/rsync ran on the first " << scpFiles
        << " files and their time is scaled linearly to the full count (per-file round trips dominate)." << Qt::endl
        << "scp is OpenSSH 9.2 scp (SFTP protocol); rsync -a over ssh; gantry = gantry-cli upload (SHA-256 verified)." << Qt::endl;
    return 0;
}
