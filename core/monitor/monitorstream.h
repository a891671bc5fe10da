#pragma once

#include "core/monitor/remotescript.h"
#include "core/monitor/samples.h"
#include "core/util/clock.h"
#include "core/util/result.h"

#include <QStringList>

#include <atomic>
#include <functional>

namespace gantry::ssh {
class Session;
}

namespace gantry::monitor {

struct ProbeResult
{
    bool hasNvidiaSmi = false;
    QStringList gpuFields; // what the stream will ask for
};

// Runs probeCommand() once: whether nvidia-smi exists and which optional fields it knows.
Result<ProbeResult> probeHost(ssh::Session &session);

// The streaming path on a connected Session, on the session's thread: one exec channel running
// streamCommand(), decoded into samples until stop is set or the link breaks. Used by the
// background Sampler (GUI) and by `gantry-cli monitor` alike.
class MonitorStream final
{
public:
    MonitorStream(ssh::Session &session, QString host, StreamSettings settings, const Clock &clock = Clock::system());

    // Skips the probe (a reconnect reuses the first probe's answer).
    void setProbe(const ProbeResult &probe) { m_probe = probe; m_probed = true; }
    const ProbeResult &probe() const { return m_probe; }

    struct Callbacks
    {
        std::function<void(const MachineSample &)> sample;
        std::function<void(bool stale)> stale; // no sample for 3 intervals / samples again
    };
    // Returns ok when stopped by `stop`, an error when the connection broke or the remote loop ended.
    // A field nvidia-smi calls invalid is dropped and the stream reopened (a handful of times at most).
    Result<void> run(const std::atomic_bool &stop, const Callbacks &callbacks);

    int execCount() const { return m_execs; } // stream channels opened (1 unless fields were dropped)

private:
    Result<void> ensureProbed();
    Result<void> dropRejectedField(const QString &invalidField, const QStringList &fields);
    ssh::Session &m_session;
    QString m_host;
    StreamSettings m_settings;
    const Clock &m_clock;
    ProbeResult m_probe;
    bool m_probed = false;
    int m_execs = 0;
};

} // namespace gantry::monitor
