#include "core/monitor/monitorstream.h"
#include "core/monitor/monitortext.h"

#include "core/monitor/nvidiasmiparser.h"
#include "core/monitor/streamdecoder.h"
#include "core/ssh/session.h"

#include <QCoreApplication>

namespace gantry::monitor {
Result<ProbeResult> probeHost(ssh::Session &session)
{
    auto out = session.run(probeCommand(), 20000);
    if (!out) {
        return out.error();
    }
    ProbeResult probe;
    const QString text = QString::fromUtf8(out->out);
    if (text.contains(QLatin1StringView(kNoNvidiaSmiMarker))) {
        return probe;
    }
    probe.hasNvidiaSmi = true;
    probe.gpuFields = selectGpuFields(nvsmi::parseHelpQueryGpu(text));
    return probe;
}

MonitorStream::MonitorStream(ssh::Session &session, QString host, StreamSettings settings, const Clock &clock)
    : m_session(session)
    , m_host(std::move(host))
    , m_settings(settings)
    , m_clock(clock)
{
}

Result<void> MonitorStream::ensureProbed()
{
    if (m_probed) {
        return {};
    }
    auto probe = probeHost(m_session);
    if (!probe) {
        return probe.error();
    }
    m_probe = *probe;
    m_probed = true;
    return {};
}

// nvidia-smi refused a field: drop it (requested or canonical spelling) for the next attempt;
// an error when nothing can be dropped or the index itself was refused.
Result<void> MonitorStream::dropRejectedField(const QString &invalidField, const QStringList &fields)
{
    const QString bad = nvsmi::canonicalField(invalidField);
    QStringList kept;
    for (const QString &f : m_probe.gpuFields.isEmpty() ? fields : m_probe.gpuFields) {
        if (f != invalidField && nvsmi::canonicalField(f) != bad) {
            kept.append(f);
        }
    }
    if (kept.size() == fields.size() || !kept.contains(QLatin1StringView("index"))) {
        return Error{ErrorCode::RemoteFailed,
                     MonitorText::tr("nvidia-smi on %1 rejects the field \"%2\" that Gantry needs; update the NVIDIA driver.")
                         .arg(m_host, invalidField)};
    }
    m_probe.gpuFields = kept;
    return {};
}

Result<void> MonitorStream::run(const std::atomic_bool &stop, const Callbacks &callbacks)
{
    if (auto probed = ensureProbed(); !probed) {
        return probed.error();
    }
    const int interval = qMax(100, m_settings.intervalMs);
    // With no byte at all for this long the link is dead even if TCP has not noticed yet.
    const qint64 silentLimitMs = qMax<qint64>(15000, 10LL * interval);
    for (int attempt = 0; attempt < 8; ++attempt) {
        QStringList fields = m_probe.hasNvidiaSmi ? m_probe.gpuFields : selectGpuFields({});
        auto opened = m_session.openExec(streamCommand(fields, m_settings));
        if (!opened) {
            return opened.error();
        }
        ++m_execs;
        ssh::Channel &channel = **opened;
        StreamDecoder decoder(m_host, fields, interval, m_clock);
        QString invalidField;
        bool stale = false;
        qint64 lastSample = m_clock.monotonicMs();
        qint64 lastData = lastSample;
        decoder.onInvalidField = [&](const QString &field) { invalidField = field; };
        decoder.onSample = [&](const MachineSample &s) {
            lastSample = m_clock.monotonicMs();
            if (stale) {
                stale = false;
                if (callbacks.stale) {
                    callbacks.stale(false);
                }
            }
            if (callbacks.sample) {
                callbacks.sample(s);
            }
        };
        while (!stop.load()) {
            QByteArray err;
            auto data = channel.read(200, &err);
            if (!data) {
                return data.error();
            }
            const qint64 now = m_clock.monotonicMs();
            if (!data->isEmpty()) {
                lastData = now;
                decoder.feed(*data);
            }
            if (!invalidField.isEmpty()) {
                break;
            }
            if (channel.isEof() && data->isEmpty()) {
                const QString detail = QString::fromUtf8(err).trimmed();
                return Error{ErrorCode::RemoteFailed,
                             MonitorText::tr("The monitor loop on %1 ended%2; reconnecting.")
                                 .arg(m_host, detail.isEmpty() ? QString() : QStringLiteral(" (") + detail + QLatin1Char(')'))};
            }
            if (!stale && now - lastSample > 3LL * interval + 500) {
                stale = true;
                if (callbacks.stale) {
                    callbacks.stale(true);
                }
            }
            if (now - lastData > silentLimitMs) {
                return Error{ErrorCode::ConnectFailed,
                             MonitorText::tr("No data from %1 for %2 s: the connection seems dead; reconnecting.")
                                 .arg(m_host)
                                 .arg((now - lastData) / 1000)};
            }
        }
        if (stop.load()) {
            channel.sendSignal("TERM");
            channel.close();
            return {};
        }
        // nvidia-smi refused a field: drop it and reopen.
        channel.close();
        if (auto dropped = dropRejectedField(invalidField, fields); !dropped) {
            return dropped.error();
        }
    }
    return Error{ErrorCode::RemoteFailed, MonitorText::tr("nvidia-smi on %1 rejected too many fields; update the NVIDIA driver.").arg(m_host)};
}

} // namespace gantry::monitor
