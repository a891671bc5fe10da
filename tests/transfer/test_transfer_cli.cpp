// gantry-cli upload / download / ls against the real test sshd, as a script would run them.

#include "clirun.h"
#include "testfiles.h"
#include "tests/support/stagingfile.h"
#include "sshdfixture.h"

#include "core/transfer/sha256.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include <sys/stat.h>

using namespace gantry;

class TestTransferCli : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_local;
    QTemporaryDir m_remote;
    QTemporaryDir m_config;

    struct Run : test::CliRun
    {
        QList<QJsonObject> lines;
    };

    QString hostSpec() const
    {
        return QStringLiteral("%1@127.0.0.1:%2").arg(m_sshd.user()).arg(m_sshd.port());
    }

    // [--json] ARGS… with the connection options of the test sshd (after --config-dir).
    QStringList withHost(const QStringList &args, bool json = true) const
    {
        QStringList full = json ? QStringList{QStringLiteral("--json")} : QStringList{};
        full += args;
        full += {QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"), m_sshd.knownHostsPath()};
        return full;
    }

    Run cli(const QStringList &args, bool json = true)
    {
        test::RunOptions options;
        options.timeoutMs = 90000;
        Run r;
        static_cast<test::CliRun &>(r) = test::runCli(m_config.path(), withHost(args, json), options);
        for (const QByteArray &line : r.out.split('\n')) {
            const auto doc = QJsonDocument::fromJson(line);
            if (doc.isObject()) r.lines.append(doc.object());
        }
        return r;
    }

    // A wrapper for a remote program (first in the fixture's PATH): its nth call whose arguments
    // hold `marker` waits `sleepS` seconds, then drops its SSH connection (kills the connection's
    // sshd and the shell below it), as a link that breaks would; every other call runs `real`.
    static QString droppingWrapper(const QString &real, const QString &marker, int nth, int sleepS, const QString &counterDir,
                                   const test::SshdFixture &host)
    {
        return QStringLiteral("#!/bin/sh\n"
                              "case \" $* \" in *\" %1 \"*)\n"
                              "  n=0; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do\n"
                              "    mkdir %2/call.$i 2>/dev/null && n=$i && break; done\n"
                              "  if [ \"$n\" = %3 ]; then\n"
                              "    sleep %4; listener=$(cat %5/sshd.pid); p=$$\n"
                              "    while [ \"$p\" -gt 1 ]; do pp=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2)\n"
                              "      if [ \"$pp\" = \"$listener\" ]; then kill -9 \"$prev\" \"$p\"; exit 1; fi; prev=$p; p=$pp; done\n"
                              "  fi;;\n"
                              "esac\n"
                              "exec %6 \"$@\"\n")
            .arg(marker, counterDir)
            .arg(nth)
            .arg(sleepS)
            .arg(host.dir(), real);
    }

    // Starts host with the dropping wrapper of `tool` (see above) first in its PATH, from bin.
    static QString startWithDroppingTool(test::SshdFixture &host, const QTemporaryDir &bin, const QString &tool,
                                         const QString &marker, int nth, int sleepS)
    {
        const QString real = QStandardPaths::findExecutable(tool);
        if (real.isEmpty()) return tool + QStringLiteral(" is not installed");
        test::SshdFixture::Options o;
        o.binDir = bin.path();
        if (const QString why = host.start(o); !why.isEmpty()) return why;
        if (!test::writeScript(bin.filePath(tool), droppingWrapper(real, marker, nth, sleepS, bin.path(), host)))
            return QStringLiteral("cannot write the %1 wrapper").arg(tool);
        return {};
    }

    // `gantry-cli --json download --retries 3 [extra…] HOST:remote into/` against host.
    test::CliRun downloadWithRetries(const test::SshdFixture &host, const QString &remote, const QString &into,
                                     const QStringList &extra = {}) const
    {
        test::RunOptions options;
        options.timeoutMs = 90000;
        return test::runCli(m_config.path(),
                            QStringList{QStringLiteral("--json"), QStringLiteral("download")} + extra
                                + QStringList{QStringLiteral("--retries"), QStringLiteral("3"),
                                              QStringLiteral("%1@127.0.0.1:%2:%3").arg(host.user()).arg(host.port()).arg(remote),
                                              into + QLatin1Char('/'), QStringLiteral("-i"), host.clientKeyPath(),
                                              QStringLiteral("--known-hosts"), host.knownHostsPath()},
                            options);
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral(GANTRY_CLI_PATH))) QSKIP("gantry-cli not built");
        const QString why = m_sshd.start();
        GANTRY_REQUIRE_SSHD(why);
    }

    void uploadLsDownload()
    {
        const QString src = m_local.filePath(QStringLiteral("weights ü.bin"));
        QFile f(src);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int i = 0; i < 3 * 1024; ++i) f.write(QByteArray(1024, char('a' + i % 26)));
        f.close();
        const QByteArray hash = transfer::sha256OfFile(src).valueOr(QByteArray());

        const QString dest = hostSpec() + QLatin1Char(':') + m_remote.path() + QStringLiteral("/models/");
        Run up = cli({QStringLiteral("upload"), QStringLiteral("--parallel"), QStringLiteral("2"), src, dest});
        QVERIFY2(up.code == 0, up.err.constData());
        QVERIFY(!up.lines.isEmpty());
        const QJsonObject summary = up.lines.last();
        QCOMPARE(summary.value(QStringLiteral("event")).toString(), QStringLiteral("summary"));
        QCOMPARE(summary.value(QStringLiteral("sha256")).toString().toLatin1(), hash);
        QCOMPARE(summary.value(QStringLiteral("payloadBytes")).toInteger(), 3 * 1024 * 1024);
        QVERIFY(summary.value(QStringLiteral("wireBytes")).toInteger() >= 3 * 1024 * 1024);
        QVERIFY(summary.contains(QStringLiteral("seconds")));
        QCOMPARE(summary.value(QStringLiteral("resumed")).toBool(), false);
        QVERIFY(summary.value(QStringLiteral("verified")).toBool());
        QCOMPARE(transfer::sha256OfFile(m_remote.filePath(QStringLiteral("models/weights ü.bin"))).valueOr({}), hash);

        // A FIFO beside it is listed as what it is, not as a file one could download.
        QVERIFY(::mkfifo(QFile::encodeName(m_remote.filePath(QStringLiteral("models/pipe"))).constData(), 0600) == 0);
        Run ls = cli({QStringLiteral("ls"), hostSpec() + QLatin1Char(':') + m_remote.path() + QStringLiteral("/models")});
        QVERIFY2(ls.code == 0, ls.err.constData());
        const auto entries = ls.lines.last().value(QStringLiteral("entries")).toArray();
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries.at(0).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("pipe"));
        QCOMPARE(entries.at(0).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("fifo"));
        QCOMPARE(entries.at(1).toObject().value(QStringLiteral("name")).toString(), QStringLiteral("weights ü.bin"));
        QCOMPARE(entries.at(1).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("file"));
        QCOMPARE(entries.at(1).toObject().value(QStringLiteral("size")).toInteger(), 3 * 1024 * 1024);
        QVERIFY(QFile::remove(m_remote.filePath(QStringLiteral("models/pipe"))));

        // Again: exists → no terminal to ask → refused with a clear message, then skip works.
        Run again = cli({QStringLiteral("upload"), src, dest});
        QCOMPARE(again.code, 1);
        QVERIFY(QString::fromUtf8(again.err).contains(QStringLiteral("already exists")));
        Run skip = cli({QStringLiteral("upload"), QStringLiteral("--on-conflict"), QStringLiteral("skip"), src, dest});
        QCOMPARE(skip.code, 0);

        Run down = cli({QStringLiteral("download"), hostSpec() + QLatin1Char(':') + m_remote.path()
                            + QStringLiteral("/models/weights ü.bin"), m_local.filePath(QStringLiteral("dl")) + QLatin1Char('/')});
        QVERIFY2(down.code == 0, down.err.constData());
        QCOMPARE(transfer::sha256OfFile(m_local.filePath(QStringLiteral("dl/weights ü.bin"))).valueOr({}), hash);
    }

    // A folder from a host whose login shell takes half a second to start (conda or pyenv init
    // on GPU images): every batch command runs through it, so those after each session's first
    // three start while earlier batches stream. 700 files over two sessions make seven batches,
    // one more than the six commands started with the listing; all arrive, verified. The host
    // allows three channels a connection: a command started ahead beside three others is
    // refused, and started again at its turn.
    void folderDownloadThroughASlowLoginShell()
    {
        test::SshdFixture slow;
        test::SshdFixture::Options o;
        o.shellStartupMs = 500;
        o.maxSessions = 3;
        GANTRY_REQUIRE_SSHD(slow.start(o));
        QTemporaryDir remote;
        for (int i = 0; i < 700; ++i) {
            const QString dir = remote.filePath(QStringLiteral("runs/d%1").arg(i % 7));
            QVERIFY(QDir().mkpath(dir));
            QFile f(dir + QStringLiteral("/f%1.txt").arg(i));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::number(i).repeated(i % 40 + 1));
        }
        QTemporaryDir into;
        const QStringList args{QStringLiteral("--json"), QStringLiteral("download"), QStringLiteral("--parallel"), QStringLiteral("2"),
                               QStringLiteral("%1@127.0.0.1:%2:%3").arg(slow.user()).arg(slow.port()).arg(remote.filePath(QStringLiteral("runs"))),
                               into.path() + QLatin1Char('/'), QStringLiteral("-i"), slow.clientKeyPath(), QStringLiteral("--known-hosts"),
                               slow.knownHostsPath()};
        test::RunOptions options;
        options.timeoutMs = 90000;
        const test::CliRun down = test::runCli(m_config.path(), args, options);
        QVERIFY2(down.code == 0, down.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(down.out.trimmed().split('\n').last()).object();
        QCOMPARE(summary.value(QStringLiteral("files")).toInt(), 700);
        QVERIFY(summary.value(QStringLiteral("verified")).toBool());
        for (int i = 0; i < 700; ++i) {
            QFile f(into.filePath(QStringLiteral("runs/d%1/f%2.txt").arg(i % 7).arg(i)));
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
            QCOMPARE(f.readAll(), QByteArray::number(i).repeated(i % 40 + 1));
        }
    }

    // A folder download whose link drops after some batches arrived goes on, in its next attempt,
    // into the same folder: what arrived is kept (not refused as "already exists"), the rest is
    // fetched, and the whole is verified. The host's `tar` drops the connection of the fourth
    // batch a second after it began (it kills that connection's two sshd processes), once the
    // others are in.
    void folderDownloadRetriedAfterADropGoesOn()
    {
        QTemporaryDir bin;
        test::SshdFixture host;
        GANTRY_REQUIRE_SSHD(startWithDroppingTool(host, bin, QStringLiteral("tar"), QStringLiteral("-T"), 4, 1));
        QTemporaryDir remote;
        const auto content = [](int i) { return QByteArray::number(i).repeated(100 + i % 50); };
        for (int i = 0; i < 700; ++i) test::writeFile(remote.filePath(QStringLiteral("run/d%1/f%2.bin").arg(i % 6).arg(i)), content(i));
        QTemporaryDir into;
        const test::CliRun down = downloadWithRetries(host, remote.filePath(QStringLiteral("run")), into.path(),
                                                      {QStringLiteral("--parallel"), QStringLiteral("2")});
        QVERIFY2(down.code == 0, down.err.constData());
        // The drop was seen, and the next attempt went on.
        QVERIFY2(down.out.contains("\"event\":\"retry\""), down.out.right(1500).constData());
        QVERIFY(down.json().value(QStringLiteral("verified")).toBool());
        // Progress counts the folder once, across attempts.
        qint64 folderBytes = 0;
        for (int i = 0; i < 700; ++i) folderBytes += content(i).size();
        int progressLines = 0;
        for (const QByteArray &line : down.out.split('\n')) {
            const QJsonObject event = QJsonDocument::fromJson(line).object();
            if (event.value(QStringLiteral("event")).toString() != QLatin1String("progress")) continue;
            ++progressLines;
            QVERIFY2(event.value(QStringLiteral("total")).toInteger() <= folderBytes, line.constData());
            QVERIFY2(event.value(QStringLiteral("filesTotal")).toInt() <= 700, line.constData());
            QVERIFY2(event.value(QStringLiteral("bytes")).toInteger() <= event.value(QStringLiteral("total")).toInteger(), line.constData());
        }
        QVERIFY(progressLines > 0);
        for (int i = 0; i < 700; ++i) QCOMPARE(test::readAll(into.filePath(QStringLiteral("run/d%1/f%2.bin").arg(i % 6).arg(i))), content(i));
    }

    // The same drop before anything was written (during the listing), into a folder of the user's
    // own: the next attempt asks again, so a file there that differs (here of the same size) is
    // refused, not taken as what the failed attempt had fetched.
    void folderDownloadRetriedAfterADropBeforeItsCheckAsksAgain()
    {
        QTemporaryDir bin;
        test::SshdFixture host;
        GANTRY_REQUIRE_SSHD(startWithDroppingTool(host, bin, QStringLiteral("find"), QStringLiteral("-printf"), 1, 0));
        QTemporaryDir remote;
        test::writeFile(remote.filePath(QStringLiteral("run/notes.txt")), "the host's\n");
        QTemporaryDir into;
        test::writeFile(into.filePath(QStringLiteral("run/notes.txt")), "mine here!\n"); // same size, other bytes
        const test::CliRun down = downloadWithRetries(host, remote.filePath(QStringLiteral("run")), into.path());
        QVERIFY2(down.out.contains("\"event\":\"retry\""), down.err.constData());
        QCOMPARE(down.code, 1);
        QVERIFY2(down.err.contains("already exists"), down.err.constData());
        QCOMPARE(test::readAll(into.filePath(QStringLiteral("run/notes.txt"))), QByteArray("mine here!\n"));
    }

    // Ctrl+C during an upload stops it at once with exit status 130 and says how to go on; the
    // same command then resumes it from what the host acknowledged, verified.
    void ctrlCStopsAnUploadThatTheSameCommandResumes()
    {
        const QString src = m_local.filePath(QStringLiteral("interrupted.bin"));
        {
            QFile f(src);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QVERIFY(f.resize(qint64(768) * 1024 * 1024)); // sparse: quick to make, long enough to interrupt
        }
        const QStringList upload{QStringLiteral("upload"), src, hostSpec() + QLatin1Char(':') + m_remote.path() + QLatin1Char('/')};
        QProcess p;
        test::RunOptions options;
        // As from a terminal: a test run in the background of a script inherits SIGINT ignored,
        // and gantry-cli rightly keeps it that way.
        options.inChild = [] { std::signal(SIGINT, SIG_DFL); };
        test::startCli(p, m_config.path(), withHost(upload), options);
        QVERIFY(p.waitForStarted());
        QByteArray out;
        const auto sending = [&] { // a progress line with some chunks acknowledged: the upload runs
            out += p.readAllStandardOutput();
            for (const QByteArray &line : out.split('\n')) {
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                if (o.value(QStringLiteral("event")) == QStringLiteral("progress") && o.value(QStringLiteral("bytes")).toInteger() > 64 * 1024 * 1024)
                    return true;
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(sending(), 30000);
        ::kill(pid_t(p.processId()), SIGINT);
        const test::CliRun stopped = test::finish(p, 30000);
        out += stopped.out;
        if (out.contains("\"event\":\"summary\"")) QSKIP("the upload ended before Ctrl+C reached it");
        QCOMPARE(stopped.code, 130);
        const QString err = QString::fromUtf8(stopped.err);
        QVERIFY2(err.contains(QStringLiteral("Run the same command again to resume")), qPrintable(err));
        QVERIFY(!gantry::testsupport::stagingFileOf(m_remote.filePath(QStringLiteral("interrupted.bin"))).isEmpty());

        Run again = cli(upload);
        QVERIFY2(again.code == 0, again.err.constData());
        const QJsonObject summary = again.lines.last();
        QVERIFY(summary.value(QStringLiteral("resumed")).toBool());
        QVERIFY(summary.value(QStringLiteral("verified")).toBool());
        QVERIFY(summary.value(QStringLiteral("payloadBytes")).toInteger() < 768ll * 1024 * 1024);
        QCOMPARE(QFileInfo(m_remote.filePath(QStringLiteral("interrupted.bin"))).size(), 768ll * 1024 * 1024);
        QFile::remove(m_remote.filePath(QStringLiteral("interrupted.bin")));
    }

    // A host whose file is named "ESC[2J" (clear screen) gets it listed as visible text.
    void hostileFileNameListsEscaped()
    {
        const QString folder = m_remote.filePath(QStringLiteral("hostile"));
        QVERIFY(QDir().mkpath(folder));
        QFile hostile(folder + QStringLiteral("/\x1b[2J"));
        QVERIFY2(hostile.open(QIODevice::WriteOnly), qPrintable(hostile.errorString()));
        hostile.close();
        Run ls = cli({QStringLiteral("ls"), hostSpec() + QLatin1Char(':') + folder}, false);
        QVERIFY2(ls.code == 0, ls.err.constData());
        QVERIFY2(ls.out.contains("\\x1b[2J"), ls.out.constData());
        QVERIFY2(!ls.out.contains('\x1b'), "a raw ESC reached stdout");
    }

    void usageErrors()
    {
        Run bad = cli({QStringLiteral("upload"), QStringLiteral("only-one-arg")});
        QCOMPARE(bad.code, 2);
        Run badPolicy = cli({QStringLiteral("upload"), QStringLiteral("--on-conflict"), QStringLiteral("maybe"),
                             QStringLiteral("a"), QStringLiteral("h:/b")});
        QCOMPARE(badPolicy.code, 2);
        Run missing = cli({QStringLiteral("upload"), m_local.filePath(QStringLiteral("nope")),
                           hostSpec() + QLatin1Char(':') + m_remote.path() + QLatin1Char('/')});
        QCOMPARE(missing.code, 1);
        QVERIFY(QString::fromUtf8(missing.err).contains(QStringLiteral("does not exist")));
    }
};

QTEST_GUILESS_MAIN(TestTransferCli)
#include "test_transfer_cli.moc"
