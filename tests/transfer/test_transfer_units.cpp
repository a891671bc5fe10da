// Pure logic: HOST:PATH parsing, journals and how often a chunk plan saves one, batches, speed/ETA, names for "rename", how many
// sessions a file gets and when they are connected ahead (SessionPrefetch, with a factory whose
// connects fail at once: no host is needed to count them).

#include "core/transfer/chunkplan.h"
#include "core/transfer/chunkworkers.h"
#include "core/transfer/fileupload.h"
#include "core/transfer/journal.h"
#include "core/transfer/localwrite.h"
#include "core/transfer/localtree.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/remotespec.h"
#include "core/transfer/sessionprefetch.h"
#include "core/transfer/sha256.h"
#include "core/transfer/speedmeter.h"
#include "core/transfer/transfercontext.h"
#include "core/transfer/treetransfer.h"
#include "core/transfer/transferqueue.h"

#include <QFileInfo>
#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry::transfer;

namespace {
SessionFactory failingFactory(std::atomic_int *connects)
{
    return [connects](const std::atomic_bool *) -> gantry::Result<std::unique_ptr<gantry::ssh::Session>> {
        ++*connects;
        return gantry::Error{gantry::ErrorCode::ConnectFailed, QStringLiteral("no host in this test")};
    };
}
} // namespace

class TestTransferUnits : public QObject
{
    Q_OBJECT

private slots:
    // One transfer per destination; but a lock file left empty (its holder was killed between
    // creating it and writing who it is) holds nothing: the next transfer takes the destination.
    void emptyLockFileHoldsNothing()
    {
        QTemporaryDir journals;
        const QString dest = journals.filePath(QStringLiteral("out/data.bin"));
        QString lockFile;
        {
            auto held = DestinationLock::acquire(journals.path(), QString(), dest);
            QVERIFY(held);
            QVERIFY(!DestinationLock::acquire(journals.path(), QString(), dest)); // a live holder holds it
            const QStringList locks = QDir(journals.path()).entryList({QStringLiteral("*.lock")}, QDir::Files);
            QCOMPARE(locks.size(), 1);
            lockFile = journals.filePath(locks.first());
        }
        QFile empty(lockFile);
        QVERIFY(empty.open(QIODevice::WriteOnly | QIODevice::Truncate));
        empty.close();
        QVERIFY(DestinationLock::acquire(journals.path(), QString(), dest));
    }

    // Which changes on the host show in the Files tab's listing: it lists the folder again for those.
    void changesThatShowInAListing()
    {
        const QString shown = QStringLiteral("/home/u/data");
        QVERIFY(changeShowsIn(shown, QStringLiteral("/home/u/data")));
        QVERIFY(changeShowsIn(shown, QStringLiteral("/home/u/data/new.bin")));
        QVERIFY(changeShowsIn(shown, QStringLiteral("/home/u/data/run1/deep/file"))); // run1's size and time
        QVERIFY(changeShowsIn(shown + QLatin1Char('/'), QStringLiteral("/home/u/data/x")));
        QVERIFY(changeShowsIn(shown, QStringLiteral("/home/u"))); // a sync into a folder above it
        QVERIFY(!changeShowsIn(shown, QStringLiteral("/home/u/data2/x")));
        QVERIFY(!changeShowsIn(shown, QStringLiteral("/home/u/other")));
        QVERIFY(changeShowsIn(QStringLiteral("/"), QStringLiteral("/etc")));
        QVERIFY(!changeShowsIn(QString(), QStringLiteral("/etc")));
    }

    // What a finished row of the Transfers panel shows, and where its menu's entries go.
    void finishedItemSaysWhereAndHowFast()
    {
        QueueItem item;
        item.request.direction = Direction::Upload;
        item.request.host = QStringLiteral("gpu");
        item.request.localPath = QStringLiteral("/data/set/model.pt");
        item.request.remotePath = QStringLiteral("/srv/in/");
        item.request.destinationIsDir = true;
        QCOMPARE(item.destinationPath(), QStringLiteral("/srv/in/model.pt"));
        QCOMPARE(item.remoteFolder(), QStringLiteral("/srv/in"));
        QCOMPARE(item.localFolder(), QStringLiteral("/data/set"));
        item.progress.destination = QStringLiteral("/srv/in/model (1).pt"); // renamed on a conflict
        QCOMPARE(item.destinationPath(), QStringLiteral("/srv/in/model (1).pt"));
        QCOMPARE(item.averageBytesPerSecond(), 0.0);
        item.outcome.payloadBytes = 300ull << 20;
        item.seconds = 3;
        QCOMPARE(item.averageBytesPerSecond(), double(100ull << 20));

        QueueItem down;
        down.request.direction = Direction::Download;
        down.request.localPath = QStringLiteral("/home/me/Downloads");
        down.request.remotePath = QStringLiteral("/srv/out/log.txt");
        down.request.destinationIsDir = true;
        QCOMPARE(down.destinationPath(), QStringLiteral("/home/me/Downloads/log.txt"));
        QCOMPARE(down.localFolder(), QStringLiteral("/home/me/Downloads"));
        QCOMPARE(down.remoteFolder(), QStringLiteral("/srv/out"));
    }

    // A size that saturated reads as the largest size, never "-1 bytes".
    void hugeSizesAreNeverNegative()
    {
        QCOMPARE(gantry::transfer::formatBytes(1536), QStringLiteral("1.5 kB"));
        QCOMPARE(gantry::transfer::formatBytes(92), QStringLiteral("92 bytes")); // translatable (#32)
        const QString saturated = gantry::transfer::formatBytes(std::numeric_limits<quint64>::max());
        QVERIFY2(!saturated.startsWith(QLatin1Char('-')) && saturated.endsWith(QStringLiteral("EB")), qPrintable(saturated));
    }

    void remoteSpec_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("path");
        QTest::newRow("name") << QStringLiteral("gpu1:/data") << QStringLiteral("gpu1") << QStringLiteral("/data");
        QTest::newRow("relative") << QStringLiteral("gpu1:data/x") << QStringLiteral("gpu1") << QStringLiteral("data/x");
        QTest::newRow("port") << QStringLiteral("root@region-1.autodl.com:41234:/root/ds/")
                              << QStringLiteral("root@region-1.autodl.com:41234") << QStringLiteral("/root/ds/");
        QTest::newRow("port-relative") << QStringLiteral("h:2222:x") << QStringLiteral("h:2222") << QStringLiteral("x");
        QTest::newRow("ipv6") << QStringLiteral("u@[::1]:22:/tmp") << QStringLiteral("u@[::1]:22") << QStringLiteral("/tmp");
        QTest::newRow("empty-path") << QStringLiteral("gpu1:") << QStringLiteral("gpu1") << QString();
    }
    void remoteSpec()
    {
        QFETCH(QString, text);
        QFETCH(QString, host);
        QFETCH(QString, path);
        const auto spec = parseRemoteSpec(text);
        QVERIFY(spec);
        QCOMPARE(spec->host, host);
        QCOMPARE(spec->path, path);
    }
    void remoteSpecRejectsLocal() { QVERIFY(!parseRemoteSpec(QStringLiteral("/local/file"))); }

    void sha256Known()
    {
        QCOMPARE(Sha256::hex("abc"), QByteArray("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    void journalRoundTrip()
    {
        QTemporaryDir dir;
        JournalStore store(dir.path());
        FileJournal j;
        j.host = QStringLiteral("h");
        j.source = QStringLiteral("/a/données.bin");
        j.destination = QStringLiteral("/r/données.bin");
        j.size = 5ull * 1024 * 1024 * 1024 + 7; // > 4 GiB: 64-bit sizes survive JSON
        j.mtime = 1700000000123;
        j.chunkSize = 8ull * 1024 * 1024;
        const int chunks = int((j.size + j.chunkSize - 1) / j.chunkSize);
        j.done = QList<bool>(chunks, false);
        j.chunkHashes = QList<QByteArray>(chunks);
        j.done[3] = true;
        j.chunkHashes[3] = "abcd";
        j.wireBytes = 123456;
        const QString key = JournalStore::key(Direction::Upload, j.host, j.source, j.destination);
        QVERIFY(store.save(key, j));
        const auto back = store.loadFile(key);
        QVERIFY(back);
        QCOMPARE(back->size, j.size);
        QCOMPARE(back->mtime, j.mtime);
        QCOMPARE(back->done, j.done);
        QCOMPARE(back->chunkHashes[3], QByteArray("abcd"));
        QCOMPARE(back->doneBytes(), j.chunkSize);
        QCOMPARE(back->chunkLength(chunks - 1), j.size - quint64(chunks - 1) * j.chunkSize);
        QCOMPARE(back->wireBytes, 123456u);
        store.remove(key);
        QVERIFY(!store.loadFile(key));
        QVERIFY(key != JournalStore::key(Direction::Download, j.host, j.source, j.destination));
    }

    // A single file stages beside its final name (the rename stays on one filesystem) under a
    // hidden name no other file of a listing is meant to have: not "NAME.partial", distinct per
    // host and direction, and within NAME_MAX however long the name.
    void stagingNames()
    {
        const QString up = JournalStore::stagingPath(Direction::Upload, QStringLiteral("h"), QStringLiteral("/data/x"));
        QVERIFY2(up.startsWith(QStringLiteral("/data/.x.gantry-")) && up.endsWith(QStringLiteral(".partial")), qPrintable(up));
        QVERIFY(up != QStringLiteral("/data/x.partial"));
        QCOMPARE(up, JournalStore::stagingPath(Direction::Upload, QStringLiteral("h"), QStringLiteral("/data/x")));
        QVERIFY(up != JournalStore::stagingPath(Direction::Download, QStringLiteral("h"), QStringLiteral("/data/x")));
        QVERIFY(up != JournalStore::stagingPath(Direction::Upload, QStringLiteral("g"), QStringLiteral("/data/x")));
        const QString longName = QString(120, QChar(0x4E2D)); // 360 bytes of UTF-8
        const QString staged = JournalStore::stagingPath(Direction::Download, QStringLiteral("h"), QStringLiteral("/d/") + longName);
        QVERIFY(staged.startsWith(QStringLiteral("/d/.") + longName.left(10)));
        QVERIFY(QFileInfo(staged).fileName().toUtf8().size() <= 255);
        QVERIFY(staged != JournalStore::stagingPath(Direction::Download, QStringLiteral("h"), QStringLiteral("/d/") + longName + QLatin1Char('2')));
    }

    void chunkPlanSavesTheFirstChunkThenAtMostEveryInterval()
    {
        QTemporaryDir dir;
        JournalStore store(dir.path());
        FileJournal j;
        j.chunkSize = 4;
        j.size = 16;
        j.done = QList<bool>(4, false);
        j.chunkHashes = QList<QByteArray>(4);
        const QString key = QStringLiteral("plan");
        gantry::ManualClock clock;
        ChunkPlan plan(store, key, j, clock);
        const auto savedDone = [&] { return store.loadFile(key).value_or(FileJournal{}).done.count(true); };

        plan.done(plan.take(), "-");
        QCOMPARE(savedDone(), 1); // the first chunk at once: a resume soon after start has it
        clock.advanceMs(ChunkPlan::kSaveIntervalMs - 1);
        plan.done(plan.take(), "-");
        QCOMPARE(savedDone(), 1); // too soon: kept in memory
        clock.advanceMs(1);
        plan.done(plan.take(), "-");
        QCOMPARE(savedDone(), 3);
        plan.done(plan.take(), "-");
        QCOMPARE(savedDone(), 3);
        plan.save(); // the end of the transfer saves what is left
        QCOMPARE(savedDone(), 4);
        QVERIFY(store.loadFile(key)->complete());
    }

    void batches()
    {
        LocalTree tree;
        tree.entries.append(LocalEntry{QStringLiteral("t"), {}, 0, 0, 0755, true});
        for (int i = 0; i < 25; ++i) {
            tree.entries.append(LocalEntry{QStringLiteral("t/%1").arg(i, 3, 10, QLatin1Char('0')), {}, 100, 0, 0644, false});
        }
        const auto b = planBatches(tree, 10, 1 << 30);
        QCOMPARE(b.size(), 3);
        QCOMPARE(b[0], qMakePair(0, 11)); // the directory rides along with the first 10 files
        QCOMPARE(b[2].second, 26);
        const auto bySize = planBatches(tree, 1000, 250);
        QCOMPARE(bySize.size(), 13);
    }

    void speedAndEta()
    {
        SpeedMeter m;
        QCOMPARE(m.etaSeconds(100), -1);
        m.add(0, 0);
        m.add(1000, 1000);
        m.add(2000, 2000);
        QCOMPARE(qRound(m.bytesPerSecond()), 1000);
        QCOMPARE(m.etaSeconds(5000), 5);
        m.add(20000, 20000); // old samples fall out of the 10 s window
        QCOMPARE(qRound(m.bytesPerSecond()), 1000);
    }

    void renameNames()
    {
        QSet<QString> taken{QStringLiteral("/d/a.txt"), QStringLiteral("/d/a (1).txt")};
        QCOMPARE(firstFreeName(QStringLiteral("/d/a.txt"), [&](const QString &p) { return taken.contains(p); }),
                 QStringLiteral("/d/a (2).txt"));
        QCOMPARE(firstFreeName(QStringLiteral("/d/dir"), [&](const QString &) { return false; }), QStringLiteral("/d/dir (1)"));
        QCOMPARE(remoteParent(QStringLiteral("/a")), QStringLiteral("/"));
        QCOMPARE(remoteBaseName(QStringLiteral("/a/b/")), QStringLiteral("b"));
    }

    void scanSkipsLinksAndStatesIt()
    {
        QTemporaryDir dir;
        QDir(dir.path()).mkpath(QStringLiteral("top/sub"));
        QFile f(dir.filePath(QStringLiteral("top/sub/ü.txt")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("x");
        f.close();
        QFile::link(dir.filePath(QStringLiteral("top/sub/ü.txt")), dir.filePath(QStringLiteral("top/link.txt")));
        QFile::link(dir.filePath(QStringLiteral("top/sub")), dir.filePath(QStringLiteral("top/linkdir")));
        QFile::link(dir.filePath(QStringLiteral("nowhere")), dir.filePath(QStringLiteral("top/broken")));
        auto followed = scanLocalTree(dir.filePath(QStringLiteral("top")), true);
        QVERIFY(followed);
        QCOMPARE(followed->fileCount, 2);
        QCOMPARE(followed->notes.size(), 2); // the folder link and the broken one
        auto skipped = scanLocalTree(dir.filePath(QStringLiteral("top")), false);
        QVERIFY(skipped);
        QCOMPARE(skipped->fileCount, 1);
        QCOMPARE(skipped->notes.size(), 3);
    }

    void fileSessions()
    {
        constexpr quint64 MiB = 1024 * 1024;
        QCOMPARE(fileParallel(16 * MiB, 100), 1);   // one or two chunks: one session
        const int cap = sessionCap(); // two a core of this computer
        QVERIFY(cap >= 2 && cap <= 16);
        QCOMPARE(fileParallel(40 * MiB, 100), std::min(4, cap));
        QCOMPARE(fileParallel(128 * MiB, 100), std::min(8, cap));  // each session is held to ~1 window per round trip
        QCOMPARE(fileParallel(128 * MiB, 20), 2);
        QCOMPARE(fileParallel(128 * MiB, 0), 1);    // short link: the CPUs limit
        QCOMPARE(fileParallel(1024 * MiB, 0), 2);
        QCOMPARE(fileParallel(1024 * MiB, 100), std::min(8, cap));
        QCOMPARE(autoParallel(128 * MiB, 100), std::min(4, cap));  // folders keep their own steps
        // On a long link a session per ~8 MiB, up to eight whatever the cores (each is held to its
        // window); on a short link the cores limit.
        QCOMPARE(treeParallel(400 * MiB, 5000, 50), kLongLinkTreeSessions);
        QCOMPARE(treeParallel(65 * MiB, 1000, 50), 8);
        QCOMPARE(treeParallel(37 * MiB, 1000, 50), 4);
        QCOMPARE(treeParallel(400 * MiB, 5000, 0), std::min(4, cap));
        QCOMPARE(treeParallel(19 * MiB, 500, 50), 2);
        QCOMPARE(treeParallel(5 * MiB, 300, 100), 1);
        QCOMPARE(treeParallel(37 * MiB, 1000, 0), 1);
        QCOMPARE(treeParallel(19 * MiB, 500, 0), 1);
    }

    // A large upload on a long link: four sessions, each with several SFTP channels (sshd's 2 MiB
    // window is per channel), never more channels than chunks; the user's choices win.
    void fileFanoutOverChannels()
    {
        constexpr quint64 MiB = 1024 * 1024;
        const auto fanout = [](quint64 size, qint64 rtt, TransferOptions o = {}) {
            const Fanout f = fanoutFor(o, size, int((size + kChunkSize - 1) / kChunkSize), rtt);
            return QPair<int, int>(f.sessions, f.lanes);
        };
        const int four = std::min(kLaneSessions, sessionCap()); // 4 from two cores
        QCOMPARE(fanout(1024 * MiB, 0), qMakePair(2, 1));    // short link: one channel each
        QCOMPARE(fanout(1024 * MiB, 20), qMakePair(four, 1));
        QCOMPARE(fanout(1024 * MiB, 50), qMakePair(four, 3));
        QCOMPARE(fanout(1024 * MiB, 100), qMakePair(four, 7));
        QCOMPARE(fanout(1024 * MiB, 200), qMakePair(four, kMaxLanes));
        QCOMPARE(fanout(40 * MiB, 200), qMakePair(four, 1));     // below 64 MiB: one channel a session
        QCOMPARE(fanout(64 * MiB, 200), qMakePair(four, 16 / four)); // 16 chunks shared out
        TransferOptions fixed;
        fixed.parallel = 2;
        QCOMPARE(fanout(1024 * MiB, 200, fixed), qMakePair(2, kMaxLanes));
        fixed.channels = 3;
        QCOMPARE(fanout(1024 * MiB, 0, fixed), qMakePair(2, 3));
        const Fanout tail = fanoutFor(TransferOptions{}, 1024 * MiB, 6, 200); // a resume with six chunks to go
        QCOMPARE(tail.sessions, four);
        QCOMPARE(tail.lanes, (6 + four - 1) / four); // no more channels than chunks
    }

    void prefetchStartsWhatIsAskedAndHandsItOut()
    {
        std::atomic_int connects{0};
        TransferContext ctx(failingFactory(&connects), nullptr, nullptr, QStringLiteral("h"), TransferOptions{});
        {
            SessionPrefetch prefetch(ctx, SessionPrefetch::forOneUpload(ctx, 0)); // not one large upload: nothing on its own
            QCOMPARE(ctx.prefetch(), &prefetch);
            prefetch.firstConnected(500);
            QCOMPARE(prefetch.roundTripHintMs(), 100);
            prefetch.ensure(3);
            prefetch.ensure(2); // never fewer
            bool claimed = false;
            for (int i = 0; i < 3; ++i) {
                QVERIFY(!prefetch.take(&claimed)); // the connect failed: that worker does not run
                QVERIFY(claimed);
            }
            QVERIFY(!prefetch.take(&claimed));
            QVERIFY(!claimed); // all claimed: the caller connects its own
        }
        QCOMPARE(ctx.prefetch(), nullptr);
        QCOMPARE(connects.load(), 3);
    }

    void prefetchForALargeUploadOnALongLink()
    {
        std::atomic_int connects{0};
        TransferContext ctx(failingFactory(&connects), nullptr, nullptr, QStringLiteral("h"), TransferOptions{});
        {
            SessionPrefetch prefetch(ctx, SessionPrefetch::forOneUpload(ctx, 128ull * 1024 * 1024),
                                     SessionPrefetch::lanesForOneUpload(ctx, 128ull * 1024 * 1024));
            QCOMPARE(prefetch.extraLanes(), 0); // no round trip known yet
            prefetch.firstConnected(540); // ~108 ms round trip: four sessions (with channels), three of them extra
            bool claimed = true;
            int claims = 0;
            while (claimed) {
                (void)prefetch.take(&claimed);
                claims += claimed ? 1 : 0;
            }
            const int sessions = std::min(kLaneSessions, sessionCap());
            QCOMPARE(claims, sessions - 1);
            QCOMPARE(prefetch.extraLanes(), std::min(7, 32 / sessions) - 1); // opened with each session's first
        }
        QCOMPARE(connects.load(), std::min(kLaneSessions, sessionCap()) - 1);
    }

    void prefetchHonoursOneSession()
    {
        std::atomic_int connects{0};
        TransferOptions one;
        one.parallel = 1;
        TransferContext ctx(failingFactory(&connects), nullptr, nullptr, QStringLiteral("h"), one);
        {
            SessionPrefetch prefetch(ctx, SessionPrefetch::forOneUpload(ctx, 1024ull * 1024 * 1024));
            prefetch.firstConnected(650);
            bool claimed = true;
            QVERIFY(!prefetch.take(&claimed));
            QVERIFY(!claimed);
        }
        QCOMPARE(connects.load(), 0);
    }

    // One batch script per folder sweeps stale leftovers; a retried attempt's first one again.
    void oneSweepPerFolderAndAttempt()
    {
        std::atomic_int connects{0};
        TransferContext ctx(failingFactory(&connects), nullptr, nullptr, QStringLiteral("h"), TransferOptions{});
        QVERIFY(ctx.claimSweep(QStringLiteral("staging:/data")));
        QVERIFY(!ctx.claimSweep(QStringLiteral("staging:/data")));
        QVERIFY(ctx.claimSweep(QStringLiteral("stage:/data")));
        ctx.restartProgress();
        QVERIFY(ctx.claimSweep(QStringLiteral("staging:/data")));
    }
};

QTEST_GUILESS_MAIN(TestTransferUnits)
#include "test_transfer_units.moc"
