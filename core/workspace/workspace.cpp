#include "core/workspace/workspace.h"

#include "core/cost/hostbilling.h"
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/instancehosts.h"
#include "core/providers/providerhub.h"
#include "core/workspace/resultshome.h"

#include <QPointer>

namespace gantry::workspace {
namespace {

QString busyKey(const QString &provider, const QString &instanceId)
{
    return provider + QLatin1Char('/') + instanceId;
}

} // namespace

QString instanceActionName(InstanceAction action)
{
    switch (action) {
    case InstanceAction::Stop: return QStringLiteral("stop");
    case InstanceAction::Start: return QStringLiteral("start");
    case InstanceAction::Restart: return QStringLiteral("restart");
    case InstanceAction::Terminate: return QStringLiteral("terminate");
    }
    return {};
}

std::optional<InstanceAction> instanceActionFromName(const QString &name)
{
    for (InstanceAction action : {InstanceAction::Stop, InstanceAction::Start, InstanceAction::Restart, InstanceAction::Terminate}) {
        if (instanceActionName(action) == name)
            return action;
    }
    return std::nullopt;
}

Workspace::Workspace(QString configDir, providers::ProviderHub *hub, cost::Ledger *ledger, HostStore *hosts, QObject *parent)
    : QObject(parent)
    , m_configDir(std::move(configDir))
    , m_hub(hub)
    , m_ledger(ledger)
    , m_hosts(hosts)
    , m_results(new ResultsHome(m_configDir, hosts, nullptr, nullptr, this))
{
    qRegisterMetaType<ActionOutcome>();
    qRegisterMetaType<LaunchedInstance>();
    qRegisterMetaType<ReadyInstance>();
    applyBillingPolicies();
    if (m_hub)
        connect(m_hub, &providers::ProviderHub::providersChanged, this, &Workspace::applyBillingPolicies);
    followHosts();
}

Result<void> Workspace::setHostBilling(const QString &hostName, bool on)
{
    if (!m_ledger)
        return Error{ErrorCode::Io, tr("The cost ledger is not open, so %1 cannot be billed; see the warning about cost.sqlite.").arg(hostName)};
    if (!on)
        return cost::stopHostBilling(*m_ledger, hostName);
    std::optional<SavedHost> host = m_hosts ? m_hosts->find(hostName) : std::nullopt;
    if (!host)
        return Error{ErrorCode::NotFound, tr("No saved host named \"%1\" (see: gantry-cli hosts list).").arg(hostName)};
    return cost::startHostBilling(*m_ledger, *host);
}

Workspace::~Workspace() = default;

void Workspace::applyBillingPolicies()
{
    if (!m_hub || !m_ledger)
        return;
    for (const QString &id : m_hub->ids()) {
        m_ledger->setBillingPolicy(id, cost::billingPolicyFor(m_hub->provider(id)->info()));
        m_ledger->setCostModel(id, m_hub->provider(id)->info().cost); // the stopped-disk rate of each stop
    }
}

QString Workspace::hostNameFor(const QString &provider, const QString &instanceId) const
{
    for (const SavedHost &host : m_hosts ? m_hosts->hosts() : QList<SavedHost>{}) {
        if (host.provider == provider && host.instanceId == instanceId)
            return host.name;
    }
    return {};
}

bool Workspace::busy(const QString &provider, const QString &instanceId) const
{
    return m_busy.contains(busyKey(provider, instanceId));
}

void Workspace::stop(const QString &provider, const QString &instanceId, const ActionOptions &options, providers::Callback<ActionOutcome> done)
{
    act(InstanceAction::Stop, provider, instanceId, options, std::move(done));
}

void Workspace::start(const QString &provider, const QString &instanceId, const ActionOptions &options, providers::Callback<ActionOutcome> done)
{
    act(InstanceAction::Start, provider, instanceId, options, std::move(done));
}

void Workspace::restart(const QString &provider, const QString &instanceId, const ActionOptions &options, providers::Callback<ActionOutcome> done)
{
    act(InstanceAction::Restart, provider, instanceId, options, std::move(done));
}

void Workspace::terminate(const QString &provider, const QString &instanceId, const ActionOptions &options, providers::Callback<ActionOutcome> done)
{
    act(InstanceAction::Terminate, provider, instanceId, options, std::move(done));
}

void Workspace::act(InstanceAction action, const QString &providerId, const QString &instanceId, const ActionOptions &options,
                    providers::Callback<ActionOutcome> done)
{
    providers::Provider *provider = m_hub ? m_hub->provider(providerId) : nullptr;
    auto fail = [this, &done](Error error) {
        QMetaObject::invokeMethod(this, [done, error] { done(error); }, Qt::QueuedConnection);
    };
    if (!provider)
        return fail(Error{ErrorCode::NotFound, tr("No provider \"%1\" is set up; add its API key first.").arg(providerId)});
    if (busy(providerId, instanceId))
        return fail(Error{ErrorCode::Conflict, tr("An action on %1 is still running; wait for it to finish.").arg(instanceId)});
    if (action == InstanceAction::Stop && !provider->can(providers::Capability::StopStart))
        return fail(Error{ErrorCode::Usage, tr("%1 cannot stop instances; terminate instead.").arg(provider->info().displayName)});
    if (action == InstanceAction::Terminate)
        return guardedTerminate(provider, instanceId, options, std::move(done));
    perform(provider, action, action, instanceId, options, std::move(done));
}

void Workspace::guardedTerminate(providers::Provider *provider, const QString &instanceId, const ActionOptions &options,
                                 providers::Callback<ActionOutcome> done)
{
    const ResultsHome::Check check = m_results->check(provider->info().id, instanceId);
    if (options.resultsAcknowledged || check.verdict == ResultsHome::Verdict::Allow)
        return perform(provider, InstanceAction::Terminate, InstanceAction::Terminate, instanceId, options, std::move(done));
    if (check.verdict == ResultsHome::Verdict::Failed && options.unattended)
        return fallBackToStop(provider, instanceId, Error{ErrorCode::RemoteFailed, check.detail}, std::move(done));
    if (check.verdict != ResultsHome::Verdict::OfferDownload) {
        const Error refused{ErrorCode::Conflict, check.detail};
        QMetaObject::invokeMethod(this, [done, refused] { done(refused); }, Qt::QueuedConnection);
        return;
    }
    // Results first, attended or not; a failed download never ends in a terminate.
    m_busy.insert(busyKey(provider->info().id, instanceId));
    QPointer<providers::Provider> guarded(provider);
    m_results->download(check.hostName, check.patterns, [this, guarded, instanceId, options, done](Result<void> home) {
        if (!guarded)
            return;
        m_busy.remove(busyKey(guarded->info().id, instanceId));
        if (home)
            perform(guarded, InstanceAction::Terminate, InstanceAction::Terminate, instanceId, options, done);
        else if (options.unattended)
            fallBackToStop(guarded, instanceId, home.error(), done);
        else
            done(home.error());
    });
}

void Workspace::fallBackToStop(providers::Provider *provider, const QString &instanceId, const Error &why,
                               providers::Callback<ActionOutcome> done)
{
    const QString label = hostNameFor(provider->info().id, instanceId).isEmpty() ? instanceId : hostNameFor(provider->info().id, instanceId);
    if (!provider->can(providers::Capability::StopStart)) {
        const Error refused{why.code, tr("The results of %1 could not be brought home (%2), so it was not terminated and keeps "
                                         "billing; %3 cannot stop instances.").arg(label, why.message, provider->info().displayName)};
        QMetaObject::invokeMethod(this, [done, refused] { done(refused); }, Qt::QueuedConnection);
        return;
    }
    const QString message = tr("The results of %1 could not be brought home (%2), so it was stopped instead of terminated.")
                                .arg(label, why.message);
    perform(provider, InstanceAction::Terminate, InstanceAction::Stop, instanceId, ActionOptions{}, std::move(done), message);
}

void Workspace::perform(providers::Provider *provider, InstanceAction requested, InstanceAction action, const QString &instanceId,
                        const ActionOptions &options, providers::Callback<ActionOutcome> done, const QString &why)
{
    const QString providerId = provider->info().id;
    m_busy.insert(busyKey(providerId, instanceId));
    QPointer<Workspace> self(this);
    auto finished = [self, providerId, instanceId, requested, action, options, done, why](Result<void> result) {
        if (!self)
            return;
        self->m_busy.remove(busyKey(providerId, instanceId));
        if (!result) {
            done(result.error());
            return;
        }
        ActionOutcome outcome;
        outcome.provider = providerId;
        outcome.instanceId = instanceId;
        outcome.requested = requested;
        outcome.performed = action;
        outcome.hostName = self->hostNameFor(providerId, instanceId);
        const QString label = outcome.hostName.isEmpty() ? instanceId : outcome.hostName;
        switch (action) {
        case InstanceAction::Stop: outcome.message = tr("%1 is stopping; compute billing stops.").arg(label); break;
        case InstanceAction::Start: outcome.message = tr("%1 is starting; compute billing resumes.").arg(label); break;
        case InstanceAction::Restart: outcome.message = tr("%1 is restarting.").arg(label); break;
        case InstanceAction::Terminate: outcome.message = tr("%1 is being terminated; its billing stops.").arg(label); break;
        }
        if (!why.isEmpty())
            outcome.message = why;
        self->record(outcome, options);
        emit self->actionFinished(outcome);
        done(outcome);
    };
    switch (action) {
    case InstanceAction::Stop: provider->stop(instanceId, finished); break;
    case InstanceAction::Start: provider->start(instanceId, finished); break;
    case InstanceAction::Restart: provider->restart(instanceId, finished); break;
    case InstanceAction::Terminate: provider->terminate(instanceId, finished); break;
    }
}

void Workspace::record(ActionOutcome &outcome, const ActionOptions &options)
{
    auto note = [&outcome](const Result<void> &result) {
        // An instance the ledger never saw (launched elsewhere) is added by the next reconcile.
        if (!result && result.error().code != ErrorCode::NotFound)
            outcome.warnings.append(result.error().message);
    };
    if (m_ledger) {
        if (outcome.performed == InstanceAction::Stop)
            note(m_ledger->recordStopped(outcome.provider, outcome.instanceId));
        else if (outcome.performed == InstanceAction::Start)
            note(m_ledger->recordStarted(outcome.provider, outcome.instanceId));
        else if (outcome.performed == InstanceAction::Terminate)
            note(m_ledger->recordTerminated(outcome.provider, outcome.instanceId, options.note));
    }
    if (outcome.performed != InstanceAction::Terminate || !m_hosts)
        return;
    // ~/.ssh/config follows the HostStore's change (followHosts).
    if (Result<bool> forgotten = providers::forgetInstanceHost(*m_hosts, outcome.provider, outcome.instanceId); !forgotten)
        outcome.warnings.append(forgotten.error().message);
}

} // namespace gantry::workspace
