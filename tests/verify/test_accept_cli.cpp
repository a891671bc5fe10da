// SPDX-License-Identifier: Apache-2.0
// gantry-cli accept as a user runs it: against the real test sshd (a "GPU" host whose nvidia-smi
// prints an 8x H100 capture with one faulty GPU, and a host with no driver) and against the
// sandbox provider (a simulated GPU that never passes; --return-on-fail terminates and records).
#include "acceptfixtures.h"
#include "clirun.h"
#include "sshdfixture.h"
#include "core/cost/ledger.h"
#include "core/verify/reputation.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;

namespace {

const QString kData = QStringLiteral(GANTRY_TEST_SOURCE_DIR "/verify/data/");

// The 8x H100 capture with GPU 3's "Remapped Rows / Pending" set to Yes.
QByteArray faultyCapture()
{
    return test::onGpu(test::capture(test::kH100x8), 3, QStringLiteral("Pending"), QStringLiteral("Yes"), 4).toUtf8();
}

} // namespace

class TestAcceptCli final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_bin;
    QTemporaryDir m_config;
    QTemporaryDir m_home;
    test::SshdFixture m_gpuHost;
    test::SshdFixture m_plainHost;

    test::RunOptions options() const
    {
        test::RunOptions options;
        options.env.insert(QStringLiteral("GANTRY_SANDBOX_BOOT_MS"), QStringLiteral("100"));
        options.env.insert(QStringLiteral("HOME"), m_home.path());
        options.env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
        options.timeoutMs = 90000;
        return options;
    }

    test::CliRun accept(test::SshdFixture &sshd, QStringList args)
    {
        args.prepend(QStringLiteral("%1@%2:%3").arg(sshd.user(), sshd.host()).arg(sshd.port()));
        args.prepend(QStringLiteral("accept"));
        args << QStringLiteral("-i") << sshd.clientKeyPath() << QStringLiteral("--known-hosts") << sshd.knownHostsPath()
             << QStringLiteral("--binary") << m_bin.filePath(QStringLiteral("gantry-verify"));
        return test::runCli(m_config.path(), args, options());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_bin.isValid() && m_config.isValid() && m_home.isValid());
        QFile capture(m_bin.filePath(QStringLiteral("q.txt")));
        QVERIFY(capture.open(QIODevice::WriteOnly) && capture.write(faultyCapture()) > 0);
        capture.close();
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("nvidia-smi")),
                                  QStringLiteral("#!/bin/sh\ncase \"$*\" in\n  -q) cat '%1' ;;\n"
                                                 "  *--query-compute-apps*) echo 'gpu_uuid, pid, process_name, used_gpu_memory [MiB]' ;;\n"
                                                 "  *) exit 0 ;;\nesac\n")
                                      .arg(capture.fileName())));
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("gantry-verify")),
                                  QStringLiteral("#!/bin/sh\ncat '%1h200-pass.json'\n").arg(kData)));
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        const QString error = m_gpuHost.start(options);
        GANTRY_REQUIRE_SSHD(error);
        QVERIFY(m_plainHost.start().isEmpty());
    }

    void faultyGpuFailsWithItsIndex()
    {
        const QString report = m_home.filePath(QStringLiteral("accept.html"));
        const test::CliRun run = accept(m_gpuHost, {QStringLiteral("--json"), QStringLiteral("--expect-count"), QStringLiteral("8"),
                                                    QStringLiteral("--report"), report});
        QCOMPARE(run.code, 1);
        const QJsonObject json = run.json();
        QCOMPARE(json.value(QStringLiteral("verdict")).toString(), QStringLiteral("fail"));
        QVERIFY2(json.value(QStringLiteral("reasons")).toArray().first().toString().startsWith(QLatin1StringView("GPU 3 remapped-rows")),
                 run.out.constData());
        const QJsonArray checks = json.value(QStringLiteral("checks")).toArray();
        QVERIFY(checks.size() > 8 * 9);
        const QJsonObject first = checks.first().toObject();
        QVERIFY(first.value(QStringLiteral("gpu")).isNull());
        QCOMPARE(first.value(QStringLiteral("name")).toString(), QStringLiteral("gpu-count"));
        QCOMPARE(first.value(QStringLiteral("status")).toString(), QStringLiteral("pass"));
        QVERIFY(!first.value(QStringLiteral("detail")).toString().isEmpty());
        QFile html(report);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray page = html.readAll();
        QVERIFY(page.startsWith("<!DOCTYPE html>"));
        QVERIFY(page.contains("remapped-rows") && page.contains("FAIL") && page.contains("ND_H200_v5"));
        QVERIFY(!page.contains("<script") && !page.contains("src=\"http")); // self-contained

        const test::CliRun text = accept(m_gpuHost, {});
        QCOMPARE(text.code, 1);
        QVERIFY2(text.out.startsWith("Acceptance test of "), text.out.constData());
        QVERIFY(text.out.contains("Next step: Return it"));

        // Two tests, two entries in the machine's record: Verify's run inside each is not counted apart.
        verify::ReputationStore reputation(m_config.path());
        QVERIFY(reputation.load());
        int counted = 0;
        for (const verify::MachineRecord &m : reputation.machines())
            counted += m.passes + m.fails;
        QCOMPARE(counted, 2);
    }

    void noCudaDeviceIsIncomplete()
    {
        const test::CliRun run = accept(m_plainHost, {QStringLiteral("--json")});
        QCOMPARE(run.code, 0);
        const QJsonObject json = run.json();
        QCOMPARE(json.value(QStringLiteral("verdict")).toString(), QStringLiteral("incomplete"));
        QVERIFY(json.value(QStringLiteral("reasons")).toArray().last().toString().contains(QLatin1StringView("No CUDA device")));
        const test::CliRun expected = accept(m_plainHost, {QStringLiteral("--json"), QStringLiteral("--expect-count"), QStringLiteral("1")});
        QCOMPARE(expected.code, 1);
        QCOMPARE(expected.json().value(QStringLiteral("verdict")).toString(), QStringLiteral("fail"));
    }

    // The sandbox's simulated GPU never passes; with --return-on-fail a failing sandbox machine is
    // terminated through the workspace, its ledger row says why and its reputation marks it bad.
    // `launch --wait --accept`: the test runs once the machine is up, as the window's *After a
    // launch* setting does; its object follows the instance's. The sandbox never passes (simulated
    // GPU): incomplete, exit 0. --accept without --wait is refused by name.
    void launchWithAcceptRunsTheTestOnceUp()
    {
        const test::CliRun refused = test::runCli(m_config.path(), {QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("sandbox"),
                                                                    QStringLiteral("--type"), QStringLiteral("gpu_1x_sandbox"), QStringLiteral("--accept")},
                                                  options());
        QVERIFY(refused.code != 0);
        QVERIFY2(refused.err.contains("--wait"), refused.err.constData());
        const test::CliRun launched = test::runCli(m_config.path(), {QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"),
                                                                     QStringLiteral("sandbox"), QStringLiteral("--type"), QStringLiteral("gpu_1x_sandbox"),
                                                                     QStringLiteral("--name"), QStringLiteral("accept-at-launch"), QStringLiteral("--wait"),
                                                                     QStringLiteral("--accept")},
                                                   options());
        const QList<QJsonObject> lines = launched.lines();
        QVERIFY2(launched.code == 0 && lines.size() == 2, launched.err.constData());
        const QString id = lines.first().value(QStringLiteral("id")).toString();
        auto cleanup = qScopeGuard([&] {
            (void)test::runCli(m_config.path(), {QStringLiteral("terminate"), id, QStringLiteral("--provider"), QStringLiteral("sandbox"),
                                                 QStringLiteral("--yes"), QStringLiteral("--without-results")},
                               options());
        });
        QCOMPARE(lines.last().value(QStringLiteral("verdict")).toString(), QStringLiteral("incomplete"));
        QVERIFY(!lines.last().value(QStringLiteral("checks")).toArray().isEmpty());
    }

    void sandboxNeverPassesAndIsReturned()
    {
        const test::CliRun launched = test::runCli(m_config.path(), {QStringLiteral("--json"), QStringLiteral("launch"), QStringLiteral("--provider"),
                                                                     QStringLiteral("sandbox"), QStringLiteral("--type"), QStringLiteral("gpu_1x_sandbox"),
                                                                     QStringLiteral("--name"), QStringLiteral("accept-me"), QStringLiteral("--wait")},
                                                   options());
        QVERIFY2(launched.code == 0, launched.err.constData());
        const QJsonObject instance = launched.json();
        const QString id = instance.value(QStringLiteral("id")).toString();
        const QString host = instance.value(QStringLiteral("host")).toString();
        QFile hostKey(m_config.filePath(QStringLiteral("sandbox/instances/%1/host_ed25519.pub").arg(id)));
        QVERIFY(QDir().mkpath(m_home.filePath(QStringLiteral(".ssh"))));
        QFile knownHosts(m_home.filePath(QStringLiteral(".ssh/known_hosts")));
        QVERIFY(hostKey.open(QIODevice::ReadOnly) && knownHosts.open(QIODevice::Append));
        const QList<QByteArray> key = hostKey.readAll().split(' ');
        knownHosts.write("[127.0.0.1]:" + QByteArray::number(instance.value(QStringLiteral("ssh_port")).toInt()) + ' ' + key.value(0) + ' '
                         + key.value(1).trimmed() + '\n');
        knownHosts.close();

        const test::CliRun returned = test::runCli(m_config.path(), {QStringLiteral("--json"), QStringLiteral("accept"), host, QStringLiteral("--expect-count"),
                                                                     QStringLiteral("2"), QStringLiteral("--return-on-fail")},
                                                   options());
        QCOMPARE(returned.code, 1);
        QCOMPARE(returned.json().value(QStringLiteral("verdict")).toString(), QStringLiteral("fail"));
        QVERIFY(returned.json().value(QStringLiteral("returned")).toBool());
        // Simulated: never a pass, and said so next to the failure.
        QVERIFY(returned.out.contains("Simulated GPU"));
        QVERIFY(!QFileInfo::exists(m_config.filePath(QStringLiteral("sandbox/instances/") + id)));
        cost::Ledger ledger(cost::Ledger::defaultPath(m_config.path()));
        QVERIFY(ledger.open());
        const Result<cost::LedgerEntry> row = ledger.entry(QStringLiteral("sandbox"), id);
        QVERIFY(row && !row->isOpen());
        QVERIFY2(row->note.contains(QLatin1StringView("acceptance test failed")), qPrintable(row->note));
        verify::ReputationStore reputation(m_config.path());
        QVERIFY(reputation.load());
        const auto bad = std::find_if(reputation.machines().cbegin(), reputation.machines().cend(),
                                      [&host](const verify::MachineRecord &m) { return m.host == host && m.bad(); });
        QVERIFY(bad != reputation.machines().cend());
        QVERIFY(bad->lastProblem.contains(QLatin1StringView("acceptance test")));
    }
};

QTEST_GUILESS_MAIN(TestAcceptCli)
#include "test_accept_cli.moc"
