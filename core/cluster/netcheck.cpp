#include "core/cluster/netcheck.h"
#include "core/cluster/clustertext.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <future>

namespace gantry::cluster {
namespace {

using verify::CheckStatus;
using verify::DoctorCheck;

// Runs the program given as -c with `python` (the facts step found the one with torch), else
// any python3: the port test needs no torch, and importing it costs seconds per step.
// killAfterS > 0: coreutils' timeout ends the program on the node itself. torch 1.13 ignores the
// process group's own timeout while it waits for a lost peer, and an SSH channel's signal does not
// reach the process on every server, so a program left behind would keep the port for the next step.
QString pythonCommand(const char *program, const QStringList &args, const QString &python = {}, int killAfterS = 0)
{
    const QString interpreter = python.isEmpty() ? QStringLiteral("PY=python3; command -v python3 >/dev/null || PY=/usr/bin/python3; ")
                                                 : QStringLiteral("PY=%1; ").arg(ssh::shellQuote(python));
    const QString bound = killAfterS > 0 ? QStringLiteral("T=; command -v timeout >/dev/null && T='timeout -k 5 %1'; ").arg(killAfterS) : QString();
    QString line = interpreter + bound
        + QStringLiteral("exec %1\"$PY\" -u -c %2").arg(killAfterS > 0 ? QStringLiteral("$T ") : QString(), ssh::shellQuote(QString::fromLatin1(program)));
    for (const QString &arg : args)
        line += QLatin1Char(' ') + ssh::shellQuote(arg);
    return line;
}

const char kListener[] = R"(import socket, sys, time
port, expected, limit = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("", port))
except OSError as e:
    print("TAKEN", e.strerror, flush=True)
    sys.exit(3)
s.listen(64)
s.settimeout(0.2)
print("LISTENING", flush=True)
end, got = time.time() + limit, set()
while time.time() < end and len(got) < expected:
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    c.settimeout(2)
    try:
        d = c.recv(64).decode().strip()
    except OSError:
        d = ""
    c.close()
    if d.startswith("rank "):
        got.add(d)
        print("GOT", d[5:], flush=True)
print("DONE", flush=True)
)";

const char kDial[] = R"(import socket, sys
try:
    c = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=float(sys.argv[4]))
    c.sendall(("rank %s\n" % sys.argv[3]).encode())
    c.close()
    print("OK")
except OSError as e:
    print("FAIL", e)
    sys.exit(1)
)";

const char kAllReduce[] = R"(import datetime, sys, time
import torch, torch.distributed as dist
addr, port, rank, world, nbytes, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
backend = "nccl" if torch.cuda.is_available() and dist.is_nccl_available() else "gloo"
dist.init_process_group(backend, init_method="tcp://%s:%s" % (addr, port), rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=limit))
dev = torch.device("cuda", 0) if backend == "nccl" else torch.device("cpu")
sync = torch.cuda.synchronize if backend == "nccl" else (lambda: None)
x = torch.ones(max(1, nbytes // 4), device=dev)
dist.all_reduce(x); sync()
iters = 5
start = time.time()
for _ in range(iters):
    dist.all_reduce(x)
sync()
seconds = (time.time() - start) / iters
y = torch.full((1,), float(rank + 1), device=dev)
dist.all_reduce(y)
print("GANTRY_ALLREDUCE value=%g seconds=%.6f backend=%s" % (y.item(), seconds, backend), flush=True)
dist.barrier()
dist.destroy_process_group()
)";

NodeCheck &nodeAt(ClusterCheck &check, int rank)
{
    return check.nodes[rank];
}

// Runs the head's listener; `ready` gets the first line (LISTENING or TAKEN …), the value is every
// rank the listener heard from.
QSet<int> runListener(const Cluster &cluster, const NodeConnector &connect, const CheckOptions &options,
                      std::promise<QString> &ready)
{
    QSet<int> heard;
    bool announced = false;
    auto announce = [&](const QString &line) {
        if (!announced)
            ready.set_value(line);
        announced = true;
    };
    Result<std::unique_ptr<ssh::Session>> session = connect(cluster.nodes.first(), 0);
    Result<std::unique_ptr<ssh::Channel>> channel = session ? (*session)->openExec(
        listenerCommand(options.masterPort, int(cluster.nodes.size()), options.listenTimeoutS))
                                                            : Result<std::unique_ptr<ssh::Channel>>(session.error());
    if (!channel) {
        announce(QStringLiteral("ERROR ") + channel.error().message);
        return heard;
    }
    QByteArray buffer;
    QByteArray errors;
    for (int idle = 0; idle < options.listenTimeoutS * 4 + 40;) {
        Result<QByteArray> data = (*channel)->read(250, &errors);
        if (!data)
            break;
        buffer += *data;
        idle = data->isEmpty() ? idle + 1 : 0;
        for (qsizetype nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
            const QString line = QString::fromUtf8(buffer.left(nl)).trimmed();
            buffer.remove(0, nl + 1);
            if (line.startsWith(QLatin1String("LISTENING")) || line.startsWith(QLatin1String("TAKEN")))
                announce(line);
            else if (line.startsWith(QLatin1String("GOT ")))
                heard.insert(line.mid(4).toInt());
        }
        if ((*channel)->isEof())
            break;
    }
    announce(QStringLiteral("ERROR ") + QString::fromUtf8(errors).trimmed());
    return heard;
}

Result<QByteArray> collect(ssh::Session &session, const QString &command, int timeoutMs)
{
    Result<ssh::ExecOutput> out = session.run(command, timeoutMs);
    if (!out)
        return out.error();
    return QByteArray(out->out + out->err);
}

} // namespace

QString listenerCommand(int port, int expected, int timeoutS)
{
    return pythonCommand(kListener, {QString::number(port), QString::number(expected), QString::number(timeoutS)});
}

QString dialCommand(const QString &addr, int port, int rank, int timeoutS)
{
    return pythonCommand(kDial, {addr, QString::number(port), QString::number(rank), QString::number(timeoutS)});
}

QString allReduceCommand(const QString &python, const QString &addr, int port, int rank, int world, qint64 bytes, int timeoutS)
{
    return pythonCommand(kAllReduce, {addr, QString::number(port), QString::number(rank), QString::number(world),
                                      QString::number(bytes), QString::number(timeoutS)}, python, timeoutS + 10);
}

std::optional<AllReduceResult> parseAllReduce(const QByteArray &output)
{
    static const QRegularExpression line(QStringLiteral("GANTRY_ALLREDUCE value=(\\S+) seconds=(\\S+) backend=(\\S+)"));
    const QRegularExpressionMatch m = line.match(QString::fromUtf8(output));
    if (!m.hasMatch())
        return std::nullopt;
    return AllReduceResult{m.captured(1).toDouble(), m.captured(2).toDouble(), m.captured(3)};
}

bool checkRendezvousPort(const Cluster &cluster, const NodeConnector &connect, const CheckOptions &options, ClusterCheck &check)
{
    std::promise<QString> ready;
    std::future<QString> first = ready.get_future();
    QSet<int> heard;
    std::thread head([&] { heard = runListener(cluster, connect, options, ready); });
    const QString started = first.get();
    const QString port = QStringLiteral("%1:%2").arg(check.masterAddr).arg(options.masterPort);
    if (!started.startsWith(QLatin1String("LISTENING"))) {
        head.join();
        const bool taken = started.startsWith(QLatin1String("TAKEN"));
        nodeAt(check, 0).checks.append(DoctorCheck{
            QStringLiteral("rendezvous-port"), CheckStatus::Fail,
            taken ? ClusterText::tr("Port %1 is already taken on the head (%2): torchrun's rendezvous could not listen there.")
                        .arg(options.masterPort).arg(started.mid(6))
                  : ClusterText::tr("Could not start a test listener on the head: %1").arg(started.mid(6)),
            taken ? ClusterText::tr("Pick a free port with --master-port, or stop what holds it (ss -ltnp 'sport = :%1').").arg(options.masterPort)
                  : ClusterText::tr("Install python3 on the head.")});
        for (int rank = 1; rank < int(check.nodes.size()); ++rank) {
            nodeAt(check, rank).checks.append(DoctorCheck{QStringLiteral("rendezvous-port"), CheckStatus::Warn,
                                                          ClusterText::tr("Not tested: the head could not listen on %1.").arg(port),
                                                          ClusterText::tr("Fix the head first, then check again.")});
        }
        return false;
    }
    const std::function<Result<QByteArray>(int, ssh::Session &)> dial = [&](int rank, ssh::Session &session) {
        return collect(session, dialCommand(check.masterAddr, options.masterPort, rank, options.listenTimeoutS / 2 + 1),
                       (options.listenTimeoutS + 20) * 1000);
    };
    const std::vector<Result<QByteArray>> dialed = forEachNode(cluster, connect, dial);
    head.join();
    bool allOk = true;
    for (int rank = 0; rank < int(dialed.size()); ++rank) {
        const bool ok = heard.contains(rank);
        allOk = allOk && ok;
        const QString why = dialed[rank] ? QString::fromUtf8(*dialed[rank]).trimmed() : dialed[rank].error().message;
        nodeAt(check, rank).checks.append(
            ok ? DoctorCheck{QStringLiteral("rendezvous-port"), CheckStatus::Ok, ClusterText::tr("Reaches the head at %1.").arg(port), QString()}
               : DoctorCheck{QStringLiteral("rendezvous-port"), CheckStatus::Fail,
                             ClusterText::tr("Cannot reach the head at %1 (%2).").arg(port, why),
                             ClusterText::tr("Open TCP port %1 between the nodes (security group, firewall), and keep every node in one region.")
                                 .arg(options.masterPort)});
    }
    return allOk;
}

} // namespace gantry::cluster
