// SPDX-License-Identifier: Apache-2.0
// The acceptance test's machine figures (issue #34): the data disk's write and read speed, the
// GPU-to-GPU copy and the NCCL all-reduce bus bandwidth. Judged against the shipped reference
// table; dd's summaries as GNU coreutils and BusyBox print them; the shipped scripts run over a
// real sshd — the disk script on the fixture's home, the multi-GPU script with gloo on the CPU
// (the same code path as NCCL on GPUs, which this machine does not have).
#include "sshdfixture.h"
#include "core/verify/machinefigures.h"

#include <QDir>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::verify;

namespace {

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

const AcceptCheck *named(const QList<AcceptCheck> &checks, const char *name)
{
    for (const AcceptCheck &c : checks) {
        if (c.name == QLatin1StringView(name))
            return &c;
    }
    return nullptr;
}

bool systemTorch()
{
    QProcess probe;
    probe.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import torch.distributed")});
    return probe.waitForFinished(60000) && probe.exitCode() == 0;
}

} // namespace

class TestAcceptFigures final : public QObject
{
    Q_OBJECT

private slots:
    void diskSummariesOfGnuAndBusyBoxDd()
    {
        const QByteArray gnu = "gantry-disk dir /workspace\n"
                               "gantry-disk write direct 1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.5 s, 2.1 GB/s\n"
                               "gantry-disk read direct 1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.25 s, 4.3 GB/s\n";
        auto disk = parseDiskSpeed(gnu);
        QVERIFY(disk);
        QCOMPARE(disk->folder, QStringLiteral("/workspace"));
        QCOMPARE(qRound(disk->writeMBps), 2147);
        QCOMPARE(qRound(disk->readMBps), 4295);
        QVERIFY(disk->directWrite && disk->directRead);
        const AcceptCheck check = judgeDisk(disk);
        QCOMPARE(check.status, Verdict::Pass);
        QVERIFY2(check.detail.contains(QStringLiteral("/workspace: write 2.1 GB/s, read 4.3 GB/s")), qPrintable(check.detail));

        const QByteArray busybox = "gantry-disk dir /root\n"
                                   "gantry-disk write fsync 83886080 bytes (80.0MB) copied, 1.600000 seconds, 50.0MB/s\n"
                                   "gantry-disk read direct 83886080 bytes (80.0MB) copied, 0.800000 seconds, 100.0MB/s\n";
        const AcceptCheck slow = judgeDisk(parseDiskSpeed(busybox));
        QCOMPARE(slow.status, Verdict::Warn);
        QVERIFY2(slow.detail.contains(QStringLiteral("written through with fsync")), qPrintable(slow.detail));
        QVERIFY2(slow.detail.contains(QStringLiteral("stall every checkpoint")), qPrintable(slow.detail));
        QVERIFY2(slow.detail.contains(QStringLiteral("keep a data loader waiting")), qPrintable(slow.detail));
    }

    void aCachedReadIsShownNotJudged()
    {
        const QByteArray cached = "gantry-disk dir /data\n"
                                  "gantry-disk write direct 104857600 bytes copied, 0.2 s, 524 MB/s\n"
                                  "gantry-disk read cached 104857600 bytes copied, 1 s, 105 MB/s\n";
        const AcceptCheck check = judgeDisk(parseDiskSpeed(cached));
        QCOMPARE(check.status, Verdict::Pass);
        QVERIFY2(check.detail.contains(QStringLiteral("from the page cache, not judged")), qPrintable(check.detail));
    }

    void aDiskThatCannotBeMeasuredSaysWhy()
    {
        const AcceptCheck full = judgeDisk(parseDiskSpeed("gantry-disk error only 12 MiB free in /root\n"));
        QCOMPARE(full.status, Verdict::Skip);
        QVERIFY2(full.detail.contains(QStringLiteral("only 12 MiB free in /root")), qPrintable(full.detail));
        const AcceptCheck silent = judgeDisk(parseDiskSpeed("gantry-disk dir /x\ndd: unrecognized operand\n"));
        QCOMPARE(silent.status, Verdict::Skip);
        QVERIFY2(silent.detail.contains(QStringLiteral("dd printed no figure")), qPrintable(silent.detail));
    }

    // 8×H100 SXM: the reference table holds 376 GB/s GPU-to-GPU and 370 GB/s all-reduce bus bandwidth.
    void multiGpuFiguresAgainstTheReferenceTable()
    {
        const QJsonObject doc = json(R"({"gpus": 8, "p2p": [
              {"src": 0, "dst": 1, "gbs": 372.0, "peer_access": true},
              {"src": 0, "dst": 5, "gbs": 301.0, "peer_access": true}],
            "allreduce": {"ranks": 8, "algbw_gbs": 214.0, "busbw_gbs": 374.5}})");
        QList<MachineFigure> figures;
        const QList<AcceptCheck> checks = judgeMultiGpu(doc, QStringLiteral("h100-sxm"), 8, ReferenceTable::installed(), &figures);
        const AcceptCheck *p2p = named(checks, "gpu-to-gpu");
        const AcceptCheck *nccl = named(checks, "nccl-all-reduce");
        QVERIFY(p2p && nccl);
        QCOMPARE(p2p->status, Verdict::Warn); // 301 of 376: 80 %
        QVERIFY2(p2p->detail.contains(QStringLiteral("GPU 0 → GPU 5 (the slowest pair): 301 GB/s")), qPrintable(p2p->detail));
        QVERIFY2(p2p->detail.contains(QStringLiteral("80%")), qPrintable(p2p->detail));
        QCOMPARE(nccl->status, Verdict::Pass);
        QVERIFY2(nccl->detail.contains(QStringLiteral("bus bandwidth 374 GB/s")) || nccl->detail.contains(QStringLiteral("bus bandwidth 375 GB/s")),
                 qPrintable(nccl->detail));
        QCOMPARE(figures.size(), 2);
        QCOMPARE(figures.at(0).gpu, 5);
        QCOMPARE(figures.at(0).reference.value_or(0), 376.0);
    }

    void aSlowAllReduceFailsAndWhatCouldNotRunIsSkipped()
    {
        QList<MachineFigure> figures;
        const QList<AcceptCheck> slow = judgeMultiGpu(
            json(R"({"gpus": 8, "p2p_error": "GPU-to-GPU copy failed: out of memory",
                    "allreduce": {"ranks": 8, "busbw_gbs": 120.0}})"),
            QStringLiteral("h100-sxm"), 8, ReferenceTable::installed(), &figures);
        QCOMPARE(named(slow, "gpu-to-gpu")->status, Verdict::Skip);
        QVERIFY(named(slow, "gpu-to-gpu")->detail.contains(QStringLiteral("out of memory")));
        QCOMPARE(named(slow, "nccl-all-reduce")->status, Verdict::Fail);
        QVERIFY(named(slow, "nccl-all-reduce")->detail.contains(QStringLiteral("return it")));

        const QList<AcceptCheck> none = judgeMultiGpu(json(R"({"error": "PyTorch is not importable: No module named 'torch'"})"),
                                                      QStringLiteral("h100-sxm"), 8, ReferenceTable::installed(), &figures);
        QCOMPARE(none.size(), 2);
        for (const AcceptCheck &c : none) {
            QCOMPARE(c.status, Verdict::Skip);
            QVERIFY(c.detail.contains(QStringLiteral("No module named 'torch'")));
        }
    }

    void theDiskScriptOverSsh()
    {
        test::SshdFixture sshd;
        if (const QString why = sshd.start(); !why.isEmpty())
            QSKIP(qPrintable(why));
        QTemporaryDir data;
        ssh::Session session;
        QVERIFY(session.connect(sshd.target(), sshd.connectOptions()));
        MachineFiguresRequest request;
        request.diskFolder = data.path();
        request.diskMiB = 16;
        request.diskSeconds = 3;
        QList<MachineFigure> figures;
        const QList<AcceptCheck> checks = measureMachineFigures(session, request, ReferenceTable::installed(), {}, &figures);
        QCOMPARE(checks.size(), 1); // one GPU or none: the disk only
        QVERIFY2(checks.first().status == Verdict::Pass || checks.first().status == Verdict::Warn, qPrintable(checks.first().detail));
        QVERIFY2(checks.first().detail.startsWith(data.path() + QStringLiteral(": write ")), qPrintable(checks.first().detail));
        QVERIFY2(checks.first().detail.contains(QStringLiteral("(16 MiB)")), qPrintable(checks.first().detail));
        QCOMPARE(QDir(data.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
    }

    void multiGpuWithoutPyTorchIsSkippedWithItsReason()
    {
        test::SshdFixture sshd; // python3 there sees the standard library only
        if (const QString why = sshd.start(); !why.isEmpty())
            QSKIP(qPrintable(why));
        ssh::Session session;
        QVERIFY(session.connect(sshd.target(), sshd.connectOptions()));
        MachineFiguresRequest request;
        request.diskFolder = QDir::tempPath();
        request.diskMiB = 8;
        request.gpuCount = 2;
        request.torchCuda = true;
        QList<MachineFigure> figures;
        const QList<AcceptCheck> checks = measureMachineFigures(session, request, ReferenceTable::installed(), {}, &figures);
        QCOMPARE(checks.size(), 3);
        QCOMPARE(named(checks, "gpu-to-gpu")->status, Verdict::Skip);
        QVERIFY2(named(checks, "nccl-all-reduce")->detail.contains(QStringLiteral("PyTorch is not importable")),
                 qPrintable(named(checks, "nccl-all-reduce")->detail));
    }

    // The all-reduce code path of gpu-multi-check.py for real, with gloo on two CPU ranks.
    void theAllReduceScriptRunsItsRanks()
    {
        if (!systemTorch())
            QSKIP("python3-torch is not installed (packaging/install-deps.sh installs it)");
        test::SshdFixture sshd;
        test::SshdFixture::Options options;
        options.systemPythonPackages = true;
        if (const QString why = sshd.start(options); !why.isEmpty())
            QSKIP(qPrintable(why));
        ssh::Session session;
        QVERIFY(session.connect(sshd.target(), sshd.connectOptions()));
        QByteArray printed;
        ssh::Session::ExecOptions exec;
        exec.stdinData = multiGpuScript();
        exec.timeoutMs = 60000;
        exec.onStdout = [&printed](const QByteArray &data) { printed += data; };
        QVERIFY(session.exec(multiGpuCommand(QStringLiteral("gloo"), QStringLiteral("cpu"), 4, 1, 2), exec));
        const QJsonObject doc = QJsonDocument::fromJson(printed.trimmed().split('\n').constLast()).object();
        QVERIFY2(!doc.contains(QStringLiteral("allreduce_error")), printed.constData());
        const QJsonObject result = doc.value(QStringLiteral("allreduce")).toObject();
        QCOMPARE(result.value(QStringLiteral("ranks")).toInt(), 2);
        QVERIFY(result.value(QStringLiteral("busbw_gbs")).toDouble() > 0);
    }
};

QTEST_GUILESS_MAIN(TestAcceptFigures)
#include "test_accept_figures.moc"
