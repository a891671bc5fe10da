// SPDX-License-Identifier: Apache-2.0
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/runs/managedrun.h"
#include "core/util/secretstore.h"
#include "core/workspace/appcore.h"
#include "core/workspace/workspace.h"
#include "sandboxcore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::runs;

namespace {

// A data-parallel trainer on torch.distributed (gloo on CPU, started by torchrun on each node):
// every step all-reduces rank+1 over the group (3 on two nodes) into its state; rank 0
// checkpoints every step (written beside, renamed in place) and every rank resumes from the
// checkpoint restored to its node. The first start waits at step 8 for the test to reclaim node 1.
const char kTrainer[] = R"(import json, os, sys, time
import torch, torch.distributed as dist
dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
ck = os.environ["GANTRY_CHECKPOINT_DIR"]
os.makedirs(ck, exist_ok=True)
path = os.path.join(ck, "state.json")
state = {"step": 0, "acc": 1, "history": []}
if os.path.exists(path):
    state = json.load(open(path))
start = int(os.environ["GANTRY_RUN_ATTEMPT"])
state["history"].append("start=%d resumed=%s step=%d world=%d" % (start, os.environ.get("GANTRY_RESUMED", "0"), state["step"], world))
total = int(sys.argv[1])
while state["step"] < total:
    if start == 1 and state["step"] >= 8:
        time.sleep(0.05)  # training goes on here until the test reclaims node 1
        continue
    t = torch.tensor([float(rank + 1)])
    dist.all_reduce(t)
    state["step"] += 1
    state["acc"] = (state["acc"] * 31 + state["step"] * int(t.item())) % 1000003
    if rank == 0:
        with open(path + ".tmp", "w") as f:
            json.dump(state, f)
        os.replace(path + ".tmp", path)
    time.sleep(0.02)
if rank == 0:
    os.makedirs("outputs", exist_ok=True)
    with open("outputs/result.txt", "w") as f:
        f.write("%d %d\n" % (state["step"], state["acc"]))
    with open("outputs/history.txt", "w") as f:
        f.write("\n".join(state["history"]) + "\n")
)";

constexpr int kSteps = 24;

QString uninterruptedResult()
{
    qint64 acc = 1;
    for (int step = 1; step <= kSteps; ++step)
        acc = (acc * 31 + step * 3) % 1000003;
    return QStringLiteral("%1 %2\n").arg(kSteps).arg(acc);
}

} // namespace

// A two-node managed run (resources.nodes: 2) on the local sandbox's spot machines, torchrun with
// gloo on each: node 1 is reclaimed mid-run; the run stops node 0's rank, relaunches node 1 alone
// and restarts both ranks from the last complete checkpoint, and ends with the result of an
// uninterrupted run. Real sshd, real jobs, the real sync engine and ledger; time is a ManualClock.
class TestManagedRunNodes final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<SecretStore> m_secrets = makeMemorySecretStore();
    std::unique_ptr<workspace::AppCore> m_core;
    ManualClock m_clock;
    QTimer m_time;

    providers::SandboxProvider *sandbox() const { return testsupport::sandboxOf(*m_core); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
            QSKIP("the sandbox needs OpenSSH's sshd");
        const QStringList hasTorch{QStringLiteral("-c"), QStringLiteral("import importlib.util, sys; sys.exit(importlib.util.find_spec('torch') is None)")};
        if (QProcess::execute(QStringLiteral("python3"), hasTorch) != 0 && QProcess::execute(QStringLiteral("/usr/bin/python3"), hasTorch) != 0)
            QSKIP("torchrun needs python3 with torch (Debian: python3-torch)");
        m_core = testsupport::openSandboxCore(m_dir.filePath(QStringLiteral("config")), m_secrets.get());
        QVERIFY(m_core);
        connect(&m_time, &QTimer::timeout, this, [this] { m_clock.advanceSeconds(20); });
        m_time.start(100);
    }

    void cleanupTestCase()
    {
        if (m_core)
            testsupport::terminateSandboxInstances(*m_core);
    }

    // Stopped while its nodes are still launching: the run ends only once every launch has answered
    // and what each rented is terminated — no machine is left billing behind a stopped run.
    void stoppedWhileItsNodesLaunch()
    {
        const QString workdir = m_dir.filePath(QStringLiteral("early"));
        QVERIFY(QDir().mkpath(workdir));
        Result<RunSpec> spec = parseRunSpec("name: early\nresources: {providers: [sandbox], gpu: H100, spot: true, nodes: 2}\nrun: sleep 600\n",
                                            QStringLiteral("run.yaml"), workdir);
        QVERIFY(spec);
        ManagedRun run(m_core.get(), *spec, QStringLiteral("run.yaml"), testsupport::fastRunOptions(&m_clock, m_dir.filePath(QStringLiteral("Gantry runs"))));
        bool stopped = false;
        connect(&run, &ManagedRun::event, this, [&](const QJsonObject &event) {
            if (!stopped && event.value(QLatin1String("event")).toString() == QLatin1String("launching")) {
                stopped = true;
                QTimer::singleShot(0, &run, [&run] { run.stop(); });
            }
        });
        QSignalSpy finished(&run, &ManagedRun::finished);
        run.start();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.count(), 1);
        QCOMPARE(run.record().state, RunState::Stopped);
        for (const RunAttempt &attempt : run.record().attempts)
            QVERIFY2(attempt.ended.isValid(), qPrintable(attempt.instance));
        QVERIFY2(testsupport::sandboxInstances(*m_core).valueOr({}).isEmpty(), "a node launched during the stop is left running");
    }

    void twoNodeRunSurvivesLosingANode()
    {
        const QString workdir = m_dir.filePath(QStringLiteral("duo"));
        QVERIFY(QDir().mkpath(workdir));
        QFile trainer(workdir + QStringLiteral("/train.py"));
        QVERIFY(trainer.open(QIODevice::WriteOnly));
        trainer.write(kTrainer);
        trainer.close();
        const QByteArray yaml = "name: duo\nresources: {providers: [sandbox], gpu: H100, spot: true, nodes: 2, master_port: 29661}\n"
                                "run: $GANTRY_TORCHRUN train.py " + QByteArray::number(kSteps) + "\n"
                                "checkpoint: {path: ckpt, every: 5s}\nresults: [outputs]\nmax_attempts: 1\n";
        Result<RunSpec> spec = parseRunSpec(yaml, QStringLiteral("run.yaml"), workdir);
        QVERIFY2(spec, qPrintable(spec ? QString() : spec.error().message));
        ManagedRun run(m_core.get(), *spec, QStringLiteral("run.yaml"), testsupport::fastRunOptions(&m_clock, m_dir.filePath(QStringLiteral("Gantry runs"))));

        QString reclaimed;
        QStringList events;
        connect(&run, &ManagedRun::event, this, [&](const QJsonObject &event) {
            events.append(event.value(QLatin1String("event")).toString());
            if (!reclaimed.isEmpty() || event.value(QLatin1String("event")).toString() != QLatin1String("checkpoint"))
                return;
            const QJsonObject state = QJsonDocument::fromJson(testsupport::fileBytes(run.homeDir() + QStringLiteral("/checkpoints/state.json"))).object();
            if (state.value(QLatin1String("step")).toInt() < 8)
                return;
            for (const RunAttempt &attempt : run.record().attempts) {
                if (attempt.rank == 1 && !attempt.ended.isValid())
                    reclaimed = attempt.instance;
            }
            sandbox()->preempt(reclaimed, [&events](Result<void> done) { events.append(done ? QStringLiteral("preempted") : done.error().message); });
        });
        QSignalSpy finished(&run, &ManagedRun::finished);
        run.start();
        QVERIFY2(finished.wait(240000), qPrintable(events.join(QLatin1Char(' ')) + u'\n' + run.record().message));
        QVERIFY2(run.record().state == RunState::Succeeded, qPrintable(run.record().message + u'\n' + events.join(QLatin1Char(' '))));

        // The result of an uninterrupted run; the second start resumed both ranks from step 8 or later.
        QCOMPARE(QString::fromUtf8(testsupport::fileBytes(run.homeDir() + QStringLiteral("/outputs/result.txt"))), uninterruptedResult());
        const QStringList history = QString::fromUtf8(testsupport::fileBytes(run.homeDir() + QStringLiteral("/outputs/history.txt"))).trimmed().split(u'\n');
        QCOMPARE(history.size(), 2);
        QCOMPARE(history.at(0), QStringLiteral("start=1 resumed=0 step=0 world=2"));
        QVERIFY2(history.at(1).startsWith(QLatin1String("start=2 resumed=1 step=")) && history.at(1).endsWith(QLatin1String("world=2"))
                     && !history.at(1).contains(QLatin1String("step=0 ")),
                 qPrintable(history.at(1)));

        // Node 0 kept its machine; node 1's was replaced once. Every attempt is closed, in the ledger too.
        const RunRecord record = run.record();
        QCOMPARE(record.attempts.size(), 3);
        QCOMPARE(record.preemptions, 1);
        QCOMPARE(record.starts, 2);
        QSet<QString> machines;
        for (const RunAttempt &attempt : record.attempts) {
            QVERIFY(attempt.ended.isValid());
            machines.insert(attempt.instance);
            if (attempt.instance == reclaimed) {
                QCOMPARE(attempt.rank, 1);
                QCOMPARE(attempt.endReason, QStringLiteral("preempted"));
            } else {
                QCOMPARE(attempt.endReason, QStringLiteral("succeeded"));
            }
        }
        QCOMPARE(machines.size(), 3);
        QCOMPARE(record.attempts.first().rank + record.attempts.at(1).rank + record.attempts.last().rank, 2); // ranks 0, 1, 1
        Result<QList<cost::LedgerEntry>> rows = m_core->ledger()->entries();
        QVERIFY(rows);
        int closed = 0;
        for (const cost::LedgerEntry &row : *rows) {
            if (machines.contains(row.instanceId)) {
                QVERIFY2(!row.isOpen(), qPrintable(row.instanceId));
                ++closed;
            }
        }
        QCOMPARE(closed, 3);
        QVERIFY2(testsupport::sandboxInstances(*m_core).valueOr({}).isEmpty(), "a machine of the run is left running");
        for (const SavedHost &host : m_core->hosts()->hosts())
            QVERIFY2(host.provider != QLatin1String("sandbox"), qPrintable(host.name));
        QVERIFY(testsupport::fileBytes(RunStore(m_dir.filePath(QStringLiteral("config"))).logPath(QStringLiteral("duo"))).contains("(node 1): preempted"));
    }
};

QTEST_GUILESS_MAIN(TestManagedRunNodes)
#include "test_managedrun_nodes.moc"
