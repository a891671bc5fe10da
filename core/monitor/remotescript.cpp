#include "core/monitor/remotescript.h"

#include "core/monitor/gpmreader.h"

#include "core/ssh/session.h"

namespace gantry::monitor {

QStringList baseGpuFields()
{
    return {QStringLiteral("index"), QStringLiteral("count"), QStringLiteral("uuid"), QStringLiteral("name"),
            QStringLiteral("utilization.gpu"), QStringLiteral("utilization.memory"),
            QStringLiteral("memory.used"), QStringLiteral("memory.total"), QStringLiteral("temperature.gpu"),
            QStringLiteral("power.draw"), QStringLiteral("pstate")};
}

QStringList optionalGpuFields()
{
    return {QStringLiteral("power.limit"), QStringLiteral("clocks.sm"), QStringLiteral("clocks.max.sm"),
            QStringLiteral("clocks_event_reasons.active"), QStringLiteral("pcie.link.gen.current"),
            QStringLiteral("pcie.link.gen.max"), QStringLiteral("pcie.link.width.current"),
            QStringLiteral("pcie.link.width.max"), QStringLiteral("ecc.errors.uncorrected.volatile.total"),
            QStringLiteral("ecc.errors.corrected.volatile.total")};
}

QStringList selectGpuFields(const QStringList &helpFields)
{
    QStringList fields = baseGpuFields();
    for (const QString &f : optionalGpuFields()) {
        if (helpFields.isEmpty() || helpFields.contains(f)) {
            fields.append(f);
        } else if (f == QLatin1StringView("clocks_event_reasons.active")
                   && helpFields.contains(QLatin1StringView("clocks_throttle_reasons.active"))) {
            fields.append(QStringLiteral("clocks_throttle_reasons.active"));
        } else if (f == QLatin1StringView("clocks.sm")
                   && helpFields.contains(QLatin1StringView("clocks.current.sm"))) {
            fields.append(QStringLiteral("clocks.current.sm"));
        }
    }
    return fields;
}

QString probeCommand()
{
    return QStringLiteral("if command -v nvidia-smi >/dev/null 2>&1; then nvidia-smi --help-query-gpu 2>&1; "
                          "else echo %1; fi")
        .arg(QLatin1StringView(kNoNvidiaSmiMarker));
}

QStringList computeAppsFields()
{
    return {QStringLiteral("pid"), QStringLiteral("gpu_uuid"), QStringLiteral("used_memory"),
            QStringLiteral("process_name")};
}

QString streamCommand(const QStringList &gpuFields, const StreamSettings &settings)
{
    const int ms = qMax(100, settings.intervalMs);
    const QString seconds = QString::number(ms / 1000.0, 'f', 3);
    const int appsEvery = qMax(1, settings.processEveryMs / ms);
    // Kept POSIX (dash, busybox): each printed line is one write, so lines from the background
    // nvidia-smi loop and the host loop never interleave within a line. The trap takes the
    // background loop down with the script when the channel is closed.
    QString script = QStringLiteral(
        "trap 'trap - TERM; kill 0' TERM HUP INT\n"
        "export LC_ALL=C\n"
        "Q='%1'\n"
        "if command -v nvidia-smi >/dev/null 2>&1; then SMI=1; else SMI=; echo 'Z nvidia-smi not found'; fi\n"
        "i=0\n"
        "while :; do\n"
        " read -r up rest < /proc/uptime; echo \"H $up\"\n"
        " while IFS= read -r l; do case $l in cpu*) echo \"S $l\";; *) break;; esac; done < /proc/stat\n"
        " while IFS= read -r l; do case $l in MemTotal:*|MemAvailable:*) echo \"M $l\";; esac; done < /proc/meminfo\n"
        " read -r l < /proc/loadavg; echo \"L $l\"\n"
        " while IFS= read -r l; do case $l in *:*) echo \"N $l\";; esac; done < /proc/net/dev\n"
        " while IFS= read -r l; do case $l in *loop*|*ram*) ;; *) echo \"D $l\";; esac; done < /proc/diskstats\n"
        " echo E\n"
        // The GPU loop starts after the first host block, so every GPU sample carries host metrics.
        " if [ $i -eq 0 ] && [ -n \"$SMI\" ]; then\n"
        "  ( while :; do nvidia-smi --query-gpu=$Q --format=csv,noheader,nounits -lms %2 2>&1 |"
        " while IFS= read -r l; do echo \"G $l\"; done; echo X; sleep 5; done ) &\n"
        // GPM (Hopper and later), started once: a driver without it refuses and ends; a GPU
        // without it prints "-" (one short line a second, read as "unavailable").
        "  ( nvidia-smi dmon --gpm-metrics %6 -s u 2>&1 | while IFS= read -r l; do echo \"V $l\"; done; echo Y ) &\n"
        " fi\n"
        " if [ -n \"$SMI\" ] && [ $((i %% %3)) -eq 0 ]; then\n"
        "  echo A\n"
        "  apps=$(nvidia-smi --query-compute-apps=%4 --format=csv,noheader,nounits 2>&1)\n"
        "  printf '%s\\n' \"$apps\" | sed -n 's/^./P &/p'\n"
        "  pids=$(printf '%s\\n' \"$apps\" | sed -n 's/^\\([0-9][0-9]*\\),.*/\\1/p' | tr '\\n' ',')\n"
        "  [ -n \"$pids\" ] && ps -ww -o pid=,user=,args= -p \"${pids%%,}\" 2>/dev/null | cut -c1-1000 | sed 's/^ */W /'\n"
        "  echo Q\n"
        " fi\n"
        " i=$((i+1))\n"
        " sleep %5\n"
        "done\n");
    // QString::arg would treat "%s" in the script as a placeholder: substitute by hand.
    script.replace(QLatin1StringView("%1"), gpuFields.join(QLatin1Char(',')));
    script.replace(QLatin1StringView("%2"), QString::number(ms));
    script.replace(QLatin1StringView("%3"), QString::number(appsEvery));
    script.replace(QLatin1StringView("%4"), computeAppsFields().join(QLatin1Char(',')));
    script.replace(QLatin1StringView("%5"), seconds);
    script.replace(QLatin1StringView("%6"), QLatin1StringView(kGpmMetricIds));
    script.replace(QLatin1StringView("%%"), QLatin1StringView("%"));
    return QStringLiteral("sh -c ") + ssh::shellQuote(script);
}

} // namespace gantry::monitor
