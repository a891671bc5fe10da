#pragma once

#include "core/providers/providerregistry.h"

#include <QObject>

#include <map>
#include <memory>
#include <optional>

namespace gantry::providers {

// The app's providers, one instance each, owned here and shared by every panel: the configured
// clouds plus the local sandbox (the default when no account is set up).
class ProviderHub final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProviderHub)

public:
    // Creates the configured providers; load errors are kept in errors() (shown by the UI).
    explicit ProviderHub(ProviderSettings settings, QObject *parent = nullptr);
    // Only the named providers (a gantry-cli command names the clouds it acts on); reload()
    // creates these again.
    ProviderHub(ProviderSettings settings, QStringList only, QObject *parent = nullptr);
    // An empty hub for tests, filled with addProvider().
    explicit ProviderHub(QObject *parent = nullptr);
    ~ProviderHub() override;

    void reload();
    void addProvider(std::unique_ptr<Provider> provider); // replaces one with the same id
    QStringList ids() const;                              // cloud providers first, sandbox last
    Provider *provider(const QString &id) const;
    Provider *defaultProvider() const;
    QStringList errors() const { return m_errors; }
    const ProviderSettings &settings() const { return m_settings; }

signals:
    void providersChanged();

private:
    ProviderSettings m_settings;
    std::optional<QStringList> m_only; // the ids a command named; every configured one when unset
    std::map<QString, std::unique_ptr<Provider>> m_providers;
    QStringList m_order;
    QStringList m_errors;
};

} // namespace gantry::providers
