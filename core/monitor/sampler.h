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
// stop() and the destructor do not wait for the stream to end: the loop holds only what it
// shares with the sampler, its thread is retired (ssh::SessionThread::retire), and from the
// moment stop() returns the loop neither emits nor changes the status.
class Sampler final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Sampler)

public:
    Sampler(QString host, ssh::Target target, ssh::ConnectOptions options, StreamSettings settings = {},
            QObject *parent = nullptr);
    ~Sampler() override; // stops; nothing waits

    const QString &host() const { return m_host; }
    void start();
    void stop();
    // Ends the current stream and connects again at once with a fresh probe: a driver installed
    // (or nvidia-smi put on PATH) since the last connect shows up without waiting for a broken link.
    void refresh();
    bool isRunning() const;
    SamplerStatus status() const;
    int connectsMade() const;
    int streamsOpened() const;

signals:
    void sampleReady(const gantry::monitor::MachineSample &sample);
    void statusChanged(gantry::monitor::SamplerStatus status, const QString &message);

public:
    // What the loop on the worker thread uses (sampler.cpp): the settings, the counters, the status
    // and, for one start(), its flags; shared so that the loop may outlive the sampler.
    struct Shared;
    struct Run;

private:
    const QString m_host;
    std::shared_ptr<Shared> m_shared;
    std::shared_ptr<Run> m_run;                   // the current start()'s flags
    std::unique_ptr<ssh::SessionThread> m_thread; // one per start(); stop() retires it
};

} // namespace gantry::monitor

Q_DECLARE_METATYPE(gantry::monitor::SamplerStatus)
