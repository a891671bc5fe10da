// SPDX-License-Identifier: Apache-2.0
// Workspace: launching an instance and following it until its host is saved. Every front end's
// launch comes here (the GUI's Launch dialog and sandbox button, gantry-cli launch, the capacity
// watch, cluster nodes), so a lost answer is adopted and the ledger row written on every path.
#include "core/workspace/workspace.h"

#include "core/cost/billing.h"
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/instancehosts.h"
#include "core/providers/launchattempt.h"
#include "core/providers/launchwatcher.h"
#include "core/providers/providerhub.h"

#include <QPointer>

namespace gantry::workspace {

void Workspace::launch(const QString &providerId, providers::LaunchRequest request, const LaunchOptions &options,
                       providers::Callback<LaunchedInstance> launched, providers::Callback<ReadyInstance> ready)
{
    providers::Provider *provider = m_hub ? m_hub->provider(providerId) : nullptr;
    if (!provider) {
        const Error missing{ErrorCode::NotFound, tr("No provider \"%1\" is set up; add its API key first.").arg(providerId)};
        QMetaObject::invokeMethod(this, [launched, missing] { launched(missing); }, Qt::QueuedConnection);
        return;
    }
    auto *attempt = new providers::LaunchAttempt(provider, std::move(request), this);
    attempt->setLookup(options.lookupTries > 0 ? options.lookupTries : m_lookupTries,
                       options.lookupIntervalMs >= 0 ? options.lookupIntervalMs : m_lookupIntervalMs);
    QPointer<Workspace> self(this);
    attempt->start([self, attempt, providerId, options, launched, ready](Result<providers::LaunchOutcome> outcome) {
        attempt->deleteLater();
        if (!self)
            return;
        if (!outcome) {
            launched(outcome.error());
            return;
        }
        LaunchedInstance instance;
        instance.provider = providerId;
        instance.instanceId = outcome->id;
        instance.request = attempt->request();
        instance.pricePerHour = options.pricePerHour;
        instance.adopted = outcome->adopted;
        instance.note = outcome->note;
        self->recordLaunch(instance);
        emit self->instanceLaunched(instance);
        launched(instance);
        if (!self || !options.follow)
            return;
        FollowOptions follow;
        follow.timeoutMs = options.bootTimeoutMs;
        follow.pollMs = options.pollMs;
        follow.neverUpNote = options.neverUpNote;
        follow.identityFile = options.identityFile;
        self->follow(providerId, instance.instanceId, follow, ready ? ready : [](Result<ReadyInstance>) {});
    });
}

providers::CapacityWatcher::Launcher Workspace::capacityLauncher(const LaunchOptions &options)
{
    QPointer<Workspace> self(this);
    return [self, options](const providers::CapacityMatch &match, const providers::LaunchRequest &request,
                           providers::Callback<providers::LaunchOutcome> done) {
        if (!self)
            return done(Error{ErrorCode::Cancelled, tr("Gantry is closing; nothing was launched.")});
        LaunchOptions rented = options;
        rented.pricePerHour = match.pricePerHour;
        self->launch(match.provider, request, rented, [done](Result<LaunchedInstance> launched) {
            if (!launched)
                return done(launched.error());
            done(providers::LaunchOutcome{launched->instanceId, launched->adopted, launched->note});
        });
    };
}

void Workspace::setLaunchTiming(int pollMs, int lookupTries, int lookupIntervalMs)
{
    m_pollMs = std::max(0, pollMs);
    if (lookupTries > 0)
        m_lookupTries = lookupTries;
    if (lookupIntervalMs > 0)
        m_lookupIntervalMs = lookupIntervalMs;
}

void Workspace::recordLaunch(LaunchedInstance &launched)
{
    if (!m_ledger)
        return;
    providers::Instance row;
    row.provider = launched.provider;
    row.id = launched.instanceId;
    row.name = launched.request.name;
    row.typeName = launched.request.typeName;
    row.region = launched.request.region;
    row.volumeGb = launched.request.volumeGb;
    row.state = providers::InstanceState::Booting;
    if (Result<void> recorded = m_ledger->recordLaunch(row, launched.pricePerHour); !recorded)
        launched.warnings.append(recorded.error().message);
}

void Workspace::follow(const QString &providerId, const QString &instanceId, const FollowOptions &options,
                       providers::Callback<ReadyInstance> ready)
{
    providers::Provider *provider = m_hub ? m_hub->provider(providerId) : nullptr;
    if (!provider) {
        const Error missing{ErrorCode::NotFound, tr("No provider \"%1\" is set up; add its API key first.").arg(providerId)};
        QMetaObject::invokeMethod(this, [ready, missing] { ready(missing); }, Qt::QueuedConnection);
        return;
    }
    const int pollMs = options.pollMs > 0 ? options.pollMs : m_pollMs > 0 ? m_pollMs : provider->info().statusPollMs;
    auto *watcher = new providers::LaunchWatcher(provider, instanceId, options.timeoutMs, pollMs, this);
    QPointer<Workspace> self(this);
    watcher->start([self, watcher, providerId, instanceId, options, ready](Result<providers::Instance> up) {
        watcher->deleteLater();
        if (!self)
            return;
        if (up)
            return self->readyUp(providerId, *up, options.identityFile, ready);
        // The watcher terminated an instance that never came up: only its ledger row is left open.
        if (self->m_ledger && up.error().code == ErrorCode::Timeout) {
            const QString note = options.neverUpNote.isEmpty() ? tr("never became active") : options.neverUpNote;
            if (Result<void> closed = self->m_ledger->recordTerminated(providerId, instanceId, note); !closed)
                emit self->billingWarning(closed.error().message);
        }
        emit self->followFailed(providerId, instanceId, up.error().message);
        ready(up.error());
    });
}

void Workspace::readyUp(const QString &providerId, const providers::Instance &instance, const QString &identityFile,
                        providers::Callback<ReadyInstance> ready)
{
    ReadyInstance result;
    result.instance = instance;
    if (m_hosts) {
        Result<QString> remembered = providers::rememberInstanceHost(*m_hosts, instance, m_configDir, identityFile);
        if (!remembered && remembered.error().code == ErrorCode::Provider) {
            // A hostile address: say so and save nothing.
            emit followFailed(providerId, instance.id, remembered.error().message);
            return ready(remembered.error());
        }
        if (remembered)
            result.hostName = *remembered;
        else
            result.warnings.append(remembered.error().message);
    }
    emit instanceReady(result);
    ready(result);
}

QDateTime Workspace::listingTime() const
{
    return m_ledger ? m_ledger->clock().now() : QDateTime();
}

ReconcileOutcome Workspace::reconcile(const QString &providerId, const QList<providers::Instance> &instances,
                                      const QDateTime &listedAt)
{
    ReconcileOutcome outcome;
    if (m_ledger) {
        if (Result<void> reconciled = m_ledger->reconcile(providerId, instances, listedAt); !reconciled)
            outcome.problems.append(reconciled.error().message);
    }
    for (const providers::Instance &instance : instances) {
        if (!m_hosts || !instance.reachable())
            continue;
        // A listing sent before a terminate (from here, the CLI or the watcher) still shows the
        // instance running: its closed ledger row keeps the forgotten host forgotten.
        if (m_ledger) {
            const Result<cost::LedgerEntry> entry = m_ledger->entry(providerId, instance.id);
            if (entry && !entry->isOpen())
                continue;
        }
        const bool known = !hostNameFor(providerId, instance.id).isEmpty();
        Result<QString> name = providers::rememberInstanceHost(*m_hosts, instance, m_configDir);
        if (!name)
            outcome.problems.append(name.error().message);
        else if (!known)
            outcome.newHosts.append(*name);
    }
    return outcome;
}

} // namespace gantry::workspace
