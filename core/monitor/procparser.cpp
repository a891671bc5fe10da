#include "core/monitor/procparser.h"

#include <QRegularExpression>

namespace gantry::monitor {
namespace {

QStringList fieldsOf(const QString &line)
{
    return line.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

double rate(quint64 now, quint64 before, double seconds)
{
    if (seconds <= 0 || now < before) {
        return 0; // counter reset (reboot, interface gone): better 0 than a huge spike
    }
    return double(now - before) / seconds;
}

} // namespace

void ProcParser::begin(double uptimeSeconds)
{
    m_current = Snapshot{};
    m_current.uptime = uptimeSeconds;
    m_metrics = HostMetrics{};
}

void ProcParser::addStatLine(const QString &line)
{
    const QStringList f = fieldsOf(line);
    if (f.size() < 5 || !f.at(0).startsWith(QLatin1StringView("cpu"))) {
        return;
    }
    CpuTimes t;
    // user nice system idle iowait irq softirq steal (guest is already inside user)
    for (int i = 1; i < f.size() && i <= 8; ++i) {
        const quint64 v = f.at(i).toULongLong();
        t.total += v;
        if (i != 4 && i != 5) {
            t.busy += v;
        }
        if (i == 5) {
            t.iowait = v;
        }
    }
    if (f.at(0) == QLatin1StringView("cpu")) {
        m_current.all = t;
    } else {
        m_current.cores.append(t);
    }
}

void ProcParser::addMeminfoLine(const QString &line)
{
    const QStringList f = fieldsOf(line);
    if (f.size() < 2) {
        return;
    }
    bool ok = false;
    const double mib = f.at(1).toDouble(&ok) / 1024.0;
    if (!ok) {
        return;
    }
    if (f.at(0) == QLatin1StringView("MemTotal:")) {
        m_metrics.memTotalMib = mib;
    } else if (f.at(0) == QLatin1StringView("MemAvailable:")) {
        m_metrics.memAvailableMib = mib;
    }
}

void ProcParser::addLoadavgLine(const QString &line)
{
    const QStringList f = fieldsOf(line);
    if (f.size() < 3) {
        return;
    }
    bool ok1 = false, ok5 = false, ok15 = false;
    const double l1 = f.at(0).toDouble(&ok1), l5 = f.at(1).toDouble(&ok5), l15 = f.at(2).toDouble(&ok15);
    if (ok1 && ok5 && ok15) {
        m_metrics.load1 = l1;
        m_metrics.load5 = l5;
        m_metrics.load15 = l15;
    }
}

void ProcParser::addNetDevLine(const QString &line)
{
    const qsizetype colon = line.indexOf(QLatin1Char(':'));
    if (colon < 0) {
        return;
    }
    const QString iface = line.left(colon).trimmed();
    if (iface == QLatin1StringView("lo")) {
        return;
    }
    const QStringList f = fieldsOf(line.mid(colon + 1));
    if (f.size() < 9) {
        return;
    }
    m_current.netRx = m_current.netRx.value_or(0) + f.at(0).toULongLong();
    m_current.netTx = m_current.netTx.value_or(0) + f.at(8).toULongLong();
}

bool ProcParser::isWholeDisk(const QString &name)
{
    static const QRegularExpression re(QStringLiteral(
        "^((sd|vd|xvd|hd)[a-z]+|nvme[0-9]+n[0-9]+|mmcblk[0-9]+)$"));
    return re.match(name).hasMatch();
}

void ProcParser::addDiskstatsLine(const QString &line)
{
    const QStringList f = fieldsOf(line);
    if (f.size() < 10 || !isWholeDisk(f.at(2))) {
        return;
    }
    // Fields 6 and 10 (1-based after the name: sectors read / written) are in 512-byte sectors.
    m_current.diskRead = m_current.diskRead.value_or(0) + f.at(5).toULongLong() * 512;
    m_current.diskWrite = m_current.diskWrite.value_or(0) + f.at(9).toULongLong() * 512;
}

HostMetrics ProcParser::finish()
{
    HostMetrics m = m_metrics;
    if (m_current.uptime > 0) {
        m.uptimeSeconds = m_current.uptime;
    }
    if (m_previous) {
        const Snapshot &p = *m_previous;
        const Snapshot &c = m_current;
        const double seconds = c.uptime - p.uptime;
        auto busy = [](const CpuTimes &now, const CpuTimes &before) -> double {
            if (now.total <= before.total) {
                return 0;
            }
            const double b = double(now.busy >= before.busy ? now.busy - before.busy : 0);
            return qBound(0.0, 100.0 * b / double(now.total - before.total), 100.0);
        };
        if (c.all && p.all) {
            m.cpuBusyPercent = busy(*c.all, *p.all);
            if (c.all->total > p.all->total && c.all->iowait >= p.all->iowait) {
                m.ioWaitPercent = qBound(0.0, 100.0 * double(c.all->iowait - p.all->iowait)
                                                  / double(c.all->total - p.all->total), 100.0);
            }
        }
        if (c.cores.size() == p.cores.size()) {
            for (int i = 0; i < c.cores.size(); ++i) {
                m.coreBusyPercent.append(busy(c.cores.at(i), p.cores.at(i)));
            }
        }
        if (seconds > 0) {
            if (c.netRx && p.netRx) {
                m.netRxBytesPerS = rate(*c.netRx, *p.netRx, seconds);
                m.netTxBytesPerS = rate(*c.netTx, *p.netTx, seconds);
            }
            if (c.diskRead && p.diskRead) {
                m.diskReadBytesPerS = rate(*c.diskRead, *p.diskRead, seconds);
                m.diskWriteBytesPerS = rate(*c.diskWrite, *p.diskWrite, seconds);
            }
        }
    }
    m_previous = m_current;
    return m;
}

} // namespace gantry::monitor
