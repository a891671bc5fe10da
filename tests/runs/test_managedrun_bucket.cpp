// SPDX-License-Identifier: Apache-2.0
#include "core/runs/managedrun.h"
#include "core/storage/buckets.h"
#include "core/util/secretstore.h"
#include "s3emulatorprocess.h"
#include "sandboxcore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::runs;

namespace {

// Counts steps and checkpoints every step (renamed in place); the first attempt waits at step 8
// for the test to reclaim its machine.
const char kTrainer[] = R"(import json, os, sys, time
ck = os.environ["GANTRY_CHECKPOINT_DIR"]
os.makedirs(ck, exist_ok=True)
path = os.path.join(ck, "state.json")
state = {"step": 0, "acc": 1, "history": []}
if os.path.exists(path):
    state = json.load(open(path))
attempt = int(os.environ["GANTRY_RUN_ATTEMPT"])
state["history"].append("attempt=%d resumed=%s start=%d" % (attempt, os.environ.get("GANTRY_RESUMED", "0"), state["step"]))
while state["step"] < 20:
    if attempt == 1 and state["step"] >= 8:
        time.sleep(0.05)
        continue
    state["step"] += 1
    state["acc"] = (state["acc"] * 31 + state["step"]) % 1000003
    with open(path + ".tmp", "w") as f:
        json.dump(state, f)
    os.replace(path + ".tmp", path)
    time.sleep(0.02)
os.makedirs("outputs", exist_ok=True)
open("outputs/result.txt", "w").write("%d %d\n%s\n" % (state["step"], state["acc"], "\n".join(state["history"])))
)";

} // namespace

// Checkpoints kept in a bucket (checkpoint.store; the S3 emulator, which checks every signature):
// the machine sends them there itself with presigned URLs, the run's machine is reclaimed, and the
// next machine restores them from the bucket — nothing of the checkpoint passes through this
// computer, and the run ends with the result of an uninterrupted one.
class TestManagedRunBucket final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<SecretStore> m_secrets = makeMemorySecretStore();
    std::unique_ptr<workspace::AppCore> m_core;
    test::S3EmulatorProcess m_s3;
    ManualClock m_clock;
    QTimer m_time;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")))
            QSKIP("the sandbox needs OpenSSH's sshd");
        GANTRY_REQUIRE_S3(m_s3.start({QStringLiteral("--bucket"), QStringLiteral("ckpts")}));
        m_core = testsupport::openSandboxCore(m_dir.filePath(QStringLiteral("config")), m_secrets.get());
        QVERIFY(m_core);
        storage::Buckets buckets(m_core->configDir(), m_secrets.get());
        Result<storage::StoredBucket> added = buckets.add(
            storage::BucketConfig{QStringLiteral("ckpts"), m_s3.endpoint(), QStringLiteral("ckpts"), QStringLiteral("us-east-1")},
            storage::sigv4::Credentials{QString::fromLatin1(test::S3EmulatorProcess::kAccessKey),
                                        QString::fromLatin1(test::S3EmulatorProcess::kSecretKey), {}},
            storage::KeySource::Keychain);
        QVERIFY2(added, qPrintable(added ? QString() : added.error().message));
        connect(&m_time, &QTimer::timeout, this, [this] { m_clock.advanceSeconds(20); });
        m_time.start(100);
    }

    void cleanupTestCase()
    {
        if (m_core)
            testsupport::terminateSandboxInstances(*m_core);
    }

    void checkpointsGoThroughTheBucket()
    {
        const QString workdir = m_dir.filePath(QStringLiteral("work"));
        QDir().mkpath(workdir);
        QFile trainer(workdir + QStringLiteral("/train.py"));
        QVERIFY(trainer.open(QIODevice::WriteOnly));
        trainer.write(kTrainer);
        trainer.close();
        Result<RunSpec> spec = parseRunSpec("name: bucketed\nresources: {providers: [sandbox], gpu: H100, spot: true}\nrun: python3 train.py\n"
                                            "checkpoint: {path: ckpt, every: 5s, store: s3://ckpts/runs/bucketed}\nresults: [outputs]\n",
                                            QStringLiteral("run.yaml"), workdir);
        QVERIFY2(spec, qPrintable(spec ? QString() : spec.error().message));
        ManagedRun run(m_core.get(), *spec, QStringLiteral("run.yaml"), testsupport::fastRunOptions(&m_clock, m_dir.filePath(QStringLiteral("Gantry runs"))));
        QString reclaimed;
        connect(&run, &ManagedRun::event, this, [&](const QJsonObject &event) {
            if (!reclaimed.isEmpty() || event.value(QLatin1String("event")).toString() != QLatin1String("checkpoint"))
                return;
            reclaimed = run.record().attempts.last().instance; // a complete checkpoint is in the bucket
            testsupport::sandboxOf(*m_core)->preempt(reclaimed, [](Result<void>) {});
        });
        QSignalSpy finished(&run, &ManagedRun::finished);
        run.start();
        QVERIFY2(finished.wait(120000), qPrintable(run.record().message));
        QVERIFY2(run.record().state == RunState::Succeeded, qPrintable(run.record().message));

        qint64 acc = 1;
        for (int step = 1; step <= 20; ++step)
            acc = (acc * 31 + step) % 1000003;
        const QStringList result = QString::fromUtf8(testsupport::fileBytes(run.homeDir() + QStringLiteral("/outputs/result.txt"))).trimmed().split(u'\n');
        QCOMPARE(result.value(0), QStringLiteral("20 %1").arg(acc));
        QCOMPARE(result.size(), 3);
        QCOMPARE(result.at(1), QStringLiteral("attempt=1 resumed=0 start=0"));
        QVERIFY2(result.at(2).startsWith(QLatin1String("attempt=2 resumed=1 start=")) && !result.at(2).endsWith(QLatin1String("start=0")),
                 qPrintable(result.at(2)));
        QCOMPARE(run.record().attempts.first().endReason, QStringLiteral("preempted"));
        QCOMPARE(run.record().checkpointPath, QStringLiteral("s3://ckpts/runs/bucketed"));
        QVERIFY(!QFileInfo::exists(run.homeDir() + QStringLiteral("/checkpoints"))); // nothing came home
        // The machines put the checkpoint into the bucket themselves: presigned PUTs of the slots.
        bool slotPut = false;
        bool manifest = false;
        for (const QJsonObject &entry : m_s3.log()) {
            const QString path = entry.value(QStringLiteral("path")).toString();
            slotPut = slotPut || (entry.value(QStringLiteral("method")).toString() == QLatin1String("PUT")
                                  && entry.value(QStringLiteral("auth")).toString() == QLatin1String("presigned")
                                  && path.contains(QLatin1String("/runs/bucketed/a/state.json")));
            manifest = manifest || path.endsWith(QLatin1String("/runs/bucketed/gantry-checkpoint.json"));
            QVERIFY(!entry.value(QStringLiteral("secret_seen")).toBool());
        }
        QVERIFY(slotPut);
        QVERIFY(manifest);
        QVERIFY(testsupport::sandboxInstances(*m_core).valueOr({}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestManagedRunBucket)
#include "test_managedrun_bucket.moc"
