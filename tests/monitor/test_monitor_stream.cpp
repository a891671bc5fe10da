// End to end over a real OpenSSH sshd on 127.0.0.1. Only the GPU is fake: an `nvidia-smi` shell
// script on the remote PATH that answers the probe with a recorded --help-query-gpu, plays a
// recorded H100 capture in a loop at the -lms rate, and logs every invocation.
#include "core/monitor/monitorservice.h"
#include "core/monitor/monitorstream.h"
#include "core/monitor/nvidiasmiparser.h"
#include "core/monitor/remotescript.h"
#include "core/monitor/sampler.h"
#include "fakenvidiasmi.h"
#include "heldquestion.h"
#include "sshdfixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::monitor;

using namespace gantry::test::monitor;

class TestMonitorStream : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_binDir = writeFakeNvidiaSmi(m_dir.path());
        gantry::test::SshdFixture::Options options;
        options.binDir = m_binDir;
        const QString error = m_sshd.start(options);
        GANTRY_REQUIRE_SSHD(error);
    }

    void streamsSamplesOverOneChannel()
    {
        ssh::Session session;
        auto connected = session.connect(m_sshd.target(), m_sshd.connectOptions());
        QVERIFY2(connected.ok(), qPrintable(connected ? QString() : connected.error().message));
        QFile::remove(m_dir.path() + QStringLiteral("/invocations.log"));

        MonitorStream stream(session, QStringLiteral("fixture"), StreamSettings{200, 1000});
        std::atomic_bool stop{false};
        QList<MachineSample> samples;
        MonitorStream::Callbacks cb;
        cb.sample = [&](const MachineSample &s) {
            samples.append(s);
            bool haveProcesses = false;
            for (const MachineSample &x : std::as_const(samples)) {
                haveProcesses = haveProcesses || !x.processes.isEmpty();
            }
            if (samples.size() >= 8 && haveProcesses) {
                stop = true;
            }
            if (samples.size() >= 60) {
                stop = true; // a bound for a broken run
            }
        };
        auto result = stream.run(stop, cb);
        QVERIFY2(result.ok(), qPrintable(result ? QString() : result.error().message));
        QVERIFY(samples.size() >= 8);
        QCOMPARE(stream.execCount(), 1);

        const MachineSample &s = samples.last();
        QCOMPARE(s.driver, DriverState::Ok);
        QCOMPARE(s.gpus.size(), 2);
        const GpuSample &g = s.gpus.at(1);
        QCOMPARE(g.index, 1);
        QCOMPARE(g.name, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QVERIFY(g.powerDrawW.has_value());
        QCOMPARE(*g.powerLimitW, 700.0);
        QVERIFY(g.memoryTotalMib.has_value());
        QCOMPARE(*g.memoryTotalMib, 81559.0);
        QVERIFY(g.pcieGenMax.has_value());
        // Real /proc of this machine, read by the same remote loop.
        QVERIFY(s.hostMetrics.has_value());
        QVERIFY(s.hostMetrics->memTotalMib.has_value());
        QVERIFY(s.hostMetrics->cpuBusyPercent.has_value());
        QVERIFY(!s.hostMetrics->coreBusyPercent.isEmpty());
        // Compute apps joined with the process command line from ps.
        MachineSample withApps;
        for (const MachineSample &x : std::as_const(samples)) {
            if (!x.processes.isEmpty()) {
                withApps = x;
            }
        }
        QCOMPARE(withApps.processes.size(), 1);
        QCOMPARE(withApps.processes.first().gpuIndex, 1);
        QCOMPARE(*withApps.processes.first().usedMemoryMib, 15690.0);
        QVERIFY2(withApps.processes.first().commandLine.contains(QLatin1StringView("sh")),
                 qPrintable(withApps.processes.first().commandLine));
        QCOMPARE(withApps.processes.first().user, m_sshd.user());

        // One probe, one streaming nvidia-smi; no exec per sample.
        const QStringList log = invocations(m_dir.path());
        QCOMPARE(countContaining(log, QLatin1StringView("--help-query-gpu")), 1);
        QCOMPARE(countContaining(log, QLatin1StringView("-lms 200")), 1);
        QVERIFY(countContaining(log, QLatin1StringView("--query-compute-apps")) >= 1);
    }

    void invalidFieldIsDroppedAndStreamReopened()
    {
        QTemporaryDir dir;
        const QString bin = writeFakeNvidiaSmi(dir.path(), QStringLiteral("clocks.max.sm"));
        gantry::test::SshdFixture sshd;
        gantry::test::SshdFixture::Options options;
        options.binDir = bin;
        const QString error = sshd.start(options);
        GANTRY_REQUIRE_SSHD(error);
        ssh::Session session;
        QVERIFY(session.connect(sshd.target(), sshd.connectOptions()).ok());
        MonitorStream stream(session, QStringLiteral("old-driver"), StreamSettings{200, 5000});
        std::atomic_bool stop{false};
        QList<MachineSample> samples;
        MonitorStream::Callbacks cb;
        cb.sample = [&](const MachineSample &s) {
            samples.append(s);
            stop = samples.size() >= 3;
        };
        auto result = stream.run(stop, cb);
        QVERIFY2(result.ok(), qPrintable(result ? QString() : result.error().message));
        QCOMPARE(stream.execCount(), 2);
        QVERIFY(!stream.probe().gpuFields.contains(QStringLiteral("clocks.max.sm")));
        QCOMPARE(samples.last().gpus.size(), 2);
        QVERIFY(!samples.last().gpus.first().smClockMaxMhz.has_value());
        QVERIFY(samples.last().gpus.first().smClockMhz.has_value());
    }

    void machineWithoutDriverGivesHostMetrics()
    {
        gantry::test::SshdFixture sshd;
        const QString error = sshd.start(); // system PATH: no nvidia-smi on this machine
        GANTRY_REQUIRE_SSHD(error);
        if (!QStandardPaths::findExecutable(QStringLiteral("nvidia-smi")).isEmpty()) {
            QSKIP("this machine has a real nvidia-smi");
        }
        Sampler sampler(QStringLiteral("cpu-only"), sshd.target(), sshd.connectOptions(), StreamSettings{200, 5000});
        QSignalSpy samples(&sampler, &Sampler::sampleReady);
        QSignalSpy status(&sampler, &Sampler::statusChanged);
        sampler.start();
        QTRY_VERIFY_WITH_TIMEOUT(samples.count() >= 2, 15000);
        const auto s = samples.last().first().value<MachineSample>();
        QCOMPARE(s.driver, DriverState::NoDriver);
        QVERIFY(s.gpus.isEmpty());
        QVERIFY(s.hostMetrics.has_value());
        QCOMPARE(sampler.status(), SamplerStatus::NoDriver);
        bool told = false;
        for (const auto &args : std::as_const(status)) {
            told = told || args.at(1).toString().contains(QLatin1StringView("No NVIDIA driver found"));
        }
        QVERIFY(told);
        sampler.stop();
    }

    void samplerMarksStaleAndReconnects()
    {
        Sampler sampler(QStringLiteral("fixture"), m_sshd.target(), m_sshd.connectOptions(), StreamSettings{200, 5000});
        QSignalSpy samples(&sampler, &Sampler::sampleReady);
        QList<SamplerStatus> seen;
        connect(&sampler, &Sampler::statusChanged, this, [&](SamplerStatus s, const QString &) { seen.append(s); });
        sampler.start();
        QTRY_VERIFY_WITH_TIMEOUT(samples.count() >= 3, 15000);
        QCOMPARE(sampler.status(), SamplerStatus::Live);
        m_sshd.stop(); // the link breaks
        QTRY_VERIFY_WITH_TIMEOUT(seen.contains(SamplerStatus::Reconnecting) || seen.contains(SamplerStatus::Stale), 20000);
        QVERIFY(m_sshd.restart().isEmpty());
        const int before = int(samples.count());
        QTRY_VERIFY_WITH_TIMEOUT(samples.count() > before + 2, 40000);
        QVERIFY(sampler.connectsMade() >= 2);
        QCOMPARE(sampler.status(), SamplerStatus::Live);
        sampler.stop();
    }

    // Stopping a machine's monitor (its tab closed, the machine removed) waits for nothing on the
    // caller's thread: the stream's thread is retired to the background pool. From stop() on, the
    // sampler says nothing more; it starts again at once; destroyed while it streams, its loop
    // ends on its own.
    void stopRetiresTheStreamWithoutWaiting()
    {
        auto *sampler = new Sampler(QStringLiteral("fixture"), m_sshd.target(), m_sshd.connectOptions(), StreamSettings{200, 5000});
        QSignalSpy samples(sampler, &Sampler::sampleReady);
        QSignalSpy status(sampler, &Sampler::statusChanged);
        sampler->start();
        QTRY_VERIFY_WITH_TIMEOUT(samples.count() >= 2, 15000);
        sampler->stop();
        QCOMPARE(sampler->status(), SamplerStatus::Idle);
        QVERIFY(!sampler->isRunning());
        const qsizetype samplesAtStop = samples.count();
        const qsizetype statusAtStop = status.count();
        QTest::qWait(600); // three sampling intervals
        QCOMPARE(samples.count(), samplesAtStop);
        QCOMPARE(status.count(), statusAtStop);
        sampler->start();
        QTRY_VERIFY_WITH_TIMEOUT(samples.count() >= samplesAtStop + 2, 15000);
        QCOMPARE(sampler->status(), SamplerStatus::Live);
        delete sampler; // mid-stream
        QVERIFY(ssh::SessionThread::waitForRetired(15000)); // both retired threads ended
    }

    // The strongest case: the worker is held inside a host-key question that only this thread
    // answers. A stop() that joined the worker would wait for itself; this one returns, and the
    // loop ends once the question is answered (no).
    void stopWhileTheWorkerWaitsForThisThread()
    {
        test::HeldHostKeyQuestion question;
        Sampler sampler(QStringLiteral("fixture"), m_sshd.target(), question.apply(m_sshd.connectOptions(), false),
                        StreamSettings{200, 5000});
        QSignalSpy status(&sampler, &Sampler::statusChanged);
        sampler.start();
        QVERIFY(question.waitUntilAsked());
        sampler.stop(); // returns although the worker is held
        QCOMPARE(sampler.status(), SamplerStatus::Idle);
        const qsizetype statusAtStop = status.count();
        question.answer();
        QVERIFY(ssh::SessionThread::waitForRetired(15000));
        QCOMPARE(status.count(), statusAtStop); // the refused key's "Failed" is not announced
    }

    // Issue 14: a machine first seen without nvidia-smi stayed "no_driver" after the user
    // reconnected, until the sampler's own link happened to break. Every connect probes again.
    void reconnectProbesAgainAndShowsTheGpus()
    {
        QTemporaryDir dir;
        const QString bin = dir.filePath(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(bin)); // on PATH, empty for now: no nvidia-smi
        gantry::test::SshdFixture sshd;
        gantry::test::SshdFixture::Options options;
        options.binDir = bin;
        GANTRY_REQUIRE_SSHD(sshd.start(options));
        if (!QStandardPaths::findExecutable(QStringLiteral("nvidia-smi")).isEmpty()) {
            QSKIP("this machine has a real nvidia-smi");
        }
        const QString name = QStringLiteral("late-driver");
        const StreamSettings fast{200, 1000};
        MonitorService service(nullptr);
        auto gpus = [&] {
            const auto &latest = service.store(name)->latestSample();
            return latest ? int(latest->gpus.size()) : -1;
        };
        // Connect: no nvidia-smi. The user disconnects the window's connection (the sampler's own
        // session lives on), installs the driver and connects again.
        service.startMonitoring(name, sshd.target(), sshd.connectOptions(), 0, fast);
        QTRY_COMPARE_WITH_TIMEOUT(service.status(name), SamplerStatus::NoDriver, 20000);
        writeFakeNvidiaSmi(dir.path());
        service.startMonitoring(name, sshd.target(), sshd.connectOptions(), 0, fast);
        QTRY_COMPARE_WITH_TIMEOUT(gpus(), 2, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(service.status(name), SamplerStatus::Live, 5000);

        // The link drops while nvidia-smi goes away: the sampler's reconnect probes again.
        sshd.stop();
        QTRY_VERIFY_WITH_TIMEOUT(service.status(name) == SamplerStatus::Reconnecting || service.status(name) == SamplerStatus::Stale, 20000);
        const int probes = countContaining(invocations(dir.path()), QLatin1StringView("--help-query-gpu"));
        QVERIFY(probes >= 1);
        QVERIFY(QFile::rename(bin + QStringLiteral("/nvidia-smi"), dir.filePath(QStringLiteral("nvidia-smi.off"))));
        QVERIFY(sshd.restart().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(service.status(name), SamplerStatus::NoDriver, 40000);
        QCOMPARE(gpus(), 0);

        // Refresh (the Monitor tab's button, F5) without a link drop: the GPUs are back at once.
        QVERIFY(QFile::rename(dir.filePath(QStringLiteral("nvidia-smi.off")), bin + QStringLiteral("/nvidia-smi")));
        QVERIFY(service.refresh(name));
        QTRY_COMPARE_WITH_TIMEOUT(gpus(), 2, 15000);
        QVERIFY(countContaining(invocations(dir.path()), QLatin1StringView("--help-query-gpu")) > probes);
        QVERIFY(!service.refresh(QStringLiteral("not-monitored")));
    }

private:
    QTemporaryDir m_dir;
    QString m_binDir;
    gantry::test::SshdFixture m_sshd;
};

QTEST_GUILESS_MAIN(TestMonitorStream)
#include "test_monitor_stream.moc"
