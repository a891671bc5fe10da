#pragma once

#include "core/hosts/hoststore.h"
#include "core/monitor/alerts.h"
#include "core/monitor/metricstore.h"
#include "core/monitor/sampler.h"
#include "core/monitor/usagemeter.h"

#include <QDateTime>
#include <QHash>
#include <QObject>

#include <memory>

namespace gantry {
class SecretStore;
}

namespace gantry::monitor {

// Every monitored machine of the app: its Sampler (own thread, own SSH session), its MetricStore,
// AlertEngine and IdlePolicy. Lives on the GUI thread; MonitorTab and FleetOverview read from it.
class MonitorService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MonitorService)

public:
    // secrets/knownHostsFile: what backgroundConnectOptions() needs (ConnectionManager has both).
    explicit MonitorService(SecretStore *secrets, QString knownHostsFile = {}, const Clock &clock = Clock::system(),
                            QObject *parent = nullptr);
    ~MonitorService() override;

    // Starts monitoring a saved host; billing when it has a price or a provider. A host already
    // monitored is re-probed (see refresh()): every connect asks the machine again whether it has
    // nvidia-smi.
    void startMonitoring(const SavedHost &host, StreamSettings settings = {});
    // Explicit target/options (tests, hosts that are not saved).
    void startMonitoring(const QString &name, const ssh::Target &target, const ssh::ConnectOptions &options,
                         double hourlyPriceUsd = 0, StreamSettings settings = {});
    // A machine fed by injectSample() only (benchmark, tests): no sampler.
    void addMachine(const QString &name, double hourlyPriceUsd = 0);
    void stopMonitoring(const QString &name);
    // Reconnects the machine's sampler at once with a fresh probe (Refresh, F5); false when the
    // machine has no sampler (not monitored, or fed by injectSample()).
    bool refresh(const QString &name);

    // A chart shows (or stops showing) the machine: only machines somebody charts keep the 10 s
    // history for 3 h (see MetricStore::setDetailed); counted, so two views of one machine can
    // each let go. A name not monitored yet gets its detail when it is added.
    void retainDetail(const QString &name);
    void releaseDetail(const QString &name);

    QStringList machines() const { return m_order; }
    bool isMonitoring(const QString &name) const { return m_machines.contains(name); }
    MetricStore *store(const QString &name) const;
    AlertEngine *alerts(const QString &name) const;
    IdlePolicy *idlePolicy(const QString &name) const;
    // Energy and money spent under 30 % GPU utilization since monitoring began (nullptr: not monitored).
    const UsageMeter *usage(const QString &name) const;
    Sampler *sampler(const QString &name) const; // nullptr for injected machines
    SamplerStatus status(const QString &name) const;
    QString statusMessage(const QString &name) const;
    double hourlyPrice(const QString &name) const;
    void setHourlyPrice(const QString &name, double usd);
    // When the provider launched the machine (UTC; invalid when not known, e.g. an own host):
    // how long an instance has been up, which is what bills, not how long its OS has run.
    QDateTime launchedAt(const QString &name) const { return m_launchedAt.value(name); }
    void setLaunchedAt(const QString &name, const QDateTime &utc) { m_launchedAt.insert(name, utc); }

    // The path every sample takes (the sampler's queued signal ends here).
    void injectSample(const QString &name, const MachineSample &sample);
    void setStatus(const QString &name, SamplerStatus status, const QString &message);

signals:
    void machineAdded(const QString &name);
    void machineRemoved(const QString &name);
    void sampleArrived(const QString &name);
    void statusChanged(const QString &name, gantry::monitor::SamplerStatus status, const QString &message);
    void alertRaised(const gantry::monitor::Alert &alert);
    void alertCleared(const QString &name, gantry::monitor::AlertKind kind, int gpu);

private:
    struct Machine
    {
        std::unique_ptr<MetricStore> store;
        AlertEngine *alerts = nullptr;
        IdlePolicy *idle = nullptr;
        Sampler *sampler = nullptr;
        SamplerStatus status = SamplerStatus::Idle;
        QString message;
        double hourlyPriceUsd = 0;
        UsageMeter usage;
    };
    Machine &create(const QString &name, double hourlyPriceUsd);

    SecretStore *m_secrets;
    QString m_knownHostsFile;
    const Clock &m_clock;
    QHash<QString, Machine *> m_machines;
    QStringList m_order;
    QHash<QString, QDateTime> m_launchedAt; // by machine name; kept across stop/start of monitoring
    QHash<QString, int> m_detailViewers;    // by machine name: charts showing it
};

} // namespace gantry::monitor
