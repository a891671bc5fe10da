// SyncEngine on its own against the real test sshd: a file that changes while a sync sends it is
// sent again, and what the host keeps is a version the file really had, never a torn one.

#include "delayrelayprocess.h"
#include "sshdfixture.h"
#include "testfiles.h"

#include "core/sync/syncengine.h"
#include "core/transfer/sessionfactory.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::sync;

class TestSyncEngine : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_config;

    // Syncs local into remote; onScan runs after the first scan, before anything is sent.
    Result<void> syncWithChange(const QString &local, const QString &remote, const std::function<void()> &onScan,
                                QList<SyncEvent> *events)
    {
        int scans = 0;
        SyncEventSink sink = [&](const SyncEvent &e) {
            events->append(e);
            if (e.kind == SyncEvent::Scan && scans++ == 0) onScan();
        };
        const auto factory = transfer::makeSessionFactory(m_sshd.target(), m_sshd.connectOptions());
        SyncEngine engine(factory, SyncTarget{QStringLiteral("test"), local, remote, m_config.path()}, SyncOptions{}, sink);
        return engine.run();
    }

    static void write(const QString &path, const QByteArray &content, qint64 mtime)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
        QVERIFY(f.flush()); // else the write at close() sets the time again
        QVERIFY(f.setFileTime(QDateTime::fromSecsSinceEpoch(mtime), QFileDevice::FileModificationTime));
    }

    static QByteArray read(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private slots:
    void initTestCase() { GANTRY_REQUIRE_SSHD(m_sshd.start()); }

    void grownWhileSentIsSentAgain()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        const QString file = local.filePath(QStringLiteral("log.txt"));
        write(file, QByteArray(100000, 'a'), 1000000);
        QList<SyncEvent> events;
        auto r = syncWithChange(local.path(), remote.path(), [&] { write(file, QByteArray(150000, 'b'), 2000000); }, &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(read(remote.filePath(QStringLiteral("log.txt"))), QByteArray(150000, 'b'));
        const bool noted = std::any_of(events.begin(), events.end(), [](const SyncEvent &e) { return e.kind == SyncEvent::Note; });
        QVERIFY(noted);
    }

    void rewrittenInPlaceIsSentAgain()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        const QString file = local.filePath(QStringLiteral("cfg.yaml"));
        write(file, QByteArray(5000, 'a'), 1000000);
        QList<SyncEvent> events;
        // Same size, new content, in the same second: the scan's size still matches what is read.
        auto r = syncWithChange(local.path(), remote.path(), [&] {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.write(QByteArray(5000, 'c'));
        }, &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(read(remote.filePath(QStringLiteral("cfg.yaml"))), QByteArray(5000, 'c'));
        QCOMPARE(QFileInfo(remote.filePath(QStringLiteral("cfg.yaml"))).lastModified().toSecsSinceEpoch(),
                 QFileInfo(file).lastModified().toSecsSinceEpoch());
    }

    // A sync that holds its connection between rounds (--watch, the window's folder pairs) lists
    // and sends through the batch runner its first round started: the later rounds ask the host
    // to start no command, so no login shell runs (a second or more where conda or pyenv init on
    // GPU images). A link that drops still recovers on a new connection with a new runner.
    void heldConnectionRoundsStartNoShell()
    {
        test::SshdFixture sshd;
        test::SshdFixture::Options options;
        options.debugLog = true;
        options.shellStartupMs = 200; // what the later rounds must not pay again
        GANTRY_REQUIRE_SSHD(sshd.start(options));
        QTemporaryDir local;
        QTemporaryDir remote;
        write(local.filePath(QStringLiteral("a.txt")), "one", 1000000);
        QVERIFY(QDir().mkpath(local.filePath(QStringLiteral("src"))));
        write(local.filePath(QStringLiteral("src/b.py")), QByteArray(20000, 'b'), 1000000);
        QList<SyncEvent> events;
        const auto factory = transfer::makeSessionFactory(sshd.target(), sshd.connectOptions());
        SyncEngine engine(factory, SyncTarget{QStringLiteral("test"), local.path(), remote.path(), m_config.path()}, SyncOptions{},
                          [&events](const SyncEvent &e) { events.append(e); });
        auto r = engine.run();
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        const qsizetype execs = sshd.log().count("req exec");
        QVERIFY2(execs >= 1, sshd.log().right(2000).constData());

        write(local.filePath(QStringLiteral("a.txt")), "two", 1000010); // an edit
        QVERIFY(QDir().mkpath(local.filePath(QStringLiteral("new"))));
        write(local.filePath(QStringLiteral("new/c.txt")), "three", 1000020); // a new folder
        r = engine.run();
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        r = engine.run(); // nothing changed
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(read(remote.filePath(QStringLiteral("a.txt"))), QByteArray("two"));
        QCOMPARE(read(remote.filePath(QStringLiteral("new/c.txt"))), QByteArray("three"));
        QCOMPARE(read(remote.filePath(QStringLiteral("src/b.py"))), QByteArray(20000, 'b'));
        QCOMPARE(events.last().kind, SyncEvent::Done);
        QCOMPARE(events.last().files, 0);
        QCOMPARE(sshd.log().count("req exec"), execs); // no command, no shell since the first round

        QCOMPARE(sshd.restart(), QString()); // the link drops; the runner with it
        write(local.filePath(QStringLiteral("a.txt")), "four", 1000030);
        r = engine.run();
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(read(remote.filePath(QStringLiteral("a.txt"))), QByteArray("four"));
    }

    // A first sync with a lot to send over a long link (80 ms round trips through the delay
    // relay) goes over several sessions, the helpers' connects started beside the first one's
    // (its server banner has not come after 25 ms): every file arrives, and a re-sync with nothing new
    // connects no helper.
    void helpersConnectBesideTheFirstSession()
    {
        test::SshdFixture sshd;
        test::SshdFixture::Options options;
        options.debugLog = true;
        GANTRY_REQUIRE_SSHD(sshd.start(options));
        test::DelayRelay relay;
        QVERIFY(relay.start(sshd.port(), 40, m_config.path()));
        const QByteArray line = test::readAll(sshd.knownHostsPath()).trimmed().split('\n').first();
        const QString knownHosts = m_config.filePath(QStringLiteral("relay_known_hosts"));
        test::writeFile(knownHosts, "[127.0.0.1]:" + QByteArray::number(relay.port) + line.mid(line.indexOf(' ')) + '\n');
        ssh::Target target = sshd.target();
        target.port = relay.port;
        ssh::ConnectOptions connect = sshd.connectOptions();
        connect.knownHostsFile = knownHosts;
        QTemporaryDir local;
        QTemporaryDir remote;
        const auto content = [](int i) { return QByteArray::number(i).repeated(1 << 20).left(1 << 20); };
        for (int i = 0; i < 24; ++i) write(local.filePath(QStringLiteral("f%1.bin").arg(i)), content(i), 1000000); // 24 MiB
        const auto factory = transfer::makeSessionFactory(target, connect);
        QList<SyncEvent> events;
        SyncEngine engine(factory, SyncTarget{QStringLiteral("test"), local.path(), remote.path(), m_config.path()}, SyncOptions{},
                          [&events](const SyncEvent &e) { events.append(e); });
        auto r = engine.run();
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().kind, SyncEvent::Done);
        QCOMPARE(events.last().files, 24);
        for (int i = 0; i < 24; ++i) QCOMPARE(read(remote.filePath(QStringLiteral("f%1.bin").arg(i))), content(i));
        const qsizetype logins = sshd.log().count("Accepted publickey");
        QVERIFY2(logins >= 2, sshd.log().right(2000).constData()); // the first session and its helpers

        engine.disconnect(); // a new process's re-sync: it connects again
        r = engine.run();
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 0);
        QCOMPARE(sshd.log().count("Accepted publickey"), logins + 1);
    }
};

QTEST_GUILESS_MAIN(TestSyncEngine)
#include "test_sync_engine.moc"
