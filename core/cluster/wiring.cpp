#include "core/cluster/wiring.h"

#include "core/ssh/session.h"

namespace gantry::cluster {
namespace {

// How a failed torchrun is explained in the rank's log. The patterns are torch's own messages
// for a static rendezvous that never completed (TCPStore client/server timeouts).
const char *const kRendezvousHint =
    "if [ $status -ne 0 ] && grep -qE 'RendezvousTimeout|TCPStore|timed out|Connection refused|"
    "connect\\(\\) timed out|Timed out initializing' \"$GANTRY_JOB_LOG\" 2>/dev/null; then "
    "echo \"gantry: rank $NODE_RANK could not rendezvous with $MASTER_ADDR:$MASTER_PORT (exit $status).\" >&2; "
    "echo \"gantry: check that the port is free on the head and that every node reaches it: gantry-cli cluster check $GANTRY_CLUSTER "
    "--master-port $MASTER_PORT (security group, firewall, another region).\" >&2; "
    "echo \"gantry: for NCCL, rerun with --env NCCL_DEBUG=INFO and set NCCL_SOCKET_IFNAME to the interface check suggests.\" >&2; "
    "fi; rm -f \"$GANTRY_JOB_LOG\"; exit $status";

// The peer watchdog beside every rank's torchrun. Once one rank's worker fails, torch 1.13 keeps
// that rank's torchrun in its exit barrier for 5 minutes and the others in init_process_group
// for 30 (--rdzv_conf timeout= does not reach either), billing all along. So the watchdog reads
// its own torchrun's log: on torch's "failed (exitcode: …)" it leaves a mark in the head's TCPStore
// (the one torchrun already serves at MASTER_ADDR:MASTER_PORT; a client that does not wait for
// workers is not counted as one) and stops its torchrun; every other rank's watchdog stops its
// own torchrun on seeing the mark, or once the head's store, reached before, has been gone for a
// grace period (nothing can finish without the head; the grace lets a rank end normally first).
// torchrun in its exit barrier (a blocking store call) may not see SIGTERM for minutes: SIGKILL
// after 2 s there (its worker has ended), after 10 s elsewhere (SIGTERM lets it end its workers). The 1.13 binding has no check(): add(key, 0) reads a counter without changing it.
const char *const kWatchdog =
    "import os, sys, time, signal\n"
    "from datetime import timedelta\n"
    "from torch.distributed import TCPStore\n"
    "pid, log, me = int(sys.argv[1]), sys.argv[2], os.environ['NODE_RANK']\n"
    "def store():\n"
    "    return TCPStore(os.environ['MASTER_ADDR'], int(os.environ['MASTER_PORT']), is_master=False,\n"
    "                    timeout=timedelta(seconds=5), wait_for_workers=False)\n"
    "def alive():\n"
    "    try:\n"
    "        os.kill(pid, 0); return True\n"
    "    except OSError:\n"
    "        return False\n"
    "def stop(why, patience=20):\n"
    "    print('gantry: %s: stopping rank %s (its torchrun would only wait for the lost peer)' % (why, me), file=sys.stderr, flush=True)\n"
    "    os.kill(pid, signal.SIGTERM)\n"
    "    for _ in range(patience):\n"
    "        if not alive(): return\n"
    "        time.sleep(0.5)\n"
    "    os.kill(pid, signal.SIGKILL)\n"
    "def failed_here():\n"
    "    try:\n"
    "        with open(log, 'rb') as f: return b'failed (exitcode:' in f.read()\n"
    "    except OSError:\n"
    "        return False\n"
    "s, gone = None, None\n"
    "while alive():\n"
    "    try:\n"
    "        s = s or store()\n"
    "        gone = None\n"
    "        if failed_here():\n"
    "            s.set('gantry/failed', me); s.add('gantry/failures', 1); stop('rank %s failed' % me, 4); break\n"
    "        if s.add('gantry/failures', 0) > 0:\n"
    "            stop('rank %s failed' % s.get('gantry/failed').decode()); break\n"
    "    except Exception:\n"
    "        if s is not None and gone is None: gone = time.monotonic()\n"
    "        s = None\n"
    "        if gone is not None and time.monotonic() - gone > float(os.environ.get('GANTRY_PEER_GRACE_S', '15')):\n"
    "            stop('the head (rank 0) is gone'); break\n"
    "    time.sleep(2)\n";

} // namespace

QString masterAddress(const Cluster &cluster)
{
    if (!cluster.masterAddr.isEmpty())
        return cluster.masterAddr;
    if (cluster.nodes.isEmpty())
        return {};
    const ClusterNode &head = cluster.nodes.first();
    if (!head.privateAddress.isEmpty() && cluster.oneRegion())
        return head.privateAddress;
    return head.address;
}

QList<QPair<QString, QString>> nodeEnvironment(const Cluster &cluster, int rank, int masterPort, int gpusPerNode)
{
    QStringList addresses;
    for (const ClusterNode &node : cluster.nodes)
        addresses << node.address;
    return {{QStringLiteral("NODE_RANK"), QString::number(rank)},
            {QStringLiteral("NNODES"), QString::number(cluster.nodes.size())},
            {QStringLiteral("MASTER_ADDR"), masterAddress(cluster)},
            {QStringLiteral("MASTER_PORT"), QString::number(masterPort)},
            {QStringLiteral("GPUS_PER_NODE"), QString::number(std::max(0, gpusPerNode))},
            {QStringLiteral("GANTRY_CLUSTER"), cluster.name},
            {QStringLiteral("GANTRY_NODE_ADDRS"), addresses.join(QLatin1Char(','))}};
}

QString commandLine(const QStringList &words)
{
    if (words.size() == 1)
        return words.first();
    QStringList quoted;
    for (const QString &word : words)
        quoted << ssh::shellQuote(word);
    return quoted.join(QLatin1Char(' '));
}

QString torchrunLine(const TorchrunSpec &spec, const Cluster &cluster, int rank, int gpusPerNode)
{
    const int nproc = spec.nprocPerNode > 0 ? spec.nprocPerNode : std::max(1, gpusPerNode);
    // Underscore spellings: torch 1.x knows only those, 2.x accepts both. --redirects 1 --tee 1
    // (stdout to the log and the console, stderr untouched): Debian's torch 1.13 on Python 3.11
    // crashes on the default 0 (Flag iteration skips 0 and 3).
    QStringList words{QStringLiteral("\"$GANTRY_PY\""), QStringLiteral("-m"), QStringLiteral("torch.distributed.run"),
                      QStringLiteral("--nnodes"), QString::number(cluster.nodes.size()),
                      QStringLiteral("--node_rank"), QString::number(rank),
                      QStringLiteral("--nproc_per_node"), QString::number(nproc),
                      QStringLiteral("--rdzv_backend"), QStringLiteral("static"),
                      QStringLiteral("--rdzv_conf"), ssh::shellQuote(QStringLiteral("timeout=%1").arg(spec.rendezvousTimeoutS)),
                      QStringLiteral("--master_addr"), ssh::shellQuote(masterAddress(cluster)),
                      QStringLiteral("--master_port"), QString::number(spec.run.masterPort),
                      QStringLiteral("--redirects"), QStringLiteral("1"), QStringLiteral("--tee"), QStringLiteral("1")};
    for (const QString &word : spec.run.command)
        words << ssh::shellQuote(word);
    return QStringLiteral("GANTRY_PY=python3; for candidate in python3 /usr/bin/python3; do "
                          "if \"$candidate\" -c 'import torch' >/dev/null 2>&1; then GANTRY_PY=$candidate; break; fi; done; "
                          "GANTRY_JOB_LOG=$(mktemp); ")
        + words.join(QLatin1Char(' ')) + QStringLiteral(" 2> >(tee \"$GANTRY_JOB_LOG\" >&2) & GANTRY_TORCHRUN=$!; "
                                                        "GANTRY_WATCHDOG=%1; \"$GANTRY_PY\" -c \"$GANTRY_WATCHDOG\" $GANTRY_TORCHRUN \"$GANTRY_JOB_LOG\" & "
                                                        "GANTRY_WATCHDOG_PID=$!; wait $GANTRY_TORCHRUN; status=$?; "
                                                        "kill $GANTRY_WATCHDOG_PID 2>/dev/null; wait $GANTRY_WATCHDOG_PID 2>/dev/null; ")
                                              .arg(ssh::shellQuote(QLatin1String(kWatchdog)))
        + QLatin1String(kRendezvousHint);
}

jobs::JobSpec rankJobSpec(const Cluster &cluster, const RunSpec &spec, int rank, int gpusPerNode, const QString &line)
{
    jobs::JobSpec job;
    job.name = rankJobName(spec.jobName, rank);
    job.workingDir = spec.workingDir;
    job.env = nodeEnvironment(cluster, rank, spec.masterPort, gpusPerNode) + spec.env;
    job.command = line;
    return job;
}

int countGpus(const QByteArray &nvidiaSmiList)
{
    int count = 0;
    for (const QByteArray &line : nvidiaSmiList.split('\n')) {
        if (line.startsWith("GPU "))
            ++count;
    }
    return count;
}

QString clusterJobStateName(ClusterJobState state)
{
    switch (state) {
    case ClusterJobState::Running: return QStringLiteral("running");
    case ClusterJobState::Succeeded: return QStringLiteral("succeeded");
    case ClusterJobState::Failed: return QStringLiteral("failed");
    case ClusterJobState::Unknown: break;
    }
    return QStringLiteral("unknown");
}

bool rankFailed(const RankStatus &rank)
{
    if (!rank.job || rank.job->isActive())
        return false;
    return rank.job->state == jobs::JobState::Killed || rank.job->exitCode.value_or(1) != 0;
}

ClusterJobState clusterJobState(const QList<RankStatus> &ranks)
{
    if (std::any_of(ranks.cbegin(), ranks.cend(), rankFailed))
        return ClusterJobState::Failed;
    if (ranks.isEmpty() || std::any_of(ranks.cbegin(), ranks.cend(), [](const RankStatus &r) { return !r.job; }))
        return ClusterJobState::Unknown;
    if (std::any_of(ranks.cbegin(), ranks.cend(), [](const RankStatus &r) { return r.job->isActive(); }))
        return ClusterJobState::Running;
    return ClusterJobState::Succeeded;
}

} // namespace gantry::cluster
