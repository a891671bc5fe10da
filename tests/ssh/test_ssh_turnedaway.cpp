// SPDX-License-Identifier: Apache-2.0
// A connect that sshd turns away before its banner (past MaxStartups: more logins in progress
// than it takes, as several syncs at once with their helper sessions make) is tried again.
#include "sshdfixture.h"
#include "core/ssh/session.h"

#include <QtTest>

#include <arpa/inet.h>
#include <future>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace gantry;

class TestSshTurnedAway : public QObject
{
    Q_OBJECT

    // A TCP connection that holds sshd's one login slot: it reads the banner and says nothing.
    // Until the fixture's own check of the port has let go of the slot, sshd answers "Exceeded
    // MaxStartups" instead (and closes): then again.
    static int holdLoginSlot(int port)
    {
        for (int tries = 0; tries < 100; ++tries) {
            const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in addr{};
            addr.sin_family = AF_INET;
            addr.sin_port = htons(quint16(port));
            addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) return -1;
            char banner[64] = {};
            if (::read(fd, banner, sizeof banner - 1) > 0 && QByteArray(banner).startsWith("SSH-")) return fd;
            ::close(fd);
            QThread::msleep(50);
        }
        return -1;
    }

    static QString startWithOneSlot(test::SshdFixture &sshd)
    {
        test::SshdFixture::Options options;
        options.debugLog = true; // the drop is logged at VERBOSE
        options.maxStartups = QStringLiteral("1");
        return sshd.start(options);
    }

private slots:
    void aTurnedAwayConnectIsTriedAgain()
    {
        test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(startWithOneSlot(sshd));
        int holder = holdLoginSlot(sshd.port());
        QVERIFY(holder >= 0);
        const qsizetype dropsBefore = sshd.log().count("past MaxStartups"); // the holder's own tries
        auto connecting = std::async(std::launch::async, [&sshd] {
            auto session = std::make_unique<ssh::Session>();
            auto r = session->connect(sshd.target(), sshd.connectOptions());
            return r ? QString() : r.error().message;
        });
        // The slot is freed once sshd has turned the connect away: a later try gets in.
        QTRY_VERIFY_WITH_TIMEOUT(sshd.log().count("past MaxStartups") > dropsBefore, 10000);
        ::close(holder);
        QCOMPARE(connecting.get(), QString());
    }

    void aServerThatKeepsTurningAwaySaysWhy()
    {
        test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(startWithOneSlot(sshd));
        const int holder = holdLoginSlot(sshd.port());
        QVERIFY(holder >= 0);
        const qsizetype dropsBefore = sshd.log().count("past MaxStartups"); // the holder's own tries
        ssh::Session session;
        auto r = session.connect(sshd.target(), sshd.connectOptions());
        ::close(holder);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::ConnectFailed);
        QVERIFY2(r.error().message.contains(QLatin1String("MaxStartups")), qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(QLatin1String("4 tries")), qPrintable(r.error().message));
        QCOMPARE(sshd.log().count("past MaxStartups") - dropsBefore, 4);
    }

    // A helper's connect (under OptionalConnects) is not tried again; the thread's observer hears
    // the server's answer, a turn-away as much as a banner.
    void anOptionalConnectIsNotTriedAgain()
    {
        test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(startWithOneSlot(sshd));
        const int holder = holdLoginSlot(sshd.port());
        QVERIFY(holder >= 0);
        const qsizetype dropsBefore = sshd.log().count("past MaxStartups");
        qint64 answeredMs = -1;
        const auto r = [&] {
            const ssh::OptionalConnects optional;
            const ssh::KeyExchangeObserver watching({}, [&answeredMs](qint64 ms) { answeredMs = ms; });
            ssh::Session session;
            return session.connect(sshd.target(), sshd.connectOptions());
        }();
        ::close(holder);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::ConnectFailed);
        QCOMPARE(sshd.log().count("past MaxStartups") - dropsBefore, 1);
        QVERIFY2(answeredMs >= 0, qPrintable(QString::number(answeredMs)));
        QVERIFY(!ssh::OptionalConnects::active());
    }

    // A refused port is not a server turning logins away: it fails at once, as before.
    void aClosedPortIsNotTriedAgain()
    {
        test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(sshd.start());
        ssh::Target target = sshd.target();
        sshd.stop();
        ssh::Session session;
        auto r = session.connect(target, sshd.connectOptions());
        QVERIFY(!r);
        QVERIFY2(!r.error().message.contains(QLatin1String("MaxStartups")), qPrintable(r.error().message));
    }
};

QTEST_GUILESS_MAIN(TestSshTurnedAway)
#include "test_ssh_turnedaway.moc"
