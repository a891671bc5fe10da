#include "core/hosts/hoststore.h"

#include "core/util/printable.h"
#include "core/util/schemaversion.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

namespace gantry {
namespace {

// hosts.json's format: 1 is every file before currencies (it said "version": 1 before "schema"
// existed); 2 keeps each price with its currency ("hourly_price", "currency"), so a Gantry that
// knows only dollars refuses the file rather than read ¥2.50 as $2.50.
constexpr int kHostsSchema = 2;
const QLatin1StringView kLegacyVersionKey("version");

QJsonObject toJson(const SavedHost &host)
{
    QJsonObject o;
    o[QStringLiteral("name")] = host.name;
    o[QStringLiteral("host")] = host.target.host;
    o[QStringLiteral("port")] = host.target.port;
    o[QStringLiteral("user")] = host.target.user;
    o[QStringLiteral("auth")] = ssh::authMethodName(host.target.auth);
    o[QStringLiteral("identity_files")] = QJsonArray::fromStringList(host.target.identityFiles);
    if (!host.target.proxyJump.isEmpty())
        o[QStringLiteral("proxy_jump")] = host.target.proxyJump;
    o[QStringLiteral("hourly_price")] = host.hourlyPrice();
    o[QStringLiteral("currency")] = host.currency();
    o[QStringLiteral("provider")] = host.provider;
    o[QStringLiteral("instance_id")] = host.instanceId;
    o[QStringLiteral("source")] = host.source;
    if (!host.machineId.isEmpty())
        o[QStringLiteral("machine_id")] = host.machineId;
    if (!host.hostKeyFingerprint.isEmpty())
        o[QStringLiteral("host_key_sha256")] = host.hostKeyFingerprint;
    return o;
}

SavedHost fromJson(const QJsonObject &o)
{
    SavedHost host;
    host.name = o.value(QStringLiteral("name")).toString();
    host.target.host = o.value(QStringLiteral("host")).toString();
    host.target.port = o.value(QStringLiteral("port")).toInt(22);
    host.target.user = o.value(QStringLiteral("user")).toString();
    host.target.auth = ssh::authMethodFromName(o.value(QStringLiteral("auth")).toString());
    for (const QJsonValue &v : o.value(QStringLiteral("identity_files")).toArray())
        host.target.identityFiles << v.toString();
    host.target.proxyJump = o.value(QStringLiteral("proxy_jump")).toString();
    host.setHourlyPrice(o.value(QStringLiteral("hourly_price")).toDouble(), o.value(QStringLiteral("currency")).toString());
    host.provider = o.value(QStringLiteral("provider")).toString();
    host.instanceId = o.value(QStringLiteral("instance_id")).toString();
    host.source = o.value(QStringLiteral("source")).toString();
    host.machineId = o.value(QStringLiteral("machine_id")).toString();
    host.hostKeyFingerprint = o.value(QStringLiteral("host_key_sha256")).toString();
    return host;
}

// 1 → 2: every price so far was in US dollars.
QJsonObject pricesWithCurrency(QJsonObject root)
{
    QJsonArray hosts;
    for (const QJsonValue &v : root.value(QStringLiteral("hosts")).toArray()) {
        QJsonObject host = v.toObject();
        host.insert(QStringLiteral("hourly_price"), host.take(QStringLiteral("hourly_price_usd")).toDouble());
        host.insert(QStringLiteral("currency"), QStringLiteral("USD"));
        hosts.append(host);
    }
    root.insert(QStringLiteral("hosts"), hosts);
    return root;
}

constexpr schema::Migration kMigrations[] = {pricesWithCurrency};

bool named(const QList<SavedHost> &hosts, const QString &name)
{
    return std::any_of(hosts.cbegin(), hosts.cend(), [&name](const SavedHost &h) { return h.name == name; });
}

} // namespace

void SavedHost::setHourlyPrice(double price, const QString &code)
{
    const QString upper = code.trimmed().toUpper();
    if (upper.isEmpty() || upper == QLatin1String("USD")) {
        hourlyPriceUsd = price;
        otherHourlyPrice = 0;
        otherCurrency.clear();
        return;
    }
    hourlyPriceUsd = 0;
    otherHourlyPrice = price;
    otherCurrency = upper;
}

Result<void> HostStore::checkCurrency(const QString &code)
{
    static const QRegularExpression iso(QStringLiteral("^[A-Za-z]{3}$"));
    if (!iso.match(code.trimmed()).hasMatch())
        return makeError(ErrorCode::Usage, tr("\"%1\" is not a currency code; use three letters such as USD, CNY or EUR")
                                               .arg(text::printable(code)));
    return {};
}

HostStore::HostStore(QString configDir, QObject *parent)
    : QObject(parent)
    , m_configDir(std::move(configDir))
{
}

QString HostStore::filePath() const
{
    return m_configDir + QStringLiteral("/hosts.json");
}

Result<void> HostStore::load()
{
    m_hosts.clear();
    QFile file(filePath());
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, tr("cannot read %1: %2").arg(filePath(), file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (doc.isNull())
        return makeError(ErrorCode::Parse, tr("%1 is damaged (%2 at byte %3). Gantry starts with no saved hosts and, "
                                              "when it next saves one, keeps the damaged file as %1.damaged-DATE; "
                                              "fix that copy and move it back to restore the hosts")
                                               .arg(filePath(), parseError.errorString())
                                               .arg(parseError.offset));
    // A file from a newer Gantry is shown as far as this one understands it, and never saved over.
    const Result<QJsonObject> root = schema::upgrade(doc.object(), kHostsSchema, filePath(), kMigrations, kLegacyVersionKey);
    for (const QJsonValue &v : (root ? *root : doc.object()).value(QStringLiteral("hosts")).toArray())
        m_hosts << fromJson(v.toObject());
    if (!root)
        return root.error();
    return {};
}

std::optional<SavedHost> HostStore::find(const QString &name) const
{
    for (const SavedHost &host : m_hosts) {
        if (host.name == name)
            return host;
    }
    return std::nullopt;
}

Result<void> HostStore::check(const SavedHost &host)
{
    if (host.name.trimmed().isEmpty())
        return makeError(ErrorCode::Usage, tr("a saved host needs a name"));
    if (host.name.contains(QLatin1Char('@')) || host.name.contains(QLatin1Char(':')) || host.name.contains(QLatin1Char('/'))
        || !text::isPrintable(host.name) || host.name.contains(QLatin1Char('"')))
        return makeError(ErrorCode::Usage, tr("host name \"%1\" may not contain '@', ':', '/', quotes or control "
                                              "characters; choose another name")
                                               .arg(text::printable(host.name)));
    // A host's name names folders (results home: <Gantry results>/NAME): "." and ".." would be the
    // folder itself or its parent.
    if (host.name.trimmed() == QLatin1String(".") || host.name.trimmed() == QLatin1String(".."))
        return makeError(ErrorCode::Usage, tr("host name \"%1\" is a folder's own name; choose another name").arg(host.name.trimmed()));
    if (host.target.host.isEmpty())
        return makeError(ErrorCode::Usage, tr("host \"%1\" needs an address").arg(host.name));
    if (!host.otherCurrency.isEmpty()) {
        if (Result<void> currency = checkCurrency(host.otherCurrency); !currency)
            return currency;
    }
    if (Result<void> target = ssh::checkTarget(host.target); !target)
        return makeError(target.error().code, tr("host \"%1\" was not saved: %2").arg(host.name, target.error().message));
    return {};
}

Result<void> HostStore::add(const SavedHost &host)
{
    if (Result<void> checked = check(host); !checked)
        return checked;
    Result<void> saved = changeOnDisk([&host](QList<SavedHost> &hosts) -> Result<bool> {
        if (named(hosts, host.name))
            return makeError(ErrorCode::Conflict,
                             tr("a host named \"%1\" exists already; pick another name or remove it first").arg(host.name));
        hosts << host;
        return true;
    });
    if (saved)
        emit added(host.name);
    return saved;
}

Result<void> HostStore::update(const SavedHost &host)
{
    if (Result<void> checked = check(host); !checked)
        return checked;
    return changeOnDisk([&host](QList<SavedHost> &hosts) -> Result<bool> {
        for (SavedHost &existing : hosts) {
            if (existing.name == host.name) {
                existing = host;
                return true;
            }
        }
        return makeError(ErrorCode::NotFound, tr("no saved host named \"%1\"").arg(host.name));
    });
}

Result<void> HostStore::remove(const QString &name)
{
    return changeOnDisk([&name](QList<SavedHost> &hosts) -> Result<bool> {
        if (hosts.removeIf([&name](const SavedHost &h) { return h.name == name; }) == 0)
            return makeError(ErrorCode::NotFound, tr("no saved host named \"%1\" (see: gantry-cli hosts list)").arg(name));
        return true;
    });
}

Result<int> HostStore::merge(const QList<SavedHost> &hosts)
{
    int added = 0;
    Result<void> saved = changeOnDisk([&hosts, &added](QList<SavedHost> &current) -> Result<bool> {
        for (const SavedHost &host : hosts) {
            // An imported entry that could not be written back safely is left out, not saved.
            if (!named(current, host.name) && check(host)) {
                current << host;
                ++added;
            }
        }
        return added > 0;
    });
    if (!saved)
        return saved.error();
    return added;
}

Result<void> HostStore::changeOnDisk(const std::function<Result<bool>(QList<SavedHost> &)> &change)
{
    QDir().mkpath(m_configDir);
    QLockFile lock(filePath() + QStringLiteral(".lock"));
    lock.setStaleLockTime(30000); // a Gantry killed mid-save leaves its lock; a live one holds it for milliseconds
    if (!lock.tryLock(10000))
        return makeError(ErrorCode::Io, tr("%1 is being changed by another Gantry (lock %2); try again in a moment")
                                            .arg(filePath(), lock.fileName()));
    // What another Gantry (gantry-cli beside the window) saved since this one last read the file.
    // A file that cannot be read whole (damaged, newer) is left to save(), which keeps it aside or refuses.
    HostStore onDisk(m_configDir);
    const bool moved = onDisk.load() && onDisk.hosts() != m_hosts;
    if (moved)
        m_hosts = onDisk.hosts();
    QList<SavedHost> next = m_hosts;
    Result<bool> changed = change(next);
    if (!changed || !*changed) {
        if (moved)
            emit this->changed();
        return changed ? Result<void>() : Result<void>(changed.error());
    }
    const QList<SavedHost> before = m_hosts;
    m_hosts = next;
    Result<void> saved = save();
    if (!saved)
        m_hosts = before;
    return saved;
}

Result<void> HostStore::save()
{
    if (Result<void> replaceable = schema::checkReplaceable(filePath(), kHostsSchema, kLegacyVersionKey); !replaceable)
        return replaceable;
    QDir().mkpath(m_configDir);
    QJsonArray array;
    for (const SavedHost &host : std::as_const(m_hosts))
        array.append(toJson(host));
    QSaveFile file(filePath());
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, tr("cannot write %1: %2").arg(filePath(), file.errorString()));
    file.write(QJsonDocument(schema::stamped(QJsonObject{{QStringLiteral("hosts"), array}}, kHostsSchema)).toJson());
    if (!file.commit())
        return makeError(ErrorCode::Io, tr("cannot write %1: %2").arg(filePath(), file.errorString()));
    emit changed();
    return {};
}

} // namespace gantry
