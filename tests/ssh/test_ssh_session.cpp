#include "sshdfixture.h"
#include "core/ssh/keygen.h"
#include "core/ssh/knownhosts.h"
#include "core/ssh/session.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>
#include <unistd.h>

using namespace gantry;

class TestSshSession : public QObject
{
    Q_OBJECT

    // A fresh sshd that logs at DEBUG1 (which requests came, in what order); empty when it runs.
    static QString startLogging(test::SshdFixture &sshd)
    {
        test::SshdFixture::Options options;
        options.debugLog = true;
        return sshd.start(options);
    }

    static bool connectTo(test::SshdFixture &sshd, ssh::Session &session)
    {
        auto connected = session.connect(sshd.target(), sshd.connectOptions());
        if (!connected) qWarning("%s", qPrintable(connected.error().message));
        return connected.ok();
    }

private slots:
    // The one key generator: a key asked for by name never overwrites a file; Gantry's own pairs
    // are replaced on purpose. In-process, so the GUI thread may call it.
    void keygenRefusesOrReplaces()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keys/id_test"));
        auto first = ssh::generateEd25519Key(path, QStringLiteral("first"));
        QVERIFY2(first, qPrintable(first ? QString() : first.error().message));
        QCOMPARE(QFile::permissions(path) & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());
        QCOMPARE(ssh::readPublicKey(path).valueOr(QString()), first->publicKey);
        auto refused = ssh::generateEd25519Key(path, QStringLiteral("second"));
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::Conflict);
        QCOMPARE(ssh::readPublicKey(path).valueOr(QString()), first->publicKey); // untouched
        QElapsedTimer timer;
        timer.start();
        auto replaced = ssh::generateEd25519Key(path, QStringLiteral("second"), {}, ssh::ExistingKeyFile::Replace);
        const qint64 us = timer.nsecsElapsed() / 1000;
        QVERIFY(replaced);
        QVERIFY(replaced->fingerprint != first->fingerprint);
        QVERIFY(ssh::readPublicKey(path).valueOr(QString()).endsWith(QStringLiteral(" second")));
        qInfo("ed25519 key pair generated and written in %lld us", us);
    }

    void initTestCase()
    {
        const QString error = m_sshd.start();
        GANTRY_REQUIRE_SSHD(error);
    }

    void keyAuthAndExec()
    {
        ssh::Session session;
        auto connected = session.connect(m_sshd.target(), m_sshd.connectOptions());
        QVERIFY2(connected.ok(), connected.ok() ? "" : qPrintable(connected.error().message));
        auto output = session.run(QStringLiteral("echo hello; echo oops >&2; exit 7"));
        QVERIFY(output.ok());
        QCOMPARE(output->out, QByteArray("hello\n"));
        QCOMPARE(output->err, QByteArray("oops\n"));
        QCOMPARE(output->exitStatus, 7);
    }

    void streamsOutputAndStdin()
    {
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()).ok());
        QList<QByteArray> chunks;
        ssh::Session::ExecOptions options;
        options.stdinData = QByteArray("abc\n");
        options.onStdout = [&chunks](const QByteArray &data) { chunks << data; };
        auto status = session.exec(QStringLiteral("cat; for i in 1 2 3; do echo line$i; sleep 0.1; done"), options);
        QVERIFY(status.ok());
        QCOMPARE(*status, 0);
        QCOMPARE(chunks.join(), QByteArray("abc\nline1\nline2\nline3\n"));
        QVERIFY2(chunks.size() >= 2, "output should arrive while the command runs, not only at the end");
    }

    void cancelsLongCommand()
    {
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()).ok());
        std::atomic_bool cancel{false};
        std::thread canceller([&cancel] {
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
            cancel = true;
        });
        ssh::Session::ExecOptions options;
        options.cancel = &cancel;
        QElapsedTimer timer;
        timer.start();
        const QString marker = QStringLiteral("/tmp/gantry-cancel-%1").arg(QCoreApplication::applicationPid());
        auto status = session.exec(QStringLiteral("sleep 30; touch ") + marker, options);
        canceller.join();
        QVERIFY(!status.ok());
        QCOMPARE(status.error().code, ErrorCode::Cancelled);
        QVERIFY(timer.elapsed() < 10000);
        // The remote command really ended (root logins get no "signal" requests from OpenSSH).
        auto alive = session.run(QStringLiteral("pgrep -f '[s]leep 30; touch %1' >/dev/null && echo alive || echo gone").arg(marker));
        QVERIFY(alive.ok());
        QCOMPARE(alive->out, QByteArray("gone\n"));
        // The session stays usable after a cancelled command.
        auto again = session.run(QStringLiteral("echo still-here"));
        QVERIFY(again.ok());
        QCOMPARE(again->out, QByteArray("still-here\n"));
    }

    void commandTimeout()
    {
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()).ok());
        auto output = session.run(QStringLiteral("sleep 20"), 500);
        QVERIFY(!output.ok());
        QCOMPARE(output.error().code, ErrorCode::Timeout);
    }

    // An unlocked key logs in with one request (its signature), not "none", the public half, then
    // the signature: two round trips less for every session a transfer opens.
    void unlockedKeyLogsInWithOneRequest()
    {
        test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(startLogging(sshd));
        ssh::Session session;
        QVERIFY(connectTo(sshd, session));
        QVERIFY(session.run(QStringLiteral("true")).ok());
        const QByteArray log = sshd.log();
        QCOMPARE(log.count("userauth-request for user"), 1);
        QVERIFY2(log.contains("method publickey"), log.constData());
    }

    // A connect tells the observer living on its thread how long its key exchange took, once; an
    // observer inside another hides the outer one until it ends; no observer, nothing is told.
    void keyExchangeIsToldToTheThreadsObserver()
    {
        QList<qint64> outer, inner;
        {
            const ssh::KeyExchangeObserver watching([&outer](qint64 ms) { outer.append(ms); });
            ssh::Session first;
            QVERIFY(connectTo(m_sshd, first));
            {
                const ssh::KeyExchangeObserver nested([&inner](qint64 ms) { inner.append(ms); });
                ssh::Session second;
                QVERIFY(connectTo(m_sshd, second));
            }
            ssh::Session third;
            QVERIFY(connectTo(m_sshd, third));
        }
        ssh::Session unwatched;
        QVERIFY(connectTo(m_sshd, unwatched));
        QCOMPARE(outer.size(), 2);
        QCOMPARE(inner.size(), 1);
        for (qint64 ms : outer + inner) QVERIFY2(ms >= 0 && ms < 15000, qPrintable(QString::number(ms)));
    }

    // The server's banner is told as it comes, before the key exchange ends: what a sync and a
    // transfer take to start their helper sessions early on a long link.
    void bannerIsToldBeforeTheKeyExchange()
    {
        QStringList heard;
        qint64 bannerMs = -1;
        {
            const ssh::KeyExchangeObserver watching([&heard](qint64) { heard << QStringLiteral("kex"); },
                                                    [&heard, &bannerMs](qint64 ms) {
                                                        heard << QStringLiteral("banner");
                                                        bannerMs = ms;
                                                    });
            ssh::Session session;
            QVERIFY(connectTo(m_sshd, session));
        }
        QCOMPARE(heard, (QStringList{QStringLiteral("banner"), QStringLiteral("kex")}));
        QVERIFY2(bannerMs >= 0 && bannerMs < 15000, qPrintable(QString::number(bannerMs)));
        // An observer without a banner callback hears only the key exchange.
        int kex = 0;
        {
            const ssh::KeyExchangeObserver watching([&kex](qint64) { ++kex; });
            ssh::Session session;
            QVERIFY(connectTo(m_sshd, session));
        }
        QCOMPARE(kex, 1);
    }

    // openExecs opens every channel, then starts every command: sshd sees all the opens before
    // the first exec (two round trips in all, not two per command), and each channel carries its
    // own command's output, stdin and exit status.
    void openExecsOpensTogetherThenStarts()
    {
        test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(startLogging(sshd));
        ssh::Session session;
        QVERIFY(connectTo(sshd, session));
        auto opened = session.openExecs({QStringLiteral("echo one"), QStringLiteral("echo two >&2; exit 3"),
                                         QStringLiteral("read x; echo got $x")});
        QCOMPARE(opened.size(), size_t(3));
        for (const auto &o : opened) QVERIFY2(o.ok(), o.ok() ? "" : qPrintable(o.error().message));
        QVERIFY((*opened[2])->write(QByteArrayLiteral("three\n")).ok());
        QVERIFY((*opened[2])->sendEof().ok());
        QList<QByteArray> out, err;
        for (auto &o : opened) {
            ssh::Channel &ch = **o;
            QByteArray o1, e1;
            QElapsedTimer waited;
            waited.start();
            while ((!ch.isEof() || !ch.exitStatus()) && waited.elapsed() < 10000) {
                auto r = ch.read(200, &e1);
                QVERIFY(r.ok());
                o1 += *r;
            }
            out << o1;
            err << e1;
        }
        QCOMPARE(out, (QList<QByteArray>{"one\n", "", "got three\n"}));
        QCOMPARE(err, (QList<QByteArray>{"", "two\n", ""}));
        QCOMPARE((*opened[0])->exitStatus().value_or(-1), 0);
        QCOMPARE((*opened[1])->exitStatus().value_or(-1), 3);
        const QByteArray log = sshd.log();
        QCOMPARE(log.count("ctype session"), 3);
        QVERIFY2(log.lastIndexOf("ctype session") < log.indexOf("request exec"), log.constData());
    }

    void wrongKeyIsRefused()
    {
        QTemporaryDir dir;
        const QString key = dir.path() + QStringLiteral("/other");
        test::runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                        QStringLiteral("-N"), QString(), QStringLiteral("-f"), key});
        ssh::Target target = m_sshd.target();
        target.identityFiles = {key};
        ssh::Session session;
        auto connected = session.connect(target, m_sshd.connectOptions());
        QVERIFY(!connected.ok());
        QCOMPARE(connected.error().code, ErrorCode::AuthFailed);
        QVERIFY(connected.error().message.contains(QStringLiteral("authentication failed")));
        QVERIFY(connected.error().message.contains(QStringLiteral("-i KEYFILE")));
    }

    void encryptedKeyAsksPassphrase()
    {
        QTemporaryDir dir;
        const QString key = dir.path() + QStringLiteral("/enc");
        test::runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ecdsa"),
                                                        QStringLiteral("-N"), QStringLiteral("s3cret"), QStringLiteral("-f"), key});
        QFile authorized(m_sshd.dir() + QStringLiteral("/authorized_keys"));
        QFile pub(key + QStringLiteral(".pub"));
        QVERIFY(authorized.open(QIODevice::Append) && pub.open(QIODevice::ReadOnly));
        authorized.write(pub.readAll());
        authorized.close();
        ssh::Target target = m_sshd.target();
        target.identityFiles = {key};
        ssh::ConnectOptions options = m_sshd.connectOptions();
        int asked = 0;
        options.passphrase = [&asked](const QString &) -> std::optional<QString> {
            ++asked;
            return QStringLiteral("s3cret");
        };
        ssh::Session session;
        auto connected = session.connect(target, options);
        QVERIFY2(connected.ok(), connected.ok() ? "" : qPrintable(connected.error().message));
        QCOMPARE(asked, 1);
    }

    void agentAuth()
    {
        const QByteArray agentOut = test::runProgram(QStringLiteral("ssh-agent"), {QStringLiteral("-s")});
        QRegularExpression sockRe(QStringLiteral("SSH_AUTH_SOCK=([^;]+);"));
        QRegularExpression pidRe(QStringLiteral("SSH_AGENT_PID=(\\d+);"));
        const auto sock = sockRe.match(QString::fromUtf8(agentOut));
        const auto pid = pidRe.match(QString::fromUtf8(agentOut));
        if (!sock.hasMatch())
            QSKIP("ssh-agent is not available");
        const QByteArray oldSock = qgetenv("SSH_AUTH_SOCK");
        qputenv("SSH_AUTH_SOCK", sock.captured(1).toUtf8());
        QProcess add;
        add.start(QStringLiteral("ssh-add"), {m_sshd.clientKeyPath()});
        QVERIFY(add.waitForFinished(10000) && add.exitCode() == 0);
        ssh::Target target = m_sshd.target();
        target.identityFiles.clear();
        target.auth = ssh::AuthMethod::Agent;
        ssh::Session session;
        auto connected = session.connect(target, m_sshd.connectOptions());
        QProcess::execute(QStringLiteral("kill"), {pid.captured(1)});
        qputenv("SSH_AUTH_SOCK", oldSock);
        QVERIFY2(connected.ok(), connected.ok() ? "" : qPrintable(connected.error().message));
    }

    void unknownHostKeyNeedsConsent()
    {
        ssh::ConnectOptions options = m_sshd.connectOptions();
        options.knownHostsFile = m_sshd.emptyKnownHostsPath();
        ssh::HostKeyInfo seen;
        options.confirmNewHostKey = [&seen](const ssh::HostKeyInfo &info) {
            seen = info;
            return false;
        };
        {
            ssh::Session session;
            auto refused = session.connect(m_sshd.target(), options);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().code, ErrorCode::HostKeyUnknown);
            QCOMPARE(seen.fingerprint, m_sshd.hostKeyFingerprint());
            QVERIFY(refused.error().message.contains(m_sshd.hostKeyFingerprint()));
            QVERIFY(refused.error().message.contains(QStringLiteral("--accept-new-host-key")));
        }
        options.confirmNewHostKey = [](const ssh::HostKeyInfo &) { return true; };
        {
            ssh::Session session;
            QVERIFY(session.connect(m_sshd.target(), options).ok());
        }
        // Recorded now: a second connect needs no consent.
        options.confirmNewHostKey = nullptr;
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), options).ok());
    }

    void changedHostKeyIsRefused()
    {
        test::SshdFixture other;
        QVERIFY(other.start().isEmpty());
        const QString known = other.knownHostsPath();
        const QString oldFp = other.hostKeyFingerprint();
        other.rotateHostKey();
        QVERIFY(other.restart().isEmpty());
        // restart() rewrote known_hosts for the new key; put the old record back as a user's file would have it.
        ssh::ConnectOptions options = other.connectOptions();
        options.knownHostsFile = other.dir() + QStringLiteral("/known_hosts_old");
        QFile f(options.knownHostsFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# comment line\n");
        f.close();
        // Record the *old* fingerprint by writing a line with a different key for this host.
        QTemporaryDir dir;
        test::runProgram(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                                        QStringLiteral("-N"), QString(), QStringLiteral("-f"), dir.path() + QStringLiteral("/k")});
        QFile pub(dir.path() + QStringLiteral("/k.pub"));
        QVERIFY(pub.open(QIODevice::ReadOnly));
        const QList<QByteArray> fields = pub.readAll().split(' ');
        QVERIFY(f.open(QIODevice::Append));
        f.write("[127.0.0.1]:" + QByteArray::number(other.port()) + ' ' + fields[0] + ' ' + fields[1] + '\n');
        f.close();
        const QString recordedFp = ssh::sha256Fingerprint(QByteArray::fromBase64(fields[1]));
        bool asked = false;
        options.acceptNewHostKey = true; // must not matter for a changed key
        options.confirmNewHostKey = [&asked](const ssh::HostKeyInfo &) { return asked = true; };
        ssh::Session session;
        auto refused = session.connect(other.target(), options);
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::HostKeyChanged);
        QVERIFY(!asked);
        const QString message = refused.error().message;
        QVERIFY2(message.contains(QStringLiteral("possible attack")), qPrintable(message));
        QVERIFY2(message.contains(recordedFp), qPrintable(message));
        QVERIFY2(message.contains(other.hostKeyFingerprint()), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("line 2 of ") + options.knownHostsFile), qPrintable(message));
        Q_UNUSED(known);
        Q_UNUSED(oldFp);
    }

    void connectTimeoutOnBlackHole()
    {
        // A listener that never accepts: TCP connects, but no SSH banner ever comes.
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost, 0));
        silent.pauseAccepting();
        ssh::Target target = m_sshd.target();
        target.port = silent.serverPort();
        ssh::ConnectOptions options = m_sshd.connectOptions();
        options.connectTimeoutMs = 1500;
        QElapsedTimer timer;
        timer.start();
        ssh::Session session;
        auto result = session.connect(target, options);
        QVERIFY(!result.ok());
        QVERIFY2(result.error().code == ErrorCode::Timeout || result.error().code == ErrorCode::ConnectFailed,
                 qPrintable(result.error().message));
        QVERIFY2(timer.elapsed() < 8000, "a dead host must not hang the caller");
    }

    void refusedPort()
    {
        ssh::Target target = m_sshd.target();
        target.port = test::SshdFixture::freePort();
        ssh::Session session;
        auto result = session.connect(target, m_sshd.connectOptions());
        QVERIFY(!result.ok());
        QCOMPARE(result.error().code, ErrorCode::ConnectFailed);
        QVERIFY(result.error().message.contains(QStringLiteral("cannot connect")));
    }

    void passwordAuth()
    {
        if (geteuid() != 0)
            QSKIP("password logins need a dedicated user with a known password (root only)");
        const QString user = QStringLiteral("gantrypw");
        QProcess::execute(QStringLiteral("userdel"), {QStringLiteral("-r"), QStringLiteral("-f"), user}); // left by a crashed run
        QCOMPARE(QProcess::execute(QStringLiteral("useradd"), {QStringLiteral("-m"), user}), 0);
        // Declared before the fixture and sessions, so it runs after they are gone (no process of the user left).
        const auto removeUser = qScopeGuard([&user] {
            QProcess::execute(QStringLiteral("userdel"), {QStringLiteral("-r"), QStringLiteral("-f"), user});
        });
        QProcess chpasswd;
        chpasswd.start(QStringLiteral("chpasswd"));
        chpasswd.waitForStarted();
        chpasswd.write("gantrypw:Corr3ct-horse\n");
        chpasswd.closeWriteChannel();
        QVERIFY(chpasswd.waitForFinished(10000) && chpasswd.exitCode() == 0);
        test::SshdFixture sshd;
        test::SshdFixture::Options fixtureOptions;
        fixtureOptions.passwordAuth = true;
        QVERIFY(sshd.start(fixtureOptions).isEmpty());
        ssh::Target target = sshd.target();
        target.user = user;
        target.identityFiles.clear();
        target.auth = ssh::AuthMethod::Password;
        ssh::ConnectOptions options = sshd.connectOptions();
        options.password = [](const QString &) -> std::optional<QString> { return QStringLiteral("wrong"); };
        {
            ssh::Session session;
            auto refused = session.connect(target, options);
            QVERIFY(!refused.ok());
            QCOMPARE(refused.error().code, ErrorCode::AuthFailed);
            QVERIFY(!refused.error().message.contains(QStringLiteral("wrong")));
        }
        options.password = [](const QString &) -> std::optional<QString> { return QStringLiteral("Corr3ct-horse"); };
        ssh::Session session;
        auto connected = session.connect(target, options);
        QVERIFY2(connected.ok(), connected.ok() ? "" : qPrintable(connected.error().message));
        auto who = session.run(QStringLiteral("whoami"));
        QVERIFY(who.ok());
        QCOMPARE(who->out.trimmed(), user.toUtf8());
    }

    void forwardChannel()
    {
        QTcpServer echo;
        QVERIFY(echo.listen(QHostAddress::LocalHost, 0));
        connect(&echo, &QTcpServer::newConnection, this, [&echo] {
            QTcpSocket *socket = echo.nextPendingConnection();
            connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->write(socket->readAll().toUpper()); });
        });
        const quint16 port = echo.serverPort();
        QByteArray reply;
        QString error;
        std::thread worker([&] {
            ssh::Session session;
            if (auto c = session.connect(m_sshd.target(), m_sshd.connectOptions()); !c) {
                error = c.error().message;
                return;
            }
            auto channel = session.openForward(QStringLiteral("127.0.0.1"), port);
            if (!channel) {
                error = channel.error().message;
                return;
            }
            (void)(*channel)->write("ping");
            for (int i = 0; i < 50 && reply.size() < 4; ++i) {
                auto data = (*channel)->read(100);
                if (data)
                    reply += *data;
            }
        });
        QElapsedTimer timer;
        timer.start();
        while (reply.size() < 4 && error.isEmpty() && timer.elapsed() < 10000)
            QTest::qWait(20);
        worker.join();
        GANTRY_REQUIRE_SSHD(error);
        QCOMPARE(reply, QByteArray("PING"));
    }

    void targetSpecParsing()
    {
        ssh::Target t;
        QString error;
        QVERIFY(ssh::parseTargetSpec(QStringLiteral("root@connect.westb.seetacloud.com:23456"), &t, &error));
        QCOMPARE(t.user, QStringLiteral("root"));
        QCOMPARE(t.host, QStringLiteral("connect.westb.seetacloud.com"));
        QCOMPARE(t.port, 23456);
        QVERIFY(ssh::parseTargetSpec(QStringLiteral("[::1]:2222"), &t, &error));
        QCOMPARE(t.host, QStringLiteral("::1"));
        QCOMPARE(t.port, 2222);
        QVERIFY(!ssh::parseTargetSpec(QStringLiteral("host:99999"), &t, &error));
        QVERIFY(error.contains(QStringLiteral("invalid port")));
        QCOMPARE(ssh::shellQuote(QStringLiteral("it's")), QStringLiteral("'it'\\''s'"));
    }

private:
    test::SshdFixture m_sshd;
};

QTEST_GUILESS_MAIN(TestSshSession)
#include "test_ssh_session.moc"
