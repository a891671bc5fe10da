#pragma once

#include "core/providers/launchattempt.h"
#include "core/providers/provider.h"
#include "core/util/clock.h"

#include <QHash>
#include <QPointer>
#include <QRandomGenerator>
#include <QSet>

#include <functional>

namespace gantry::providers {

struct CapacityQuery
{
    QString gpu;                    // matched through the GPU model table: "H100" any form, "H100 SXM" only SXM
    int count = 0;                  // GPUs per instance; 0 = any
    double maxPricePerGpuHour = 0;  // 0 = any price
    QStringList regions;            // empty = anywhere
};

struct CapacityMatch
{
    QString provider;
    InstanceType type;
    QString region;                 // where to launch ("" on a marketplace offer)
    int gpuCount = 0;               // what the launch asks for
    double pricePerHour = 0;        // whole instance
    double pricePerGpuHour = 0;
    QString key() const { return provider + QLatin1Char('|') + type.name + QLatin1Char('|') + region; }
};

// Every listed type that satisfies the query, cheapest per GPU-hour first.
QList<CapacityMatch> findCapacity(const ProviderInfo &info, const QList<InstanceType> &types, const CapacityQuery &query);

struct WatchOptions
{
    CapacityQuery query;
    bool launch = false;
    QString sshKey;
    QString name;
    QStringList fallbackTypes;      // "[provider:]type", tried in order when the first match's launch fails for capacity
    bool keepWatching = false;
    int maxLaunchFailures = 3;      // retryable failures in a row before giving up
    int pollMs = 0;                 // 0: each provider's own polite interval
    int lookupIntervalMs = 3000;    // between look-ups of a launch whose answer was lost
    // A marketplace machine whose last Verify or acceptance test failed (verify::flaggedMachines):
    // its offers are never matched, so a watch does not rent the same bad machine again.
    std::function<bool(const QString &provider, const QString &machineId)> isFlagged;
};

// The `gantry-cli watch-capacity …` line that runs this watch headless, each argument shell-quoted,
// for the user to paste where it keeps running (a server, a tmux session); providerIds "" = all keyed.
QString watchCapacityCommandLine(const WatchOptions &options, const QStringList &providerIds);

// Polls each provider's listing within its rate limit (jittered; failures back off exponentially
// up to ten minutes), reports the first time each match appears, and with launch rents the
// cheapest match, falling back through the listed types. Driven by tick() against an injected
// clock: the app calls it from a timer, tests advance a ManualClock. Providers are not owned.
class CapacityWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CapacityWatcher)

public:
    CapacityWatcher(QList<Provider *> providers, WatchOptions options, Clock &clock, QObject *parent = nullptr);

    // Who rents a match: the application's launch (workspace::Workspace::launch: ledger row, host
    // saved once up) where one is given; else a bare LaunchAttempt. Either adopts a lost answer.
    using Launcher = std::function<void(const CapacityMatch &match, const LaunchRequest &request, Callback<LaunchOutcome> done)>;
    void setLauncher(Launcher launcher) { m_launcher = std::move(launcher); }
    void setRandomSeed(quint32 seed) { m_random.seed(seed); }
    static int politePollMs(const ProviderInfo &info);
    void tick();
    bool isFinished() const { return m_finished; }
    int polls(const QString &provider) const { return m_state.value(provider).polls; }

signals:
    void polled(const QString &provider, int matches);
    void pollFailed(const QString &provider, const QString &message, qint64 retryInMs);
    void matchFound(const gantry::providers::CapacityMatch &match);
    void launching(const gantry::providers::CapacityMatch &match);
    void launched(const gantry::providers::CapacityMatch &match, const gantry::providers::LaunchOutcome &outcome);
    void launchFailed(const gantry::providers::CapacityMatch &match, const QString &kind, const QString &message, bool willRetry);
    void finished(bool ok, const QString &message);

private:
    struct ProviderState
    {
        qint64 dueMs = 0;
        bool inFlight = false;
        int failures = 0;
        int polls = 0;
        QList<InstanceType> latest;
    };
    void poll(Provider *provider);
    void onListing(Provider *provider, const QList<InstanceType> &types);
    qint64 jittered(qint64 ms, double spread);
    QList<CapacityMatch> candidates(const CapacityMatch &first) const;
    void launchNext(QList<CapacityMatch> queue);
    void onLaunchFailed(QList<CapacityMatch> queue, const CapacityMatch &match, const Error &error);
    void finish(bool ok, const QString &message);
    Provider *providerFor(const QString &id) const;
    void rent(Provider *provider, const CapacityMatch &match, const LaunchRequest &request, Callback<LaunchOutcome> done);

    QList<QPointer<Provider>> m_providers;
    WatchOptions m_options;
    Clock &m_clock;
    QRandomGenerator m_random{0x5eed};
    QHash<QString, ProviderState> m_state;
    QSet<QString> m_seen;
    bool m_launching = false;
    bool m_finished = false;
    int m_launchFailures = 0;
    Launcher m_launcher;
};

} // namespace gantry::providers

Q_DECLARE_METATYPE(gantry::providers::CapacityMatch)
Q_DECLARE_METATYPE(gantry::providers::LaunchOutcome)
