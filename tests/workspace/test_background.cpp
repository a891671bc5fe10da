// SPDX-License-Identifier: Apache-2.0
// background::run, the one way ui/ and app/ run blocking work: the result comes back on the main
// thread; a context destroyed meanwhile cancels the work and drops the result; nothing joins.
#include "core/util/background.h"
#include "core/util/deadlineflag.h"

#include "stallwatchdog.h"

#include <QElapsedTimer>
#include <QSemaphore>
#include <QProcess>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace gantry;

class TestBackground final : public QObject
{
    Q_OBJECT

private slots:
    void resultComesBackOnTheMainThread()
    {
        QObject context;
        QThread *worker = nullptr;
        QThread *deliveredOn = nullptr;
        int result = 0;
        background::run<int>(&context, [&worker](const CancelToken &) {
            worker = QThread::currentThread();
            return 42;
        }, [&](int value) {
            deliveredOn = QThread::currentThread();
            result = value;
        });
        QTRY_COMPARE_WITH_TIMEOUT(result, 42, 5000);
        QVERIFY(worker && worker != QThread::currentThread());
        QCOMPARE(deliveredOn, QThread::currentThread());
        QVERIFY(context.children().isEmpty()); // its watch went with the delivery
    }

    void aDestroyedContextCancelsAndDropsTheResult()
    {
        QSemaphore started;
        QSemaphore release;
        std::atomic_bool sawCancel{false};
        bool delivered = false;
        {
            QObject context;
            background::run<int>(&context, [&](const CancelToken &token) {
                started.release();
                release.acquire();
                sawCancel = token.isCancelled();
                return 1;
            }, [&delivered](int) { delivered = true; });
            QVERIFY(started.tryAcquire(1, 5000));
        } // the context goes while the work runs: nothing waits for it here
        release.release();
        QTRY_VERIFY_WITH_TIMEOUT(sawCancel.load(), 5000);
        QTest::qWait(50);
        QVERIFY(!delivered);
    }

    // The GUI tests' stall watchdog sees a thread that blocks, and only then.
    void theWatchdogSeesABlockedEventLoop()
    {
        test::StallWatchdog watchdog;
        watchdog.start();
        QTest::qWait(200);
        QVERIFY2(watchdog.stalls().isEmpty(), qPrintable(watchdog.stalls().join(QStringLiteral(", "))));
        QThread::msleep(300); // what a join or a blocking keychain call on the GUI thread does
        QTest::qWait(50);
        watchdog.stop();
        QCOMPARE(watchdog.stalls().size(), 1);
        QVERIFY(watchdog.longestGapMs() >= 300);
    }

    // A machine that stops the whole process (a throttled virtual machine; here SIGSTOP) holds
    // every thread up alike: that is not the event loop's stall.
    void theWatchdogForgivesAFrozenMachine()
    {
        test::StallWatchdog watchdog;
        watchdog.start();
        QTest::qWait(100);
        const QString pid = QString::number(QCoreApplication::applicationPid());
        QVERIFY(QProcess::startDetached(QStringLiteral("/bin/sh"),
                                        {QStringLiteral("-c"), QStringLiteral("kill -STOP %1; sleep 0.3; kill -CONT %1").arg(pid)}));
        QTest::qWait(1500);
        watchdog.stop();
        QVERIFY2(watchdog.frozenMs() >= 250, qPrintable(QString::number(watchdog.frozenMs())));
        QVERIFY2(watchdog.stalls().isEmpty(), qPrintable(watchdog.stalls().join(QStringLiteral(", "))));
    }

    void theTokenCancelsTheWork()
    {
        QObject context;
        std::atomic_int loops{0};
        bool done = false;
        const CancelToken token = background::run(&context, [&loops](const CancelToken &cancel) {
            while (!cancel.isCancelled() && loops < 100000) {
                ++loops;
                QThread::msleep(1);
            }
        }, [&done] { done = true; });
        QTRY_VERIFY_WITH_TIMEOUT(loops > 0, 5000);
        token.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(done, 5000);
        QVERIFY(loops < 100000);
    }

    // A deadline flag sets itself once its time has passed; one destroyed before leaves at once.
    void aDeadlineFlagSetsItself()
    {
        const DeadlineFlag soon(std::chrono::milliseconds(20));
        QVERIFY(soon.flag());
        QTRY_VERIFY_WITH_TIMEOUT(soon.flag()->load(), 5000);
        QElapsedTimer destroyed;
        destroyed.start();
        {
            const DeadlineFlag later(std::chrono::hours(1));
            QVERIFY(!later.flag()->load());
        }
        QVERIFY(destroyed.elapsed() < 60000); // liveness: it did not wait its hour
    }
};

QTEST_GUILESS_MAIN(TestBackground)
#include "test_background.moc"
