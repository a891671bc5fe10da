#include "core/monitor/sampler.h"

#include "core/monitor/monitorstream.h"

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

Sampler::Sampler(QString host, ssh::Target target, ssh::ConnectOptions options, StreamSettings settings, QObject *parent)
    : QObject(parent)
    , m_host(std::move(host))
    , m_target(std::move(target))
    , m_options(std::move(options))
    , m_settings(settings)
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
    if (isRunning()) {
        return;
    }
    m_stop = false;
    m_interrupt = false;
    m_running = true;
    m_thread = std::make_unique<ssh::SessionThread>(QStringLiteral("monitor:") + m_host);
    m_thread->post([this](ssh::Session &session) {
        runLoop(session);
        m_running = false;
    });
}

void Sampler::stop()
{
    m_stop = true;
    m_interrupt = true;
    m_thread.reset(); // the loop sees m_stop, returns, and the thread joins
    m_running = false;
    m_status = SamplerStatus::Idle;
}

void Sampler::refresh()
{
    m_interrupt = true;
}

bool Sampler::isRunning() const
{
    return m_thread && m_running.load();
}

void Sampler::setStatus(SamplerStatus status, const QString &message)
{
    m_status = status;
    emit statusChanged(status, message);
}

bool Sampler::sleepInterruptibly(int ms)
{
    for (int slept = 0; slept < ms && !m_interrupt.load(); slept += 100) {
        QThread::msleep(100);
    }
    return !m_stop.load();
}

void Sampler::runLoop(ssh::Session &session)
{
    ssh::ConnectOptions options = m_options;
    options.cancel = &m_stop;
    int backoffMs = 1000;
    while (!m_stop.load()) {
        m_interrupt = false;
        setStatus(m_connects.load() == 0 ? SamplerStatus::Connecting : SamplerStatus::Reconnecting,
                  tr("Connecting to %1…").arg(m_target.display()));
        ++m_connects;
        auto connected = session.connect(m_target, options);
        if (!connected) {
            const ErrorCode code = connected.error().code;
            if (code == ErrorCode::AuthFailed || code == ErrorCode::HostKeyUnknown || code == ErrorCode::HostKeyChanged) {
                setStatus(SamplerStatus::Failed, connected.error().message);
                return; // a retry would fail the same way (or lock the account)
            }
            if (m_stop.load()) {
                break;
            }
            setStatus(SamplerStatus::Reconnecting,
                      tr("%1 Retrying in %2 s.").arg(connected.error().message).arg(backoffMs / 1000));
            sleepInterruptibly(backoffMs);
            backoffMs = qMin(backoffMs * 2, 30000);
            continue;
        }
        // No probe is carried over from an earlier connect: the driver may have been installed
        // (or removed) meanwhile, and a cached "no nvidia-smi" kept the GPUs hidden until the
        // link happened to break.
        MonitorStream stream(session, m_host, m_settings);
        bool announced = false;
        MonitorStream::Callbacks callbacks;
        callbacks.sample = [&](const MachineSample &s) {
            backoffMs = 1000;
            const SamplerStatus now = s.driver == DriverState::NoDriver ? SamplerStatus::NoDriver : SamplerStatus::Live;
            if (!announced || m_status.load() != now) {
                announced = true;
                setStatus(now, now == SamplerStatus::NoDriver
                                   ? tr("No NVIDIA driver found on %1: showing host metrics only. Install the NVIDIA "
                                        "driver (nvidia-smi) to see the GPUs.").arg(m_host)
                                   : tr("Live"));
            }
            emit sampleReady(s);
        };
        callbacks.stale = [&](bool stale) {
            if (stale) {
                setStatus(SamplerStatus::Stale, tr("No sample from %1 for 3 intervals; showing the last one.").arg(m_host));
            } else {
                announced = false;
            }
        };
        const int streamsBefore = stream.execCount();
        auto result = stream.run(m_interrupt, callbacks);
        m_streams += stream.execCount() - streamsBefore;
        session.disconnect(); // a fresh connection (and probe) after the backoff, as after a lost link
        if (m_stop.load()) {
            break;
        }
        if (result && m_interrupt.load()) {
            backoffMs = 1000;
            continue; // refresh(): reconnect and probe again right away
        }
        const QString why = result ? tr("The monitor stream on %1 ended.").arg(m_host) : result.error().message;
        setStatus(SamplerStatus::Reconnecting, tr("%1 Retrying in %2 s.").arg(why).arg(backoffMs / 1000));
        sleepInterruptibly(backoffMs);
        backoffMs = qMin(backoffMs * 2, 30000);
    }
}

} // namespace gantry::monitor
