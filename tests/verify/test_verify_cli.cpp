// gantry-cli verify / doctor as a user runs them, against the real test sshd: a "GPU" host (fake
// nvidia-smi + a fake gantry-verify replaying a recorded H200 run) and this sandbox (no driver).
#include "clirun.h"
#include "sshdfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kFixtures = QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/");
const QString kData = QStringLiteral(GANTRY_TEST_SOURCE_DIR "/verify/data/");

using gantry::test::writeScript;

using Run = gantry::test::CliRun;

} // namespace

class TestVerifyCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_bin;
    QTemporaryDir m_config;
    gantry::test::SshdFixture m_gpuHost;
    gantry::test::SshdFixture m_plainHost;

    Run cli(gantry::test::SshdFixture &sshd, QStringList args)
    {
        const QString spec = QStringLiteral("%1@%2:%3").arg(sshd.user(), sshd.host()).arg(sshd.port());
        args.insert(1, spec);
        args << QStringLiteral("-i") << sshd.clientKeyPath() << QStringLiteral("--known-hosts") << sshd.knownHostsPath();
        gantry::test::RunOptions options;
        options.timeoutMs = 90000;
        return gantry::test::runCli(m_config.path(), args, options);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_bin.isValid() && m_config.isValid());
        QVERIFY(writeScript(m_bin.filePath(QStringLiteral("nvidia-smi")),
                            QStringLiteral("#!/bin/sh\ncase \"$*\" in\n"
                                           "  -q) cat '%1q-h200-driver590.48.01-linux-idle-nvgpuexp.txt' ;;\n"
                                           "  *--query-compute-apps*) echo 'gpu_uuid, pid, process_name, used_gpu_memory [MiB]' ;;\n"
                                           "  *) exit 0 ;;\nesac\n")
                                .arg(kFixtures)));
        QVERIFY(writeScript(m_bin.filePath(QStringLiteral("gantry-verify")),
                            QStringLiteral("#!/bin/sh\ncat '%1h200-progress.txt' >&2\ncat '%1h200-pass.json'\n").arg(kData)));
        gantry::test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        const QString error = m_gpuHost.start(options);
        GANTRY_REQUIRE_SSHD(error);
        QVERIFY(m_plainHost.start().isEmpty());
    }

    void verifyGpuHostTable()
    {
        const Run run = cli(m_gpuHost, {QStringLiteral("verify"), QStringLiteral("--quick"), QStringLiteral("--binary"),
                                        m_bin.filePath(QStringLiteral("gantry-verify")), QStringLiteral("--price-per-hour"),
                                        QStringLiteral("3.5")});
        QVERIFY2(run.code == 0, run.err.constData());
        QVERIFY(run.err.contains("[ 42%] tensor_bf16"));
        QVERIFY(run.out.contains("Device memory bandwidth"));
        QVERIFY(run.out.contains("H200 SXM spec"));
        QVERIFY(run.out.contains("Verdict: PASS"));
        QVERIFY(run.out.contains("per measured tensor TFLOPS-hour"));
    }

    void verifyGpuHostJson()
    {
        const Run run = cli(m_gpuHost, {QStringLiteral("verify"), QStringLiteral("--json"), QStringLiteral("--binary"),
                                        m_bin.filePath(QStringLiteral("gantry-verify"))});
        QCOMPARE(run.code, 0);
        const QJsonObject json = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(json.value(QStringLiteral("verdict")).toString(), QStringLiteral("pass"));
        QCOMPARE(json.value(QStringLiteral("method")).toString(), QStringLiteral("bundled-binary"));
        QCOMPARE(json.value(QStringLiteral("report")).toObject().value(QStringLiteral("schema")).toString(),
                 QStringLiteral("gantry-verify/1"));
        const QJsonObject spec = json.value(QStringLiteral("spec_comparison")).toArray().first().toObject();
        QCOMPARE(spec.value(QStringLiteral("spec_id")).toString(), QStringLiteral("h200-sxm"));
        QVERIFY(spec.value(QStringLiteral("bandwidth_ratio")).toDouble() > 0.9);
    }

    void verifyWithoutGpuIsADiagnosis()
    {
        const Run run = cli(m_plainHost, {QStringLiteral("verify"), QStringLiteral("--binary"),
                                          m_bin.filePath(QStringLiteral("gantry-verify"))});
        QCOMPARE(run.code, 1);
        QVERIFY2(run.out.contains("No NVIDIA GPU/driver found"), run.out.constData());
        QVERIFY(run.out.contains("fix:"));
        QVERIFY(run.out.contains("Verdict: ERROR"));
    }

    void doctorJson()
    {
        const Run plain = cli(m_plainHost, {QStringLiteral("doctor"), QStringLiteral("--json")});
        QCOMPARE(plain.code, 1);
        const QJsonArray checks = QJsonDocument::fromJson(plain.out).object().value(QStringLiteral("checks")).toArray();
        QVERIFY(!checks.isEmpty());
        const QJsonObject first = checks.first().toObject();
        QCOMPARE(first.value(QStringLiteral("id")).toString(), QStringLiteral("nvidia-smi"));
        QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("fail"));
        QVERIFY(!first.value(QStringLiteral("fix")).toString().isEmpty());

        const Run gpu = cli(m_gpuHost, {QStringLiteral("doctor")});
        QVERIFY2(gpu.out.contains("OK   nvidia-smi"), gpu.out.constData());
        QVERIFY(gpu.out.contains("590.48.01"));
    }

    void usage()
    {
        const Run run = gantry::test::runCli(m_config.path(), {QStringLiteral("verify")});
        QCOMPARE(run.code, 2);
        QCOMPARE(run.err.count('\n'), 1); // one line: what is missing, and the usage
    }
};

QTEST_GUILESS_MAIN(TestVerifyCli)
#include "test_verify_cli.moc"
