// The engine against a real OpenSSH sshd on 127.0.0.1: files, trees, resume after the server
// dies mid-transfer, conflicts, faults.

#include "sshdfixture.h"
#include "tests/support/stagingfile.h"

#include "core/transfer/chunkplan.h"
#include "core/transfer/fileupload.h"
#include "core/transfer/journal.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/sha256.h"
#include "core/transfer/transferjob.h"
#include "core/transfer/treetransfer.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <thread>
#include <sys/statvfs.h>
#include <unistd.h>

using namespace gantry;
using namespace gantry::transfer;

namespace {
using gantry::test::writeRandom;

// The journaling hooks' state (plain function pointers: no captures). From the g_holdAt-th chunk
// or batch journaled on, the thread that journaled it waits (holding the plan's lock, so no other
// session completes anything) until the test has stopped the server.
std::atomic_int g_journaled{0};
std::atomic_int g_holdAt{0};
std::atomic_bool g_released{false};

void holdOnceJournaled()
{
    if (++g_journaled < g_holdAt) return;
    for (int i = 0; i < 1000 && !g_released; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

QByteArray hashOf(const QString &path)
{
    return sha256OfFile(path).valueOr(QByteArray());
}

void writeText(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}
} // namespace

class TestTransferEngine : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_local;
    QTemporaryDir m_remote; // what the sshd user sees: same machine, different folder
    QTemporaryDir m_config;
    std::unique_ptr<JournalStore> m_journals;
    QString m_knownHosts; // overrides the fixture's (which trusts whatever key it has now)

    Result<TransferOutcome> run(TransferRequest req, const ProgressSink &sink = {}, std::atomic_bool *cancel = nullptr,
                                ConflictResolver resolver = {})
    {
        req.host = QStringLiteral("fixture");
        std::atomic_bool none{false};
        ssh::ConnectOptions options = m_sshd.connectOptions();
        if (!m_knownHosts.isEmpty()) options.knownHostsFile = m_knownHosts;
        TransferContext ctx(makeSessionFactory(m_sshd.target(), options), cancel ? cancel : &none,
                            m_journals.get(), req.host, req.options, sink, resolver);
        return runTransfer(req, ctx);
    }
    TransferRequest upload(const QString &local, const QString &remote, ConflictPolicy p = ConflictPolicy::Ask)
    {
        TransferRequest r;
        r.direction = Direction::Upload;
        r.localPath = local;
        r.remotePath = remote;
        r.options.onConflict = p;
        return r;
    }

    // Runs req on a worker thread and kills the server (from this thread: the fixture's QProcess
    // lives here) once `when` holds for a progress report; the reporting worker waits for the
    // kill, so even a fast machine cannot finish first. *killed: the kill came before the end.
    Result<TransferOutcome> runUntilServerKilled(const TransferRequest &req, const std::function<bool(const TransferProgress &)> &when,
                                                 bool *killed)
    {
        std::atomic_bool started{false};
        std::atomic_bool killedFlag{false};
        std::atomic_bool finished{false};
        Result<TransferOutcome> result = Error{};
        std::thread worker([&] {
            result = run(req, [&](const TransferProgress &p) {
                if (when(p) && !started.exchange(true)) {
                    for (int i = 0; i < 200 && !killedFlag; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
                }
            });
            finished = true;
        });
        (void)QTest::qWaitFor([&] { return started || finished; }, 60000);
        *killed = !finished;
        m_sshd.stop();
        killedFlag = true;
        worker.join();
        return result;
    }

    // Runs req on a worker thread and stops the server once `count` chunks (a file) or batches (a
    // folder) are journaled: the hook holds the upload there, so it cannot finish first however
    // fast or loaded the machine. *killed: the kill came before the end.
    Result<TransferOutcome> runUntilJournaledThenKilled(const TransferRequest &req, int count, bool batches, bool *killed)
    {
        g_journaled = 0;
        g_holdAt = count;
        g_released = false;
        if (batches) setBatchJournaledHook(&holdOnceJournaled);
        else setChunkJournaledHook(&holdOnceJournaled);
        std::atomic_bool finished{false};
        Result<TransferOutcome> result = Error{};
        std::thread worker([&] {
            result = run(req);
            finished = true;
        });
        (void)QTest::qWaitFor([&] { return g_journaled >= count || finished; }, 60000);
        *killed = !finished;
        m_sshd.stop();
        g_released = true;
        worker.join();
        setBatchJournaledHook(nullptr);
        setChunkJournaledHook(nullptr);
        return result;
    }

private slots:
    void initTestCase()
    {
        const QString why = m_sshd.start();
        GANTRY_REQUIRE_SSHD(why);
        m_journals = std::make_unique<JournalStore>(m_config.path());
    }

    void largeFileRoundTrip()
    {
        const QString src = m_local.filePath(QStringLiteral("model.bin"));
        writeRandom(src, 40 * 1024 * 1024 + 12345);
        TransferRequest req = upload(src, m_remote.path() + QStringLiteral("/up/"));
        req.options.parallel = 3;
        quint64 lastDone = 0;
        auto r = run(req, [&](const TransferProgress &p) { lastDone = p.bytesDone; });
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        const QString dest = m_remote.filePath(QStringLiteral("up/model.bin"));
        QCOMPARE(r->destination, dest);
        QVERIFY(r->verified);
        QCOMPARE(r->sha256.toLatin1(), hashOf(src));
        QCOMPARE(hashOf(dest), hashOf(src));
        QVERIFY(gantry::testsupport::stagingFileOf(dest).isEmpty());
        QVERIFY(r->wireBytes >= r->totalBytes);
        QVERIFY(r->wireBytes < r->totalBytes * 102 / 100);
        QVERIFY(lastDone > 0);

        TransferRequest down;
        down.direction = Direction::Download;
        down.remotePath = dest;
        down.localPath = m_local.filePath(QStringLiteral("back")) + QLatin1Char('/');
        down.destinationIsDir = true;
        down.options.parallel = 2;
        auto d = run(down);
        QVERIFY2(d, d ? "" : qPrintable(d.error().message));
        QVERIFY(d->verified);
        QCOMPARE(hashOf(m_local.filePath(QStringLiteral("back/model.bin"))), hashOf(src));
    }

    // A long link's large upload goes over several SFTP channels of each session (one thread per
    // session drives them); what arrives is the file, checked, and a resume over channels sends
    // only what is missing.
    void largeFileOverSeveralChannels()
    {
        const QString src = m_local.filePath(QStringLiteral("lanes.bin"));
        const quint64 size = 96ull * 1024 * 1024 + 777;
        writeRandom(src, qint64(size), 11);
        TransferRequest req = upload(src, m_remote.path() + QStringLiteral("/lanes/"));
        req.options.parallel = 2;
        req.options.channels = 3;
        bool killed = false;
        auto first = runUntilJournaledThenKilled(req, 6, false, &killed); // 24 MiB of 96
        QVERIFY(killed);
        QVERIFY(!first);
        QCOMPARE(m_sshd.restart(), QString());
        // The kill pauses one session's thread; the other may send on until it lands (later on a
        // loaded machine): every channel gets work only where enough chunks are left.
        const auto journal = m_journals->loadFile(JournalStore::key(Direction::Upload, QStringLiteral("fixture"),
                                                                    QFileInfo(src).absoluteFilePath(),
                                                                    m_remote.filePath(QStringLiteral("lanes/lanes.bin"))));
        QVERIFY(journal.has_value());
        const int left = int(journal->done.count(false));
        QVERIFY2(left > 0, "the kill came after every chunk was in");

        auto second = run(req);
        QVERIFY2(second, second ? "" : qPrintable(second.error().message));
        QVERIFY2(second->channels >= 1 && second->channels <= 6, qPrintable(QString::number(second->channels)));
        if (left >= 12) QCOMPARE(second->channels, 6); // two chunks a channel at least: all of them take some
        QVERIFY(second->resumed);
        QVERIFY(second->verified);
        // The resume sends what the journal lacks, no more. (What was in flight at the kill, up to
        // two chunks a channel where a pipeline spans a chunk's end, is in the first attempt's
        // wire bytes and goes again: the journal had not marked it done.)
        const quint64 missing = size - journal->doneBytes();
        QCOMPARE(second->payloadBytes, missing);
        const quint64 resumeWire = second->wireBytes - journal->wireBytes;
        QVERIFY2(resumeWire >= missing && resumeWire < missing + missing / 50 + 64 * 1024,
                 qPrintable(QStringLiteral("%1 on the wire for %2 missing").arg(resumeWire).arg(missing)));
        QVERIFY2(journal->wireBytes < size + 12 * kChunkSize, qPrintable(QString::number(journal->wireBytes)));
        const QString dest = m_remote.filePath(QStringLiteral("lanes/lanes.bin"));
        QCOMPARE(second->sha256.toLatin1(), hashOf(src));
        QCOMPARE(hashOf(dest), hashOf(src));
        QVERIFY(gantry::testsupport::stagingFileOf(dest).isEmpty());

        // A fresh upload over channels: the whole file's hash is read on its own (no single
        // in-order sender), the host checks chunk by chunk.
        QVERIFY(QFile::remove(dest));
        req.options.onConflict = ConflictPolicy::Overwrite;
        auto fresh = run(req);
        QVERIFY2(fresh, fresh ? "" : qPrintable(fresh.error().message));
        QCOMPARE(fresh->channels, 6);
        QVERIFY(!fresh->resumed);
        QVERIFY(fresh->verified);
        QVERIFY(fresh->wireBytes < size * 102 / 100);
        QCOMPARE(hashOf(dest), hashOf(src));
    }

    void treeWithNonAsciiNamesAndSymlinks()
    {
        const QString top = m_local.filePath(QStringLiteral("数据集 été"));
        for (int i = 0; i < 300; ++i) {
            writeText(QStringLiteral("%1/part%2/ファイル-%3.txt").arg(top).arg(i % 7).arg(i), QByteArray::number(i).repeated(50));
        }
        writeText(top + QStringLiteral("/back\\slash.txt"), "odd name");
        QFile::link(top + QStringLiteral("/part1/ファイル-1.txt"), top + QStringLiteral("/link-to-file.txt"));
        QFile::link(top + QStringLiteral("/part2"), top + QStringLiteral("/link-to-dir"));
        auto r = run(upload(top, m_remote.path() + QStringLiteral("/trees/"), ConflictPolicy::Ask));
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->verified);
        QCOMPARE(r->files, 302);
        QVERIFY(r->notes.join(QLatin1Char('\n')).contains(QStringLiteral("link-to-dir")));
        const QString remoteTop = m_remote.filePath(QStringLiteral("trees/数据集 été"));
        QCOMPARE(hashOf(remoteTop + QStringLiteral("/part3/ファイル-10.txt")), hashOf(top + QStringLiteral("/part3/ファイル-10.txt")));
        QCOMPARE(hashOf(remoteTop + QStringLiteral("/link-to-file.txt")), hashOf(top + QStringLiteral("/part1/ファイル-1.txt")));
        QVERIFY(!QFileInfo(remoteTop + QStringLiteral("/link-to-file.txt")).isSymLink()); // followed: content sent
        QVERIFY(!QFileInfo::exists(remoteTop + QStringLiteral("/link-to-dir")));
        QVERIFY(QFileInfo::exists(remoteTop + QStringLiteral("/back\\slash.txt")));

        // Same upload again: the folder exists, files are identical → resume skips them all.
        auto again = run(upload(top, m_remote.path() + QStringLiteral("/trees/"), ConflictPolicy::Resume));
        QVERIFY2(again, again ? "" : qPrintable(again.error().message));
        QCOMPARE(again->payloadBytes, 0u);
        // And without a policy it is a conflict only if a file differs.
        writeText(top + QStringLiteral("/part0/ファイル-0.txt"), "changed content!");
        auto conflict = run(upload(top, m_remote.path() + QStringLiteral("/trees/"), ConflictPolicy::Ask));
        QVERIFY(!conflict);
        QCOMPARE(conflict.error().code, ErrorCode::Conflict);

        TransferRequest down;
        down.direction = Direction::Download;
        down.remotePath = remoteTop;
        down.localPath = m_local.filePath(QStringLiteral("treeback/"));
        down.destinationIsDir = true;
        auto d = run(down);
        QVERIFY2(d, d ? "" : qPrintable(d.error().message));
        QCOMPARE(hashOf(m_local.filePath(QStringLiteral("treeback/数据集 été/part3/ファイル-10.txt"))),
                 hashOf(top + QStringLiteral("/part3/ファイル-10.txt")));
    }

    // Several sessions each send their stripe of tar batches (as on a long link); every file
    // arrives and each batch's manifest is checked.
    void treeInParallelBatches()
    {
        const QString top = m_local.filePath(QStringLiteral("shards"));
        for (int i = 0; i < 1600; ++i) {
            writeText(QStringLiteral("%1/s%2/x-%3.bin").arg(top).arg(i % 13).arg(i), QByteArray::number(i * 7919).repeated(40));
        }
        TransferRequest req = upload(top, m_remote.path() + QStringLiteral("/par/"), ConflictPolicy::Overwrite);
        req.options.parallel = 3; // 1600 files → batches of 500 over 3 sessions
        auto r = run(req);
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->verified);
        QCOMPARE(r->files, 1600);
        int found = 0;
        for (int i = 0; i < 1600; ++i) {
            const QString rel = QStringLiteral("/s%1/x-%2.bin").arg(i % 13).arg(i);
            if (hashOf(m_remote.filePath(QStringLiteral("par/shards")) + rel) == hashOf(top + rel)) ++found;
        }
        QCOMPARE(found, 1600);
        QVERIFY(QDir(m_remote.filePath(QStringLiteral("par"))).entryList(QStringList{QStringLiteral(".gantry-manifest*")},
                                                                               QDir::Files | QDir::Hidden).isEmpty());
    }

    // A folder that held an interrupted earlier download keeps "x.gantry-partial" beside "x": both
    // arrive as they are on the host (the staging copy of one is never the other's name), and
    // nothing of the staging is left beside or inside the folder.
    void treeDownloadKeepsFilesNamedLikeStagingCopies()
    {
        const QString top = m_remote.filePath(QStringLiteral("stagenames"));
        for (const QString &name : {QStringLiteral("x"), QStringLiteral("x.gantry-partial"), QStringLiteral("y.gantry-partial"),
                                    QStringLiteral("y"), QStringLiteral("sub/x"), QStringLiteral("sub/x.gantry-partial")})
            // The file before its namesake in every order a batch may take (by name, by size).
            writeText(top + QLatin1Char('/') + name, (QStringLiteral("content of ") + name).toUtf8().repeated(name.endsWith(QLatin1String("partial")) ? 50 : 2000));
        TransferRequest down;
        down.direction = Direction::Download;
        down.remotePath = top;
        down.localPath = m_local.filePath(QStringLiteral("stageback/"));
        down.destinationIsDir = true;
        down.options.onConflict = ConflictPolicy::Overwrite;
        auto r = run(down);
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->verified);
        const QString back = m_local.filePath(QStringLiteral("stageback/stagenames"));
        for (const QString &name : {QStringLiteral("x"), QStringLiteral("x.gantry-partial"), QStringLiteral("y.gantry-partial"),
                                    QStringLiteral("y"), QStringLiteral("sub/x"), QStringLiteral("sub/x.gantry-partial")})
            QVERIFY2(hashOf(back + QLatin1Char('/') + name) == hashOf(top + QLatin1Char('/') + name), qPrintable(name));
        QDirIterator staging(m_local.filePath(QStringLiteral("stageback")), {QStringLiteral(".gantry-staging-*")},
                             QDir::AllEntries | QDir::Hidden, QDirIterator::Subdirectories);
        QVERIFY2(!staging.hasNext(), qPrintable(staging.hasNext() ? staging.next() : QString()));
    }

    // A folder download in batches over several sessions: every file (odd names included) is
    // checked against its batch's remote hashes, empty folders arrive, a symlink is noted and
    // leaves the folder unverified; resuming fetches nothing that is already here.
    void treeDownloadsInParallelBatches()
    {
        const QString top = m_remote.filePath(QStringLiteral("dlshards"));
        for (int i = 0; i < 450; ++i) {
            writeText(QStringLiteral("%1/s%2/y-%3.bin").arg(top).arg(i % 9).arg(i), QByteArray::number(i * 7907).repeated(300));
        }
        writeText(top + QStringLiteral("/back\\slash.txt"), "odd name");
        writeText(top + QStringLiteral("/new\nline.txt"), "odder name");
        QDir().mkpath(top + QStringLiteral("/empty/inner"));
        QVERIFY(QFile::link(top + QStringLiteral("/s1"), top + QStringLiteral("/link-to-s1")));
        TransferRequest down;
        down.direction = Direction::Download;
        down.remotePath = top;
        down.localPath = m_local.filePath(QStringLiteral("dlback/"));
        down.destinationIsDir = true;
        down.options.parallel = 4; // 452 files → 5 batches over 4 sessions
        down.options.onConflict = ConflictPolicy::Overwrite;
        auto r = run(down);
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QCOMPARE(r->files, 452);
        QVERIFY(!r->verified); // the link was not copied
        QVERIFY(r->notes.join(QLatin1Char('\n')).contains(QStringLiteral("link-to-s1")));
        QVERIFY2(!r->notes.join(QLatin1Char('\n')).contains(QStringLiteral("checksum")), qPrintable(r->notes.join(QLatin1Char('\n'))));
        const QString back = m_local.filePath(QStringLiteral("dlback/dlshards"));
        int same = 0;
        for (int i = 0; i < 450; ++i) {
            const QString rel = QStringLiteral("/s%1/y-%2.bin").arg(i % 9).arg(i);
            if (hashOf(back + rel) == hashOf(top + rel)) ++same;
        }
        QCOMPARE(same, 450);
        QCOMPARE(hashOf(back + QStringLiteral("/new\nline.txt")), hashOf(top + QStringLiteral("/new\nline.txt")));
        QVERIFY(QFileInfo::exists(back + QStringLiteral("/back\\slash.txt")));
        QVERIFY(QFileInfo(back + QStringLiteral("/empty/inner")).isDir());
        QVERIFY(!QFileInfo::exists(back + QStringLiteral("/link-to-s1")));
        QDirIterator partials(back, {QStringLiteral("*.gantry-partial")}, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        QVERIFY(!partials.hasNext());

        QFile::remove(top + QStringLiteral("/link-to-s1"));
        down.options.onConflict = ConflictPolicy::Resume;
        auto again = run(down);
        QVERIFY2(again, again ? "" : qPrintable(again.error().message));
        QVERIFY(again->verified);
        QCOMPARE(again->payloadBytes, 0u);
    }

    // Killed after some batches, resumed with another number of sessions: the done batches keep
    // the plan they were numbered in, so nothing is skipped or sent twice.
    void treeResumesWithTheSamePlan()
    {
        const QString top = m_local.filePath(QStringLiteral("frames"));
        const int count = 3000; // 3 sessions → 6 batches of 500, two per session
        for (int i = 0; i < count; ++i) {
            writeText(QStringLiteral("%1/f%2.bin").arg(top).arg(i, 4, 10, QLatin1Char('0')),
                      QByteArray::number(i * 104729).repeated(6000)); // ≈ 40 KiB each
        }
        // Ask, as gantry-cli's default: what the first attempt sent is the upload's own, not a conflict.
        TransferRequest req = upload(top, m_remote.path() + QStringLiteral("/resume-tree/"), ConflictPolicy::Ask);
        req.options.parallel = 3;
        const QString key = JournalStore::key(Direction::Upload, QStringLiteral("fixture"), QFileInfo(top).absoluteFilePath(),
                                              m_remote.filePath(QStringLiteral("resume-tree/frames")));
        // Once a batch is verified and journaled.
        bool killed = false;
        auto first = runUntilJournaledThenKilled(req, 1, true, &killed);
        QVERIFY(killed);
        QVERIFY(!first);
        QCOMPARE(m_sshd.restart(), QString());
        const auto journal = m_journals->loadTree(key);
        QVERIFY(journal && !journal->doneBatches.isEmpty() && journal->doneBatches.size() < 6);

        req.options.parallel = 1; // a different link now: the journal's plan must win
        auto second = run(req);
        QVERIFY2(second, second ? "" : qPrintable(second.error().message));
        QVERIFY(second->resumed);
        QVERIFY(second->verified);
        int same = 0;
        for (int i = 0; i < count; ++i) {
            const QString rel = QStringLiteral("/f%1.bin").arg(i, 4, 10, QLatin1Char('0'));
            if (hashOf(m_remote.filePath(QStringLiteral("resume-tree/frames")) + rel) == hashOf(top + rel)) ++same;
        }
        QCOMPARE(same, count);
        QVERIFY(second->payloadBytes < second->totalBytes);
    }

    void conflictPolicies()
    {
        const QString a = m_local.filePath(QStringLiteral("c.txt"));
        writeText(a, "version one");
        const QString dir = m_remote.path() + QStringLiteral("/conf/");
        QVERIFY(run(upload(a, dir)));
        auto ask = run(upload(a, dir, ConflictPolicy::Ask));
        QVERIFY(!ask);
        QCOMPARE(ask.error().code, ErrorCode::Conflict);
        auto identical = run(upload(a, dir, ConflictPolicy::Resume));
        QVERIFY(identical && identical->skipped);

        writeText(a, "version two, longer");
        auto skip = run(upload(a, dir, ConflictPolicy::Skip));
        QVERIFY(skip && skip->skipped);
        QCOMPARE(hashOf(m_remote.filePath(QStringLiteral("conf/c.txt"))), Sha256::hex("version one"));
        auto resumeDiffers = run(upload(a, dir, ConflictPolicy::Resume));
        QVERIFY(!resumeDiffers);
        QCOMPARE(resumeDiffers.error().code, ErrorCode::Conflict);
        auto renamed = run(upload(a, dir, ConflictPolicy::Rename));
        QVERIFY(renamed);
        QCOMPARE(renamed->destination, m_remote.filePath(QStringLiteral("conf/c (1).txt")));
        // The resolver answers "ask" in the GUI.
        auto asked = run(upload(a, dir, ConflictPolicy::Ask), {}, nullptr,
                         [](const QString &, bool) { return ConflictPolicy::Overwrite; });
        QVERIFY(asked);
        QCOMPARE(hashOf(m_remote.filePath(QStringLiteral("conf/c.txt"))), Sha256::hex("version two, longer"));
    }

    void resumeAfterServerDies()
    {
        const QString src = m_local.filePath(QStringLiteral("big.bin"));
        const quint64 size = 128ull * 1024 * 1024;
        writeRandom(src, qint64(size), 7);
        TransferRequest req = upload(src, m_remote.path() + QStringLiteral("/resume/"));
        req.options.parallel = 2;
        // Two 4 MiB chunks reported: at least one is recorded in the journal by now.
        bool killed = false;
        auto first = runUntilServerKilled(
            req, [](const TransferProgress &p) { return p.bytesDone >= 8ull * 1024 * 1024; }, &killed);
        QVERIFY(killed);
        QVERIFY(!first);
        QVERIFY2(isTransient(first.error()), qPrintable(first.error().message));
        QVERIFY(!gantry::testsupport::stagingFileOf(m_remote.filePath(QStringLiteral("resume/big.bin"))).isEmpty());
        QCOMPARE(m_sshd.restart(), QString());

        auto second = run(req);
        QVERIFY2(second, second ? "" : qPrintable(second.error().message));
        QVERIFY(second->resumed);
        QVERIFY(second->verified);
        QVERIFY2(second->payloadBytes < size, qPrintable(QString::number(second->payloadBytes)));
        // Both attempts together: what was in flight at the kill is sent again (at most one 4 MiB
        // chunk per session); the benchmark checks the 1.1× bound on a 1 GiB file.
        QVERIFY2(second->wireBytes < size * 13 / 10, qPrintable(QString::number(second->wireBytes)));
        QCOMPARE(hashOf(m_remote.filePath(QStringLiteral("resume/big.bin"))), hashOf(src));
    }

    // A remote disk that fills up mid-file: a specific error with the space needed, the partial
    // kept, and a retry after space was freed continues from it. Needs a small tmpfs (root).
    void remoteDiskFullKeepsPartialAndResumes()
    {
        const QString mountPoint = m_remote.filePath(QStringLiteral("small-disk"));
        QDir().mkpath(mountPoint);
        if (QProcess::execute(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                                        QStringLiteral("size=160m"), QStringLiteral("tmpfs"), mountPoint})
            != 0) {
            QSKIP("cannot mount a 160 MiB tmpfs here (needs root): the disk-full path is untested");
        }
        struct Unmount
        {
            QString path;
            ~Unmount() { QProcess::execute(QStringLiteral("umount"), {path}); }
        } unmount{mountPoint};
        const auto freeBytes = [&] {
            struct statvfs st{};
            return ::statvfs(QFile::encodeName(mountPoint).constData(), &st) == 0 ? quint64(st.f_bavail) * st.f_frsize : 0;
        };
        const QString filler = mountPoint + QStringLiteral("/filler");
        const auto fillLeaving = [&](quint64 keep) {
            QFile f(filler);
            if (!f.open(QIODevice::Append)) return;
            const QByteArray block(64 * 1024, 'f');
            while (freeBytes() > keep + quint64(block.size())) f.write(block), f.flush();
        };

        const QString src = m_local.filePath(QStringLiteral("dataset.bin"));
        const quint64 size = 128ull * 1024 * 1024; // long enough for a progress report mid-file
        writeRandom(src, qint64(size), 11);
        TransferRequest req = upload(src, mountPoint + QLatin1Char('/'));
        req.options.parallel = 1;
        bool filled = false;
        // The reporting worker fills the disk once a chunk is acknowledged (reports come every 100 ms).
        auto first = run(req, [&](const TransferProgress &p) {
            if (p.bytesDone >= 4ull * 1024 * 1024 && !filled) {
                filled = true;
                fillLeaving(256 * 1024);
            }
        });
        QVERIFY(filled);
        QVERIFY(!first);
        QCOMPARE(first.error().code, ErrorCode::DiskFull);
        QVERIFY2(first.error().message.contains(QStringLiteral("is full")), qPrintable(first.error().message));
        QVERIFY2(first.error().message.contains(QStringLiteral("more needed")), qPrintable(first.error().message));
        QVERIFY2(first.error().message.contains(QStringLiteral("is kept")), qPrintable(first.error().message));
        QVERIFY(!gantry::testsupport::stagingFileOf(mountPoint + QStringLiteral("/dataset.bin")).isEmpty());
        QVERIFY(!QFileInfo::exists(mountPoint + QStringLiteral("/dataset.bin")));

        // Space freed: the retry resumes from the staging file.
        QVERIFY(QFile::remove(filler));
        req.options.onConflict = ConflictPolicy::Resume;
        auto second = run(req);
        QVERIFY2(second, second ? "" : qPrintable(second.error().message));
        QVERIFY(second->resumed);
        QVERIFY(second->verified);
        QVERIFY(second->payloadBytes < size);
        QCOMPARE(hashOf(mountPoint + QStringLiteral("/dataset.bin")), hashOf(src));

        // Not enough space from the start: said before anything is sent, with both figures.
        fillLeaving(2 * 1024 * 1024);
        auto early = run(upload(src, mountPoint + QStringLiteral("/copy.bin"), ConflictPolicy::Overwrite));
        QVERIFY(!early);
        QCOMPARE(early.error().code, ErrorCode::DiskFull);
        QVERIFY2(early.error().message.contains(QStringLiteral("Not enough space")), qPrintable(early.error().message));
        QVERIFY2(early.error().message.contains(formatBytes(size) + QStringLiteral(" needed")), qPrintable(early.error().message));
    }

    void changedSourceRestarts()
    {
        const QString src = m_local.filePath(QStringLiteral("grow.bin"));
        writeRandom(src, 24 * 1024 * 1024, 3);
        TransferRequest req = upload(src, m_remote.path() + QStringLiteral("/changed/"));
        req.options.parallel = 1;
        bool touched = false;
        auto r = run(req, [&](const TransferProgress &p) {
            // The first report comes when the first 4 MiB chunk is done, well before the last one.
            if (!touched && p.bytesDone > 0 && p.bytesDone < p.bytesTotal) {
                touched = true;
                QFile f(src);
                if (f.open(QIODevice::Append)) f.write("more data");
            }
        });
        QVERIFY(touched);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::Conflict);
        QVERIFY(r.error().message.contains(QStringLiteral("changed while")));
        auto again = run(req);
        QVERIFY2(again, again ? "" : qPrintable(again.error().message));
        QCOMPARE(hashOf(m_remote.filePath(QStringLiteral("changed/grow.bin"))), hashOf(src));
    }

    void faults()
    {
        // Missing remote folder (no trailing '/': not created for you).
        const QString a = m_local.filePath(QStringLiteral("f.txt"));
        writeText(a, "x");
        auto missing = run(upload(a, m_remote.path() + QStringLiteral("/no/such/dir/f.txt")));
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QVERIFY(missing.error().message.contains(QStringLiteral("does not exist")));
        // Missing local file.
        auto noLocal = run(upload(m_local.filePath(QStringLiteral("nope")), m_remote.path() + QLatin1Char('/')));
        QVERIFY(!noLocal);
        QCOMPARE(noLocal.error().code, ErrorCode::NotFound);
        // Missing remote source.
        TransferRequest down;
        down.direction = Direction::Download;
        down.remotePath = m_remote.filePath(QStringLiteral("nothing-here"));
        down.localPath = m_local.path();
        auto noRemote = run(down);
        QVERIFY(!noRemote);
        QCOMPARE(noRemote.error().code, ErrorCode::NotFound);
        if (geteuid() == 0) QSKIP("root ignores permission bits");
        // Read-only remote folder.
        QDir().mkpath(m_remote.filePath(QStringLiteral("ro")));
        QFile::setPermissions(m_remote.filePath(QStringLiteral("ro")), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        auto denied = run(upload(a, m_remote.filePath(QStringLiteral("ro")) + QLatin1Char('/')));
        QFile::setPermissions(m_remote.filePath(QStringLiteral("ro")),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY(!denied);
        QCOMPARE(denied.error().code, ErrorCode::PermissionDenied);
        // Unreadable local file.
        const QString secret = m_local.filePath(QStringLiteral("secret.txt"));
        writeText(secret, "s");
        QFile::setPermissions(secret, QFileDevice::WriteOwner);
        auto unreadable = run(upload(secret, m_remote.path() + QLatin1Char('/')));
        QVERIFY(!unreadable);
        QCOMPARE(unreadable.error().code, ErrorCode::PermissionDenied);
    }

    void hostKeyChangedOnReconnectIsRefused()
    {
        m_knownHosts = m_config.filePath(QStringLiteral("known_hosts.before"));
        QVERIFY(QFile::copy(m_sshd.knownHostsPath(), m_knownHosts));
        m_sshd.rotateHostKey();
        QCOMPARE(m_sshd.restart(), QString());
        const QString a = m_local.filePath(QStringLiteral("k.txt"));
        writeText(a, "k");
        auto r = run(upload(a, m_remote.path() + QLatin1Char('/')));
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::HostKeyChanged);
        QVERIFY(!isTransient(r.error()));
    }
};

QTEST_GUILESS_MAIN(TestTransferEngine)
#include "test_transfer_engine.moc"
