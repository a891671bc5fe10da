#include "core/monitor/streamdecoder.h"

#include "core/monitor/nvidiasmiparser.h"
#include "core/monitor/remotescript.h"

namespace gantry::monitor {
namespace {
const QStringList &canonicalAppsFields()
{
    static const QStringList fields = [] {
        QStringList f;
        for (const QString &s : computeAppsFields()) {
            f.append(nvsmi::canonicalField(s));
        }
        return f;
    }();
    return fields;
}
} // namespace

StreamDecoder::StreamDecoder(QString host, QStringList gpuFields, int intervalMs, const Clock &clock)
    : m_host(std::move(host))
    , m_intervalMs(qMax(100, intervalMs))
    , m_clock(clock)
{
    for (const QString &f : gpuFields) {
        m_fields.append(nvsmi::canonicalField(f));
    }
}

void StreamDecoder::feed(const QByteArray &data)
{
    m_pending.append(data);
    qsizetype start = 0;
    for (;;) {
        const qsizetype nl = m_pending.indexOf('\n', start);
        if (nl < 0) {
            break;
        }
        feedLine(QString::fromUtf8(m_pending.constData() + start, nl - start));
        start = nl + 1;
    }
    m_pending.remove(0, start);
    if (m_pending.size() > 1 << 20) {
        m_pending.clear(); // a runaway line without newline: drop rather than grow
    }
}

void StreamDecoder::feedLine(const QString &rawLine)
{
    QString line = rawLine;
    if (line.endsWith(QLatin1Char('\r'))) {
        line.chop(1);
    }
    if (line.isEmpty()) {
        return;
    }
    const char t = char(line.at(0).toLatin1());
    const QString rest = line.size() > 2 ? line.mid(2) : QString();
    switch (t) {
    case tag::Gpu:
        gpuLine(rest);
        break;
    case tag::GpuExited:
        flushGpus();
        if (m_driver == DriverState::Ok || m_driver == DriverState::Unknown) {
            setDriver(DriverState::Failed, QStringLiteral("nvidia-smi exited unexpectedly; restarting it"));
        }
        break;
    case tag::Gpm:
        m_gpm.line(rest, m_clock.monotonicMs());
        break;
    case tag::GpmEnded:
        m_gpm.ended();
        break;
    case tag::NoSmi:
        setDriver(DriverState::NoDriver, QStringLiteral("No NVIDIA driver found (nvidia-smi is not installed)"));
        break;
    case tag::HostBegin:
    case tag::Stat:
    case tag::Mem:
    case tag::Load:
    case tag::Net:
    case tag::Disk:
    case tag::HostEnd:
        hostLine(t, rest);
        break;
    case tag::AppsBegin:
    case tag::App:
    case tag::Cmdline:
    case tag::Owner:
    case tag::AppsEnd:
        appsLine(t, rest);
        break;
    default:
        break;
    }
}

// The /proc block of one sample: lines outside a begun block are ignored.
void StreamDecoder::hostLine(char t, const QString &rest)
{
    switch (t) {
    case tag::HostBegin:
        m_proc.begin(rest.section(QLatin1Char(' '), 0, 0).toDouble());
        m_inHostBlock = true;
        break;
    case tag::Stat:
        if (m_inHostBlock) {
            m_proc.addStatLine(rest);
        }
        break;
    case tag::Mem:
        if (m_inHostBlock) {
            m_proc.addMeminfoLine(rest);
        }
        break;
    case tag::Load:
        if (m_inHostBlock) {
            m_proc.addLoadavgLine(rest);
        }
        break;
    case tag::Net:
        if (m_inHostBlock) {
            m_proc.addNetDevLine(rest);
        }
        break;
    case tag::Disk:
        if (m_inHostBlock) {
            m_proc.addDiskstatsLine(rest);
        }
        break;
    case tag::HostEnd:
        if (m_inHostBlock) {
            m_inHostBlock = false;
            m_hostMetrics = m_proc.finish();
            hostEnd();
        }
        break;
    default:
        break;
    }
}

// The compute-apps block: processes and their command lines, published at its end.
void StreamDecoder::appsLine(char t, const QString &rest)
{
    switch (t) {
    case tag::AppsBegin:
        m_appsBuffer.clear();
        m_cmdlines.clear();
        m_users.clear();
        break;
    case tag::App:
        if (auto p = nvsmi::parseComputeAppsRow(canonicalAppsFields(), rest)) {
            m_appsBuffer.append(*p);
        }
        break;
    case tag::Cmdline:
    case tag::Owner: {
        // "<pid> [<user>] <args>": ps pads with spaces, the args keep theirs.
        const QString trimmed = rest.trimmed();
        const qsizetype space = trimmed.indexOf(QLatin1Char(' '));
        bool ok = false;
        const qint64 pid = (space < 0 ? trimmed : trimmed.left(space)).toLongLong(&ok);
        if (!ok) {
            break;
        }
        QString tail = space < 0 ? QString() : trimmed.mid(space + 1).trimmed();
        if (t == tag::Owner) {
            const qsizetype end = tail.indexOf(QLatin1Char(' '));
            m_users.insert(pid, end < 0 ? tail : tail.left(end));
            tail = end < 0 ? QString() : tail.mid(end + 1).trimmed(); // ps pads the user column
        }
        m_cmdlines.insert(pid, tail);
        break;
    }
    case tag::AppsEnd:
        for (GpuProcess &p : m_appsBuffer) {
            p.commandLine = m_cmdlines.value(p.pid);
            p.user = m_users.value(p.pid);
        }
        m_processes = m_appsBuffer;
        break;
    default:
        break;
    }
}

void StreamDecoder::gpuLine(const QString &text)
{
    switch (nvsmi::classifyLine(text)) {
    case nvsmi::LineKind::Data:
        break;
    case nvsmi::LineKind::InvalidField: {
        const QString field = nvsmi::invalidFieldName(text);
        if (onInvalidField && !field.isEmpty()) {
            onInvalidField(field);
        }
        return;
    }
    case nvsmi::LineKind::NoDevices:
        flushGpus();
        setDriver(DriverState::NoDriver, text.trimmed());
        return;
    case nvsmi::LineKind::DriverFailure:
        m_group.clear();
        setDriver(DriverState::Failed, text.trimmed());
        return;
    default:
        return;
    }
    auto g = nvsmi::parseGpuRow(m_fields, text);
    if (!g) {
        return;
    }
    // A repeated index starts the next tick: the previous group is complete.
    for (const GpuSample &s : std::as_const(m_group)) {
        if (s.index == g->index) {
            flushGpus();
            break;
        }
    }
    const int countColumn = int(m_fields.indexOf(QLatin1StringView("count")));
    if (countColumn >= 0) {
        const QStringList cells = nvsmi::splitRow(text, int(m_fields.size()),
                                                  int(m_fields.indexOf(QLatin1StringView("name"))));
        if (countColumn < cells.size()) {
            m_expectedCount = int(nvsmi::parseInteger(cells.at(countColumn)).value_or(0));
        }
    }
    m_group.append(*g);
    if (m_expectedCount > 0 && m_group.size() >= m_expectedCount) {
        flushGpus();
    }
}

void StreamDecoder::flushGpus()
{
    if (m_group.isEmpty()) {
        return;
    }
    m_lastGpus = m_group;
    m_group.clear();
    m_lastGpuMs = m_clock.monotonicMs();
    setDriver(DriverState::Ok, QString());
    emitSample(true);
}

void StreamDecoder::hostEnd()
{
    if (!m_group.isEmpty() && m_expectedCount <= 0) {
        flushGpus(); // no count column: the host block closes the tick
        return;
    }
    const qint64 now = m_clock.monotonicMs();
    if (m_driver == DriverState::Ok && m_lastGpuMs >= 0 && now - m_lastGpuMs > 3 * m_intervalMs + 500) {
        // Host lines still flow but nvidia-smi went silent: the driver is hanging.
        setDriver(DriverState::Failed,
                  QStringLiteral("nvidia-smi stopped answering (no GPU sample for %1 s): the driver may be hung")
                      .arg((now - m_lastGpuMs) / 1000));
    }
    if (m_driver == DriverState::Ok) {
        return; // the GPU ticks carry the host metrics
    }
    if (m_driver == DriverState::Unknown && m_lastGpuMs < 0 && m_samples == 0) {
        // First host block before nvidia-smi's first row: wait a tick, unless it never comes.
        if (m_firstHostMs < 0) {
            m_firstHostMs = now;
            return;
        }
        if (now - m_firstHostMs < 3 * m_intervalMs) {
            return;
        }
    }
    emitSample(false);
}

void StreamDecoder::emitSample(bool withGpus)
{
    MachineSample s;
    s.time = m_clock.now();
    s.host = m_host;
    if (withGpus) {
        s.gpus = m_lastGpus;
    }
    s.processes = m_processes;
    for (GpuProcess &p : s.processes) {
        for (const GpuSample &g : std::as_const(s.gpus)) {
            if (!p.gpuUuid.isEmpty() && g.uuid == p.gpuUuid) {
                p.gpuIndex = g.index;
            }
        }
    }
    const qint64 nowMs = m_clock.monotonicMs();
    for (GpuSample &g : s.gpus)
        g.gpm = m_gpm.current(g.index, nowMs);
    s.gpm = m_gpm.available() ? GpmState::Available : m_gpm.unavailable() ? GpmState::Unavailable : GpmState::Unknown;
    if (s.gpm == GpmState::Unavailable)
        s.gpmMessage = m_gpm.reason();
    s.hostMetrics = m_hostMetrics;
    s.driver = m_driver;
    s.driverMessage = m_driverMessage;
    m_lastSampleMs = m_clock.monotonicMs();
    ++m_samples;
    if (onSample) {
        onSample(s);
    }
}

void StreamDecoder::setDriver(DriverState state, const QString &message)
{
    m_driver = state;
    m_driverMessage = message;
}

} // namespace gantry::monitor
