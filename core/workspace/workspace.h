#pragma once

#include "core/providers/capacitywatch.h"
#include "core/providers/providertypes.h"
#include "core/workspace/launches.h"

#include <QObject>
#include <QSet>

namespace gantry {
class HostStore;
class SecretStore;
struct SavedHost;
namespace cost { class Ledger; }
namespace providers { class ProviderHub; class Provider; }
} // namespace gantry

namespace gantry::workspace {

class ResultsHome;

enum class InstanceAction
{
    Stop,
    Start,
    Restart,
    Terminate,
};
QString instanceActionName(InstanceAction action); // stable, lowercase: "stop", "terminate"…
std::optional<InstanceAction> instanceActionFromName(const QString &name);

struct ActionOptions
{
    // Nobody is there to answer: results are downloaded before a terminate, and when that fails
    // the instance is stopped where the provider can, never terminated (the idle policy, watch).
    bool unattended = false;
    // The user answered the results-home question already (the GUI's dialog, --without-results).
    bool resultsAcknowledged = false;
    QString note; // written to the ledger row of a terminate ("idle for 30 min")
};

struct ActionOutcome
{
    QString provider;
    QString instanceId;
    InstanceAction requested = InstanceAction::Stop;
    InstanceAction performed = InstanceAction::Stop; // an unattended terminate may end as a stop
    QString hostName;     // the saved host of the instance ("" when none)
    QString message;      // one sentence for the user
    QStringList warnings; // ledger, saved-host or ssh-config problems: the action itself happened
};

// The user's rented machines as one model that the GUI, gantry-cli and the watcher all drive
// (after qBittorrent's BitTorrent::Session): the providers, the cost ledger, the saved hosts and the
// results-home guard. Each lifecycle operation exists once, here: the provider call, the ledger row
// (errors reported in the outcome, never dropped), the results guard, forgetting the saved host
// after a terminate and resyncing the managed ~/.ssh/config block. Owner-thread only; callbacks run
// later on that thread.
class Workspace final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Workspace)

public:
    Workspace(QString configDir, providers::ProviderHub *hub, cost::Ledger *ledger, HostStore *hosts,
              QObject *parent = nullptr);
    ~Workspace() override;

    QString configDir() const { return m_configDir; }
    providers::ProviderHub *providers() const { return m_hub; }
    cost::Ledger *ledger() const { return m_ledger; }
    HostStore *hosts() const { return m_hosts; }
    // The guard terminates ask; without one (a CLI without transfers) result paths block an
    // unattended terminate.
    void setResultsHome(ResultsHome *results) { m_results = results; }
    ResultsHome *resultsHome() const { return m_results; }

    void stop(const QString &provider, const QString &instanceId, const ActionOptions &options,
              providers::Callback<ActionOutcome> done);
    void start(const QString &provider, const QString &instanceId, const ActionOptions &options,
               providers::Callback<ActionOutcome> done);
    void restart(const QString &provider, const QString &instanceId, const ActionOptions &options,
                 providers::Callback<ActionOutcome> done);
    void terminate(const QString &provider, const QString &instanceId, const ActionOptions &options,
                   providers::Callback<ActionOutcome> done);
    void act(InstanceAction action, const QString &provider, const QString &instanceId, const ActionOptions &options,
             providers::Callback<ActionOutcome> done);

    // Launches through providers::LaunchAttempt, so an answer lost after the provider created the
    // instance is looked up by its unique name and adopted, never left billing unseen; records the
    // ledger row; and with options.follow waits until the instance is up and saves its host (the
    // managed ~/.ssh/config follows). `launched` runs once the provider answered (or the instance
    // was adopted), `ready` once it is up (with follow only). Both are announced as signals too, so
    // every view follows a launch whoever started it.
    void launch(const QString &provider, providers::LaunchRequest request, const LaunchOptions &options,
                providers::Callback<LaunchedInstance> launched, providers::Callback<ReadyInstance> ready = {});
    // Waits until a launched instance is running and reachable, then saves its host. One that never
    // comes up is terminated by the watcher and closed in the ledger with options.neverUpNote.
    void follow(const QString &provider, const QString &instanceId, const FollowOptions &options,
                providers::Callback<ReadyInstance> ready);
    // A provider's listing: the ledger is reconciled with it and every reachable instance that was
    // not terminated through Gantry gets a saved host. Returns the hosts saved for the first time.
    // `listedAt`: listingTime() taken when the listing was asked for (see Ledger::reconcile).
    ReconcileOutcome reconcile(const QString &provider, const QList<providers::Instance> &instances,
                               const QDateTime &listedAt = {});
    // Now, on the ledger's clock: what a listing's asker keeps for reconcile().
    QDateTime listingTime() const;

    // The capacity watch's launcher (CapacityWatcher::setLauncher): each match rented through
    // launch() with the match's price and these options (follow, lookup, timing).
    providers::CapacityWatcher::Launcher capacityLauncher(const LaunchOptions &options);

    // How launches poll and look up lost answers unless their options say otherwise: tests and the
    // sandbox answer in milliseconds. 0 keeps the default (the provider's poll interval; 4 × 3 s).
    void setLaunchTiming(int pollMs, int lookupTries, int lookupIntervalMs);

    // The saved hosts, each change followed by the ledger (a priced host bills from when it is
    // added, unless bill is false) and by the managed ~/.ssh/config block.
    Result<void> addHost(const SavedHost &host, bool bill = true);
    // Forgets the host and its secrets (password, passphrase) in `secrets` when given.
    Result<void> removeHost(const QString &name, SecretStore *secrets);
    // The hosts of an OpenSSH client config; returns how many were new (`found`: how many it has).
    Result<int> importSshConfig(const QString &file, QStringList *warnings, int *found = nullptr);

    // The saved host of an instance ("" when none).
    QString hostNameFor(const QString &provider, const QString &instanceId) const;
    // Whether an action on the instance is running now (a policy does not ask twice).
    bool busy(const QString &provider, const QString &instanceId) const;
    // A saved host priced by the hour bills while on (cost/hostbilling.h: it starts when the host
    // is added with a price, ends when it is removed); the GUI's Cost panel and `hosts billing`.
    Result<void> setHostBilling(const QString &hostName, bool on);

signals:
    void instanceLaunched(const gantry::workspace::LaunchedInstance &launched);
    void instanceReady(const gantry::workspace::ReadyInstance &ready);
    // A launched instance did not come up (or its host could not be saved); message says why.
    void followFailed(const QString &provider, const QString &instanceId, const QString &message);
    void actionFinished(const gantry::workspace::ActionOutcome &outcome);
    // The ledger could not follow a change of the saved hosts (the change itself happened).
    void billingWarning(const QString &message);
    // The managed ~/.ssh/config block could not follow a change of the saved hosts.
    void sshConfigWarning(const QString &message);

private:
    void guardedTerminate(providers::Provider *provider, const QString &instanceId, const ActionOptions &options,
                          providers::Callback<ActionOutcome> done);
    void fallBackToStop(providers::Provider *provider, const QString &instanceId, const Error &why,
                        providers::Callback<ActionOutcome> done);
    void perform(providers::Provider *provider, InstanceAction requested, InstanceAction action, const QString &instanceId,
                 const ActionOptions &options, providers::Callback<ActionOutcome> done, const QString &why = {});
    void record(ActionOutcome &outcome, const ActionOptions &options);
    void applyBillingPolicies();
    void followHosts();
    void recordLaunch(LaunchedInstance &launched);
    void readyUp(const QString &provider, const providers::Instance &instance, const QString &identityFile,
                 providers::Callback<ReadyInstance> ready);

    QString m_configDir;
    providers::ProviderHub *m_hub;
    cost::Ledger *m_ledger;
    HostStore *m_hosts;
    ResultsHome *m_results = nullptr;
    QSet<QString> m_busy;
    bool m_billNewHosts = true;
    int m_pollMs = 0;
    int m_lookupTries = 4;
    int m_lookupIntervalMs = 3000;
};

} // namespace gantry::workspace

Q_DECLARE_METATYPE(gantry::workspace::ActionOutcome)
