#include "core/monitor/monitorservice.h"

#include "core/hosts/connectionmanager.h"

namespace gantry::monitor {

MonitorService::MonitorService(SecretStore *secrets, QString knownHostsFile, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_secrets(secrets)
    , m_knownHostsFile(std::move(knownHostsFile))
    , m_clock(clock)
{
    qRegisterMetaType<MachineSample>();
    qRegisterMetaType<SamplerStatus>();
    qRegisterMetaType<Alert>();
}

MonitorService::~MonitorService()
{
    const QStringList names = m_order;
    for (const QString &name : names) {
        stopMonitoring(name);
    }
}

MonitorService::Machine &MonitorService::create(const QString &name, double hourlyPriceUsd)
{
    auto *m = new Machine;
    m->store = std::make_unique<MetricStore>(name);
    m->store->setDetailed(m_detailViewers.value(name) > 0);
    m->alerts = new AlertEngine(name, m_clock, this);
    m->idle = new IdlePolicy(name, m_clock, this);
    m->hourlyPriceUsd = hourlyPriceUsd;
    m->alerts->setBilling(hourlyPriceUsd > 0);
    connect(m->alerts, &AlertEngine::raised, this, [this, idle = m->idle](const Alert &alert) {
        if (alert.kind == AlertKind::GpuIdle) {
            idle->idleDetected(alert.message);
        }
        emit alertRaised(alert);
    });
    connect(m->alerts, &AlertEngine::cleared, this, [this, name, idle = m->idle](AlertKind kind, int gpu) {
        if (kind == AlertKind::GpuIdle) {
            idle->activityDetected();
        }
        emit alertCleared(name, kind, gpu);
    });
    m_machines.insert(name, m);
    m_order.append(name);
    emit machineAdded(name);
    return *m;
}

void MonitorService::addMachine(const QString &name, double hourlyPriceUsd)
{
    if (!m_machines.contains(name)) {
        create(name, hourlyPriceUsd);
    }
}

void MonitorService::startMonitoring(const SavedHost &host, StreamSettings settings)
{
    startMonitoring(host.name, host.target, backgroundConnectOptions(host, m_secrets, m_knownHostsFile),
                    host.hourlyPriceUsd, settings);
    if (Machine *m = m_machines.value(host.name)) {
        m->alerts->setBilling(host.hourlyPriceUsd > 0 || !host.provider.isEmpty());
    }
}

void MonitorService::startMonitoring(const QString &name, const ssh::Target &target, const ssh::ConnectOptions &options,
                                     double hourlyPriceUsd, StreamSettings settings)
{
    Machine *m = m_machines.value(name);
    if (m && m->sampler) {
        m->sampler->refresh();
        return;
    }
    if (!m) {
        m = &create(name, hourlyPriceUsd);
    }
    m->sampler = new Sampler(name, target, options, settings, this);
    connect(m->sampler, &Sampler::sampleReady, this,
            [this, name](const MachineSample &s) { injectSample(name, s); });
    connect(m->sampler, &Sampler::statusChanged, this,
            [this, name](SamplerStatus status, const QString &message) { setStatus(name, status, message); });
    m->sampler->start();
}

void MonitorService::stopMonitoring(const QString &name)
{
    Machine *m = m_machines.take(name);
    if (!m) {
        return;
    }
    m_order.removeAll(name);
    if (m->sampler) {
        m->sampler->disconnect(this);
        delete m->sampler; // stops and joins its thread
    }
    delete m->alerts;
    delete m->idle;
    delete m;
    emit machineRemoved(name);
}

bool MonitorService::refresh(const QString &name)
{
    const Machine *m = m_machines.value(name);
    if (!m || !m->sampler) {
        return false;
    }
    m->sampler->refresh();
    return true;
}

void MonitorService::retainDetail(const QString &name)
{
    const int viewers = ++m_detailViewers[name];
    if (MetricStore *s = store(name); s && viewers == 1) {
        s->setDetailed(true);
    }
}

void MonitorService::releaseDetail(const QString &name)
{
    auto it = m_detailViewers.find(name);
    if (it == m_detailViewers.end()) {
        return;
    }
    if (--*it > 0) {
        return;
    }
    m_detailViewers.erase(it);
    if (MetricStore *s = store(name)) {
        s->setDetailed(false);
    }
}

const UsageMeter *MonitorService::usage(const QString &name) const
{
    const Machine *m = m_machines.value(name);
    return m ? &m->usage : nullptr;
}

MetricStore *MonitorService::store(const QString &name) const
{
    const Machine *m = m_machines.value(name);
    return m ? m->store.get() : nullptr;
}

AlertEngine *MonitorService::alerts(const QString &name) const
{
    const Machine *m = m_machines.value(name);
    return m ? m->alerts : nullptr;
}

IdlePolicy *MonitorService::idlePolicy(const QString &name) const
{
    const Machine *m = m_machines.value(name);
    return m ? m->idle : nullptr;
}

Sampler *MonitorService::sampler(const QString &name) const
{
    const Machine *m = m_machines.value(name);
    return m ? m->sampler : nullptr;
}

SamplerStatus MonitorService::status(const QString &name) const
{
    const Machine *m = m_machines.value(name);
    return m ? m->status : SamplerStatus::Idle;
}

QString MonitorService::statusMessage(const QString &name) const
{
    const Machine *m = m_machines.value(name);
    return m ? m->message : QString();
}

double MonitorService::hourlyPrice(const QString &name) const
{
    const Machine *m = m_machines.value(name);
    return m ? m->hourlyPriceUsd : 0;
}

void MonitorService::setHourlyPrice(const QString &name, double usd)
{
    if (Machine *m = m_machines.value(name)) {
        m->hourlyPriceUsd = usd;
        m->alerts->setBilling(usd > 0);
    }
}

void MonitorService::injectSample(const QString &name, const MachineSample &sample)
{
    Machine *m = m_machines.value(name);
    if (!m) {
        return;
    }
    m->store->add(sample);
    m->usage.add(sample, m->hourlyPriceUsd);
    m->alerts->evaluate(sample);
    emit sampleArrived(name);
}

void MonitorService::setStatus(const QString &name, SamplerStatus status, const QString &message)
{
    Machine *m = m_machines.value(name);
    if (!m) {
        return;
    }
    m->status = status;
    m->message = message;
    emit statusChanged(name, status, message);
}

} // namespace gantry::monitor
