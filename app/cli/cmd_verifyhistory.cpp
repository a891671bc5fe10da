// gantry-cli verify-history: each machine's reputation (passes, fails, measured vs spec, $ per
// measured TFLOPS) and its latest Verify runs.
#include "clicommand.h"
#include "core/util/printable.h"
#include "core/verify/history.h"
#include "core/verify/reputation.h"

#include <QJsonArray>
#include <QJsonObject>

namespace gantry::cli {
namespace {

using namespace gantry::verify;

QJsonValue optJson(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QString num(const std::optional<double> &value, int precision)
{
    return value ? QString::number(*value, 'f', precision) : QStringLiteral("-");
}

bool matches(const MachineRecord &m, const QString &filter)
{
    return filter.isEmpty() || m.key() == filter || m.machineId == filter || m.host == filter;
}

QJsonObject machineJson(const MachineRecord &m)
{
    QJsonObject object = machineToJson(m);
    object.insert(QStringLiteral("key"), m.key());
    object.insert(QStringLiteral("bad"), m.bad());
    return object;
}

QJsonObject runJson(const HistoryEntry &e)
{
    return QJsonObject{{QStringLiteral("time"), e.time.toString(Qt::ISODate)},
                       {QStringLiteral("provider"), e.provider},
                       {QStringLiteral("instance_type"), e.instanceType},
                       {QStringLiteral("host"), e.host},
                       {QStringLiteral("gpu"), e.gpuName},
                       {QStringLiteral("gpu_count"), e.gpuCount},
                       {QStringLiteral("verdict"), verdictName(e.verdict)},
                       {QStringLiteral("bandwidth_gbs"), optJson(e.bandwidthGbs)},
                       {QStringLiteral("tensor_tflops"), optJson(e.tensorTflops)},
                       {QStringLiteral("usd_per_tflop_hour"), optJson(e.usdPerTflopHour)}};
}

void printMachines(QTextStream &out, const QList<MachineRecord> &machines)
{
    out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
               .arg(QStringLiteral("MACHINE"), -32)
               .arg(QStringLiteral("PASS"), 5)
               .arg(QStringLiteral("FAIL"), 5)
               .arg(QStringLiteral("GB/s (spec)"), 16)
               .arg(QStringLiteral("TFLOPS (spec)"), 16)
               .arg(QStringLiteral("$/TFLOP-h"), 10)
               .arg(QStringLiteral("STATUS"));
    for (const MachineRecord &m : machines) {
        out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                   .arg(text::printable(m.key()).left(32), -32)
                   .arg(m.passes, 5)
                   .arg(m.fails, 5)
                   .arg(num(m.bandwidthGbs, 0) + QStringLiteral(" (") + num(m.specBandwidthGbs, 0) + u')', 16)
                   .arg(num(m.tensorTflops, 0) + QStringLiteral(" (") + num(m.specTensorTflops, 0) + u')', 16)
                   .arg(num(m.usdPerTflopHour, 4), 10)
                   .arg(m.bad() ? QStringLiteral("BAD: %1").arg(text::printable(m.lastProblem).left(60))
                                : QStringLiteral("ok"));
    }
}

int verifyHistoryCommand(Context &context, const Args &args)
{
    const QString filter = args.value("machine");
    const QString forget = args.value("forget");
    ReputationStore reputation(context.configDir);
    if (!forget.isEmpty()) {
        if (auto forgotten = reputation.forget(forget); !forgotten)
            return context.fail(forgotten.error());
    }
    if (auto loaded = reputation.load(); !loaded)
        context.warn(loaded.error().message);
    QList<MachineRecord> machines;
    for (const MachineRecord &m : reputation.machines()) {
        if (matches(m, filter))
            machines.append(m);
    }
    HistoryStore history(context.configDir);
    QList<HistoryEntry> runs;
    if (auto opened = history.open(); !opened)
        return context.fail(opened.error());
    const QString host = machines.size() == 1 && !filter.isEmpty() ? machines.first().host : filter;
    if (auto listed = history.list({}, {}, host, 20); listed)
        runs = *listed;
    else
        return context.fail(listed.error());
    if (context.json) {
        QJsonArray machineArray, runArray;
        for (const MachineRecord &m : std::as_const(machines))
            machineArray.append(machineJson(m));
        for (const HistoryEntry &e : std::as_const(runs))
            runArray.append(runJson(e));
        context.printJson(QJsonObject{{QStringLiteral("machines"), machineArray}, {QStringLiteral("runs"), runArray}});
        return ExitOk;
    }
    printMachines(context.out, machines);
    context.out << '\n' << QStringLiteral("Latest runs:") << '\n';
    for (const HistoryEntry &e : std::as_const(runs)) {
        context.out << QStringLiteral("%1 %2 %3 %4\n")
                           .arg(e.time.toString(Qt::ISODate), -21)
                           .arg(text::printable(e.host).left(24), -24)
                           .arg(verdictName(e.verdict), -6)
                           .arg(text::printable(e.gpuName));
    }
    context.out.flush();
    return ExitOk;
}

const Registrar verifyHistoryRegistrar(Command{
    .name = "verify-history",
    .summary = "each machine's reputation (passes, fails, measured vs spec, $ per measured TFLOPS) and its latest Verify runs",
    .options = {{.name = "machine", .value = "ID", .help = "only this machine (its key, machine id or host)"},
                {.name = "forget", .value = "KEY", .help = "clear the record of a machine marked bad"}},
    .run = verifyHistoryCommand,
});

} // namespace
} // namespace gantry::cli
