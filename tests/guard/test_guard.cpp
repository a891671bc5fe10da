#include "clirun.h"
#include "sshdfixture.h"

#include "core/guard/guard.h"
#include "core/guard/guardoperation.h"
#include "core/ssh/session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace gantry;
using namespace gantry::guard;
using providers::SelfStop;
Q_DECLARE_METATYPE(gantry::guard::GuardAction)

namespace {

// A stand-in for the provider's stop API: records each request (head and body) and answers 200.
class StopEmulator final : public QObject
{
public:
    StopEmulator()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection()) {
                QObject::connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onRead(socket); });
            }
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    QString url(const QString &path) const { return QStringLiteral("http://127.0.0.1:%1%2").arg(m_server.serverPort()).arg(path); }
    QList<QByteArray> requests;

private:
    void onRead(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        qsizetype length = 0;
        for (const QByteArray &line : buffer.left(end).split('\n')) {
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        }
        if (buffer.size() < end + 4 + length)
            return;
        requests.append(buffer);
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16\r\nConnection: "
                      "close\r\n\r\n{\"success\":true}");
        socket->disconnectFromHost();
    }
    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

} // namespace

class TestGuard final : public QObject
{
    Q_OBJECT

private slots:
    // The instance's scoped key goes to this endpoint from the instance: https, or http on loopback only.
    void endpointFollowsTheProvidersRule()
    {
        const auto clear = guardOptionsFor(QStringLiteral("vast"), 30, GuardAction::Stop, QStringLiteral("http://stop.example.com"));
        QVERIFY(!clear);
        QCOMPARE(clear.error().code, ErrorCode::Usage);
        QVERIFY2(clear.error().message.contains(QStringLiteral("plain http://")), qPrintable(clear.error().message));
        QVERIFY(guardOptionsFor(QStringLiteral("vast"), 30, GuardAction::Stop, QStringLiteral("http://127.0.0.1:8080")));
        QVERIFY(guardOptionsFor(QStringLiteral("vast"), 30, GuardAction::Stop, QStringLiteral("https://stop.example.com")));
        QVERIFY(!guardOptionsFor(QStringLiteral("vast"), 30, GuardAction::Stop, QStringLiteral("ftp://stop.example.com")));
    }

    void initTestCase()
    {
        QVERIFY(m_bin.isValid() && m_state.isValid());
        // The stand-in GPU reports the utilisation written to util (a busy 90 % until told otherwise).
        setUtil("90");
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("nvidia-smi")),
                                  QStringLiteral("#!/bin/sh\ncat '%1'\n").arg(m_state.filePath(QStringLiteral("util")))));
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("shutdown")),
                                  QStringLiteral("#!/bin/sh\necho \"$@\" >'%1'\n").arg(m_state.filePath(QStringLiteral("shutdown")))));
        // The machine's jobs and logins, as the guard sees them through tmux, screen and ps: this
        // shared test machine's own sessions must not keep the guard's "instance" busy.
        for (const char *tool : {"tmux", "ps"}) {
            QVERIFY(test::writeScript(m_bin.filePath(QString::fromLatin1(tool)),
                                      QStringLiteral("#!/bin/sh\ncat '%1' 2>/dev/null\nexit 0\n")
                                          .arg(m_state.filePath(QString::fromLatin1(tool)))));
        }
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("screen")), QStringLiteral("#!/bin/sh\nexit 1\n")));
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        const QString why = m_sshd.start(options);
        if (!why.isEmpty() && test::SshdFixture::maySkipWithoutSshd())
            QSKIP(qPrintable(why));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        m_session = std::make_unique<ssh::Session>();
        auto ok = m_session->connect(m_sshd.target(), m_sshd.connectOptions());
        QVERIFY2(ok, ok ? "" : qPrintable(ok.error().message));
    }

    void init()
    {
        setUtil("90");
        QFile::remove(m_state.filePath(QStringLiteral("tmux")));
        QFile::remove(m_state.filePath(QStringLiteral("ps")));
    }

    void scriptQuotesItsValues()
    {
        GuardOptions options;
        options.method = SelfStop::VastContainerKey;
        options.endpoint = QStringLiteral("http://x/'; rm -rf / #");
        const QString script = guardScript(options);
        QVERIFY(script.contains(QStringLiteral("ENDPOINT='http://x/'\\''; rm -rf / #'\n")));
        QVERIFY(script.contains(QStringLiteral("METHOD=vast\n")));
        QVERIFY(!script.contains(QStringLiteral("GANTRY_VAST_API_KEY")));
    }

    void providersSayHowTheirMachinesStop()
    {
        QCOMPARE(selfStopFor(QStringLiteral("runpod")), SelfStop::RunPodPodKey);
        QCOMPARE(selfStopFor(QStringLiteral("vast")), SelfStop::VastContainerKey);
        QCOMPARE(selfStopFor(QStringLiteral("lambda")), SelfStop::None);
        QCOMPARE(selfStopFor(QStringLiteral("shadeform")), SelfStop::None);
        QCOMPARE(selfStopFor(QStringLiteral("sandbox")), SelfStop::None); // powering off would stop this laptop
        QVERIFY(noSelfStopReason(QStringLiteral("lambda")).contains(QStringLiteral("gantry-cli watch")));
        auto refused = installGuard(*m_session, GuardOptions{});
        QVERIFY(!refused);
        QVERIFY(refused.error().message.contains(QStringLiteral("watch")));
    }

    // Busy while the GPU works; once idle past the threshold, the pod stops itself with its own key.
    void runpodPodStopsItselfWithItsScopedKey()
    {
        StopEmulator api;
        const QString dir = m_state.filePath(QStringLiteral("guard-runpod"));
        const QString envFile = m_state.filePath(QStringLiteral("rp_environment"));
        writeFile(envFile, "export RUNPOD_POD_ID=\"pod-7\"\nexport RUNPOD_API_KEY=\"pod-scoped-key\"\n");
        GuardOptions options = fastGuard(SelfStop::RunPodPodKey);
        options.endpoint = api.url(QStringLiteral("/v1"));
        options.envFile = envFile;
        auto installed = installGuard(*m_session, options, dir);
        QVERIFY2(installed, installed ? "" : qPrintable(installed.error().message));

        QTRY_COMPARE_WITH_TIMEOUT(statusOf(dir).reason, QStringLiteral("gpu"), 20000);
        QVERIFY(statusOf(dir).running);
        QVERIFY(api.requests.isEmpty());
        // The folder that holds the scoped key and everything in it are the user's alone.
        QCOMPARE(int(QFileInfo(dir).permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::ExeOther)), 0);
        for (const QFileInfo &file : QDir(dir).entryInfoList(QDir::Files))
            QVERIFY2(!(file.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther)), qPrintable(file.fileName()));
        setUtil("0");
        QTRY_COMPARE_WITH_TIMEOUT(api.requests.size(), 1, 20000);
        const QByteArray request = api.requests.first();
        QVERIFY2(request.startsWith("POST /v1/pods/pod-7/stop "), request.constData());
        QVERIFY(request.contains("Authorization: Bearer pod-scoped-key\r\n"));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(dir).state, QStringLiteral("stopped"), 20000);

        QVERIFY(removeGuard(*m_session, dir));
        QVERIFY(!statusOf(dir).installed);
    }

    // Stopped, or with "then terminate" destroyed, with the instance's own key; the status says which.
    void vastInstanceStopsItselfWithItsContainerKey_data()
    {
        QTest::addColumn<GuardAction>("action");
        QTest::addColumn<QByteArray>("requestLine");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("stop") << GuardAction::Stop << QByteArray("PUT /api/v0/instances/4242/ ") << QByteArray("{\"state\":\"stopped\"}");
        QTest::newRow("terminate") << GuardAction::Terminate << QByteArray("DELETE /api/v0/instances/4242/ ") << QByteArray();
    }

    void vastInstanceStopsItselfWithItsContainerKey()
    {
        QFETCH(GuardAction, action);
        QFETCH(QByteArray, requestLine);
        QFETCH(QByteArray, body);
        StopEmulator api;
        const QString name = QString::fromLatin1(QTest::currentDataTag());
        const QString dir = m_state.filePath(QStringLiteral("guard-vast-") + name);
        const QString envFile = m_state.filePath(QStringLiteral("vast_env_") + name);
        writeFile(envFile, "CONTAINER_ID=4242\nCONTAINER_API_KEY=instance-only\n");
        setUtil("0");
        GuardOptions options = fastGuard(SelfStop::VastContainerKey);
        options.action = action;
        options.endpoint = api.url(QStringLiteral("/api/v0"));
        options.envFile = envFile;
        QVERIFY(installGuard(*m_session, options, dir));
        QTRY_COMPARE_WITH_TIMEOUT(api.requests.size(), 1, 20000);
        const QByteArray request = api.requests.first();
        QVERIFY2(request.startsWith(requestLine), request.constData());
        QVERIFY(request.contains("Authorization: Bearer instance-only\r\n"));
        QVERIFY(request.endsWith(body));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(dir).state, QStringLiteral("stopped"), 20000);
        QCOMPARE(statusOf(dir).action, actionName(action));
        QVERIFY(removeGuard(*m_session, dir));
        // What the CLI and the GUI build for it.
        auto shared = guardOptionsFor(QStringLiteral("vast"), 30, action);
        QVERIFY(shared);
        QCOMPARE(shared->action, action);
        QCOMPARE(shared->idleSeconds, 1800);
    }

    // A Gantry job (tmux session gantry-NAME) and then a terminal login keep the machine up.
    void jobsAndLoginsKeepTheMachineUp()
    {
        const QString dir = m_state.filePath(QStringLiteral("guard-busy"));
        setUtil("0");
        writeFile(m_state.filePath(QStringLiteral("tmux")), "other\ngantry-train\n");
        writeFile(m_state.filePath(QStringLiteral("ps")), "sshd: alice@pts/0\n");
        QVERIFY(installGuard(*m_session, fastGuard(SelfStop::Shutdown), dir));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(dir).reason, QStringLiteral("job"), 20000);
        writeFile(m_state.filePath(QStringLiteral("tmux")), "other\n");
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(dir).reason, QStringLiteral("ssh"), 20000);
        QVERIFY(!QFile::exists(m_state.filePath(QStringLiteral("shutdown"))));
        // A notty exec channel (a laptop's monitor) is not a login.
        writeFile(m_state.filePath(QStringLiteral("ps")), "sshd: alice@notty\n");
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(m_state.filePath(QStringLiteral("shutdown"))), 20000);
        QVERIFY(removeGuard(*m_session, dir));
        QFile::remove(m_state.filePath(QStringLiteral("shutdown")));
    }

    // No key in the machine: the guard says so in its status and keeps watching.
    void missingScopedKeyIsReported()
    {
        const QString dir = m_state.filePath(QStringLiteral("guard-nokey"));
        setUtil("0");
        GuardOptions options = fastGuard(SelfStop::VastContainerKey);
        options.envFile = m_state.filePath(QStringLiteral("absent"));
        QVERIFY(installGuard(*m_session, options, dir));
        QTRY_COMPARE_WITH_TIMEOUT(statusOf(dir).state, QStringLiteral("failed"), 20000);
        const GuardStatus status = statusOf(dir);
        QVERIFY2(status.error.contains(QStringLiteral("CONTAINER_API_KEY")), qPrintable(status.error));
        QVERIFY(status.running);
        QVERIFY(removeGuard(*m_session, dir));
        QVERIFY(!statusOf(dir).running);
    }

    // gantry-cli guard install / status / remove on the same sshd, as a user types it.
    void cliInstallsReportsAndRemoves()
    {
        const QString dir = m_state.filePath(QStringLiteral("guard-cli"));
        const QString host = QStringLiteral("%1@%2:%3").arg(m_sshd.user(), m_sshd.host()).arg(m_sshd.port());
        const QStringList common{host, QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"),
                                 m_sshd.knownHostsPath(), QStringLiteral("--remote-dir"), dir, QStringLiteral("--json")};
        const QJsonObject installed = cli(QStringList{QStringLiteral("guard"), QStringLiteral("install")} + common
                                          + QStringList{QStringLiteral("--provider"), QStringLiteral("vast"),
                                                        QStringLiteral("--idle-minutes"), QStringLiteral("45")});
        QCOMPARE(installed.value(QStringLiteral("installed")).toBool(), true);
        QCOMPARE(installed.value(QStringLiteral("running")).toBool(), true);
        QTRY_COMPARE_WITH_TIMEOUT(cli(QStringList{QStringLiteral("guard"), QStringLiteral("status")} + common)
                                      .value(QStringLiteral("threshold_seconds")).toInt(), 45 * 60, 20000);
        const QJsonObject removed = cli(QStringList{QStringLiteral("guard"), QStringLiteral("remove")} + common);
        QCOMPARE(removed.value(QStringLiteral("installed")).toBool(), false);
        QCOMPARE(removed.value(QStringLiteral("running")).toBool(), false);
    }

    void shutdownStyleProviderPowersOff()
    {
        const QString dir = m_state.filePath(QStringLiteral("guard-shutdown"));
        setUtil("0");
        GuardOptions options = fastGuard(SelfStop::Shutdown);
        QVERIFY(installGuard(*m_session, options, dir));
        const QString marker = m_state.filePath(QStringLiteral("shutdown"));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(marker), 20000);
        QFile file(marker);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().trimmed(), QByteArray("-h now"));
        QVERIFY(removeGuard(*m_session, dir));
    }

private:
    static QJsonObject cli(const QStringList &args)
    {
        QTemporaryDir config;
        gantry::test::RunOptions options;
        options.timeoutMs = 60000;
        const gantry::test::CliRun run = gantry::test::runCli(config.path(), args, options);
        if (run.code != 0)
            qWarning("gantry-cli: %s %s", run.out.constData(), run.err.constData());
        return run.json();
    }
    // Seconds, not minutes: the real script's own clock, so the test waits only on what it writes.
    static GuardOptions fastGuard(SelfStop method)
    {
        GuardOptions options;
        options.method = method;
        options.idleSeconds = 1;
        options.pollSeconds = 1;
        return options;
    }
    void setUtil(const QByteArray &percent) { writeFile(m_state.filePath(QStringLiteral("util")), percent + '\n'); }
    static void writeFile(const QString &path, const QByteArray &data)
    {
        QFile file(path + QStringLiteral(".tmp"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(data);
        file.close();
        QFile::remove(path);
        QVERIFY(QFile::rename(path + QStringLiteral(".tmp"), path));
    }
    // Through guard status over SSH, as the CLI reads it.
    GuardStatus statusOf(const QString &dir)
    {
        auto status = guardStatus(*m_session, dir);
        return status ? *status : GuardStatus{};
    }

    QTemporaryDir m_bin;
    QTemporaryDir m_state;
    test::SshdFixture m_sshd;
    std::unique_ptr<ssh::Session> m_session;
};

QTEST_GUILESS_MAIN(TestGuard)
#include "test_guard.moc"
