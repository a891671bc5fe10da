// gantry-cli sync against the real test sshd, as a user's script would run it: first sync, no-change
// re-sync, one edit, ignore files, links, modes and times, --dry-run, --delete's safety, names that
// are not UTF-8, the bad inputs, --watch (a change appears remotely; a dropped link resumes), and
// --list / --forget over the pairs the GUI remembers.

#include "clirun.h"
#include "sshdfixture.h"

#include "core/sync/syncpairs.h"
#include "core/transfer/remotespec.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace gantry;

namespace {

void put(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(content);
}

QByteArray read(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

} // namespace

class TestSyncCli : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_config;

    struct Run : test::CliRun
    {
        QList<QJsonObject> lines;

        QList<QJsonObject> events(const QString &name) const
        {
            QList<QJsonObject> found;
            for (const QJsonObject &o : lines) {
                if (o.value(QStringLiteral("event")).toString() == name) found.append(o);
            }
            return found;
        }
        QJsonObject plan() const { return events(QStringLiteral("plan")).value(0); }
        QStringList paths(const QString &action) const
        {
            QStringList p;
            for (const QJsonObject &o : events(QStringLiteral("file"))) {
                if (o.value(QStringLiteral("action")).toString() == action) p.append(o.value(QStringLiteral("path")).toString());
            }
            p.sort();
            return p;
        }
    };

    // --json sync ARGS… with the connection options of sshd (gantry-cli's --config-dir comes first).
    QStringList fullArgs(const test::SshdFixture &sshd, const QStringList &args) const
    {
        QStringList full{QStringLiteral("--json"), QStringLiteral("sync")};
        full += args;
        full += {QStringLiteral("-i"), sshd.clientKeyPath(), QStringLiteral("--known-hosts"), sshd.knownHostsPath()};
        return full;
    }

    QString spec(const test::SshdFixture &sshd, const QString &remote) const
    {
        return QStringLiteral("%1@127.0.0.1:%2:%3").arg(sshd.user()).arg(sshd.port()).arg(remote);
    }

    static Run parse(const test::CliRun &finished)
    {
        Run r;
        static_cast<test::CliRun &>(r) = finished;
        for (const QByteArray &line : r.out.split('\n')) {
            const auto doc = QJsonDocument::fromJson(line);
            if (doc.isObject()) r.lines.append(doc.object());
        }
        return r;
    }

    static test::RunOptions within(int timeoutMs)
    {
        test::RunOptions options;
        options.timeoutMs = timeoutMs;
        return options;
    }

    // gantry-cli with no host options: --list and --forget read only the config dir.
    Run cli(const QStringList &args, bool json = true)
    {
        const QStringList full = (json ? QStringList{QStringLiteral("--json")} : QStringList{}) + QStringList{QStringLiteral("sync")} + args;
        return parse(test::runCli(m_config.path(), full, within(60000)));
    }

    // Starts `sync --watch local remote`, with `sigint` as the child's SIGINT disposition: SIG_DFL
    // as from a terminal (a test run in the background of a script inherits it ignored).
    // sync --json --watch of local (holding a.py) into remote, with SIGINT set to sigint in the
    // child; returns once the first sync is done and the watch is idle.
    void startIdleWatch(QProcess &p, const QTemporaryDir &local, const QTemporaryDir &remote, void (*sigint)(int))
    {
        put(local.filePath(QStringLiteral("a.py")), "one");
        test::RunOptions options;
        options.inChild = [sigint] { std::signal(SIGINT, sigint); };
        test::startCli(p, m_config.path(), fullArgs(m_sshd, {QStringLiteral("--watch"), local.path(), spec(m_sshd, remote.path())}), options);
        QVERIFY(p.waitForStarted());
        QByteArray seen;
        QTRY_VERIFY_WITH_TIMEOUT((seen += p.readAllStandardOutput()).contains("\"event\":\"done\""), 30000);
    }

    // The watch, sent a signal that ends it, exits 0 and says it stopped.
    void expectStoppedCleanly(QProcess &p)
    {
        QVERIFY(p.waitForFinished(30000));
        const Run run = parse(test::finish(p));
        QCOMPARE(run.code, 0);
        QVERIFY(!run.events(QStringLiteral("stopped")).isEmpty());
    }

    Run sync(const QStringList &args, const test::SshdFixture *sshd = nullptr)
    {
        return parse(test::runCli(m_config.path(), fullArgs(sshd ? *sshd : m_sshd, args), within(120000)));
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral(GANTRY_CLI_PATH))) QSKIP("gantry-cli not built");
        GANTRY_REQUIRE_SSHD(m_sshd.start());
    }

    // The pairs the GUI stores (written here through the same store) are listed and forgotten from
    // the CLI; lastSynced comes from the pair's manifest, which a real sync writes.
    void listAndForgetRememberedPairs()
    {
        QTemporaryDir local;
        QTemporaryDir other;
        QTemporaryDir remote;
        put(local.filePath(QStringLiteral("a.py")), "print(1)\n");
        const QString dest = spec(m_sshd, remote.path());
        const QString host = transfer::parseRemoteSpec(dest)->host;
        const QString localDir = QDir(local.path()).canonicalPath();
        const QString otherDir = QDir(other.path()).canonicalPath();
        QVERIFY(sync::SyncPairStore(m_config.path())
                    .save({{host, localDir, remote.path(), true, true}, {QStringLiteral("gpu-box"), otherDir, QStringLiteral("proj"), false, false}}));
        QCOMPARE(sync({local.path(), dest}).code, 0);

        Run all = cli({QStringLiteral("--list")});
        QCOMPARE(all.code, 0);
        const QJsonArray pairs = all.lines.value(0).value(QStringLiteral("pairs")).toArray();
        QCOMPARE(pairs.size(), 2);
        const QJsonObject first = pairs[0].toObject();
        QCOMPARE(first.value(QStringLiteral("host")).toString(), host);
        QCOMPARE(first.value(QStringLiteral("local")).toString(), localDir);
        QCOMPARE(first.value(QStringLiteral("remote")).toString(), remote.path());
        QVERIFY(first.value(QStringLiteral("keepInSync")).toBool());
        QVERIFY(first.value(QStringLiteral("delete")).toBool());
        QVERIFY2(!first.value(QStringLiteral("lastSynced")).isNull(), "a synced pair says when");
        QVERIFY(pairs[1].toObject().value(QStringLiteral("lastSynced")).isNull());

        Run one = cli({QStringLiteral("--list"), QStringLiteral("gpu-box")});
        QCOMPARE(one.lines.value(0).value(QStringLiteral("pairs")).toArray().size(), 1);
        Run text = cli({QStringLiteral("--list"), QStringLiteral("gpu-box")}, false);
        QVERIFY2(text.out.contains("gpu-box") && text.out.contains("keep in sync: off") && text.out.contains("never synced"),
                 text.out.constData());
        QCOMPARE(cli({QStringLiteral("--list"), QStringLiteral("nobody")}).lines.value(0).value(QStringLiteral("pairs")).toArray().size(), 0);

        Run forgot = cli({QStringLiteral("--forget"), local.path(), dest});
        QCOMPARE(forgot.code, 0);
        QCOMPARE(forgot.lines.value(0).value(QStringLiteral("forgotten")).toObject().value(QStringLiteral("local")).toString(), localDir);
        const auto left = sync::SyncPairStore(m_config.path()).load();
        QVERIFY(left && left->size() == 1 && left->first().host == QStringLiteral("gpu-box"));
        QCOMPARE(read(remote.filePath(QStringLiteral("a.py"))), QByteArray("print(1)\n")); // files stay

        Run again = cli({QStringLiteral("--forget"), local.path(), dest}, false);
        QCOMPARE(again.code, 1);
        QVERIFY2(again.err.contains("No remembered sync pair") && again.err.contains("--list"), again.err.constData());
        QCOMPARE(cli({QStringLiteral("--list"), QStringLiteral("--forget")}).code, 2);
        QCOMPARE(cli({QStringLiteral("--list"), QStringLiteral("a"), QStringLiteral("b")}).code, 2);
    }

    void firstSyncThenOnlyChanges()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        put(local.filePath(QStringLiteral("train.py")), "print('hi')\n");
        put(local.filePath(QStringLiteral("run.sh")), "#!/bin/sh\n");
        QFile::setPermissions(local.filePath(QStringLiteral("run.sh")), QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                  | QFileDevice::ExeOwner | QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther);
        put(local.filePath(QStringLiteral("src/model/net.py")), QByteArray(50000, 'n'));
        put(local.filePath(QStringLiteral(".gitignore")), "*.ckpt\n__pycache__/\n!keep.ckpt\n");
        put(local.filePath(QStringLiteral("big.ckpt")), "weights");
        put(local.filePath(QStringLiteral("keep.ckpt")), "kept");
        put(local.filePath(QStringLiteral("src/__pycache__/net.pyc")), "bytecode");
        put(local.filePath(QStringLiteral(".git/config")), "[core]");
        put(local.filePath(QStringLiteral("data/.gantryignore")), "raw/\n");
        put(local.filePath(QStringLiteral("data/raw/huge.bin")), "raw");
        put(local.filePath(QStringLiteral("data/small.csv")), "a,b\n");
        QVERIFY(::symlink("../train.py", QFile::encodeName(local.filePath(QStringLiteral("src/link.py"))).constData()) == 0);
        QVERIFY(::symlink("/etc", QFile::encodeName(local.filePath(QStringLiteral("outside"))).constData()) == 0);
        const qint64 past = QDateTime::currentSecsSinceEpoch() - 86400;
        QFile stamp(local.filePath(QStringLiteral("train.py")));
        QVERIFY(stamp.open(QIODevice::ReadWrite));
        QVERIFY(stamp.setFileTime(QDateTime::fromSecsSinceEpoch(past), QFileDevice::FileModificationTime));
        stamp.close();

        const QString dest = spec(m_sshd, remote.filePath(QStringLiteral("proj")));
        Run first = sync({local.path(), dest});
        QVERIFY2(first.code == 0, first.err.constData());
        QCOMPARE(first.plan().value(QStringLiteral("new")).toInt(), 9); // files and links
        QCOMPARE(first.events(QStringLiteral("done")).size(), 1);
        const QString r = remote.filePath(QStringLiteral("proj/"));
        QCOMPARE(read(r + QStringLiteral("src/model/net.py")), QByteArray(50000, 'n'));
        QCOMPARE(read(r + QStringLiteral("keep.ckpt")), QByteArray("kept"));
        QVERIFY(!QFileInfo::exists(r + QStringLiteral("big.ckpt")));
        QVERIFY(!QFileInfo::exists(r + QStringLiteral("src/__pycache__")));
        QVERIFY(!QFileInfo::exists(r + QStringLiteral(".git")));
        QVERIFY(!QFileInfo::exists(r + QStringLiteral("data/raw")));
        QCOMPARE(QFileInfo(r + QStringLiteral("src/link.py")).symLinkTarget(), QFileInfo(r + QStringLiteral("train.py")).absoluteFilePath());
        QVERIFY(QFileInfo(r + QStringLiteral("outside")).isSymLink()); // sent as a link, /etc never read
        QCOMPARE(QFileInfo(r + QStringLiteral("train.py")).lastModified().toSecsSinceEpoch(), past);
        struct stat st{};
        QVERIFY(::stat(QFile::encodeName(r + QStringLiteral("run.sh")).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0754));

        Run again = sync({local.path(), dest});
        QVERIFY2(again.code == 0, again.err.constData());
        QCOMPARE(again.plan().value(QStringLiteral("new")).toInt(), 0);
        QCOMPARE(again.plan().value(QStringLiteral("changed")).toInt(), 0);
        QCOMPARE(again.plan().value(QStringLiteral("unchanged")).toInt(), 9);

        put(local.filePath(QStringLiteral("src/model/net.py")), QByteArray(50001, 'm'));
        Run edited = sync({local.path(), dest});
        QVERIFY2(edited.code == 0, edited.err.constData());
        QCOMPARE(edited.paths(QStringLiteral("send")), QStringList{QStringLiteral("src/model/net.py")});
        QCOMPARE(edited.plan().value(QStringLiteral("changed")).toInt(), 1);
        QCOMPARE(read(r + QStringLiteral("src/model/net.py")), QByteArray(50001, 'm'));
    }

    void dryRunAndSafeDelete()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        put(local.filePath(QStringLiteral("a.py")), "a");
        put(local.filePath(QStringLiteral("old/b.py")), "b");
        const QString dest = spec(m_sshd, remote.path());
        Run preview = sync({QStringLiteral("--dry-run"), local.path(), dest});
        QVERIFY2(preview.code == 0, preview.err.constData());
        QCOMPARE(preview.paths(QStringLiteral("send")), (QStringList{QStringLiteral("a.py"), QStringLiteral("old/b.py")}));
        QVERIFY(!QFileInfo::exists(remote.filePath(QStringLiteral("a.py"))));
        QVERIFY(sync({local.path(), dest}).code == 0);

        put(remote.filePath(QStringLiteral("wandb/run-1.log")), "run output"); // made on the machine
        put(remote.filePath(QStringLiteral("old/ckpt.pt")), "checkpoint");
        QVERIFY(QFile::remove(local.filePath(QStringLiteral("old/b.py"))));
        QVERIFY(QDir(local.filePath(QStringLiteral("old"))).removeRecursively());
        QVERIFY(QFile::remove(local.filePath(QStringLiteral("a.py"))));
        Run wouldDelete = sync({QStringLiteral("--dry-run"), QStringLiteral("--delete"), local.path(), dest});
        QVERIFY2(wouldDelete.code == 0, wouldDelete.err.constData());
        QCOMPARE(wouldDelete.paths(QStringLiteral("delete")), (QStringList{QStringLiteral("a.py"), QStringLiteral("old/b.py")}));
        QVERIFY(QFileInfo::exists(remote.filePath(QStringLiteral("a.py"))));

        Run withoutDelete = sync({local.path(), dest});
        QVERIFY(withoutDelete.paths(QStringLiteral("delete")).isEmpty());
        Run deleted = sync({QStringLiteral("--delete"), local.path(), dest});
        QVERIFY2(deleted.code == 0, deleted.err.constData());
        QCOMPARE(deleted.paths(QStringLiteral("delete")), (QStringList{QStringLiteral("a.py"), QStringLiteral("old/b.py")}));
        QVERIFY(!QFileInfo::exists(remote.filePath(QStringLiteral("a.py"))));
        QCOMPARE(read(remote.filePath(QStringLiteral("wandb/run-1.log"))), QByteArray("run output"));
        QCOMPARE(read(remote.filePath(QStringLiteral("old/ckpt.pt"))), QByteArray("checkpoint")); // its folder stays too
    }

    void nonUtf8NamesByteForByte()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        const QByteArray name = "caf\xe9 \xff.txt";
        const QByteArray path = QFile::encodeName(local.path()) + '/' + name;
        const int fd = ::open(path.constData(), O_CREAT | O_WRONLY, 0644);
        QVERIFY(fd >= 0);
        QVERIFY(::write(fd, "latin1", 6) == 6);
        ::close(fd);
        Run run = sync({local.path(), spec(m_sshd, remote.path())});
        QVERIFY2(run.code == 0, run.err.constData());
        QList<QByteArray> names;
        DIR *d = ::opendir(QFile::encodeName(remote.path()).constData());
        QVERIFY(d);
        while (const dirent *e = ::readdir(d)) {
            if (e->d_name[0] != '.') names.append(QByteArray(e->d_name));
        }
        ::closedir(d);
        QCOMPARE(names, QList<QByteArray>{name});
        Run again = sync({local.path(), spec(m_sshd, remote.path())});
        QCOMPARE(again.plan().value(QStringLiteral("unchanged")).toInt(), 1);
        // QTemporaryDir cannot name these files (Qt decodes names as UTF-8).
        QCOMPARE(::unlink(path.constData()), 0);
        QCOMPARE(::unlink(QByteArray(QFile::encodeName(remote.path()) + '/' + name).constData()), 0);
    }

    void badInput()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        put(local.filePath(QStringLiteral("f.txt")), "x");
        Run notDir = sync({local.filePath(QStringLiteral("f.txt")), spec(m_sshd, remote.path())});
        QCOMPARE(notDir.code, 2);
        QVERIFY(notDir.err.contains("f.txt is not a folder"));
        Run missing = sync({local.filePath(QStringLiteral("nope")), spec(m_sshd, remote.path())});
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("does not exist"));
        put(remote.filePath(QStringLiteral("afile")), "x");
        Run remoteFile = sync({local.path(), spec(m_sshd, remote.filePath(QStringLiteral("afile")))});
        QCOMPARE(remoteFile.code, 1);
        QVERIFY2(remoteFile.err.contains("afile on ") && remoteFile.err.contains("is a file, not a folder"), remoteFile.err.constData());
        QCOMPARE(remoteFile.err.count('\n'), 1); // one line
        // "~/" is the home folder, not a folder named "~".
        Run home = sync({local.path(), spec(m_sshd, QStringLiteral("~/") + QDir::home().relativeFilePath(remote.filePath(QStringLiteral("h"))))});
        QVERIFY2(home.code == 0, home.err.constData());
        QCOMPARE(read(remote.filePath(QStringLiteral("h/f.txt"))), QByteArray("x"));
        Run usage = sync({local.path()});
        QCOMPARE(usage.code, 2);
    }

    // A fake tar on the host fails as a full disk or a refused folder would.
    void remoteFailures()
    {
        QTemporaryDir bin;
        QVERIFY(test::writeScript(bin.filePath(QStringLiteral("tar")),
                                  QStringLiteral("#!/bin/sh\ncat >/dev/null\nif [ -f %1/full ]; then echo 'tar: ./x: Cannot write: No space left on device' >&2; "
                                                 "else echo 'tar: ./locked: Cannot open: Permission denied' >&2; fi\nexit 2\n")
                                      .arg(bin.path())));
        test::SshdFixture sshd;
        test::SshdFixture::Options options;
        options.binDir = bin.path();
        GANTRY_REQUIRE_SSHD(sshd.start(options));
        QTemporaryDir local;
        QTemporaryDir remote;
        put(local.filePath(QStringLiteral("x")), QByteArray(1000, 'x'));
        put(bin.filePath(QStringLiteral("full")), "");
        Run full = sync({local.path(), spec(sshd, remote.path())}, &sshd);
        QCOMPARE(full.code, 1);
        QVERIFY2(full.err.contains("disk on") && full.err.contains("is full"), full.err.constData());
        QVERIFY(!QFileInfo::exists(remote.filePath(QStringLiteral("x")))); // nothing half-written
        QCOMPARE(QDir(remote.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
        QVERIFY(QFile::remove(bin.filePath(QStringLiteral("full"))));
        Run denied = sync({local.path(), spec(sshd, remote.path())}, &sshd);
        QCOMPARE(denied.code, 1);
        QVERIFY2(denied.err.contains("Permission denied") && denied.err.contains(remote.path().toUtf8()), denied.err.constData());
    }

    // The link drops while the files are on their way (sshd killed and started again): the sync
    // says so, connects again, compares again and ends with every file whole, exit code 0.
    void oneSyncReconnectsWhenTheLinkDropsMidway()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        QByteArray block(512 * 1024, Qt::Uninitialized);
        for (int i = 0; i < 160; ++i) { // 80 MiB in tar batches: the send is under way when the link drops
            for (int j = 0; j < block.size(); j += 512) block[j] = char(i * 7 + j / 512);
            put(local.filePath(QStringLiteral("data/part%1.bin").arg(i)), block);
        }
        QProcess p;
        test::startCli(p, m_config.path(), fullArgs(m_sshd, {local.path(), spec(m_sshd, remote.path())}));
        QByteArray seen;
        QTRY_VERIFY_WITH_TIMEOUT((seen += p.readAllStandardOutput()).contains("\"event\":\"plan\""), 60000);
        m_sshd.stop();
        QVERIFY(m_sshd.restart().isEmpty());
        QVERIFY(p.waitForFinished(120000));
        Run run = parse(test::finish(p));
        for (const QByteArray &line : seen.split('\n')) {
            if (const auto doc = QJsonDocument::fromJson(line); doc.isObject()) run.lines.prepend(doc.object());
        }
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY2(!run.events(QStringLiteral("reconnecting")).isEmpty(), "the send ended before the link dropped");
        for (int i = 0; i < 160; ++i) {
            const QString name = QStringLiteral("data/part%1.bin").arg(i);
            QCOMPARE(read(remote.filePath(name)), read(local.filePath(name)));
        }
    }

    void watchSendsChangesAndSurvivesADroppedLink()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        QProcess p;
        startIdleWatch(p, local, remote, SIG_DFL);
        if (QTest::currentTestFailed()) return;
        QTRY_COMPARE_WITH_TIMEOUT(read(remote.filePath(QStringLiteral("a.py"))), QByteArray("one"), 30000);

        QElapsedTimer latency;
        latency.start();
        put(local.filePath(QStringLiteral("a.py")), "two, longer");
        put(local.filePath(QStringLiteral("new/b.py")), "b");
        QTRY_COMPARE_WITH_TIMEOUT(read(remote.filePath(QStringLiteral("a.py"))), QByteArray("two, longer"), 30000);
        qInfo("watch latency (200 ms debounce included): %lld ms", latency.elapsed());
        QTRY_COMPARE_WITH_TIMEOUT(read(remote.filePath(QStringLiteral("new/b.py"))), QByteArray("b"), 30000);
        put(local.filePath(QStringLiteral("new/c.py")), "c"); // in a folder the watch found after it started
        QTRY_COMPARE_WITH_TIMEOUT(read(remote.filePath(QStringLiteral("new/c.py"))), QByteArray("c"), 30000);

        m_sshd.stop(); // the link drops
        put(local.filePath(QStringLiteral("a.py")), "three, while offline");
        QVERIFY(m_sshd.restart().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(read(remote.filePath(QStringLiteral("a.py"))), QByteArray("three, while offline"), 60000);

        ::kill(pid_t(p.processId()), SIGINT); // Ctrl+C
        expectStoppedCleanly(p);
    }

    // Started with SIGINT ignored (a background job of a script), --watch leaves it ignored: a
    // Ctrl+C meant for the program in the foreground does not stop it; SIGTERM still does.
    void watchKeepsAnIgnoredCtrlCIgnored()
    {
        QTemporaryDir local;
        QTemporaryDir remote;
        QProcess p;
        startIdleWatch(p, local, remote, SIG_IGN);
        if (QTest::currentTestFailed()) return;
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY2(!p.waitForFinished(1000), "a Ctrl+C the shell ignored for it stopped the watch");
        ::kill(pid_t(p.processId()), SIGTERM);
        expectStoppedCleanly(p);
    }
};

QTEST_GUILESS_MAIN(TestSyncCli)
#include "test_sync_cli.moc"
