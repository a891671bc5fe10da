#include "clirun.h"
#include "sshdfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace gantry;

// gantry-cli job/tunnel/ssh-config as a user runs them, against the test sshd.
class TestJobsCli final : public QObject
{
    Q_OBJECT

private:
    using Run = test::CliRun;

    Run cli(const QStringList &args, int timeoutMs = 120000)
    {
        test::RunOptions options;
        options.timeoutMs = timeoutMs;
        return test::runCli(m_config.path(), args, options);
    }

    QStringList host() const
    {
        return {m_sshd.user() + u'@' + m_sshd.host() + u':' + QString::number(m_sshd.port()), QStringLiteral("-i"),
                m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"), m_sshd.knownHostsPath()};
    }

    QStringList job(const QString &sub) const
    {
        return QStringList{QStringLiteral("job"), sub} + host() + QStringList{QStringLiteral("--jobs-dir"), m_root.path()};
    }

    QJsonObject listed(const QString &name)
    {
        const Run list = cli(job(QStringLiteral("list")) + QStringList{QStringLiteral("--json")});
        const QJsonArray array = QJsonDocument::fromJson(list.out).array();
        for (const QJsonValue &v : array) {
            if (v.toObject().value(QStringLiteral("name")).toString() == name)
                return v.toObject();
        }
        qWarning("job %s not in %s / %s", qPrintable(name), list.out.constData(), list.err.constData());
        return {};
    }

    test::SshdFixture m_sshd;
    QTemporaryDir m_config;
    QTemporaryDir m_root;

private slots:
    void initTestCase()
    {
        const QString error = m_sshd.start();
        GANTRY_REQUIRE_SSHD(error);
    }

    void runListLogsExit()
    {
        const QString gate = m_root.filePath(QStringLiteral("go"));
        const Run run = cli(job(QStringLiteral("run"))
                            + QStringList{QStringLiteral("--name"), QStringLiteral("train"), QStringLiteral("--env"),
                                          QStringLiteral("LR=0.1"), QStringLiteral("--"),
                                          QStringLiteral("echo lr=$LR; while [ ! -e %1 ]; do sleep 0.05; done; echo bye; exit 5").arg(gate)});
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY(run.out.contains("Started job train"));

        QJsonObject j = listed(QStringLiteral("train"));
        QCOMPARE(j.value(QStringLiteral("state")).toString(), QStringLiteral("running"));
        QVERIFY(j.value(QStringLiteral("exit_code")).isNull());
        QVERIFY(!j.value(QStringLiteral("started")).toString().isEmpty());
        QVERIFY(j.value(QStringLiteral("command")).toString().startsWith(QStringLiteral("echo lr=$LR")));

        const Run dup = cli(job(QStringLiteral("run")) + QStringList{QStringLiteral("--name"), QStringLiteral("train"),
                                                                      QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(dup.code, 1);
        QVERIFY2(dup.err.contains("already exists"), dup.err.constData());

        QFile go(gate);
        QVERIFY(go.open(QIODevice::WriteOnly));
        go.close();
        const Run follow = cli(job(QStringLiteral("logs")) + QStringList{QStringLiteral("train"), QStringLiteral("--follow")});
        QCOMPARE(follow.code, 0);
        QCOMPARE(follow.out, QByteArray("lr=0.1\nbye\n"));
        const Run offset = cli(job(QStringLiteral("logs")) + QStringList{QStringLiteral("train"), QStringLiteral("--offset"), QStringLiteral("7")});
        QCOMPARE(offset.out, QByteArray("bye\n"));

        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_root.filePath(QStringLiteral("train/exit_code"))), 30000);
        j = listed(QStringLiteral("train"));
        QCOMPARE(j.value(QStringLiteral("state")).toString(), QStringLiteral("exited"));
        QCOMPARE(j.value(QStringLiteral("exit_code")).toInt(), 5);
    }

    void stopAndBadInput()
    {
        const Run run = cli(job(QStringLiteral("run")) + QStringList{QStringLiteral("--name"), QStringLiteral("sleeper"),
                                                                      QStringLiteral("--"), QStringLiteral("sleep"), QStringLiteral("60")});
        QVERIFY2(run.code == 0, run.err.constData());
        const Run stop = cli(job(QStringLiteral("stop")) + QStringList{QStringLiteral("sleeper"), QStringLiteral("--grace"), QStringLiteral("5")});
        QVERIFY2(stop.code == 0, stop.err.constData());
        QVERIFY2(stop.out.contains("Stopped sleeper: killed (SIGINT) after SIGINT"), stop.out.constData());

        const Run missing = cli(job(QStringLiteral("logs")) + QStringList{QStringLiteral("nope")});
        QCOMPARE(missing.code, 1);
        QVERIFY2(missing.err.contains("no job named"), missing.err.constData());
        QCOMPARE(cli(job(QStringLiteral("run")) + QStringList{QStringLiteral("--name"), QStringLiteral("a/b"), QStringLiteral("--"),
                                                               QStringLiteral("true")}).code, 2);
        QCOMPARE(cli({QStringLiteral("job"), QStringLiteral("frobnicate")}).code, 2);
    }

    void tunnelPrintsUrlAndCarriesHttp()
    {
        QTcpServer http;
        QVERIFY(http.listen(QHostAddress::LocalHost));
        connect(&http, &QTcpServer::newConnection, &http, [&http] {
            QTcpSocket *s = http.nextPendingConnection();
            connect(s, &QTcpSocket::readyRead, s, [s] {
                s->readAll();
                s->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
                s->disconnectFromHost();
            });
        });
        QProcess p;
        test::RunOptions options;
        // As from a terminal: a test run in the background of a script inherits SIGINT ignored.
        options.inChild = [] { std::signal(SIGINT, SIG_DFL); };
        test::startCli(p, m_config.path(), QStringList{QStringLiteral("tunnel")} + host() + QStringList{QString::number(http.serverPort())},
                       options);
        QTRY_VERIFY_WITH_TIMEOUT(p.canReadLine() || p.state() == QProcess::NotRunning, 60000);
        const QUrl url(QString::fromUtf8(p.readLine().trimmed()));
        QVERIFY2(url.isValid() && url.port() > 0, p.readAllStandardError().constData());
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        QNetworkReply *reply = nam.get(QNetworkRequest(url));
        QSignalSpy done(reply, &QNetworkReply::finished);
        QVERIFY(done.wait(30000));
        QCOMPARE(reply->readAll(), QByteArray("ok"));
        delete reply;
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 0);

        const int closed = test::SshdFixture::freePort();
        const Run refused = cli(QStringList{QStringLiteral("tunnel")} + host() + QStringList{QString::number(closed)});
        QCOMPARE(refused.code, 1);
        QVERIFY2(refused.err.contains("Nothing listens on port"), refused.err.constData());
    }

    void sshConfigSyncAndRemove()
    {
        QTemporaryDir home;
        const QString file = home.filePath(QStringLiteral("config"));
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("Host mine\n  HostName m\n");
        }
        const Run add = cli({QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("gpu1"), QStringLiteral("root@10.1.2.3:2200")});
        QVERIFY2(add.code == 0, add.err.constData());
        const Run sync = cli({QStringLiteral("ssh-config"), QStringLiteral("sync"), QStringLiteral("--file"), file});
        QVERIFY2(sync.code == 0, sync.err.constData());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        f.close();
        QVERIFY(text.contains("Host gpu1\n    HostName 10.1.2.3\n    Port 2200\n    User root\n"));
        QVERIFY(text.endsWith("Host mine\n  HostName m\n"));
        QCOMPARE(cli({QStringLiteral("ssh-config"), QStringLiteral("remove"), QStringLiteral("--file"), file}).code, 0);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("Host mine\n  HostName m\n"));
    }
};

QTEST_GUILESS_MAIN(TestJobsCli)
#include "test_jobs_cli.moc"
