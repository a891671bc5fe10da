#include "core/providers/launchattempt.h"

#include "core/util/printable.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTimer>

namespace gantry::providers {

LaunchAttempt::LaunchAttempt(Provider *provider, LaunchRequest request, QObject *parent)
    : QObject(parent)
    , m_provider(provider)
    , m_request(std::move(request))
{
    if (m_request.name.isEmpty())
        m_request.name = uniqueName();
}

QString LaunchAttempt::uniqueName()
{
    return QStringLiteral("gantry-%1-%2")
        .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")))
        .arg(QRandomGenerator::global()->bounded(0x10000), 4, 16, QLatin1Char('0'));
}

void LaunchAttempt::setLookup(int tries, int intervalMs)
{
    m_tries = std::max(1, tries);
    m_intervalMs = std::max(0, intervalMs);
}

void LaunchAttempt::start(Callback<LaunchOutcome> done)
{
    m_done = std::move(done);
    if (!m_provider)
        return m_done(Error{ErrorCode::Cancelled, tr("The provider went away before the launch.")});
    const int lostBefore = m_provider->lostUnsafeReplies();
    m_provider->launch(m_request, [this, lostBefore](Result<QString> id) {
        if (id)
            return m_done(LaunchOutcome{*id, false, {}});
        if (!m_provider || m_provider->lostUnsafeReplies() == lostBefore)
            return m_done(id.error()); // refused outright: nothing was created
        lookup(id.error(), m_tries);
    });
}

void LaunchAttempt::lookup(const Error &original, int triesLeft)
{
    if (!m_provider)
        return m_done(original);
    m_provider->listInstances([this, original, triesLeft](Result<QList<Instance>> instances) {
        const QString name = text::printable(m_request.name);
        const QString provider = m_provider ? m_provider->info().displayName : QString();
        if (!instances) {
            return m_done(Error{original.code,
                                tr("%1 The answer to the launch was lost, and Gantry could not check whether %2 created "
                                   "the instance anyway (%3). Look for an instance named \"%4\" with gantry-cli instances "
                                   "and terminate it if you do not want it: it may be billing.")
                                    .arg(original.message, provider, instances.error().message, name)});
        }
        for (const Instance &instance : std::as_const(*instances)) {
            if (instance.name == m_request.name && !isGone(instance.state)) {
                const QString note = tr("The answer to the launch was lost (%1), but %2 created instance %3 named \"%4\": "
                                        "Gantry adopted it, so it is tracked and billed in the ledger like any other.")
                                         .arg(original.message, provider, text::printable(instance.id), name);
                return m_done(LaunchOutcome{instance.id, true, note});
            }
        }
        if (triesLeft > 1) {
            QTimer::singleShot(m_intervalMs, this, [this, original, triesLeft] { lookup(original, triesLeft - 1); });
            return;
        }
        m_done(Error{original.code, tr("%1 The answer to the launch was lost; Gantry looked for an instance named \"%2\" "
                                       "and found none, so nothing was launched and nothing is billing.")
                                        .arg(original.message, name)});
    });
}

} // namespace gantry::providers
