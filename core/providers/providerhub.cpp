#include "core/providers/providerhub.h"

#include "core/providers/providerdescriptor.h"

#include <algorithm>

namespace gantry::providers {

ProviderHub::ProviderHub(ProviderSettings settings, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
{
    reload();
}

ProviderHub::ProviderHub(ProviderSettings settings, QStringList only, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
    , m_only(std::move(only))
{
    reload();
}

ProviderHub::ProviderHub(QObject *parent)
    : QObject(parent)
{
}

ProviderHub::~ProviderHub() = default;

void ProviderHub::reload()
{
    m_providers.clear();
    m_order.clear();
    m_errors.clear();
    for (const QString &id : m_only ? *m_only : configuredProviderIds(m_settings)) {
        Result<std::unique_ptr<Provider>> created = createProvider(id, m_settings, this);
        if (!created) {
            m_errors.append(created.error().message);
            continue;
        }
        (*created)->setParent(nullptr); // owned by the map
        m_order.append(id);
        m_providers[id] = std::move(*created);
    }
    emit providersChanged();
}

void ProviderHub::addProvider(std::unique_ptr<Provider> provider)
{
    const QString id = provider->info().id;
    provider->setParent(nullptr);
    if (!m_order.contains(id)) {
        // Clouds first, a local provider (the sandbox) last.
        auto isLocal = [](const QString &known) {
            const ProviderDescriptor *d = providerDescriptor(known);
            return d && d->local;
        };
        const qsizetype firstLocal = std::find_if(m_order.cbegin(), m_order.cend(), isLocal) - m_order.cbegin();
        m_order.insert(isLocal(id) ? m_order.size() : firstLocal, id);
    }
    m_providers[id] = std::move(provider);
    emit providersChanged();
}

QStringList ProviderHub::ids() const
{
    return m_order;
}

Provider *ProviderHub::provider(const QString &id) const
{
    const auto it = m_providers.find(id);
    return it == m_providers.end() ? nullptr : it->second.get();
}

Provider *ProviderHub::defaultProvider() const
{
    return m_order.isEmpty() ? nullptr : provider(m_order.constFirst());
}

} // namespace gantry::providers
