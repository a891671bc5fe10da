#pragma once

#include "core/ssh/target.h"
#include "core/util/result.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace gantry {

// A machine the user can reach by SSH: added by hand, imported from ~/.ssh/config, or created
// when a cloud instance comes up. Secrets are never stored here (see SecretStore).
struct SavedHost
{
    QString name;               // unique, used on the command line
    ssh::Target target;
    double hourlyPriceUsd = 0;  // optional, for cost tracking (0: unknown / free, or priced in another currency)
    QString provider;           // "" for hand-added hosts; "lambda", "runpod", "sandbox" for instances
    QString instanceId;         // the provider's instance id, when provider is set
    QString source;             // "manual", "ssh-config", "provider"
    // Last, so positional initialisers written before it keep their meaning.
    // A price in another currency (AutoDL and 九天·毕昇 bill in ¥): 2.5 with "CNY". Never converted,
    // so what reads hourlyPriceUsd never mistakes yuan for dollars.
    double otherHourlyPrice = 0;
    QString otherCurrency{};    // ISO 4217 code, upper case; "" with otherHourlyPrice 0
    QString machineId{};        // the marketplace machine behind the instance (Vast.ai), "" elsewhere
    // "SHA256:…" of the host key the instance's provider made and vouches for (the sandbox's own
    // sshd): a new key with exactly this fingerprint is trusted without a question. "" elsewhere.
    QString hostKeyFingerprint{};

    // The price as entered, whichever currency it is in (0 and "USD" when none).
    double hourlyPrice() const { return otherCurrency.isEmpty() ? hourlyPriceUsd : otherHourlyPrice; }
    QString currency() const { return otherCurrency.isEmpty() ? QStringLiteral("USD") : otherCurrency; }
    // Sets the price in `currency` (an ISO 4217 code, any case): USD into hourlyPriceUsd, others beside it.
    void setHourlyPrice(double price, const QString &currency);

    bool operator==(const SavedHost &other) const = default;
};

// hosts.json in the config dir. Writes are atomic (QSaveFile). Not thread-safe; GUI-thread owned.
// The GUI and gantry-cli change the same file: every change re-reads it under hosts.json.lock and
// applies itself to what is there now, so a host one of them saved is never written away by the
// other's older copy.
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
    // Why `code` is not a currency a price can be kept in (three letters, A-Z); ok when it is.
    static Result<void> checkCurrency(const QString &code);

signals:
    void changed();
    // After changed(): one host was added by add() (not by load() or merge()); a priced host's
    // billing starts on it (core/workspace).
    void added(const QString &name);

private:
    // Under the file's lock: brings m_hosts in line with the file, lets `change` edit it (true: it
    // changed something) and saves. changed() is emitted when either side moved.
    Result<void> changeOnDisk(const std::function<Result<bool>(QList<SavedHost> &)> &change);
    Result<void> save();

    QString m_configDir;
    QList<SavedHost> m_hosts;
};

} // namespace gantry
