// The remote path over a real OpenSSH sshd on 127.0.0.1: the doctor script, the upload cached by
// content hash, running a (fake) gantry-verify with live progress, parsing, the driver-too-old
// fallback, cancellation, and the "no NVIDIA driver" diagnosis on a machine without a GPU.
#include "sshdfixture.h"

#include "core/verify/remoteverifier.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::verify;

namespace {

const QString kFixtures = QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/");
const QString kData = QStringLiteral(GANTRY_TEST_SOURCE_DIR "/verify/data/");

using gantry::test::writeScript;

// nvidia-smi that answers from recorded outputs of one H200 machine (driver 590.48.01).
QString fakeNvidiaSmi()
{
    return QStringLiteral(
               "#!/bin/sh\n"
               "case \"$*\" in\n"
               "  -q) cat '%1q-h200-driver590.48.01-linux-idle-nvgpuexp.txt' ;;\n"
               "  *--query-compute-apps*) echo 'gpu_uuid, pid, process_name, used_gpu_memory [MiB]' ;;\n"
               "  *--query-retired-pages*) cat '%1csv-retired-pages-h200-driver590.48.01-linux-idle-nvgpuexp.txt' ;;\n"
               "  'topo -m') cat '%1topo-m-h200-driver590.48.01-linux-nvgpuexp.txt' ;;\n"
               "  *compute_cap*) echo 9.0 ;;\n"
               "  *) echo \"fake nvidia-smi: unsupported: $*\" >&2; exit 2 ;;\n"
               "esac\n")
        .arg(kFixtures);
}

// gantry-verify that replays a recorded run: progress on stderr, the JSON on stdout.
QString fakeVerify(const QString &json, int exitCode, const QString &argsFile, int sleepSeconds = 0)
{
    return QStringLiteral("#!/bin/sh\n"
                          "echo \"$*\" > '%1'\n"
                          "while IFS= read -r line; do printf '%s\\n' \"$line\" >&2; [ %4 -gt 0 ] && sleep %4; done < '%2'\n"
                          "cat '%3'\n"
                          "exit %5\n")
        .arg(argsFile, kData + QStringLiteral("h200-progress.txt"), json)
        .arg(sleepSeconds)
        .arg(exitCode);
}

} // namespace

class TestVerifyRemote : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_bin;
    QTemporaryDir m_cache;
    test::SshdFixture m_gpuHost; // PATH has the fake nvidia-smi
    test::SshdFixture m_plainHost; // this machine as it is: no NVIDIA driver

    std::unique_ptr<ssh::Session> connect(test::SshdFixture &sshd)
    {
        auto session = std::make_unique<ssh::Session>();
        auto connected = session->connect(sshd.target(), sshd.connectOptions());
        if (!connected)
            qWarning("connect: %s", qPrintable(connected.error().message));
        return connected ? std::move(session) : nullptr;
    }

    QString binPath(const char *name) const { return m_bin.filePath(QString::fromUtf8(name)); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_bin.isValid());
        QVERIFY(m_cache.isValid());
        QVERIFY(writeScript(binPath("nvidia-smi"), fakeNvidiaSmi()));
        QVERIFY(writeScript(binPath("gantry-verify"),
                            fakeVerify(kData + QStringLiteral("h200-pass.json"), 0, binPath("last-args"))));
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        const QString gpuError = m_gpuHost.start(options);
        GANTRY_REQUIRE_SSHD(gpuError);
        const QString plainError = m_plainHost.start();
        GANTRY_REQUIRE_SSHD(plainError);
    }

    void doctorOverSsh()
    {
        auto session = connect(m_gpuHost);
        QVERIFY(session);
        RemoteVerifier verifier(*session);
        auto output = verifier.runDoctorScript();
        QVERIFY2(output, output ? "" : qPrintable(output.error().message));
        QVERIFY(output->complete);
        const Probe probe = probeFromDoctor(*output);
        QVERIFY(probe.smiWorks);
        QCOMPARE(probe.driverVersion, QStringLiteral("590.48.01"));
        QCOMPARE(probe.gpuNames, QStringList{QStringLiteral("NVIDIA H200")});
        const auto checks = evaluateDoctor(*output, SpecTable::builtIn());
        for (const DoctorCheck &c : checks) {
            if (c.id != QLatin1StringView("disk")) // this machine's disk is what it is
                QVERIFY2(c.status == CheckStatus::Ok, qPrintable(c.id + QStringLiteral(": ") + c.message));
        }
    }

    void verifyUploadsRunsAndCaches()
    {
        auto session = connect(m_gpuHost);
        QVERIFY(session);
        RemoteVerifier verifier(*session);
        verifier.setRemoteCacheDir(m_cache.filePath(QStringLiteral("first")));
        QList<int> percents;
        QStringList statuses;
        VerifyOptions options;
        options.quick = true;
        options.binaryPath = binPath("gantry-verify");
        options.onProgress = [&percents](const Progress &p) { percents.append(p.percent); };
        options.onStatus = [&statuses](const QString &s) { statuses.append(s); };

        auto outcome = verifier.verify(options);
        QVERIFY2(outcome, outcome ? "" : qPrintable(outcome.error().message));
        QCOMPARE(outcome->plan.method, Method::BundledBinary);
        QVERIFY(outcome->uploaded);
        QVERIFY(outcome->remoteBinary.contains(QStringLiteral("gantry-verify-")));
        QCOMPARE(outcome->report.method, Method::BundledBinary);
        QCOMPARE(outcome->report.verdict, Verdict::Pass);
        QCOMPARE(outcome->report.gpus.size(), 1);
        QCOMPARE(outcome->report.exitCode, 0);
        QVERIFY(percents.contains(42));
        QCOMPARE(percents.last(), 100);
        QVERIFY(statuses.size() >= 3);
        QFile args(binPath("last-args"));
        QVERIFY(args.open(QIODevice::ReadOnly));
        QCOMPARE(args.readAll().trimmed(), QByteArray("--quick"));

        // The uploaded copy is byte-identical and executable.
        const QString hash = RemoteVerifier::sha256Hex([&] {
            QFile f(options.binaryPath);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }());
        const QString remote = m_cache.filePath(QStringLiteral("first/gantry-verify-")) + hash.left(16);
        QVERIFY(QFileInfo(remote).isExecutable());

        // Second run: same content, no upload.
        auto again = verifier.verify(options);
        QVERIFY(again);
        QVERIFY(!again->uploaded);
        QCOMPARE(again->remoteBinary, outcome->remoteBinary);

        // A tampered cached copy is replaced.
        {
            QFile tampered(remote);
            QVERIFY(tampered.open(QIODevice::WriteOnly | QIODevice::Truncate));
            tampered.write("#!/bin/sh\nexit 9\n");
        }
        auto third = verifier.verify(options);
        QVERIFY(third);
        QVERIFY(third->uploaded);
        QCOMPARE(third->report.verdict, Verdict::Pass);
    }

    void driverTooOldFallsBack()
    {
        QVERIFY(writeScript(binPath("gantry-verify-old"),
                            fakeVerify(kData + QStringLiteral("no-driver-error.json"), 4, binPath("last-args-old"))));
        auto session = connect(m_gpuHost);
        QVERIFY(session);
        RemoteVerifier verifier(*session);
        verifier.setRemoteCacheDir(m_cache.filePath(QStringLiteral("old")));
        VerifyOptions options;
        options.binaryPath = binPath("gantry-verify-old");
        auto outcome = verifier.verify(options);
        QVERIFY2(outcome, outcome ? "" : qPrintable(outcome.error().message));
        // No kernel sources were offered and this machine has no PyTorch with CUDA: diagnosis.
        QCOMPARE(outcome->plan.method, Method::DiagnosisOnly);
        QCOMPARE(outcome->report.method, Method::DiagnosisOnly);
        QVERIFY2(outcome->plan.reason.contains(QStringLiteral("No NVIDIA driver found")), qPrintable(outcome->plan.reason));
    }

    void cancelStopsTheRun()
    {
        QVERIFY(writeScript(binPath("gantry-verify-slow"),
                            fakeVerify(kData + QStringLiteral("h200-pass.json"), 0, binPath("last-args-slow"), 5)));
        auto session = connect(m_gpuHost);
        QVERIFY(session);
        RemoteVerifier verifier(*session);
        verifier.setRemoteCacheDir(m_cache.filePath(QStringLiteral("slow")));
        const CancelToken cancel;
        VerifyOptions options;
        options.binaryPath = binPath("gantry-verify-slow");
        options.cancel = cancel;
        QElapsedTimer sinceCancel;
        options.onProgress = [cancel, &sinceCancel](const Progress &) {
            if (!cancel.isCancelled()) {
                cancel.cancel();
                sinceCancel.start();
            }
        };
        auto outcome = verifier.verify(options);
        QVERIFY(!outcome);
        QCOMPARE(outcome.error().code, ErrorCode::Cancelled);
        // The fake would run 13 × 5 s; a cancelled run ends within the SIGINT→KILL grace period.
        qInfo("cancelled after %lld ms", sinceCancel.elapsed());
        QVERIFY(sinceCancel.elapsed() < 20000);
        // The session is still usable afterwards.
        auto echo = session->run(QStringLiteral("echo alive"));
        QVERIFY(echo);
        QCOMPARE(echo->out.trimmed(), QByteArray("alive"));
    }

    void noNvidiaDriverIsADiagnosis()
    {
        auto session = connect(m_plainHost);
        QVERIFY(session);
        RemoteVerifier verifier(*session);
        verifier.setRemoteCacheDir(m_cache.filePath(QStringLiteral("plain")));
        VerifyOptions options;
        options.binaryPath = binPath("gantry-verify");
        auto outcome = verifier.verify(options);
        QVERIFY2(outcome, outcome ? "" : qPrintable(outcome.error().message));
        QCOMPARE(outcome->plan.method, Method::DiagnosisOnly);
        QVERIFY(outcome->plan.reason.contains(QStringLiteral("No NVIDIA GPU/driver found")));
        QCOMPARE(outcome->report.verdict, Verdict::Error);
        QVERIFY(outcome->report.gpus.isEmpty());
        QVERIFY(!outcome->report.errors.isEmpty());
        QVERIFY(outcome->report.errors.first().contains(QStringLiteral("nvidia-driver")));
        QVERIFY(!QDir(m_cache.filePath(QStringLiteral("plain"))).exists()); // nothing uploaded
        const Assessment a = assess(outcome->report, SpecTable::builtIn());
        QCOMPARE(a.verdict, Verdict::Error);
        QVERIFY(a.headline.contains(QStringLiteral("No NVIDIA GPU/driver found")));
    }
};

QTEST_GUILESS_MAIN(TestVerifyRemote)
#include "test_verify_remote.moc"
