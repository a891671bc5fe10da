// SPDX-License-Identifier: Apache-2.0
#include "core/providers/sandboxprovider.h"

#include "core/providers/sandboxproviderhome.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QThread>

#include <signal.h>

// The sandbox's types, their spot variants and the reclaim of a spot instance.
namespace gantry::providers {

QList<InstanceType> SandboxProvider::instanceTypes()
{
    const QList<Region> local{Region{QStringLiteral("local"), tr("This machine (127.0.0.1)")}};
    InstanceType cpu;
    cpu.provider = QStringLiteral("sandbox");
    cpu.name = QStringLiteral("sandbox-cpu");
    cpu.description = tr("Local sshd, no GPU");
    cpu.vcpus = QThread::idealThreadCount();
    cpu.ramGb = 1;
    cpu.diskGb = 1;
    cpu.regionsWithCapacity = local;
    cpu.note = tr("Free: a real sshd on 127.0.0.1.");
    // Simulated GPUs: a stand-in nvidia-smi shows an H100 80GB, so Monitor, alerts, the idle policy,
    // Doctor and Verify have something to show; Verify and Doctor say it is simulated and never pass.
    InstanceType idle = cpu;
    idle.name = QStringLiteral("gpu_1x_sandbox");
    idle.description = tr("1x H100 80GB (simulated GPU, idle)");
    idle.gpuModel = QStringLiteral("Simulated GPU");
    idle.gpuCount = 1;
    idle.vramGbPerGpu = 80;
    idle.pricePerHour = 0.50;
    idle.note = tr("Simulated GPU at idle, to try the idle policy; a pretend price, nothing is charged.");
    InstanceType training = idle;
    training.name = QStringLiteral("gpu_1x_sandbox_training");
    training.description = tr("1x H100 80GB (simulated GPU, training)");
    training.pricePerHour = 0.60;
    training.note = tr("Simulated GPU running a training job starved by its data loader (30 % utilization), to try "
                       "Monitor and its alerts: the low-utilization alert comes after five minutes, and a CPU-bound job "
                       "on it brings the data-loader hint. A pretend price; nothing is charged.");
    QList<InstanceType> all{cpu, idle, training};
    // Every type has a spot variant, as a spot market does: a third of the price, and
    // `gantry-cli preempt` may reclaim it at any moment (what a managed run recovers from).
    for (const InstanceType &onDemand : {cpu, idle, training}) {
        InstanceType spot = onDemand;
        spot.name = onDemand.name + (onDemand.name.contains(QLatin1Char('_')) ? QStringLiteral("_spot") : QStringLiteral("-spot"));
        spot.description = tr("%1, spot (may be reclaimed)").arg(onDemand.description);
        spot.pricePerHour = onDemand.pricePerHour * 0.35;
        spot.spot = true;
        spot.note = tr("Spot: cheaper, and reclaimed without warning when someone runs gantry-cli preempt on it; "
                       "a pretend price, nothing is charged.");
        all.append(spot);
    }
    return all;
}

bool SandboxProvider::isSpotType(const QString &typeName)
{
    return typeName.endsWith(QLatin1String("_spot")) || typeName.endsWith(QLatin1String("-spot"));
}

sandbox::GpuProfile SandboxProvider::gpuProfileOf(const QString &name)
{
    const QString typeName = isSpotType(name) ? name.left(name.size() - 5) : name;
    if (typeName == QLatin1StringView("gpu_1x_sandbox"))
        return sandbox::GpuProfile::Idle;
    if (typeName == QLatin1StringView("gpu_1x_sandbox_training"))
        return sandbox::GpuProfile::Training;
    return sandbox::GpuProfile::None;
}


void SandboxProvider::preempt(const QString &id, Callback<void> done)
{
    runJob<void>([this, id] { return reclaimInstance(id); }, std::move(done));
}

Result<void> SandboxProvider::reclaimInstance(const QString &id)
{
    Result<QJsonObject> record = loadRecord(id);
    if (!record)
        return record.error();
    if (!isSpotType(record->value(QLatin1String("type")).toString())) {
        return Error{ErrorCode::Usage, tr("Local sandbox: instance %1 runs on demand; only spot instances are reclaimed "
                                          "(launch a *-spot type).").arg(id)};
    }
    if (record->value(QLatin1String("status")).toString() == QLatin1String("preempted"))
        return {};
    // As a cloud reclaims spot capacity: no warning, every process of the machine ends at once.
    killSshd(id);
    const sandbox::InstanceHome home(instanceDir(id), id);
    home.stopSessions();
    home.endProcesses(0);
    record->insert(QStringLiteral("status"), QStringLiteral("preempted"));
    record->insert(QStringLiteral("reported"), false);
    return saveRecord(id, *record);
}

void SandboxProvider::cutOff(const QString &id, Callback<void> done)
{
    runJob<void>([this, id] { return cutOffInstance(id); }, std::move(done));
}

namespace {

// `root` and every process below it (by parent pid, from /proc).
QList<pid_t> processTree(pid_t root)
{
    QHash<pid_t, QList<pid_t>> children;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool number = false;
        const pid_t pid = pid_t(entry.toInt(&number));
        QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
        if (!number || !stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' '); // state, ppid, …
        if (fields.size() > 1)
            children[pid_t(fields.at(1).toInt())].append(pid);
    }
    QList<pid_t> tree{root};
    for (qsizetype i = 0; i < tree.size(); ++i)
        tree += children.value(tree.at(i));
    return tree;
}

} // namespace

Result<void> SandboxProvider::cutOffInstance(const QString &id)
{
    Result<QJsonObject> record = loadRecord(id);
    if (!record)
        return record.error();
    // sshd and its connections end at once; the jobs (tmux, a daemon of its own) go on running.
    QFile pidFile(instanceDir(id) + QStringLiteral("/sshd.pid"));
    if (pidFile.open(QIODevice::ReadOnly)) {
        if (const pid_t sshd = pid_t(pidFile.readAll().trimmed().toInt()); sshd > 0) {
            for (pid_t pid : processTree(sshd))
                ::kill(pid, SIGKILL);
        }
    }
    record->insert(QStringLiteral("unreachable"), true); // bringUp() leaves sshd down
    return saveRecord(id, *record);
}

Result<Instance> SandboxProvider::reportReclaimed(const QString &id, QJsonObject record)
{
    // Reported once as preempted (terminated, not billing), then gone, as a reclaimed spot
    // instance leaves a cloud's listing.
    if (record.value(QLatin1String("reported")).toBool()) {
        QDir(instanceDir(id)).removeRecursively();
        return Error{ErrorCode::NotFound,
                     tr("Local sandbox: Specified instance does not exist. [global/object-does-not-exist] (%1)").arg(id)};
    }
    record.insert(QStringLiteral("reported"), true);
    if (Result<void> saved = saveRecord(id, record); !saved)
        return saved.error();
    Instance instance = toInstance(record);
    instance.state = InstanceState::Terminated;
    instance.sshHost.clear();
    return instance;
}

} // namespace gantry::providers
