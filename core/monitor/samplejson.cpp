#include "core/monitor/samplejson.h"
#include "core/util/printable.h"

#include <QJsonArray>
#include <QStringList>

namespace gantry::monitor {
namespace {

template<typename T>
QJsonValue opt(const std::optional<T> &v)
{
    if (!v) {
        return QJsonValue(QJsonValue::Null);
    }
    return QJsonValue(double(*v));
}

QJsonValue text(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

QString cell(const std::optional<double> &v, int decimals = 0)
{
    return v ? QString::number(*v, 'f', decimals) : QStringLiteral("-");
}

} // namespace

QString driverStateName(DriverState state)
{
    switch (state) {
    case DriverState::Ok: return QStringLiteral("ok");
    case DriverState::NoDriver: return QStringLiteral("no_driver");
    case DriverState::Failed: return QStringLiteral("failed");
    case DriverState::Unknown: break;
    }
    return QStringLiteral("unknown");
}

QJsonObject gpuToJson(const GpuSample &g)
{
    QJsonObject o;
    o.insert(QStringLiteral("index"), g.index);
    o.insert(QStringLiteral("uuid"), text(g.uuid));
    o.insert(QStringLiteral("name"), text(g.name));
    o.insert(QStringLiteral("utilization_gpu"), opt(g.utilizationGpu));
    o.insert(QStringLiteral("utilization_memory"), opt(g.utilizationMemory));
    o.insert(QStringLiteral("memory_used_mib"), opt(g.memoryUsedMib));
    o.insert(QStringLiteral("memory_total_mib"), opt(g.memoryTotalMib));
    o.insert(QStringLiteral("temperature_c"), opt(g.temperatureC));
    o.insert(QStringLiteral("power_draw_w"), opt(g.powerDrawW));
    o.insert(QStringLiteral("power_limit_w"), opt(g.powerLimitW));
    o.insert(QStringLiteral("sm_clock_mhz"), opt(g.smClockMhz));
    o.insert(QStringLiteral("sm_clock_max_mhz"), opt(g.smClockMaxMhz));
    o.insert(QStringLiteral("pstate"), text(g.pstate));
    if (g.clocksEventReasons) {
        o.insert(QStringLiteral("clocks_event_reasons"),
                 QStringLiteral("0x%1").arg(*g.clocksEventReasons, 16, 16, QLatin1Char('0')));
        o.insert(QStringLiteral("clocks_event_reasons_names"), describeClocksEventReasons(*g.clocksEventReasons));
    } else {
        o.insert(QStringLiteral("clocks_event_reasons"), QJsonValue(QJsonValue::Null));
        o.insert(QStringLiteral("clocks_event_reasons_names"), QJsonValue(QJsonValue::Null));
    }
    o.insert(QStringLiteral("pcie_gen"), opt(g.pcieGen));
    o.insert(QStringLiteral("pcie_gen_max"), opt(g.pcieGenMax));
    o.insert(QStringLiteral("pcie_width"), opt(g.pcieWidth));
    o.insert(QStringLiteral("pcie_width_max"), opt(g.pcieWidthMax));
    o.insert(QStringLiteral("ecc_uncorrected"), opt(g.eccUncorrected));
    o.insert(QStringLiteral("ecc_corrected"), opt(g.eccCorrected));
    // GPM (Hopper and later): null where the GPU gives none; the machine's gpm_state says why.
    o.insert(QStringLiteral("sm_activity"), opt(g.gpm.smActivity));
    o.insert(QStringLiteral("sm_occupancy"), opt(g.gpm.smOccupancy));
    o.insert(QStringLiteral("tensor_activity"), opt(g.gpm.tensorActivity));
    o.insert(QStringLiteral("dram_activity"), opt(g.gpm.dramActivity));
    return o;
}

QJsonObject hostMetricsToJson(const HostMetrics &m)
{
    QJsonObject o;
    o.insert(QStringLiteral("cpu_percent"), opt(m.cpuBusyPercent));
    o.insert(QStringLiteral("io_wait_percent"), opt(m.ioWaitPercent));
    QJsonArray cores;
    for (double v : m.coreBusyPercent) {
        cores.append(v);
    }
    o.insert(QStringLiteral("cpu_core_percent"), cores);
    o.insert(QStringLiteral("memory_total_mib"), opt(m.memTotalMib));
    o.insert(QStringLiteral("memory_available_mib"), opt(m.memAvailableMib));
    o.insert(QStringLiteral("load1"), opt(m.load1));
    o.insert(QStringLiteral("load5"), opt(m.load5));
    o.insert(QStringLiteral("load15"), opt(m.load15));
    o.insert(QStringLiteral("net_rx_bytes_per_s"), opt(m.netRxBytesPerS));
    o.insert(QStringLiteral("net_tx_bytes_per_s"), opt(m.netTxBytesPerS));
    o.insert(QStringLiteral("uptime_s"), opt(m.uptimeSeconds));
    o.insert(QStringLiteral("disk_read_bytes_per_s"), opt(m.diskReadBytesPerS));
    o.insert(QStringLiteral("disk_write_bytes_per_s"), opt(m.diskWriteBytesPerS));
    return o;
}

QJsonObject sampleToJson(const MachineSample &s)
{
    QJsonObject o;
    o.insert(QStringLiteral("time"), s.time.toUTC().toString(Qt::ISODateWithMs));
    o.insert(QStringLiteral("host"), s.host);
    o.insert(QStringLiteral("driver"), driverStateName(s.driver));
    o.insert(QStringLiteral("driver_message"), text(s.driverMessage));
    o.insert(QStringLiteral("gpm_state"), s.gpm == GpmState::Available ? QStringLiteral("available")
                                          : s.gpm == GpmState::Unavailable ? QStringLiteral("unavailable")
                                                                           : QStringLiteral("unknown"));
    o.insert(QStringLiteral("gpm_message"), text(s.gpmMessage));
    QJsonArray gpus;
    for (const GpuSample &g : s.gpus) {
        gpus.append(gpuToJson(g));
    }
    o.insert(QStringLiteral("gpus"), gpus);
    QJsonArray procs;
    for (const GpuProcess &p : s.processes) {
        QJsonObject po;
        po.insert(QStringLiteral("pid"), double(p.pid));
        po.insert(QStringLiteral("gpu_uuid"), text(p.gpuUuid));
        po.insert(QStringLiteral("gpu_index"), p.gpuIndex < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(p.gpuIndex));
        po.insert(QStringLiteral("used_memory_mib"), opt(p.usedMemoryMib));
        po.insert(QStringLiteral("process_name"), text(p.processName));
        po.insert(QStringLiteral("command_line"), text(p.commandLine));
        po.insert(QStringLiteral("user"), text(p.user));
        procs.append(po);
    }
    o.insert(QStringLiteral("processes"), procs);
    o.insert(QStringLiteral("host_metrics"),
             s.hostMetrics ? QJsonValue(hostMetricsToJson(*s.hostMetrics)) : QJsonValue(QJsonValue::Null));
    return o;
}

// Names, driver messages and command lines are what the host reported: escaped for a terminal.
QString sampleToText(const MachineSample &s)
{
    QStringList lines;
    QString head = s.time.toUTC().toString(Qt::ISODate) + QLatin1Char(' ') + s.host;
    if (const auto &h = s.hostMetrics) {
        head += QStringLiteral("  cpu %1%  mem %2%  load %3")
                    .arg(cell(h->cpuBusyPercent), cell(h->memUsedPercent()), cell(h->load1, 2));
    }
    if (s.driver != DriverState::Ok && !s.driverMessage.isEmpty()) {
        head += QStringLiteral("  [") + text::printable(s.driverMessage) + QLatin1Char(']');
    }
    lines.append(head);
    if (!s.gpus.isEmpty()) {
        lines.append(QStringLiteral("  GPU  UTIL  MEM-USED/TOTAL MiB   TEMP  POWER/LIMIT W  SM MHz  PSTATE  NAME"));
    }
    for (const GpuSample &g : s.gpus) {
        lines.append(QStringLiteral("  %1 %2% %3 %4C %5 %6 %7  %8")
                         .arg(g.index, 4)
                         .arg(cell(g.utilizationGpu), 4)
                         .arg(cell(g.memoryUsedMib) + QLatin1Char('/') + cell(g.memoryTotalMib), 20)
                         .arg(cell(g.temperatureC), 5)
                         .arg(cell(g.powerDrawW) + QLatin1Char('/') + cell(g.powerLimitW), 14)
                         .arg(cell(g.smClockMhz), 7)
                         .arg(g.pstate.isEmpty() ? QStringLiteral("-") : text::printable(g.pstate), 7)
                         .arg(text::printable(g.name)));
    }
    for (const GpuProcess &p : s.processes) {
        lines.append(QStringLiteral("  pid %1 gpu %2 %3 MiB  %4")
                         .arg(p.pid)
                         .arg(p.gpuIndex)
                         .arg(cell(p.usedMemoryMib))
                         .arg(text::printable(p.commandLine.isEmpty() ? p.processName : p.commandLine)));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace gantry::monitor
