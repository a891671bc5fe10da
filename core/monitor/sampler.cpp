#include "core/monitor/sampler.h"

#include "core/monitor/monitorstream.h"

#include <mutex>

namespace gantry::monitor {

QString samplerStatusName(SamplerStatus status)
{
    switch (status) {
    case SamplerStatus::Idle: return QStringLiteral("idle");
    case SamplerStatus::Connecting: return QStringLiteral("connecting");
    case SamplerStatus::Live: return QStringLiteral("live");
    case SamplerStatus::Stale: return QStringLiteral("stale");
    case SamplerStatus::NoDriver: return QStringLiteral("no_driver");
    case SamplerStatus::Reconnecting: return QStringLiteral("reconnecting");
    case SamplerStatus::Failed: return QStringLiteral("failed");
    }
    return QStringLiteral("idle");
}

struct Sampler::Shared
{
    Shared(Sampler *o, QString h, ssh::Target t, ssh::ConnectOptions c, StreamSettings s)
        : owner(o), host(std::move(h)), target(std::move(t)), options(std::move(c)), settings(s)
    {
    }

    Sampler *owner; // reached only under `emitting`, and only while the run is not stopped
    QString host;
    ssh::Target target;
    ssh::ConnectOptions options;
    StreamSettings settings;
    std::mutex emitting; // stop() takes it: once it returns, no signal of the sampler is emitted
    std::atomic<SamplerStatus> status{SamplerStatus::Idle};
    std::atomic_int connects{0};
    std::atomic_int streams{0};
};

struct Sampler::Run
{
    std::atomic_bool stop{false};
    std::atomic_bool running{true};   // the loop has not returned
    std::atomic_bool interrupt{false}; // ends the current stream or backoff: set by stop() and refresh()
};

namespace {

using Shared = Sampler::Shared;
using Run = Sampler::Run;

void setStatus(Shared &shared, const Run &run, SamplerStatus status, const QString &message)
{
    const std::lock_guard lock(shared.emitting);
    if (run.stop.load())
        return;
    shared.status = status;
    emit shared.owner->statusChanged(status, message);
}

void emitSample(Shared &shared, const Run &run, const MachineSample &sample)
{
    const std::lock_guard lock(shared.emitting);
    if (!run.stop.load())
        emit shared.owner->sampleReady(sample);
}

void sleepInterruptibly(Run &run, int ms)
{
    for (int slept = 0; slept < ms && !run.interrupt.load(); slept += 100)
        QThread::msleep(100);
}

// One connection's stream, from the probe to its end; false when the loop should end.
bool streamOnce(Shared &shared, Run &run, ssh::Session &session, int &backoffMs)
{
    MonitorStream stream(session, shared.host, shared.settings);
    bool announced = false;
    MonitorStream::Callbacks callbacks;
    callbacks.sample = [&](const MachineSample &s) {
        backoffMs = 1000;
        const SamplerStatus now = s.driver == DriverState::NoDriver ? SamplerStatus::NoDriver : SamplerStatus::Live;
        if (!announced || shared.status.load() != now) {
            announced = true;
            setStatus(shared, run, now, now == SamplerStatus::NoDriver
                               ? Sampler::tr("No NVIDIA driver found on %1: showing host metrics only. Install the NVIDIA "
                                             "driver (nvidia-smi) to see the GPUs.").arg(shared.host)
                               : Sampler::tr("Live"));
        }
        emitSample(shared, run, s);
    };
    callbacks.stale = [&](bool stale) {
        if (stale)
            setStatus(shared, run, SamplerStatus::Stale,
                      Sampler::tr("No sample from %1 for 3 intervals; showing the last one.").arg(shared.host));
        else
            announced = false;
    };
    const int streamsBefore = stream.execCount();
    auto result = stream.run(run.interrupt, callbacks);
    shared.streams += stream.execCount() - streamsBefore;
    session.disconnect(); // a fresh connection (and probe) after the backoff, as after a lost link
    if (run.stop.load())
        return false;
    if (result && run.interrupt.load()) {
        backoffMs = 1000;
        return true; // refresh(): reconnect and probe again right away
    }
    const QString why = result ? Sampler::tr("The monitor stream on %1 ended.").arg(shared.host) : result.error().message;
    setStatus(shared, run, SamplerStatus::Reconnecting, Sampler::tr("%1 Retrying in %2 s.").arg(why).arg(backoffMs / 1000));
    sleepInterruptibly(run, backoffMs);
    backoffMs = qMin(backoffMs * 2, 30000);
    return true;
}

void runLoop(Shared &shared, Run &run, ssh::Session &session)
{
    ssh::ConnectOptions options = shared.options;
    options.cancel = &run.stop;
    int backoffMs = 1000;
    while (!run.stop.load()) {
        run.interrupt = false;
        setStatus(shared, run, shared.connects.load() == 0 ? SamplerStatus::Connecting : SamplerStatus::Reconnecting,
                  Sampler::tr("Connecting to %1…").arg(shared.target.display()));
        ++shared.connects;
        auto connected = session.connect(shared.target, options);
        if (!connected) {
            const ErrorCode code = connected.error().code;
            if (code == ErrorCode::AuthFailed || code == ErrorCode::HostKeyUnknown || code == ErrorCode::HostKeyChanged) {
                setStatus(shared, run, SamplerStatus::Failed, connected.error().message);
                return; // a retry would fail the same way (or lock the account)
            }
            if (run.stop.load())
                break;
            setStatus(shared, run, SamplerStatus::Reconnecting,
                      Sampler::tr("%1 Retrying in %2 s.").arg(connected.error().message).arg(backoffMs / 1000));
            sleepInterruptibly(run, backoffMs);
            backoffMs = qMin(backoffMs * 2, 30000);
            continue;
        }
        // No probe is carried over from an earlier connect: the driver may have been installed
        // (or removed) meanwhile, and a cached "no nvidia-smi" kept the GPUs hidden until the
        // link happened to break.
        if (!streamOnce(shared, run, session, backoffMs))
            break;
    }
}

} // namespace

Sampler::Sampler(QString host, ssh::Target target, ssh::ConnectOptions options, StreamSettings settings, QObject *parent)
    : QObject(parent)
    , m_host(host)
    , m_shared(std::make_shared<Shared>(this, std::move(host), std::move(target), std::move(options), settings))
{
    qRegisterMetaType<MachineSample>();
    qRegisterMetaType<SamplerStatus>();
}

Sampler::~Sampler()
{
    stop();
}

void Sampler::start()
{
    if (isRunning())
        return;
    ssh::SessionThread::retire(std::move(m_thread)); // a loop that ended on its own (Failed)
    m_run = std::make_shared<Run>();
    m_thread = std::make_unique<ssh::SessionThread>(QStringLiteral("monitor:") + m_host);
    m_thread->post([shared = m_shared, run = m_run](ssh::Session &session) {
        runLoop(*shared, *run, session);
        run->running = false;
    });
}

void Sampler::stop()
{
    if (m_run) {
        const std::lock_guard lock(m_shared->emitting);
        m_run->stop = true;
        m_run->interrupt = true;
    }
    ssh::SessionThread::retire(std::move(m_thread)); // the loop sees stop within 100 ms, off this thread
    m_run.reset();
    m_shared->status = SamplerStatus::Idle;
}

void Sampler::refresh()
{
    if (m_run)
        m_run->interrupt = true;
}

bool Sampler::isRunning() const
{
    return m_thread && m_run && m_run->running.load();
}

SamplerStatus Sampler::status() const
{
    return m_shared->status.load();
}

int Sampler::connectsMade() const
{
    return m_shared->connects.load();
}

int Sampler::streamsOpened() const
{
    return m_shared->streams.load();
}

} // namespace gantry::monitor
