#include "heldquestion.h"
#include "sshdfixture.h"
#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/ssh/connection.h"
#include "core/ssh/sessionthread.h"
#include "core/util/canceltoken.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <memory>

using namespace gantry;

class TestSshConnection : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_sshd.start().isEmpty()); }

    void connectsOffThreadAndRunsJobs()
    {
        ssh::Connection connection(m_sshd.target());
        QSignalSpy states(&connection, &ssh::Connection::stateChanged);
        connection.connectToHost(m_sshd.connectOptions());
        QCOMPARE(connection.state(), ssh::ConnectionState::Connecting);
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 10000);
        QByteArray out;
        Qt::HANDLE jobThread = nullptr;
        connection.post([&out, &jobThread](ssh::Session &session) {
            jobThread = QThread::currentThreadId();
            if (auto r = session.run(QStringLiteral("echo from-worker")))
                out = r->out;
        });
        QTRY_COMPARE_WITH_TIMEOUT(out, QByteArray("from-worker\n"), 10000);
        QVERIFY(jobThread != QThread::currentThreadId());
        QVERIFY(states.count() >= 2);
    }

    void lostWhenServerDies()
    {
        test::SshdFixture sshd;
        QVERIFY(sshd.start().isEmpty());
        ssh::Connection connection(sshd.target());
        ssh::ConnectOptions options = sshd.connectOptions();
        options.keepaliveIntervalS = 1;
        connection.connectToHost(options);
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 10000);
        sshd.stop();
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Lost, 10000);
        QVERIFY(connection.lastError().contains(QStringLiteral("lost")));
    }

    void failedStatesAreDistinct()
    {
        ssh::Target target = m_sshd.target();
        target.identityFiles = {QStringLiteral("/nonexistent/key")};
        ssh::Connection connection(target);
        connection.connectToHost(m_sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::AuthFailed, 10000);

        ssh::Connection unknown(m_sshd.target());
        ssh::ConnectOptions options = m_sshd.connectOptions();
        options.knownHostsFile = m_sshd.emptyKnownHostsPath();
        unknown.connectToHost(options);
        QTRY_COMPARE_WITH_TIMEOUT(unknown.state(), ssh::ConnectionState::HostKeyUnknown, 10000);
    }

    void managerUsesStoredPassword()
    {
        QTemporaryDir config;
        HostStore hosts(config.path());
        SavedHost saved;
        saved.name = QStringLiteral("box");
        saved.target = m_sshd.target();
        QVERIFY(hosts.add(saved).ok());
        auto secrets = makeMemorySecretStore();
        ConnectionManager manager(&hosts, secrets.get());
        manager.setKnownHostsFile(m_sshd.knownHostsPath());
        QSignalSpy spy(&manager, &ConnectionManager::stateChanged);
        ssh::Connection *conn = manager.connectHost(QStringLiteral("box"));
        QVERIFY(conn);
        QTRY_COMPARE_WITH_TIMEOUT(conn->state(), ssh::ConnectionState::Connected, 10000);
        QCOMPARE(manager.connection(QStringLiteral("box")), conn);
        QVERIFY(spy.count() >= 1);
        QCOMPARE(spy.last().at(0).toString(), QStringLiteral("box"));
        QVERIFY(!manager.connectHost(QStringLiteral("nope")));
    }

    // A long operation on one SessionThread never holds up another session to the same machine,
    // and its own token (not the thread, not the host) ends it.
    void sessionThreadsRunSideBySide()
    {
        ssh::SessionThread longOne(QStringLiteral("long"));
        ssh::SessionThread shortOne(QStringLiteral("short"));
        const CancelToken cancel;
        std::atomic_bool started{false};
        std::atomic_int longCode{-1};
        std::atomic_bool longDone{false};
        const ssh::Target target = m_sshd.target();
        const ssh::ConnectOptions options = m_sshd.connectOptions();
        longOne.post([&, target, options](ssh::Session &session) {
            if (auto connected = ssh::connectIfNeeded(session, target, options); !connected) {
                longDone = true;
                return;
            }
            ssh::Session::ExecOptions exec;
            exec.onStdout = [&started](const QByteArray &) { started = true; };
            exec.cancel = cancel.flag();
            exec.maxOutputBytes = 0;
            const auto result = session.exec(QStringLiteral("echo started; exec tail -f /dev/null"), exec);
            longCode = result ? 0 : int(result.error().code);
            longDone = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 10000);
        QByteArray out;
        shortOne.post([&out, target, options](ssh::Session &session) {
            if (ssh::connectIfNeeded(session, target, options))
                if (auto r = session.run(QStringLiteral("echo beside")))
                    out = r->out;
        });
        QTRY_COMPARE_WITH_TIMEOUT(out, QByteArray("beside\n"), 10000);
        QVERIFY(!longDone.load());
        cancel.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(longDone.load(), 10000);
        QCOMPARE(longCode.load(), int(ErrorCode::Cancelled));
    }

    // Destroying the thread ends the job in flight through closing() and joins: no event loop of
    // the owner is run, and later jobs are dropped.
    void closingEndsTheJobInFlight()
    {
        auto thread = std::make_unique<ssh::SessionThread>(QStringLiteral("closing"));
        std::atomic_bool started{false};
        std::atomic_bool ended{false};
        std::atomic_bool laterRan{false};
        const ssh::Target target = m_sshd.target();
        ssh::ConnectOptions options = m_sshd.connectOptions();
        options.cancel = thread->closing();
        const std::atomic_bool *closing = thread->closing();
        thread->post([&, target, options, closing](ssh::Session &session) {
            if (!ssh::connectIfNeeded(session, target, options))
                return;
            ssh::Session::ExecOptions exec;
            exec.onStdout = [&started](const QByteArray &) { started = true; };
            exec.cancel = closing;
            exec.maxOutputBytes = 0;
            static_cast<void>(session.exec(QStringLiteral("echo started; exec tail -f /dev/null"), exec));
            ended = true;
        });
        thread->post([&laterRan](ssh::Session &) { laterRan = true; });
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 10000);
        thread.reset();
        QVERIFY(ended.load());
        QVERIFY(!laterRan.load());
    }

    // A job that runs a command without any cancel flag (as the Jobs tab's Jupyter lookup and the
    // Overview's facts do) still ends within a poll when its owner goes away: the destructor on the
    // GUI thread waits for about 100 ms, not for the command's 30 s.
    void closingEndsACommandStartedWithoutACancelFlag()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("started"));
        auto thread = std::make_unique<ssh::SessionThread>(QStringLiteral("no-cancel"));
        std::atomic_int code{-1};
        const ssh::Target target = m_sshd.target();
        const ssh::ConnectOptions options = m_sshd.connectOptions();
        thread->post([&code, target, options, marker](ssh::Session &session) {
            if (!ssh::connectIfNeeded(session, target, options))
                return;
            const auto result = session.run(QStringLiteral("touch '%1'; exec sleep 30").arg(marker), 60000);
            code = result ? 0 : int(result.error().code);
        });
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(marker), 10000);
        QElapsedTimer timer;
        timer.start();
        thread.reset();
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QStringLiteral("the owner waited %1 ms").arg(timer.elapsed())));
        QCOMPARE(code.load(), int(ErrorCode::Cancelled));
    }

    // The GUI's connection goes while its connect waits on a host-key question that only this
    // thread would answer: nothing waits (a join would never return), the question sees closing(),
    // and the state the late connect ends in reaches no one.
    void connectionGoesWhileItsQuestionWaitsForThisThread()
    {
        auto *conn = new ssh::Connection(m_sshd.target());
        const std::shared_ptr<const std::atomic_bool> closing = conn->closingFlag();
        auto sawClosing = std::make_shared<std::atomic_bool>(false);
        test::HeldHostKeyQuestion question;
        const ssh::ConnectOptions options = question.apply(m_sshd.connectOptions(), true,
                                                           [sawClosing, closing] { *sawClosing = closing->load(); });
        QList<ssh::ConnectionState> states;
        QObject receiver;
        connect(conn, &ssh::Connection::stateChanged, &receiver, [&states](ssh::ConnectionState state, const QString &) {
            states.append(state);
        });
        conn->connectToHost(options);
        QVERIFY(question.waitUntilAsked());
        delete conn; // returns although the worker is held
        question.answer();
        QVERIFY(gantry::ssh::SessionThread::waitForRetired(15000));
        QVERIFY(sawClosing->load());
        QCoreApplication::processEvents();
        QCOMPARE(states, QList<ssh::ConnectionState>{ssh::ConnectionState::Connecting});
    }

    void hostStoreRoundTrip()
    {
        QTemporaryDir config;
        HostStore store(config.path());
        QVERIFY(store.load().ok());
        SavedHost a;
        a.name = QStringLiteral("autodl");
        a.target.host = QStringLiteral("connect.westb.seetacloud.com");
        a.target.port = 23456;
        a.target.user = QStringLiteral("root");
        a.target.auth = ssh::AuthMethod::Password;
        a.hourlyPriceUsd = 0.42;
        QVERIFY(store.add(a).ok());
        auto dup = store.add(a);
        QVERIFY(!dup.ok());
        QCOMPARE(dup.error().code, ErrorCode::Conflict);
        HostStore reloaded(config.path());
        QVERIFY(reloaded.load().ok());
        QCOMPARE(reloaded.hosts().size(), 1);
        QCOMPARE(reloaded.hosts().first(), a);
        QVERIFY(reloaded.remove(QStringLiteral("autodl")).ok());
        QVERIFY(!reloaded.remove(QStringLiteral("autodl")).ok());
        // No secret ever lands in the hosts file.
        QFile file(reloaded.filePath());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("password\":"));
    }

private:
    test::SshdFixture m_sshd;
};

QTEST_GUILESS_MAIN(TestSshConnection)
#include "test_ssh_connection.moc"
