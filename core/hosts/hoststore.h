#pragma once

#include "ssh/target.h"
#include "util/result.h"

#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace gantry {

// A machine the user can reach by SSH: added by hand, imported from ~/.ssh/config, or created
// when a cloud instance comes up. Secrets are never stored here (see SecretStore).
struct SavedHost
{
    QString name;               // unique, used on the command line
    ssh::Target target;
    double hourlyPriceUsd = 0;  // optional, for cost tracking (0: unknown / free)
    QString provider;           // "" for hand-added hosts; "lambda", "runpod", "sandbox" for instances
    QString instanceId;         // the provider's instance id, when provider is set
    QString source;             // "manual", "ssh-config", "provider"

    bool operator==(const SavedHost &other) const = default;
};

// hosts.json in the config dir. Writes are atomic (QSaveFile). Not thread-safe; GUI-thread owned.
// A hosts.json from a newer Gantry (a higher "schema") is read as far as this build understands
// it: load() returns the error that says so, and every change is refused, so the file stays as it is.
class HostStore final : public QObject
{
    Q_OBJECT

public:
    explicit HostStore(QString configDir, QObject *parent = nullptr);

    Result<void> load();
    const QList<SavedHost> &hosts() const { return m_hosts; }
    std::optional<SavedHost> find(const QString &name) const;

    // add and update refuse a host whose name or target check() refuses.
    Result<void> add(const SavedHost &host);     // fails if the name is taken
    Result<void> update(const SavedHost &host);  // by name
    Result<void> remove(const QString &name);
    // Adds hosts that are not there yet (by name) and that check() accepts; returns how many were added.
    Result<int> merge(const QList<SavedHost> &hosts);

    QString filePath() const;
    // Why this host cannot be saved (a bad name, or ssh::checkTarget's reason); ok when it can.
    static Result<void> check(const SavedHost &host);

signals:
    void changed();

private:
    Result<void> save();

    QString m_configDir;
    QList<SavedHost> m_hosts;
};

} // namespace gantry
