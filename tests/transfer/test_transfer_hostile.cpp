// Transfers against a host that lies or breaks at the worst moment (issue 12, items 2, 3, 4, 12,
// 13, 14): a real sshd whose PATH starts with a crafted `tar`, folder names that look like
// options, sizes no disk holds, crashes right after a chunk was journaled, two transfers into one
// destination, a file that shrinks inside a batch the runner was told to expect; a folder holding
// "x" and "x.partial" on either side (issue 31, item 3).

#include "clirun.h"
#include "tests/support/stagingfile.h"
#include "sshdfixture.h"

#include "core/transfer/batchrunner.h"
#include "core/transfer/journal.h"
#include "core/transfer/localwrite.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/sha256.h"
#include "core/transfer/tarbatch.h"
#include "core/transfer/transferjob.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <thread>
#include <csignal>
#include <unistd.h>

using namespace gantry;
using namespace gantry::transfer;

namespace {
using gantry::test::writeRandom;

QByteArray hashOf(const QString &path)
{
    return sha256OfFile(path).valueOr(QByteArray());
}

// The crafted tar: passes through unless <bin>/mode says otherwise.
const char kFakeTar[] = R"sh(#!/bin/sh
mode=$(cat "$(dirname "$0")/mode" 2>/dev/null)
real=/usr/bin/tar; [ -x "$real" ] || real=/bin/tar
case "$mode:$1" in
  sibling:-c) exec "$real" -c -f - -- loot lootSIBLING ;;
  dotdot:-c) exec "$real" -c -f - --transform 's,^loot/a,loot/../escaped,' -- loot ;;
  truncate:-x) head -c 300000 | "$real" "$@"; exit 1 ;;
esac
exec "$real" "$@"
)sh";

// A head that reads ahead on a pipe (as some do) in mode greedyhead: the batch runner's frames
// would be eaten, so the host must not be given one.
const char kFakeHead[] = R"sh(#!/bin/sh
mode=$(cat "$(dirname "$0")/mode" 2>/dev/null)
real=/usr/bin/head; [ -x "$real" ] || real=/bin/head
[ "$mode" = greedyhead ] && { cat | "$real" "$@"; exit; }
exec "$real" "$@"
)sh";
} // namespace

class TestTransferHostile : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_bin;
    QTemporaryDir m_local;
    QTemporaryDir m_remote;
    QTemporaryDir m_config;
    std::unique_ptr<JournalStore> m_journals;

    void setMode(const QByteArray &mode)
    {
        QFile f(m_bin.filePath(QStringLiteral("mode")));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(mode);
    }

    Result<TransferOutcome> run(TransferRequest req, const ProgressSink &sink = {})
    {
        req.host = QStringLiteral("fixture");
        std::atomic_bool none{false};
        TransferContext ctx(makeSessionFactory(m_sshd.target(), m_sshd.connectOptions()), &none, m_journals.get(), req.host,
                            req.options, sink);
        return runTransfer(req, ctx);
    }
    static TransferRequest request(Direction d, const QString &local, const QString &remote, ConflictPolicy p)
    {
        TransferRequest r;
        r.direction = d;
        r.localPath = local;
        r.remotePath = remote;
        r.options.onConflict = p;
        return r;
    }

    QString hostSpec() const { return QStringLiteral("%1@127.0.0.1:%2").arg(m_sshd.user()).arg(m_sshd.port()); }
    QStringList cliArgs(const QStringList &args) const
    {
        return test::cliArguments(m_config.path(), args + QStringList{QStringLiteral("-i"), m_sshd.clientKeyPath(),
                                                                      QStringLiteral("--known-hosts"), m_sshd.knownHostsPath()});
    }
    // Runs gantry-cli; killAfterMs > 0 sends SIGKILL then (if still running). Returns the exit code
    // (137 for a kill or the crash hook).
    int cli(const QStringList &args, int killAfterMs = 0, const QByteArray &exitAfterChunks = {})
    {
        QProcess p;
        test::RunOptions options;
        if (!exitAfterChunks.isEmpty()) options.env.insert(QStringLiteral("GANTRY_TEST_EXIT_AFTER_CHUNKS"), QString::fromLatin1(exitAfterChunks));
        // The crash runs use the test build of gantry-cli that has the fault point.
        test::startProgram(p, exitAfterChunks.isEmpty() ? QStringLiteral(GANTRY_CLI_PATH) : QStringLiteral(GANTRY_CLI_FAULTS_PATH), cliArgs(args),
                           options);
        if (killAfterMs > 0 && !p.waitForFinished(killAfterMs)) ::kill(pid_t(p.processId()), SIGKILL);
        if (!p.waitForFinished(60000)) return -1;
        const test::CliRun run = test::finish(p);
        const int code = p.exitStatus() == QProcess::CrashExit ? 137 : run.code;
        // A run not meant to be killed that fails says why: a flaky failure is readable in CI's log.
        if (code != 0 && killAfterMs == 0 && exitAfterChunks.isEmpty()) qWarning("%s", run.err.constData());
        return code;
    }

    // Every chunk a journal counts as done holds the source's bytes in `partial`.
    void checkJournaledChunks(const QString &source, const QString &partial)
    {
        QDirIterator it(m_config.filePath(QStringLiteral("transfers")), {QStringLiteral("*.json")}, QDir::Files);
        int checked = 0;
        while (it.hasNext()) {
            QFile jf(it.next());
            QVERIFY(jf.open(QIODevice::ReadOnly));
            const QJsonObject j = QJsonDocument::fromJson(jf.readAll()).object();
            if (j.value(QStringLiteral("kind")).toString() != QLatin1String("file")) continue;
            const qint64 chunk = j.value(QStringLiteral("chunkSize")).toInteger();
            const QJsonArray chunks = j.value(QStringLiteral("chunks")).toArray();
            QFile a(source), b(partial);
            QVERIFY(a.open(QIODevice::ReadOnly));
            QVERIFY2(b.open(QIODevice::ReadOnly), qPrintable(partial));
            for (int i = 0; i < chunks.size(); ++i) {
                if (chunks[i].toString().isEmpty()) continue;
                a.seek(i * chunk);
                b.seek(i * chunk);
                QVERIFY2(a.read(chunk) == b.read(chunk), qPrintable(QStringLiteral("chunk %1 journaled but not in the file").arg(i)));
                ++checked;
            }
        }
        QVERIFY2(checked > 0, "no journaled chunk to check");
    }

private slots:
    void initTestCase()
    {
        for (const auto &[name, script] : {std::pair{"tar", kFakeTar}, std::pair{"head", kFakeHead}}) {
            const QString path = m_bin.filePath(QString::fromLatin1(name));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(script);
            f.close();
            QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        }
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        const QString why = m_sshd.start(options);
        if (!why.isEmpty()) QSKIP(qPrintable(why));
        m_journals = std::make_unique<JournalStore>(m_config.path());
    }

    void init() { setMode({}); }

    // Item 2: "cd PARENT && find -delete …" emptied the parent folder on the host.
    void folderNamedLikeAnOptionIsAPath()
    {
        const QString parent = m_remote.filePath(QStringLiteral("opt"));
        writeRandom(parent + QStringLiteral("/keep.bin"), 1000, 1);
        writeRandom(parent + QStringLiteral("/-delete/inside.bin"), 2000, 2);
        auto r = run(request(Direction::Download, m_local.filePath(QStringLiteral("opt")) + QLatin1Char('/'),
                             parent + QStringLiteral("/-delete"), ConflictPolicy::Ask));
        QVERIFY(QFileInfo::exists(parent + QStringLiteral("/keep.bin")));
        QVERIFY(QFileInfo::exists(parent + QStringLiteral("/-delete/inside.bin")));
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->verified);
        QCOMPARE(hashOf(m_local.filePath(QStringLiteral("opt/-delete/inside.bin"))), hashOf(parent + QStringLiteral("/-delete/inside.bin")));
    }

    // Item 3: entries outside the requested name never land beside the destination.
    void tarEntriesOutsideTheFolderAreRefused()
    {
        const QString parent = m_remote.filePath(QStringLiteral("tarp"));
        writeRandom(parent + QStringLiteral("/loot/a"), 500, 3);
        writeRandom(parent + QStringLiteral("/lootSIBLING/x"), 500, 4);
        const QString dest = m_local.filePath(QStringLiteral("tard"));
        for (const QByteArray &mode : {QByteArray("sibling"), QByteArray("dotdot")}) {
            setMode(mode);
            auto r = run(request(Direction::Download, dest + QLatin1Char('/'), parent + QStringLiteral("/loot"),
                                 ConflictPolicy::Overwrite));
            QVERIFY2(!r, mode.constData());
            QCOMPARE(r.error().code, ErrorCode::RemoteFailed);
            QVERIFY2(r.error().message.contains(QStringLiteral("outside")), qPrintable(r.error().message));
            QVERIFY(!QFileInfo::exists(dest + QStringLiteral("/lootSIBLING")));
            QVERIFY(!QFileInfo::exists(dest + QStringLiteral("/escaped")));
        }
        setMode({});
        // A remote path ending in ".." means the folder it resolves to, under DEST.
        auto up = run(request(Direction::Download, dest + QLatin1Char('/'), parent + QStringLiteral("/loot/.."),
                              ConflictPolicy::Overwrite));
        QVERIFY2(up, up ? "" : qPrintable(up.error().message));
        QCOMPARE(up->destination, dest + QStringLiteral("/tarp"));
        QVERIFY(QFileInfo::exists(dest + QStringLiteral("/tarp/loot/a")));
        auto root = run(request(Direction::Download, dest + QLatin1Char('/'), QStringLiteral("/"), ConflictPolicy::Overwrite));
        QVERIFY(!root);
        QCOMPARE(root.error().code, ErrorCode::Usage);
        QCOMPARE(localPathForEntry(QStringLiteral("loot/a/../../x"), QStringLiteral("loot"), dest), std::nullopt);
        QCOMPARE(localPathForEntry(QStringLiteral("loot/./x"), QStringLiteral("loot"), dest), std::nullopt);
        QCOMPARE(localPathForEntry(QStringLiteral("loot/b/x"), QStringLiteral("loot"), dest), dest + QStringLiteral("/b/x"));
    }

    // Item 3: a symlink planted at a file's place, or where an older Gantry staged it, is never
    // written through: the file is staged in a folder made for the batch, and the rename replaces
    // the link itself.
    void symlinkAtTheDestinationIsNotFollowed()
    {
        const QString parent = m_remote.filePath(QStringLiteral("linkp"));
        writeRandom(parent + QStringLiteral("/data/f.bin"), 300, 5);
        writeRandom(parent + QStringLiteral("/data/g.bin"), 300, 7);
        const QString outside = m_local.filePath(QStringLiteral("outside.bin"));
        writeRandom(outside, 10, 6);
        const QByteArray before = hashOf(outside);
        const QString dest = m_local.filePath(QStringLiteral("linkd"));
        QDir().mkpath(dest + QStringLiteral("/data"));
        QVERIFY(QFile::link(outside, dest + QStringLiteral("/data/f.bin.gantry-partial")));
        QVERIFY(QFile::link(outside, dest + QStringLiteral("/data/g.bin")));
        auto r = run(request(Direction::Download, dest + QLatin1Char('/'), parent + QStringLiteral("/data"),
                             ConflictPolicy::Overwrite));
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QCOMPARE(hashOf(outside), before);
        QCOMPARE(hashOf(dest + QStringLiteral("/data/f.bin")), hashOf(parent + QStringLiteral("/data/f.bin")));
        QVERIFY(!QFileInfo(dest + QStringLiteral("/data/g.bin")).isSymLink());
        QCOMPARE(hashOf(dest + QStringLiteral("/data/g.bin")), hashOf(parent + QStringLiteral("/data/g.bin")));
    }

    // Item 4: a size no local disk holds is refused before anything is written.
    void sizeBeyondTheLocalDiskIsRefused()
    {
        const QString huge = m_remote.filePath(QStringLiteral("huge.bin"));
        QFile f(huge);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(qint64(4) << 40)); // 4 TiB, sparse
        f.close();
        const QString dest = m_local.filePath(QStringLiteral("huge"));
        auto r = run(request(Direction::Download, dest + QLatin1Char('/'), huge, ConflictPolicy::Overwrite));
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::DiskFull);
        QVERIFY2(r.error().message.contains(QStringLiteral("Not enough space")), qPrintable(r.error().message));
        QVERIFY(gantry::testsupport::stagingFileOf(dest + QStringLiteral("/huge.bin")).isEmpty());
        QFile::remove(huge);

        // 2^53 bytes (the journal's chunk count overflowed an int): needs a filesystem that holds it.
        const QString mountPoint = m_remote.filePath(QStringLiteral("big-fs"));
        QDir().mkpath(mountPoint);
        if (QProcess::execute(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                                        QStringLiteral("size=1m"), QStringLiteral("tmpfs"), mountPoint}) != 0) {
            QSKIP("cannot mount a tmpfs here (needs root): the 2^53-byte case is untested");
        }
        struct Unmount
        {
            QString path;
            ~Unmount() { QProcess::execute(QStringLiteral("umount"), {path}); }
        } unmount{mountPoint};
        QFile g(mountPoint + QStringLiteral("/p53.bin"));
        QVERIFY(g.open(QIODevice::WriteOnly));
        QVERIFY(g.resize(qint64(1) << 53));
        g.close();
        auto p53 = run(request(Direction::Download, dest + QLatin1Char('/'), g.fileName(), ConflictPolicy::Overwrite));
        QVERIFY(!p53);
        QCOMPARE(p53.error().code, ErrorCode::DiskFull);
    }

    // Issue 31.3: a folder holding "x" and "x.partial" (a user's file, or what an earlier version
    // left) on either side. Uploading and downloading "x" leaves "x.partial" as it was: the
    // staging name of one file is never the name of another, and nothing of the staging stays.
    void singleFileStagingLeavesNamesakesAlone()
    {
        const QString remoteDir = m_remote.filePath(QStringLiteral("namesakes"));
        writeRandom(remoteDir + QStringLiteral("/x"), 3 * 1024 * 1024 + 11, 31);
        writeRandom(remoteDir + QStringLiteral("/x.partial"), 5 * 1024 * 1024 + 7, 32);
        const QByteArray remoteNamesake = hashOf(remoteDir + QStringLiteral("/x.partial"));
        const QString localDir = m_local.filePath(QStringLiteral("namesakes"));
        writeRandom(localDir + QStringLiteral("/x"), 6 * 1024 * 1024 + 5, 33);
        writeRandom(localDir + QStringLiteral("/x.partial"), 2 * 1024 * 1024 + 3, 34);
        const QByteArray localNamesake = hashOf(localDir + QStringLiteral("/x.partial"));
        const QByteArray sent = hashOf(localDir + QStringLiteral("/x"));

        auto up = run(request(Direction::Upload, localDir + QStringLiteral("/x"), remoteDir + QLatin1Char('/'), ConflictPolicy::Overwrite));
        QVERIFY2(up, up ? "" : qPrintable(up.error().message));
        QVERIFY(up->verified);
        QCOMPARE(hashOf(remoteDir + QStringLiteral("/x")), sent);
        QCOMPARE(hashOf(remoteDir + QStringLiteral("/x.partial")), remoteNamesake);
        QVERIFY(gantry::testsupport::stagingFileOf(remoteDir + QStringLiteral("/x")).isEmpty());

        auto down = run(request(Direction::Download, localDir + QLatin1Char('/'), remoteDir + QStringLiteral("/x"), ConflictPolicy::Overwrite));
        QVERIFY2(down, down ? "" : qPrintable(down.error().message));
        QVERIFY(down->verified);
        QCOMPARE(hashOf(localDir + QStringLiteral("/x")), sent);
        QCOMPARE(hashOf(localDir + QStringLiteral("/x.partial")), localNamesake);
        QVERIFY(gantry::testsupport::stagingFileOf(localDir + QStringLiteral("/x")).isEmpty());
        QCOMPARE(QDir(localDir).entryList(QDir::Files | QDir::Hidden).size(), 2);
        QCOMPARE(QDir(remoteDir).entryList(QDir::Files | QDir::Hidden).size(), 2);
    }

    // Item 12: killed right after a chunk was journaled, every journaled byte is in the file, and
    // the resumed download is intact.
    void crashRightAfterAJournaledChunk()
    {
        const QString src = m_remote.filePath(QStringLiteral("crash/down.bin"));
        writeRandom(src, 20 * 1024 * 1024 + 777, 7);
        const QString dest = m_local.filePath(QStringLiteral("crash"));
        QDir().mkpath(dest);
        const QStringList down{QStringLiteral("download"), QStringLiteral("--parallel"), QStringLiteral("1"),
                               QStringLiteral("--on-conflict"), QStringLiteral("resume"), hostSpec() + QLatin1Char(':') + src,
                               dest + QLatin1Char('/')};
        QCOMPARE(cli(down, 0, "2"), 137);
        checkJournaledChunks(src, gantry::testsupport::stagingFileOf(dest + QStringLiteral("/down.bin")));
        QCOMPARE(cli(down), 0);
        QCOMPARE(hashOf(dest + QStringLiteral("/down.bin")), hashOf(src));

        const QString up = m_local.filePath(QStringLiteral("crash/up.bin"));
        writeRandom(up, 20 * 1024 * 1024 + 333, 8);
        const QString remoteDir = m_remote.filePath(QStringLiteral("crashup"));
        const QStringList upload{QStringLiteral("upload"), QStringLiteral("--parallel"), QStringLiteral("1"),
                                 QStringLiteral("--on-conflict"), QStringLiteral("resume"), up,
                                 hostSpec() + QLatin1Char(':') + remoteDir + QLatin1Char('/')};
        QCOMPARE(cli(upload, 0, "2"), 137);
        checkJournaledChunks(up, gantry::testsupport::stagingFileOf(remoteDir + QStringLiteral("/up.bin")));
        QCOMPARE(cli(upload), 0);
        QCOMPARE(hashOf(remoteDir + QStringLiteral("/up.bin")), hashOf(up));
    }

    // Item 12: SIGKILL at random moments, a few times, then one more run: the file is intact.
    void randomKillsThenResume()
    {
        const quint32 seed = QRandomGenerator::global()->generate();
        qInfo("seed %u", seed);
        QRandomGenerator gen(seed);
        const QString src = m_remote.filePath(QStringLiteral("rk/file.bin"));
        writeRandom(src, 24 * 1024 * 1024 + 5, 9);
        const QString dest = m_local.filePath(QStringLiteral("rk"));
        QDir().mkpath(dest);
        const QString up = m_local.filePath(QStringLiteral("rkup/file.bin"));
        writeRandom(up, 24 * 1024 * 1024 + 9, 10);
        const QString remoteDir = m_remote.filePath(QStringLiteral("rkup"));
        const QStringList common{QStringLiteral("--parallel"), QStringLiteral("2"), QStringLiteral("--on-conflict"),
                                 QStringLiteral("resume")};
        const QStringList down = QStringList{QStringLiteral("download")} + common
                                 + QStringList{hostSpec() + QLatin1Char(':') + src, dest + QLatin1Char('/')};
        const QStringList upload = QStringList{QStringLiteral("upload")} + common
                                   + QStringList{up, hostSpec() + QLatin1Char(':') + remoteDir + QLatin1Char('/')};
        for (int i = 0; i < 4; ++i) {
            cli(down, 150 + int(gen.bounded(350)));
            cli(upload, 150 + int(gen.bounded(350)));
        }
        QCOMPARE(cli(down), 0);
        QCOMPARE(cli(upload), 0);
        QCOMPARE(hashOf(dest + QStringLiteral("/file.bin")), hashOf(src));
        QCOMPARE(hashOf(remoteDir + QStringLiteral("/file.bin")), hashOf(up));
    }

    // Item 13: a batch that breaks off mid-stream leaves no truncated file under a final name,
    // and resume finishes the folder by itself.
    void interruptedBatchLeavesNoTruncatedFile()
    {
        const QString top = m_local.filePath(QStringLiteral("batch"));
        for (int i = 0; i < 20; ++i) writeRandom(QStringLiteral("%1/f%2.bin").arg(top).arg(i), 100000 + i, 20 + quint32(i));
        const QString remoteDir = m_remote.filePath(QStringLiteral("batchup"));
        setMode("truncate");
        auto first = run(request(Direction::Upload, top, remoteDir + QLatin1Char('/'), ConflictPolicy::Resume));
        QVERIFY(!first);
        QDirIterator it(remoteDir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString rel = path.mid(remoteDir.size() + 1);
            QVERIFY2(rel.startsWith(QLatin1String("batch/")) && hashOf(path) == hashOf(m_local.filePath(rel)),
                     qPrintable(rel + QStringLiteral(": left behind, or differs from the source")));
        }
        setMode({});
        auto second = run(request(Direction::Upload, top, remoteDir + QLatin1Char('/'), ConflictPolicy::Resume));
        QVERIFY2(second, second ? "" : qPrintable(second.error().message));
        QVERIFY(second->verified);
        for (int i = 0; i < 20; ++i) {
            const QString rel = QStringLiteral("/f%1.bin").arg(i);
            QCOMPARE(hashOf(remoteDir + QStringLiteral("/batch") + rel), hashOf(top + rel));
        }
        // A staging folder an interrupted run left a day ago is gone after the next batch.
        const QString stale = remoteDir + QStringLiteral("/.gantry-staging-000000000000-dead-0-0");
        QVERIFY(QDir().mkpath(stale + QStringLiteral("/batch")));
        QCOMPARE(QProcess::execute(QStringLiteral("touch"), {QStringLiteral("-d"), QStringLiteral("1 day ago"), stale}), 0);
        // A sync's SFTP edit in flight has its source's (old) time, but was made now: it stays.
        const QString inFlight = remoteDir + QStringLiteral("/.gantry-sftp-0-0");
        QFile edit(inFlight);
        QVERIFY(edit.open(QIODevice::WriteOnly) && edit.write("edit") == 4);
        edit.close();
        QCOMPARE(QProcess::execute(QStringLiteral("touch"), {QStringLiteral("-d"), QStringLiteral("1 day ago"), inFlight}), 0);
        writeRandom(top + QStringLiteral("/f20.bin"), 1000, 99);
        auto third = run(request(Direction::Upload, top, remoteDir + QLatin1Char('/'), ConflictPolicy::Resume));
        QVERIFY2(third, third ? "" : qPrintable(third.error().message));
        const QStringList left = QDir(remoteDir).entryList({QStringLiteral(".gantry-staging-*")}, QDir::Dirs | QDir::Hidden);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(u' ')));
        QVERIFY(QFile::exists(inFlight));
    }

    // Several batches over one session, once through its batch runner and once, on a host whose
    // head reads ahead, each batch on a channel of its own: both arrive whole and verified.
    void batchesWithAndWithoutTheRunner()
    {
        const QString top = m_local.filePath(QStringLiteral("greedy"));
        for (int i = 0; i < 12; ++i) {
            writeRandom(QStringLiteral("%1/d%2/f%3.bin").arg(top).arg(i % 3).arg(i), 1024 * 1024 + i, 40 + quint32(i));
        }
        for (const QByteArray &mode : {QByteArray(), QByteArray("greedyhead")}) {
            setMode(mode);
            const QString remoteDir = m_remote.filePath(QStringLiteral("greedyup-%1").arg(QString::fromLatin1(mode)));
            TransferRequest req = request(Direction::Upload, top, remoteDir + QLatin1Char('/'), ConflictPolicy::Overwrite);
            req.options.parallel = 2; // batches of 4 MiB: three of them, over two sessions
            auto r = run(req);
            QVERIFY2(r, r ? "" : qPrintable(r.error().message));
            QVERIFY(r->verified);
            for (int i = 0; i < 12; ++i) {
                const QString rel = QStringLiteral("/d%1/f%2.bin").arg(i % 3).arg(i);
                QCOMPARE(hashOf(remoteDir + QStringLiteral("/greedy") + rel), hashOf(top + rel));
            }
            const QStringList left = QDir(remoteDir).entryList({QStringLiteral(".gantry-*")}, QDir::AllEntries | QDir::Hidden);
            QVERIFY2(left.isEmpty(), qPrintable(left.join(u' ')));
        }
    }

    // The runner is told a batch's size before its files are read; a file that is shorter by then
    // ends the batch at once (EOF to the runner, not a wait for a report that cannot come) and
    // leaves nothing under a final name.
    void fileShrinkingInsideAnnouncedFrameStopsTheBatch()
    {
        const QString top = m_local.filePath(QStringLiteral("shrinks"));
        for (int i = 0; i < 3; ++i) writeRandom(QStringLiteral("%1/f%2.bin").arg(top).arg(i), 1024 * 1024, 60 + quint32(i));
        const auto tree = scanLocalTree(top, false);
        QVERIFY(tree);
        QVERIFY(QFile::resize(top + QStringLiteral("/f2.bin"), 1000)); // after the scan, as a writer would
        std::atomic_bool none{false};
        TransferContext ctx(makeSessionFactory(m_sshd.target(), m_sshd.connectOptions()), &none, m_journals.get(),
                            QStringLiteral("fixture"), TransferOptions{});
        auto session = makeSessionFactory(m_sshd.target(), m_sshd.connectOptions())(&none);
        QVERIFY(session);
        auto channel = (*session)->openExec(BatchRunner::command());
        QVERIFY(channel);
        BatchRunner runner(std::move(*channel));
        const QString parent = m_remote.filePath(QStringLiteral("shrunk"));
        QElapsedTimer took;
        took.start();
        StreamedBatch batch = streamBatch(ctx, runner, 0, parent, *tree, 0, int(tree->entries.size()), {});
        QVERIFY(batch.failure);
        QCOMPARE(batch.failure->code, ErrorCode::Conflict);
        QVERIFY(runner.abandoned());
        const auto verdict = finishBatch(ctx, **session, parent, *tree, batch);
        QVERIFY(!verdict);
        QVERIFY2(verdict.error().message.contains(QStringLiteral("changed while")), qPrintable(verdict.error().message));
        QVERIFY2(took.elapsed() < 20000, qPrintable(QString::number(took.elapsed())));
        // The host's tar saw a short archive: its staging folder goes, nothing was linked.
        QTRY_VERIFY_WITH_TIMEOUT(QDir(parent).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).isEmpty(), 10000);
    }

    // Item 14: the later of two transfers into one destination stops with a clear message and the
    // first one is not disturbed.
    void secondTransferToOneDestinationStops()
    {
        const QString a = m_local.filePath(QStringLiteral("two/a/data.bin"));
        const QString b = m_local.filePath(QStringLiteral("two/b/data.bin"));
        writeRandom(a, 16 * 1024 * 1024, 30);
        writeRandom(b, 16 * 1024 * 1024, 31);
        const QString remoteDir = m_remote.filePath(QStringLiteral("two")) + QLatin1Char('/');
        std::atomic_bool started{false};
        std::atomic_bool release{false};
        Result<TransferOutcome> firstResult = Error{};
        std::thread first([&] {
            TransferRequest req = request(Direction::Upload, a, remoteDir, ConflictPolicy::Overwrite);
            req.options.parallel = 1;
            firstResult = run(req, [&](const TransferProgress &) {
                started = true;
                while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(5));
            });
        });
        QVERIFY(QTest::qWaitFor([&] { return started.load(); }, 30000));
        auto second = run(request(Direction::Upload, b, remoteDir, ConflictPolicy::Overwrite));
        release = true;
        first.join();
        QVERIFY(!second);
        QCOMPARE(second.error().code, ErrorCode::Conflict);
        QVERIFY2(second.error().message.contains(QStringLiteral("Another transfer to")), qPrintable(second.error().message));
        QVERIFY2(firstResult, firstResult ? "" : qPrintable(firstResult.error().message));
        QCOMPARE(hashOf(remoteDir + QStringLiteral("data.bin")), hashOf(a));

        // Downloads into one local path, too (the lock is free again once a transfer ends).
        auto lock = DestinationLock::acquire(m_journals->directory(), QString(), m_local.filePath(QStringLiteral("two/c/data.bin")));
        QVERIFY(lock);
        QDir().mkpath(m_local.filePath(QStringLiteral("two/c")));
        auto down = run(request(Direction::Download, m_local.filePath(QStringLiteral("two/c")) + QLatin1Char('/'),
                                remoteDir + QStringLiteral("data.bin"), ConflictPolicy::Overwrite));
        QVERIFY(!down);
        QVERIFY2(down.error().message.contains(QStringLiteral("Another transfer to")), qPrintable(down.error().message));
        lock->reset();
        auto again = run(request(Direction::Download, m_local.filePath(QStringLiteral("two/c")) + QLatin1Char('/'),
                                 remoteDir + QStringLiteral("data.bin"), ConflictPolicy::Overwrite));
        QVERIFY2(again, again ? "" : qPrintable(again.error().message));
    }
};

QTEST_GUILESS_MAIN(TestTransferHostile)
#include "test_transfer_hostile.moc"
