// SPDX-License-Identifier: Apache-2.0
// gantry-cli sync --hold against the real test sshd: a later sync of the same pair and options runs
// over the held connection (no new log-in, no remote command), sends what changed, prints what a
// plain sync prints; other options get a holder of their own; --release ends them; a dead holder's
// socket is replaced; a runtime folder that is not the user's alone holds nothing (the sync still
// runs); --hold goes with a plain sync only.

#include "clirun.h"
#include "sshdfixture.h"
#include "testfiles.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace gantry;

namespace {

QJsonObject eventOf(const test::CliRun &run, const QString &name)
{
    for (const QJsonObject &o : run.lines()) {
        if (o.value(QStringLiteral("event")).toString() == name) return o;
    }
    return {};
}

} // namespace

class TestSyncHold : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_config;
    QTemporaryDir m_runtime; // XDG_RUNTIME_DIR: the holders' sockets

    test::RunOptions options() const
    {
        test::RunOptions o;
        o.env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_runtime.path());
        o.timeoutMs = 60000;
        return o;
    }

    test::CliRun sync(const QStringList &args, bool json = true) const
    {
        QStringList full = json ? QStringList{QStringLiteral("--json")} : QStringList{};
        full << QStringLiteral("sync") << args << QStringLiteral("-i") << m_sshd.clientKeyPath() << QStringLiteral("--known-hosts")
             << m_sshd.knownHostsPath();
        return test::runCli(m_config.path(), full, options());
    }

    QString spec(const QString &remote) const
    {
        return QStringLiteral("%1@127.0.0.1:%2:%3").arg(m_sshd.user()).arg(m_sshd.port()).arg(remote);
    }

    QStringList sockets() const
    {
        return QDir(m_runtime.filePath(QStringLiteral("gantry-sync"))).entryList({QStringLiteral("*.sock")}, QDir::System);
    }

    // The holder starts in the background; it listens before it connects. A released one is gone
    // by the time --release returns, but one that ended idle may take a moment.
    bool waitForHolders(qsizetype count) const
    {
        for (int i = 0; i < 100 && sockets().size() != count; ++i) QThread::msleep(100);
        return sockets().size() == count;
    }

    void releaseAll() const
    {
        for (int i = 0; i < 3 && !sockets().isEmpty(); ++i) {
            test::runCli(m_config.path(), {QStringLiteral("sync"), QStringLiteral("--release")}, options());
            waitForHolders(0);
        }
        QVERIFY2(sockets().isEmpty(), qPrintable(sockets().join(QLatin1Char(' '))));
    }

    static bool waitForListening(const QString &path)
    {
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray native = QFile::encodeName(path);
        memcpy(address.sun_path, native.constData(), size_t(native.size()));
        for (int i = 0; i < 100; ++i, QThread::msleep(100)) {
            const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
            const bool listening = ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
            ::close(fd); // the holder reads no request from it and goes on waiting
            if (listening) return true;
        }
        return false;
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral(GANTRY_CLI_PATH))) QSKIP("gantry-cli not built");
        test::SshdFixture::Options o;
        o.debugLog = true;
        GANTRY_REQUIRE_SSHD(m_sshd.start(o));
        QVERIFY(m_runtime.isValid());
    }

    // Each test starts with no holder, and none outlives the suite.
    void init() { releaseAll(); }
    void cleanupTestCase() { releaseAll(); }

    void laterSyncsRunOverTheHeldConnection()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        test::writeFile(local.filePath(QStringLiteral("train.py")), "print(1)\n");
        test::writeFile(local.filePath(QStringLiteral("data/a.csv")), "1,2\n");
        const QStringList pair{QStringLiteral("--hold"), QStringLiteral("300"), local.path(), spec(remote.path())};

        const test::CliRun first = sync(pair);
        QVERIFY2(first.code == 0, first.err.constData());
        QCOMPARE(eventOf(first, QStringLiteral("hold")).value(QStringLiteral("reused")).toBool(true), false);
        QVERIFY(waitForHolders(1));

        const test::CliRun again = sync(pair); // may wait for the holder's own log-in
        QVERIFY2(again.code == 0, again.err.constData());
        QCOMPARE(eventOf(again, QStringLiteral("hold")).value(QStringLiteral("reused")).toBool(), true);
        QCOMPARE(eventOf(again, QStringLiteral("plan")).value(QStringLiteral("unchanged")).toInt(), 2);
        const qsizetype logins = m_sshd.log().count("Accepted publickey");
        const qsizetype execs = m_sshd.log().count("req exec");

        test::writeFile(local.filePath(QStringLiteral("train.py")), "print(2 + 2)\n");
        const test::CliRun edit = sync(pair);
        QVERIFY2(edit.code == 0, edit.err.constData());
        QCOMPARE(eventOf(edit, QStringLiteral("file")).value(QStringLiteral("path")).toString(), QStringLiteral("train.py"));
        QCOMPARE(test::readAll(remote.filePath(QStringLiteral("train.py"))), QByteArray("print(2 + 2)\n"));

        const test::CliRun text = sync(pair, false); // what a plain sync prints
        QVERIFY2(text.code == 0 && text.out.contains("0 new, 0 changed, 2 unchanged") && text.out.contains("Synced: 0 sent"),
                 text.out.constData());
        QCOMPARE(m_sshd.log().count("Accepted publickey"), logins); // no new log-in…
        QCOMPARE(m_sshd.log().count("req exec"), execs);            // …and no login shell

        // Other options are another sync: a holder of their own.
        const test::CliRun other = sync({QStringLiteral("--delete"), QStringLiteral("--hold"), QStringLiteral("300"), local.path(),
                                         spec(remote.path())});
        QVERIFY2(other.code == 0, other.err.constData());
        QCOMPARE(eventOf(other, QStringLiteral("hold")).value(QStringLiteral("reused")).toBool(true), false);
        QVERIFY(waitForHolders(2));
        const test::CliRun otherAgain = sync({QStringLiteral("--delete"), QStringLiteral("--hold"), QStringLiteral("300"), local.path(),
                                              spec(remote.path())}); // the holder is ready once it served a round
        QCOMPARE(eventOf(otherAgain, QStringLiteral("hold")).value(QStringLiteral("reused")).toBool(), true);

        const test::CliRun one = sync({QStringLiteral("--release"), local.path(), spec(remote.path())});
        QCOMPARE(one.code, 0);
        QCOMPARE(eventOf(one, QStringLiteral("released")).value(QStringLiteral("count")).toInt(), 1);
        QVERIFY(waitForHolders(1));
        const test::CliRun all = test::runCli(m_config.path(), {QStringLiteral("--json"), QStringLiteral("sync"), QStringLiteral("--release")},
                                              options());
        QCOMPARE(eventOf(all, QStringLiteral("released")).value(QStringLiteral("count")).toInt(), 1);
        QVERIFY(waitForHolders(0));

        const test::CliRun fresh = sync(pair); // nothing held: it syncs itself and holds again
        QVERIFY2(fresh.code == 0, fresh.err.constData());
        QCOMPARE(eventOf(fresh, QStringLiteral("hold")).value(QStringLiteral("reused")).toBool(true), false);
        QVERIFY(waitForHolders(1));
    }

    // A holder that was killed leaves its socket behind: the next sync syncs itself and its new
    // holder takes the place.
    void deadHoldersSocketIsReplaced()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        test::writeFile(local.filePath(QStringLiteral("m.py")), "m\n");
        const QStringList pair{QStringLiteral("--hold"), QStringLiteral("300"), local.path(), spec(remote.path())};
        QCOMPARE(sync(pair).code, 0);
        QVERIFY(waitForHolders(1));
        const QString path = m_runtime.filePath(QStringLiteral("gantry-sync/") + sockets().constFirst());
        QCOMPARE(sync({QStringLiteral("--release"), local.path(), spec(remote.path())}).code, 0);
        QVERIFY(waitForHolders(0));

        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0); // bound, never listening, closed: stale
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        const QByteArray native = QFile::encodeName(path);
        memcpy(address.sun_path, native.constData(), size_t(native.size()));
        QVERIFY(::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0);
        ::close(fd);

        const test::CliRun first = sync(pair);
        QVERIFY2(first.code == 0, first.err.constData());
        QCOMPARE(eventOf(first, QStringLiteral("hold")).value(QStringLiteral("reused")).toBool(true), false);
        QVERIFY(waitForListening(path)); // the file was there all along: wait for the new holder
        const test::CliRun held = sync(pair);
        QVERIFY2(held.code == 0, held.err.constData());
        QCOMPARE(eventOf(held, QStringLiteral("hold")).value(QStringLiteral("reused")).toBool(), true);
    }

    // A runtime folder others may enter holds nothing; the sync itself still runs.
    void sharedRuntimeFolderHoldsNothing()
    {
        QTemporaryDir runtime;
        QVERIFY(QDir().mkpath(runtime.filePath(QStringLiteral("gantry-sync"))));
        QVERIFY(::chmod(QFile::encodeName(runtime.filePath(QStringLiteral("gantry-sync"))).constData(), 0755) == 0);
        QTemporaryDir local;
        QTemporaryDir remote;
        test::writeFile(local.filePath(QStringLiteral("a.txt")), "a\n");
        test::RunOptions o = options();
        o.env.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime.path());
        const QStringList args{QStringLiteral("sync"), QStringLiteral("--hold"), QStringLiteral("300"), local.path(), spec(remote.path()),
                               QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"), m_sshd.knownHostsPath()};
        const test::CliRun run = test::runCli(m_config.path(), args, o);
        QCOMPARE(run.code, 0);
        QVERIFY2(run.err.contains("is open to other users") && run.err.contains("chmod 700") && !run.err.contains("Holding"),
                 run.err.constData());
        QCOMPARE(test::readAll(remote.filePath(QStringLiteral("a.txt"))), QByteArray("a\n"));
    }

    void holdGoesWithAPlainSyncOnly()
    {
        QTemporaryDir local;
        for (const QString &other : {QStringLiteral("--watch"), QStringLiteral("--dry-run")}) {
            const test::CliRun run = sync({other, QStringLiteral("--hold"), QStringLiteral("300"), local.path(), spec(QStringLiteral("/tmp/x"))});
            QCOMPARE(run.code, 2);
            QVERIFY2(run.err.contains("--hold goes with a plain sync only"), run.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestSyncHold)
#include "test_sync_hold.moc"
