#include "core/providers/capacitywatch.h"

#include "core/providers/gpumodels.h"
#include "core/providers/launchfailure.h"
#include "core/providers/providerdescriptor.h"
#include "core/ssh/session.h"

#include <QPointer>

#include <algorithm>
#include <cmath>

namespace gantry::providers {
namespace {

constexpr qint64 kMaxBackoffMs = 10 * 60 * 1000;

QString regionFor(const InstanceType &type, const QStringList &wanted)
{
    for (const Region &region : type.regionsWithCapacity) {
        if (wanted.isEmpty() || wanted.contains(region.name, Qt::CaseInsensitive))
            return region.name;
    }
    return {};
}

} // namespace

QString watchCapacityCommandLine(const WatchOptions &options, const QStringList &providerIds)
{
    QStringList args{QStringLiteral("gantry-cli"), QStringLiteral("watch-capacity"), QStringLiteral("--gpu"), options.query.gpu};
    const auto add = [&args](const char *flag, const QString &value) { args << QString::fromLatin1(flag) << value; };
    if (options.query.count > 0)
        add("--count", QString::number(options.query.count));
    if (options.query.maxPricePerGpuHour > 0) // rounded up to the cent, so the row's own price still matches
        add("--max-price", QString::number(std::ceil(options.query.maxPricePerGpuHour * 100 - 1e-6) / 100, 'f', 2));
    if (!options.query.regions.isEmpty())
        add("--regions", options.query.regions.join(QLatin1Char(',')));
    if (!providerIds.isEmpty())
        add("--providers", providerIds.join(QLatin1Char(',')));
    if (options.launch) {
        args << QStringLiteral("--launch");
        add("--ssh-key", options.sshKey);
        for (const QString &fallback : options.fallbackTypes)
            add("--fallback", fallback);
        if (!options.name.isEmpty())
            add("--name", options.name);
    }
    if (options.keepWatching)
        args << QStringLiteral("--keep-watching");
    QStringList quoted;
    for (const QString &arg : std::as_const(args))
        quoted << ssh::shellQuote(arg);
    return quoted.join(QLatin1Char(' '));
}

QList<CapacityMatch> findCapacity(const ProviderInfo &info, const QList<InstanceType> &types, const CapacityQuery &query)
{
    const bool perGpu = info.capabilities.testFlag(Capability::PerGpuPricing);
    const bool marketplace = info.capabilities.testFlag(Capability::Marketplace);
    QList<CapacityMatch> matches;
    for (const InstanceType &type : types) {
        if (!type.availableNow() || type.gpuCount <= 0 || !gpuModelMatches(query.gpu, gpuModelOf(type), type.gpuModel))
            continue;
        // RunPod prices one GPU and lets the launch pick how many; elsewhere the count is the type's.
        const int count = perGpu ? std::max(1, query.count) : type.gpuCount;
        if (!perGpu && query.count > 0 && type.gpuCount != query.count)
            continue;
        const QString region = regionFor(type, query.regions);
        if (region.isEmpty())
            continue;
        CapacityMatch match;
        match.provider = info.id;
        match.type = type;
        match.region = marketplace ? QString() : region;
        match.gpuCount = count;
        match.pricePerHour = launchPricePerHour(info, type, count);
        match.pricePerGpuHour = match.pricePerHour / count;
        if (query.maxPricePerGpuHour > 0 && match.pricePerGpuHour > query.maxPricePerGpuHour + 1e-9)
            continue;
        matches.append(match);
    }
    std::stable_sort(matches.begin(), matches.end(),
                     [](const CapacityMatch &a, const CapacityMatch &b) { return a.pricePerGpuHour < b.pricePerGpuHour; });
    return matches;
}

CapacityWatcher::CapacityWatcher(QList<Provider *> providers, WatchOptions options, Clock &clock, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_clock(clock)
{
    qRegisterMetaType<CapacityMatch>();
    qRegisterMetaType<LaunchOutcome>();
    for (Provider *provider : providers) {
        m_providers.append(provider);
        m_state.insert(provider->info().id, ProviderState{m_clock.monotonicMs(), false, 0, 0, {}});
    }
}

int CapacityWatcher::politePollMs(const ProviderInfo &info)
{
    // Listings are cheap reads, but every vendor limits per key: stay far below the limits so a
    // watcher running all day never costs the user a 429 on a real launch.
    const ProviderDescriptor *d = providerDescriptor(info.id);
    return d ? d->capacityPollMs : 15000;
}

qint64 CapacityWatcher::jittered(qint64 ms, double spread)
{
    const double factor = 1.0 + spread * (m_random.generateDouble() * 2.0 - 1.0);
    return std::max<qint64>(0, qint64(double(ms) * factor));
}

void CapacityWatcher::tick()
{
    if (m_finished)
        return;
    const qint64 now = m_clock.monotonicMs();
    for (const QPointer<Provider> &provider : std::as_const(m_providers)) {
        if (!provider)
            continue;
        ProviderState &state = m_state[provider->info().id];
        if (!state.inFlight && now >= state.dueMs)
            poll(provider);
    }
}

void CapacityWatcher::poll(Provider *provider)
{
    const QString id = provider->info().id;
    m_state[id].inFlight = true;
    QPointer<Provider> guard(provider);
    QPointer<CapacityWatcher> self(this);
    provider->listInstanceTypes([this, self, guard, id](Result<QList<InstanceType>> types) {
        if (!self)
            return; // the watch ended (its panel closed) while this answer was on its way
        ProviderState &state = m_state[id];
        state.inFlight = false;
        ++state.polls;
        const qint64 interval = m_options.pollMs > 0 ? m_options.pollMs : (guard ? politePollMs(guard->info()) : 15000);
        if (!types) {
            ++state.failures;
            const qint64 backoff = std::min(kMaxBackoffMs, interval << std::min(state.failures, 10));
            const qint64 wait = jittered(backoff, 0.2);
            state.dueMs = m_clock.monotonicMs() + wait;
            emit pollFailed(id, types.error().message, wait);
            return;
        }
        state.failures = 0;
        state.dueMs = m_clock.monotonicMs() + jittered(interval, 0.1);
        state.latest = *types;
        if (m_options.isFlagged) {
            state.latest.removeIf([this, &id](const InstanceType &type) {
                return !type.machineId.isEmpty() && m_options.isFlagged(id, type.machineId);
            });
        }
        if (guard)
            onListing(guard, state.latest);
    });
}

void CapacityWatcher::onListing(Provider *provider, const QList<InstanceType> &types)
{
    const QList<CapacityMatch> matches = findCapacity(provider->info(), types, m_options.query);
    emit polled(provider->info().id, int(matches.size()));
    for (const CapacityMatch &match : matches) {
        if (!m_seen.contains(match.key())) {
            m_seen.insert(match.key());
            emit matchFound(match);
        }
    }
    if (matches.isEmpty() || m_finished || m_launching)
        return;
    if (!m_options.launch) {
        if (!m_options.keepWatching)
            finish(true, tr("Capacity found: %1 on %2.").arg(matches.first().type.name, provider->info().displayName));
        return;
    }
    launchNext(candidates(matches.first()));
}

Provider *CapacityWatcher::providerFor(const QString &id) const
{
    for (const QPointer<Provider> &provider : m_providers) {
        if (provider && provider->info().id == id)
            return provider;
    }
    return nullptr;
}

QList<CapacityMatch> CapacityWatcher::candidates(const CapacityMatch &first) const
{
    QList<CapacityMatch> queue{first};
    for (const QString &entry : m_options.fallbackTypes) {
        const qsizetype colon = entry.indexOf(QLatin1Char(':'));
        const QString providerId = colon > 0 ? entry.left(colon) : first.provider;
        const QString typeName = colon > 0 ? entry.mid(colon + 1) : entry;
        Provider *provider = providerFor(providerId);
        if (!provider)
            continue;
        for (const InstanceType &type : m_state.value(providerId).latest) {
            if (type.name != typeName)
                continue;
            const QString region = regionFor(type, m_options.query.regions);
            if (region.isEmpty())
                continue; // no capacity there now: nothing to try
            const ProviderInfo info = provider->info();
            CapacityMatch match;
            match.provider = providerId;
            match.type = type;
            match.region = info.capabilities.testFlag(Capability::Marketplace) ? QString() : region;
            match.gpuCount = info.capabilities.testFlag(Capability::PerGpuPricing) ? std::max(1, m_options.query.count) : type.gpuCount;
            match.pricePerHour = launchPricePerHour(info, type, match.gpuCount);
            match.pricePerGpuHour = match.pricePerHour / std::max(1, match.gpuCount);
            if (match.key() != first.key())
                queue.append(match);
        }
    }
    return queue;
}

void CapacityWatcher::launchNext(QList<CapacityMatch> queue)
{
    if (queue.isEmpty()) {
        m_launching = false;
        return;
    }
    const CapacityMatch match = queue.takeFirst();
    Provider *provider = providerFor(match.provider);
    if (!provider)
        return launchNext(queue);
    m_launching = true;
    LaunchRequest request;
    request.typeName = match.type.name;
    request.region = match.region;
    request.sshKeyName = m_options.sshKey;
    request.name = m_options.name;
    request.gpuCount = match.gpuCount;
    emit launching(match);
    rent(provider, match, request, [this, queue, match](Result<LaunchOutcome> outcome) {
        if (!outcome)
            return onLaunchFailed(queue, match, outcome.error());
        m_launching = false;
        m_launchFailures = 0;
        emit launched(match, *outcome);
        if (!m_options.keepWatching)
            finish(true, tr("Launched %1 on %2.").arg(outcome->id, match.provider));
    });
}

void CapacityWatcher::rent(Provider *provider, const CapacityMatch &match, const LaunchRequest &request, Callback<LaunchOutcome> done)
{
    if (m_launcher)
        return m_launcher(match, request, std::move(done));
    auto *attempt = new LaunchAttempt(provider, request, this);
    attempt->setLookup(4, m_options.lookupIntervalMs);
    attempt->start([attempt, done](Result<LaunchOutcome> outcome) {
        attempt->deleteLater();
        done(std::move(outcome));
    });
}

void CapacityWatcher::onLaunchFailed(QList<CapacityMatch> queue, const CapacityMatch &match, const Error &error)
{
    const LaunchFailure kind = classifyLaunchFailure(error);
    if (!isRetryable(kind)) {
        emit launchFailed(match, launchFailureName(kind), error.message, false);
        m_launching = false;
        return finish(false, error.message);
    }
    const bool more = ++m_launchFailures < m_options.maxLaunchFailures;
    emit launchFailed(match, launchFailureName(kind), error.message, more || !queue.isEmpty());
    if (kind == LaunchFailure::Capacity && !queue.isEmpty())
        return launchNext(queue); // the next listed type
    m_launching = false;
    if (!more)
        finish(false, tr("Gave up after %1 failed launches; the last: %2").arg(m_launchFailures).arg(error.message));
}

void CapacityWatcher::finish(bool ok, const QString &message)
{
    if (m_finished)
        return;
    m_finished = true;
    emit finished(ok, message);
}

} // namespace gantry::providers
