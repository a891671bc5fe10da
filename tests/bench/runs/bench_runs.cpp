// SPDX-License-Identifier: Apache-2.0
// Not a timed test: how long a managed run takes from losing its machine to its job running again
// on the next one, phase by phase, and how many bytes each checkpoint mirror copies against what
// changed. The local sandbox (real sshd per machine, real sync, real mirror), the production tick.
//   bench_runs [CHECKPOINT_MB=1024] [BOOT_MS=2000] [TICK_MS=5000]
// Targets (issue #36): preemption → running again ≤ 10 s plus boot, plus the checkpoint's
// transfer; a mirror copies only what changed.
#include "core/runs/managedrun.h"
#include "core/util/secretstore.h"
#include "tests/support/sandboxcore.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstdio>

using namespace gantry;

namespace {

// Writes a checkpoint of MB megabytes once (weights.bin, renamed in place), then a small step file
// every 200 ms; on its second attempt it confirms the restored weights and ends.
const char kTrainer[] = R"(import os, sys, time
ck = os.environ["GANTRY_CHECKPOINT_DIR"]
os.makedirs(ck, exist_ok=True)
weights = os.path.join(ck, "weights.bin")
size = int(sys.argv[1]) * 1024 * 1024
if os.environ["GANTRY_RUN_ATTEMPT"] != "1":
    sys.exit(0 if os.path.getsize(weights) == size else 3)
with open(weights + ".tmp", "wb") as f:
    block = os.urandom(1024 * 1024)
    for i in range(size // len(block)):
        f.write(block[:8] + i.to_bytes(8, "little") + block[16:])
os.replace(weights + ".tmp", weights)
step = 0
while True:
    step += 1
    with open(os.path.join(ck, "step.tmp"), "w") as f:
        f.write("%d\n" % step)
    os.replace(os.path.join(ck, "step.tmp"), os.path.join(ck, "step.txt"))
    time.sleep(0.2)
)";

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const int checkpointMb = argc > 1 ? std::max(1, atoi(argv[1])) : 1024;
    const int bootMs = argc > 2 ? atoi(argv[2]) : 2000;
    const int tickMs = argc > 3 ? std::max(100, atoi(argv[3])) : 5000;
    QTemporaryDir dir;
    std::unique_ptr<SecretStore> secrets = makeMemorySecretStore();
    std::unique_ptr<workspace::AppCore> core = testsupport::openSandboxCore(dir.filePath(QStringLiteral("config")), secrets.get(), bootMs, false);
    if (!core) {
        fprintf(stderr, "the application core did not open\n");
        return 1;
    }
    const QString workdir = dir.filePath(QStringLiteral("work"));
    QDir().mkpath(workdir);
    QFile trainer(workdir + QStringLiteral("/train.py"));
    if (!trainer.open(QIODevice::WriteOnly) || trainer.write(kTrainer) < 0)
        return 1;
    trainer.close();
    Result<runs::RunSpec> spec = runs::parseRunSpec("name: bench\nresources: {providers: [sandbox], gpu: any, spot: true}\n"
                                                    "run: python3 train.py " + QByteArray::number(checkpointMb) + "\n"
                                                    "checkpoint: {path: ckpt, every: 1s}\n",
                                                    QStringLiteral("bench.yaml"), workdir);
    if (!spec) {
        fprintf(stderr, "%s\n", qPrintable(spec.error().message));
        return 1;
    }
    runs::ManagedRun::Options options;
    options.tickMs = tickMs;
    options.homeRoot = dir.filePath(QStringLiteral("Gantry runs"));
    runs::ManagedRun run(core.get(), *spec, QStringLiteral("bench.yaml"), options);

    QElapsedTimer clock;
    clock.start();
    qint64 preemptedAt = -1;
    QHash<QString, qint64> after; // event → ms after the preemption (first seen)
    QList<qint64> smallMirrors;   // bytes of each mirror once the weights are home
    bool weightsHome = false;
    QObject::connect(&run, &runs::ManagedRun::event, &app, [&](const QJsonObject &event) {
        const QString kind = event.value(QLatin1String("event")).toString();
        if (preemptedAt >= 0 && !after.contains(kind))
            after.insert(kind, clock.elapsed() - preemptedAt);
        if (kind != QLatin1String("checkpoint") || preemptedAt >= 0)
            return;
        const qint64 bytes = qint64(event.value(QLatin1String("bytes")).toDouble());
        if (!weightsHome) {
            weightsHome = bytes >= qint64(checkpointMb) * 1024 * 1024;
            return;
        }
        smallMirrors.append(bytes);
        if (smallMirrors.size() < 3)
            return;
        preemptedAt = clock.elapsed();
        testsupport::sandboxOf(*core)->preempt(run.record().attempts.last().instance, [](Result<void>) {});
    });
    int exitCode = 0;
    QObject::connect(&run, &runs::ManagedRun::finished, &app, [&](runs::RunState state) {
        exitCode = state == runs::RunState::Succeeded ? 0 : 1;
        app.quit();
    });
    run.start();
    app.exec();

    printf("managed run, %d MiB checkpoint, sandbox boot %d ms, tick %d ms: %s\n", checkpointMb, bootMs, tickMs,
           qPrintable(run.record().message));
    printf("mirrors after the checkpoint was home copied %s bytes each (the changed step file: 2-8 bytes; the %d MiB "
           "weights unchanged, not copied again)\n",
           qPrintable(QStringList([&] {
               QStringList out;
               for (qint64 bytes : smallMirrors)
                   out.append(QString::number(bytes));
               return out;
           }()).join(QStringLiteral(", "))),
           checkpointMb);
    const auto at = [&](const char *kind) { return after.value(QLatin1String(kind), -1); };
    printf("preemption → lost (asked the provider): %lld ms\n", at("lost"));
    printf("preemption → next machine launched:     %lld ms\n", at("launched"));
    printf("preemption → next machine up (SSH):     %lld ms\n", at("syncing"));
    printf("preemption → job running again:          %lld ms (target ≤ 10 s + boot %d ms + the checkpoint's transfer)\n",
           at("running"), bootMs);
    printf("of which restoring the workdir and %d MiB: %lld ms\n", checkpointMb, at("running") - at("syncing"));
    testsupport::terminateSandboxInstances(*core);
    return exitCode;
}
