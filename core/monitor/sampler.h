#pragma once

#include "core/monitor/remotescript.h"
#include "core/monitor/samples.h"
#include "core/ssh/sessionthread.h"
#include "core/util/clock.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace gantry::monitor {

enum class SamplerStatus
{
    Idle,
    Connecting,
    Live,
    Stale,         // connected, but no sample for 3 intervals: the last one is kept
    NoDriver,      // host metrics only: no NVIDIA driver / nvidia-smi
    Reconnecting,  // the link broke; retrying with backoff
    Failed,        // authentication or host-key problem: retrying will not help
};
QString samplerStatusName(SamplerStatus status);

// One machine's live stream on its own ssh::SessionThread (libssh sessions are per thread):
// a probe on every connect, then one long-lived remote loop; reconnects with backoff
// (1 s … 30 s) after a lost connection. Signals arrive queued on the receiver's thread.
class Sampler final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Sampler)

public:
    Sampler(QString host, ssh::Target target, ssh::ConnectOptions options, StreamSettings settings = {},
            QObject *parent = nullptr);
    ~Sampler() override; // stops and joins

    const QString &host() const { return m_host; }
    void start();
    void stop();
    // Ends the current stream and connects again at once with a fresh probe: a driver installed
    // (or nvidia-smi put on PATH) since the last connect shows up without waiting for a broken link.
    void refresh();
    bool isRunning() const;
    SamplerStatus status() const { return m_status.load(); }
    int connectsMade() const { return m_connects.load(); }
    int streamsOpened() const { return m_streams.load(); }

signals:
    void sampleReady(const gantry::monitor::MachineSample &sample);
    void statusChanged(gantry::monitor::SamplerStatus status, const QString &message);

private:
    void runLoop(ssh::Session &session);
    void setStatus(SamplerStatus status, const QString &message);
    bool sleepInterruptibly(int ms);

    QString m_host;
    ssh::Target m_target;
    ssh::ConnectOptions m_options;
    StreamSettings m_settings;
    std::unique_ptr<ssh::SessionThread> m_thread; // one per start(); stop() joins it
    std::atomic_bool m_stop{false};
    std::atomic_bool m_running{false};   // runLoop() has not returned
    std::atomic_bool m_interrupt{false}; // ends the current stream or backoff: set by stop() and refresh()
    std::atomic<SamplerStatus> m_status{SamplerStatus::Idle};
    std::atomic_int m_connects{0};
    std::atomic_int m_streams{0};
};

} // namespace gantry::monitor

Q_DECLARE_METATYPE(gantry::monitor::SamplerStatus)
