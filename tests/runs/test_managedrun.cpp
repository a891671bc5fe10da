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
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::runs;

namespace {

// Counts steps, checkpoints every step (written beside, then renamed in place) and resumes from
// its checkpoint; its history of attempts lives in the checkpoint, so it survives the machines.
const char kTrainer[] = R"(import json, os, sys, time
ck = os.environ["GANTRY_CHECKPOINT_DIR"]
os.makedirs(ck, exist_ok=True)
path = os.path.join(ck, "state.json")
state = {"step": 0, "acc": 1, "history": []}
if os.path.exists(path):
    state = json.load(open(path))
state["history"].append("attempt=%s resumed=%s start=%d" % (os.environ.get("GANTRY_RUN_ATTEMPT"), os.environ.get("GANTRY_RESUMED", "0"), state["step"]))
total = int(sys.argv[1])
attempt = int(os.environ["GANTRY_RUN_ATTEMPT"])
while state["step"] < total:
    if attempt < 3 and state["step"] >= attempt * 8:
        time.sleep(0.05)  # training goes on here until the test reclaims the machine
        continue
    time.sleep(0.02)
    state["step"] += 1
    state["acc"] = (state["acc"] * 31 + state["step"]) % 1000003
    with open(path + ".tmp", "w") as f:
        json.dump(state, f)
    os.replace(path + ".tmp", path)
os.makedirs("outputs", exist_ok=True)
with open("outputs/result.txt", "w") as f:
    f.write("%d %d\n" % (state["step"], state["acc"]))
with open("outputs/history.txt", "w") as f:
    f.write("\n".join(state["history"]) + "\n")
)";

constexpr int kSteps = 30;

QString uninterruptedResult()
{
    qint64 acc = 1;
    for (int step = 1; step <= kSteps; ++step)
        acc = (acc * 31 + step) % 1000003;
    return QStringLiteral("%1 %2\n").arg(kSteps).arg(acc);
}

QByteArray readAll(const QString &path)
{
    return testsupport::fileBytes(path);
}

} // namespace

// A managed run on the local sandbox's spot machines (real sshd, real jobs in tmux, the real sync
// engine and ledger): preempted twice mid-run, it succeeds on its third attempt with the result of
// an uninterrupted run, and nothing runs or bills afterwards. Time is a ManualClock moved by the
// test (20 s a tick), so `every: 5s` mirrors at every tick or so without waiting for it.
class TestManagedRun final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<SecretStore> m_secrets = makeMemorySecretStore();
    std::unique_ptr<workspace::AppCore> m_core;
    ManualClock m_clock;
    QTimer m_time;

    QString configDir() const { return m_dir.filePath(QStringLiteral("config")); }
    QString homeRoot() const { return m_dir.filePath(QStringLiteral("Gantry runs")); }
    providers::SandboxProvider *sandbox() const { return testsupport::sandboxOf(*m_core); }

    Result<RunSpec> spec(const QString &name, const QByteArray &extra = {})
    {
        const QString workdir = m_dir.filePath(name);
        QDir().mkpath(workdir);
        QFile trainer(workdir + QStringLiteral("/train.py"));
        if (!trainer.open(QIODevice::WriteOnly))
            return Error{ErrorCode::Io, trainer.errorString()};
        trainer.write(kTrainer);
        trainer.close();
        const QByteArray yaml = "name: " + name.toUtf8() + "\nresources: {providers: [sandbox], gpu: H100, spot: true}\n"
                                "run: python3 train.py " + QByteArray::number(kSteps) + "\ncheckpoint: {path: ckpt, every: 5s}\n"
                                "results: [outputs]\nmax_attempts: 2\n" + extra;
        return parseRunSpec(yaml, QStringLiteral("run.yaml"), workdir);
    }

    ManagedRun::Options options() { return testsupport::fastRunOptions(&m_clock, homeRoot()); }

    void assertNothingLeft()
    {
        Result<QList<providers::Instance>> left = testsupport::sandboxInstances(*m_core);
        QVERIFY(left);
        QVERIFY2(left->isEmpty(), qPrintable(left->isEmpty() ? QString() : left->first().id));
        for (const SavedHost &host : m_core->hosts()->hosts())
            QVERIFY2(host.provider != QLatin1String("sandbox"), qPrintable(host.name));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(!QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty());
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
            QSKIP("the sandbox needs OpenSSH's sshd");
        m_core = testsupport::openSandboxCore(configDir(), m_secrets.get());
        QVERIFY(m_core);
        QVERIFY(sandbox());
        connect(&m_time, &QTimer::timeout, this, [this] { m_clock.advanceSeconds(20); });
        m_time.start(100);
    }

    // Whatever a failed test left running ends with the suite: no sshd outlives it.
    void cleanupTestCase()
    {
        if (!m_core)
            return;
        testsupport::terminateSandboxInstances(*m_core);
    }

    void survivesTwoPreemptions()
    {
        Result<RunSpec> s = spec(QStringLiteral("steps"));
        QVERIFY2(s, qPrintable(s ? QString() : s.error().message));
        ManagedRun run(m_core.get(), *s, QStringLiteral("run.yaml"), options());
        QSet<int> preempted;
        QStringList events;
        connect(&run, &ManagedRun::event, this, [&](const QJsonObject &event) {
            events.append(event.value(QLatin1String("event")).toString());
        });
        // Mid-run: attempt 1 at step 8, attempt 2 at step 16 (the trainer waits there to be
        // reclaimed), once the machine's GPUs were read twice (its energy is known: below).
        QTimer reclaim;
        connect(&reclaim, &QTimer::timeout, this, [&] {
            const QList<RunAttempt> attempts = run.record().attempts;
            const int attempt = int(attempts.size());
            if (attempt == 0 || attempt > 2 || preempted.contains(attempt) || !attempts.last().ended.isNull()
                || attempts.last().usage.meteredSeconds <= 0)
                return;
            const QJsonObject state = QJsonDocument::fromJson(readAll(run.homeDir() + QStringLiteral("/checkpoints/state.json"))).object();
            if (state.value(QLatin1String("step")).toInt() >= attempt * 8) {
                preempted.insert(attempt);
                sandbox()->preempt(attempts.last().instance, [&events](Result<void> done) {
                    events.append(done ? QStringLiteral("preempted") : done.error().message);
                });
            }
        });
        reclaim.start(100);
        QSignalSpy finished(&run, &ManagedRun::finished);
        run.start();
        QVERIFY2(finished.wait(240000), qPrintable(events.join(QLatin1Char(' ')) + u'\n' + run.record().message));
        QCOMPARE(run.record().state, RunState::Succeeded);

        // The result of an uninterrupted run, brought home; each attempt resumed the one before.
        QCOMPARE(QString::fromUtf8(readAll(run.homeDir() + QStringLiteral("/outputs/result.txt"))), uninterruptedResult());
        const QStringList history = QString::fromUtf8(readAll(run.homeDir() + QStringLiteral("/outputs/history.txt"))).trimmed().split(u'\n');
        QCOMPARE(history.size(), 3);
        QCOMPARE(history.at(0), QStringLiteral("attempt=1 resumed=0 start=0"));
        QVERIFY2(history.at(1).startsWith(QLatin1String("attempt=2 resumed=1 start=")) && !history.at(1).endsWith(QLatin1String("start=0")),
                 qPrintable(history.at(1)));
        QVERIFY2(history.at(2).startsWith(QLatin1String("attempt=3 resumed=1 start=")), qPrintable(history.at(2)));

        // Three closed attempts: two preempted, the third succeeded; the ledger agrees.
        const RunRecord record = run.record();
        QCOMPARE(record.attempts.size(), 3);
        QCOMPARE(record.attempts.at(0).endReason, QStringLiteral("preempted"));
        QCOMPARE(record.attempts.at(1).endReason, QStringLiteral("preempted"));
        QCOMPARE(record.attempts.at(2).endReason, QStringLiteral("succeeded"));
        QSet<QString> instances;
        for (const RunAttempt &attempt : record.attempts) {
            QVERIFY(attempt.ended.isValid());
            QCOMPARE(attempt.type, QStringLiteral("gpu_1x_sandbox_spot"));
            instances.insert(attempt.instance);
        }
        QCOMPARE(instances.size(), 3); // never the same machine
        Result<QList<cost::LedgerEntry>> rows = m_core->ledger()->entries();
        QVERIFY(rows);
        int closed = 0;
        for (const cost::LedgerEntry &row : *rows) {
            if (instances.contains(row.instanceId)) {
                QVERIFY2(!row.isOpen(), qPrintable(row.instanceId));
                ++closed;
            }
        }
        QCOMPARE(closed, 3);
        assertNothingLeft();

        // Another process reads the same: run.json has the issue's object.
        Result<RunRecord> stored = RunStore(configDir()).load(QStringLiteral("steps"));
        QVERIFY(stored);
        QCOMPARE(stored->state, RunState::Succeeded);
        QCOMPARE(stored->attempts.size(), 3);
        QVERIFY(stored->checkpointAt.isValid());
        QVERIFY(readAll(RunStore(configDir()).logPath(QStringLiteral("steps"))).contains("lost its machine: preempted"));
        // Every poll read the machine's (simulated) GPUs in the same command as the job: the energy
        // of the machines polled twice or more is known, and the run's is their sum. (The last
        // machine may finish within one poll.)
        double energy = 0;
        for (const RunAttempt &attempt : stored->attempts) {
            QVERIFY(attempt.usage.meteredSeconds > 0 || attempt.usage.energyKwh == 0);
            energy += attempt.usage.energyKwh;
        }
        QVERIFY2(stored->usage().meteredSeconds > 0, "no machine's GPUs were read twice");
        QVERIFY(energy > 0);
        QCOMPARE(stored->usage().energyKwh, energy);
        QCOMPARE(stored->toJson(QDateTime::currentDateTimeUtc()).value(QLatin1String("energy_kwh")).toDouble(), energy);
    }

    // max_cost stops the run before it crosses the bound, and its machine is terminated.
    void maxCostStopsTheRun()
    {
        Result<RunSpec> s = spec(QStringLiteral("budget"), "max_cost: 0.5\n");
        QVERIFY(s);
        ManagedRun run(m_core.get(), *s, QStringLiteral("run.yaml"), options());
        QSignalSpy finished(&run, &ManagedRun::finished);
        connect(&run, &ManagedRun::event, this, [&](const QJsonObject &event) {
            const QString kind = event.value(QLatin1String("event")).toString();
            if (kind == QLatin1String("running")) // hours at the spot price: $0.40, a few ticks from the bound
                m_clock.advanceSeconds(qint64((0.40 - run.record().costSoFar(m_clock.now())) / 0.175 * 3600));
            else if (kind == QLatin1String("stopping"))
                m_time.stop(); // what stopping takes is not billed time in this test
        });
        run.start();
        QVERIFY(finished.wait(120000));
        QCOMPARE(run.record().state, RunState::Stopped);
        QVERIFY2(run.record().message.contains(QLatin1String("max_cost")), qPrintable(run.record().message));
        QVERIFY(run.record().costSoFar(m_clock.now()) < 0.5);
        QCOMPARE(run.record().attempts.last().endReason, QStringLiteral("stopped"));
        assertNothingLeft();
        m_time.start();
    }
    // max_preemptions bounds the machines a run may lose: the second loss of a run allowed one
    // fails it, says why, and leaves nothing running or billing.
    void maxPreemptionsBoundsLostMachines()
    {
        Result<RunSpec> s = spec(QStringLiteral("bounded"), "max_preemptions: 1\n");
        QVERIFY(s);
        ManagedRun run(m_core.get(), *s, QStringLiteral("run.yaml"), options());
        QSet<int> preempted;
        connect(&run, &ManagedRun::event, this, [&](const QJsonObject &event) {
            if (event.value(QLatin1String("event")).toString() != QLatin1String("checkpoint"))
                return;
            const int attempt = event.value(QLatin1String("attempt")).toInt();
            const QJsonObject state = QJsonDocument::fromJson(readAll(run.homeDir() + QStringLiteral("/checkpoints/state.json"))).object();
            if (!preempted.contains(attempt) && state.value(QLatin1String("step")).toInt() >= attempt * 8) {
                preempted.insert(attempt);
                sandbox()->preempt(run.record().attempts.last().instance, [](Result<void>) {});
            }
        });
        QSignalSpy finished(&run, &ManagedRun::finished);
        run.start();
        QVERIFY2(finished.wait(120000), qPrintable(run.record().message));
        QCOMPARE(run.record().state, RunState::Failed);
        QVERIFY2(run.record().message.contains(QLatin1String("max_preemptions")), qPrintable(run.record().message));
        QCOMPARE(run.record().attempts.size(), 2);
        QCOMPARE(run.record().preemptions, 2);
        for (const RunAttempt &attempt : run.record().attempts)
            QCOMPARE(attempt.endReason, QStringLiteral("preempted"));
        assertNothingLeft();
    }
    // A machine that stops answering SSH while the provider still reports it running (and billing)
    // is terminated before the run relaunches: once the grace has passed on the run's clock, the
    // next attempt starts only after the machine is gone from the provider's listing. The job
    // waits on attempt 1 (until its machine is cut off) and ends at once on attempt 2.
    void unreachableMachineIsTerminatedBeforeTheRelaunch()
    {
        const QString workdir = m_dir.filePath(QStringLiteral("cutoff"));
        QVERIFY(QDir().mkpath(workdir));
        QFile file(workdir + QStringLiteral("/notes.txt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("a workdir with a file in it\n");
        file.close();
        Result<RunSpec> s = parseRunSpec("name: cutoff\nresources: {providers: [sandbox], gpu: H100, spot: true}\n"
                                         "run: if [ \"$GANTRY_RUN_ATTEMPT\" = 1 ]; then exec sleep 600; fi; echo done\n",
                                         QStringLiteral("run.yaml"), workdir);
        QVERIFY2(s, qPrintable(s ? QString() : s.error().message));
        ManagedRun::Options o = options();
        o.unreachableGraceSeconds = 60; // three ticks of the test's clock
        ManagedRun run(m_core.get(), *s, QStringLiteral("run.yaml"), o);
        QString cutOff;
        QStringList leftAtRelaunch;
        connect(&run, &ManagedRun::event, this, [&](const QJsonObject &event) {
            const QString kind = event.value(QLatin1String("event")).toString();
            const int attempt = event.value(QLatin1String("attempt")).toInt();
            if (kind == QLatin1String("running") && attempt == 1) {
                cutOff = run.record().attempts.last().instance;
                sandbox()->cutOff(cutOff, [](Result<void>) {});
            } else if (kind == QLatin1String("syncing") && attempt == 2) {
                for (const providers::Instance &instance : testsupport::sandboxInstances(*m_core).valueOr({}))
                    leftAtRelaunch.append(instance.id);
            }
        });
        QSignalSpy finished(&run, &ManagedRun::finished);
        run.start();
        QVERIFY2(finished.wait(120000), qPrintable(run.record().message));
        QStringList reasons;
        for (const RunAttempt &attempt : run.record().attempts)
            reasons.append(attempt.endReason);
        QVERIFY2(run.record().state == RunState::Succeeded, qPrintable(run.record().message + u' ' + reasons.join(u',')));
        QCOMPARE(run.record().attempts.size(), 2);
        QCOMPARE(run.record().attempts.first().instance, cutOff);
        QCOMPARE(run.record().attempts.first().endReason, QStringLiteral("unreachable"));
        QVERIFY2(!leftAtRelaunch.isEmpty() && !leftAtRelaunch.contains(cutOff), qPrintable(leftAtRelaunch.join(u' ')));
        QVERIFY(readAll(RunStore(configDir()).logPath(QStringLiteral("cutoff"))).contains("does not answer SSH"));
        assertNothingLeft();
    }
};

QTEST_GUILESS_MAIN(TestManagedRun)
#include "test_managedrun.moc"
