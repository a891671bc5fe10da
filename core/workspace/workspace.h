#pragma once

#include "core/providers/providertypes.h"

#include <QObject>
#include <QSet>

namespace gantry {
class HostStore;
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

    // The saved host of an instance ("" when none).
    QString hostNameFor(const QString &provider, const QString &instanceId) const;
    // Whether an action on the instance is running now (a policy does not ask twice).
    bool busy(const QString &provider, const QString &instanceId) const;
    // A saved host priced by the hour bills while on (cost/hostbilling.h: it starts when the host
    // is added with a price, ends when it is removed); the GUI's Cost panel and `hosts billing`.
    Result<void> setHostBilling(const QString &hostName, bool on);

signals:
    void actionFinished(const gantry::workspace::ActionOutcome &outcome);
    // The ledger could not follow a change of the saved hosts (the change itself happened).
    void billingWarning(const QString &message);

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

    QString m_configDir;
    providers::ProviderHub *m_hub;
    cost::Ledger *m_ledger;
    HostStore *m_hosts;
    ResultsHome *m_results = nullptr;
    QSet<QString> m_busy;
};

} // namespace gantry::workspace

Q_DECLARE_METATYPE(gantry::workspace::ActionOutcome)
