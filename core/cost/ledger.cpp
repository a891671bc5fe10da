#include "core/cost/ledger.h"

#include "core/util/schemaversion.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

#include <algorithm>

namespace gantry::cost {
namespace {

// PRAGMA user_version of cost.sqlite. 0: written before versions (the tables of 1, or a new file).
// 2: instances.currency (AutoDL and others bill in CNY; nothing is converted).
// 3: storage_periods (the disk a stopped instance keeps billing; budgets count it).
// 4: volumes (provider volumes bill per GB-month while they exist; budgets count them).
constexpr int kLedgerSchema = 5;

QDateTime fromMs(const QVariant &value)
{
    return value.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(value.toLongLong(), Qt::UTC);
}

QString csvField(QString text)
{
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n')))
        return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return text;
}

} // namespace

Ledger::Ledger(QString databasePath, Clock &clock, QObject *parent)
    : QObject(parent)
    , m_path(std::move(databasePath))
    , m_connection(QStringLiteral("gantry-ledger-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
    , m_clock(clock)
{
}

Ledger::~Ledger()
{
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        if (db.isValid())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

QString Ledger::defaultPath(const QString &configDir)
{
    return QDir(configDir).absoluteFilePath(QStringLiteral("cost.sqlite"));
}

Result<void> Ledger::open()
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSqlDatabase db = QSqlDatabase::contains(m_connection) ? QSqlDatabase::database(m_connection, false)
                                                          : QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    db.setDatabaseName(m_path);
    if (!db.open())
        return Error{ErrorCode::Io, tr("Cannot open the cost ledger %1: %2").arg(m_path, db.lastError().text())};
    Result<int> version = schemaVersion();
    if (!version)
        return version.error();
    if (*version > kLedgerSchema) {
        db.close(); // nothing was written: a newer Gantry's ledger stays as it is
        return schema::newerFileError(m_path, *version, kLedgerSchema);
    }
    if (*version == kLedgerSchema)
        return {};
    return migrate();
}

Result<int> Ledger::schemaVersion() const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next())
        return Error{ErrorCode::Io, tr("Cannot read the cost ledger %1: %2").arg(m_path, query.lastError().text())};
    return query.value(0).toInt();
}

// Brings a ledger of an older version (or a new, empty file) to kLedgerSchema in one transaction:
// a crash half-way leaves the old version, migrated again on the next start.
Result<void> Ledger::migrate()
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    const int from = schemaVersion().valueOr(0);
    if (!db.transaction())
        return Error{ErrorCode::Io, tr("Cannot update the cost ledger %1: %2").arg(m_path, db.lastError().text())};
    // Version 1: the tables every ledger so far has (CREATE … IF NOT EXISTS: the unversioned files have them).
    const char *schema[] = {
        "CREATE TABLE IF NOT EXISTS instances(id INTEGER PRIMARY KEY AUTOINCREMENT, provider TEXT NOT NULL, "
        "instance_id TEXT NOT NULL, name TEXT, type TEXT, region TEXT, price_per_hour REAL NOT NULL, "
        "granularity INTEGER NOT NULL, volume_gb INTEGER NOT NULL DEFAULT 0, launched_at INTEGER NOT NULL, "
        "stopped_at INTEGER, terminated_at INTEGER, state TEXT NOT NULL, note TEXT, cost REAL NOT NULL DEFAULT 0, "
        "UNIQUE(provider, instance_id))",
        "CREATE TABLE IF NOT EXISTS intervals(instance_row INTEGER NOT NULL REFERENCES instances(id), "
        "started_at INTEGER NOT NULL, ended_at INTEGER)",
        "CREATE INDEX IF NOT EXISTS intervals_row ON intervals(instance_row)",
        "CREATE TABLE IF NOT EXISTS budgets(period TEXT PRIMARY KEY, limit_usd REAL NOT NULL)",
        "CREATE TABLE IF NOT EXISTS budget_alerts(period_key TEXT NOT NULL, threshold INTEGER NOT NULL, "
        "fired_at INTEGER NOT NULL, PRIMARY KEY(period_key, threshold))",
        // Version 3. UNIQUE: a stop recorded twice is still one period.
        "CREATE TABLE IF NOT EXISTS storage_periods(id INTEGER PRIMARY KEY AUTOINCREMENT, "
        "instance_row INTEGER NOT NULL REFERENCES instances(id), started_at INTEGER NOT NULL, ended_at INTEGER, "
        "price_per_hour REAL NOT NULL, volume_gb INTEGER NOT NULL, granularity INTEGER NOT NULL, currency TEXT NOT NULL, "
        "UNIQUE(instance_row, started_at))",
        "CREATE INDEX IF NOT EXISTS storage_row ON storage_periods(instance_row)",
        // Version 4. One open row per volume; a deleted one keeps its row with deleted_at.
        "CREATE TABLE IF NOT EXISTS volumes(id INTEGER PRIMARY KEY AUTOINCREMENT, provider TEXT NOT NULL, "
        "volume_id TEXT NOT NULL, name TEXT, region TEXT, size_gb REAL NOT NULL, price_per_hour REAL NOT NULL, "
        "currency TEXT NOT NULL, created_at INTEGER NOT NULL, deleted_at INTEGER)",
        "CREATE INDEX IF NOT EXISTS volumes_id ON volumes(provider, volume_id)",
    };
    QStringList statements;
    for (const char *statement : schema)
        statements.append(QString::fromLatin1(statement));
    if (from < 2) // version 2: every row keeps the currency it was billed in; older rows were dollars
        statements.append(QStringLiteral("ALTER TABLE instances ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD'"));
    // Version 5: when Gantry last wrote the row, on this machine's clock (0: before version 5), so a
    // listing asked for before that write does not undo it (reconcile()).
    if (from < 5)
        statements.append(QStringLiteral("ALTER TABLE instances ADD COLUMN recorded_at INTEGER NOT NULL DEFAULT 0"));
    for (const QString &statement : std::as_const(statements)) {
        if (Result<void> done = exec(statement); !done) {
            db.rollback();
            return done;
        }
    }
    // Instances stopped before version 3 have been billing their disks since the stop: say so.
    if (Result<void> backfilled = from < 3 ? backfillStorage() : Result<void>{}; !backfilled) {
        db.rollback();
        return backfilled;
    }
    if (Result<void> stamped = exec(QStringLiteral("PRAGMA user_version = %1").arg(kLedgerSchema)); !stamped) {
        db.rollback();
        return stamped;
    }
    if (!db.commit())
        return Error{ErrorCode::Io, tr("Cannot update the cost ledger %1: %2").arg(m_path, db.lastError().text())};
    return {};
}

Result<void> Ledger::exec(const QString &sql, const QVariantList &bind) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    if (!query.prepare(sql))
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    for (const QVariant &value : bind)
        query.addBindValue(value);
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    return {};
}

Result<qint64> Ledger::openRow(const QString &provider, const QString &instanceId) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("SELECT id FROM instances WHERE provider = ? AND instance_id = ?"));
    query.addBindValue(provider);
    query.addBindValue(instanceId);
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    if (!query.next())
        return Error{ErrorCode::NotFound, tr("The cost ledger has no instance %1 on %2.").arg(instanceId, provider)};
    return query.value(0).toLongLong();
}

void Ledger::setBillingPolicy(const QString &provider, const BillingPolicy &policy)
{
    m_policies.insert(provider, policy);
}

BillingPolicy Ledger::billingPolicy(const QString &provider) const
{
    return m_policies.value(provider, BillingPolicy{1, 0});
}

Result<void> Ledger::recordLaunch(const providers::Instance &instance, double pricePerHour, const QString &currency)
{
    if (openRow(instance.provider, instance.id))
        return {}; // already recorded (a reconcile saw it first)
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const qint64 launched = instance.createdAt.isValid() ? std::min(now, instance.createdAt.toMSecsSinceEpoch()) : now;
    // One transaction: a crash between the two inserts once left an instance without a meter.
    Result<void> done = transact([&]() -> Result<void> {
        Result<void> inserted = exec(QStringLiteral(
            "INSERT INTO instances(provider, instance_id, name, type, region, price_per_hour, granularity, volume_gb, "
            "launched_at, state, currency, recorded_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)"),
            {instance.provider, instance.id, instance.name, instance.typeName, instance.region, pricePerHour,
             billingPolicy(instance.provider).granularitySeconds, instance.volumeGb, launched,
             currency.isEmpty() ? QStringLiteral("USD") : currency, now});
        if (!inserted)
            return inserted;
        Result<qint64> row = openRow(instance.provider, instance.id);
        if (!row)
            return row.error();
        return exec(QStringLiteral("INSERT INTO intervals(instance_row, started_at) VALUES(?, ?)"), {*row, launched});
    });
    if (done)
        emit changed();
    return done;
}

Result<void> Ledger::transact(const std::function<Result<void>()> &work)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.transaction())
        return Error{ErrorCode::Io, tr("Cannot write the cost ledger %1: %2").arg(m_path, db.lastError().text())};
    Result<void> done = work();
    if (!done) {
        db.rollback();
        return done;
    }
    if (!db.commit()) {
        const QString why = db.lastError().text();
        db.rollback();
        return Error{ErrorCode::Io, tr("Cannot write the cost ledger %1: %2").arg(m_path, why)};
    }
    return {};
}

Result<void> Ledger::closeInterval(qint64 row, qint64 atMs)
{
    if (Result<void> closed = exec(QStringLiteral("UPDATE intervals SET ended_at = MAX(started_at, ?) WHERE instance_row = ? AND ended_at IS NULL"),
                                   {atMs, row}); !closed)
        return closed;
    Result<LedgerEntry> current = Error{ErrorCode::NotFound, {}};
    {
        QSqlQuery query(QSqlDatabase::database(m_connection, false));
        query.prepare(QStringLiteral("SELECT provider, instance_id FROM instances WHERE id = ?"));
        query.addBindValue(row);
        if (query.exec() && query.next())
            current = entry(query.value(0).toString(), query.value(1).toString());
    }
    if (!current)
        return current.error();
    return exec(QStringLiteral("UPDATE instances SET cost = ? WHERE id = ?"), {current->cost, row});
}

Result<void> Ledger::recordStopped(const QString &provider, const QString &instanceId)
{
    Result<qint64> row = openRow(provider, instanceId);
    if (!row)
        return row.error();
    // Recorded once: a second stop (a policy and a reconcile both saw it) changes nothing.
    Result<LedgerEntry> current = entry(provider, instanceId);
    if (!current)
        return current.error();
    if (!current->isRunning() || !current->isOpen())
        return {};
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    Result<void> updated = transact([&]() -> Result<void> {
        if (Result<void> closed = closeInterval(*row, now); !closed)
            return closed;
        if (Result<void> set = exec(QStringLiteral("UPDATE instances SET state = 'stopped', stopped_at = ?, recorded_at = ? "
                                                   "WHERE id = ? AND terminated_at IS NULL"),
                                    {now, now, *row}); !set)
            return set;
        return openStorage(*current, now); // the compute meter stops, the disk's starts
    });
    if (updated)
        emit changed();
    return updated;
}

Result<void> Ledger::recordStarted(const QString &provider, const QString &instanceId)
{
    Result<qint64> row = openRow(provider, instanceId);
    if (!row)
        return row.error();
    Result<LedgerEntry> current = entry(provider, instanceId);
    if (!current)
        return current.error();
    if (current->isRunning() || !current->isOpen())
        return {};
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    Result<void> updated = transact([&]() -> Result<void> {
        if (Result<void> closed = closeStorage(*row, now); !closed)
            return closed;
        if (Result<void> opened = exec(QStringLiteral("INSERT INTO intervals(instance_row, started_at) VALUES(?, ?)"), {*row, now}); !opened)
            return opened;
        return exec(QStringLiteral("UPDATE instances SET state = 'running', recorded_at = ? WHERE id = ?"), {now, *row});
    });
    if (updated)
        emit changed();
    return updated;
}

Result<void> Ledger::recordTerminated(const QString &provider, const QString &instanceId, const QString &note)
{
    Result<qint64> row = openRow(provider, instanceId);
    if (!row)
        return row.error();
    Result<LedgerEntry> current = entry(provider, instanceId);
    if (current && !current->isOpen())
        return {};
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    Result<void> updated = transact([&]() -> Result<void> {
        if (Result<void> closed = closeInterval(*row, now); !closed)
            return closed;
        if (Result<void> closed = closeStorage(*row, now); !closed)
            return closed;
        return exec(QStringLiteral("UPDATE instances SET state = 'terminated', terminated_at = ?, recorded_at = ?, "
                                   "note = COALESCE(NULLIF(?, ''), note) WHERE id = ?"),
                    {now, now, note, *row});
    });
    if (updated)
        emit changed();
    return updated;
}

qint64 Ledger::recordedAt(qint64 row) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("SELECT recorded_at FROM instances WHERE id = ?"));
    query.addBindValue(row);
    return query.exec() && query.next() ? query.value(0).toLongLong() : 0;
}

Result<void> Ledger::reconcile(const QString &provider, const QList<providers::Instance> &live, const QDateTime &listedAt)
{
    Result<QList<LedgerEntry>> all = entries();
    if (!all)
        return all.error();
    for (const LedgerEntry &known : std::as_const(*all)) {
        if (known.provider != provider || !known.isOpen())
            continue;
        // Written (launched, stopped, started — here or by another Gantry on this machine) after the
        // listing was asked for: the listing may not show it yet, and must not undo it.
        if (listedAt.isValid() && recordedAt(known.row) > listedAt.toMSecsSinceEpoch())
            continue;
        auto it = std::find_if(live.cbegin(), live.cend(), [&known](const providers::Instance &i) { return i.id == known.instanceId; });
        // A launch records the disk it asked for (0 for Vast's default disk); the listing says what it is,
        // and a stop bills that disk.
        if (it != live.cend() && it->volumeGb > 0 && it->volumeGb != known.volumeGb) {
            if (Result<void> sized = exec(QStringLiteral("UPDATE instances SET volume_gb = ? WHERE id = ?"), {it->volumeGb, known.row});
                !sized)
                return sized;
        }
        Result<void> done;
        if (it == live.cend() || providers::isGone(it->state))
            done = recordTerminated(provider, known.instanceId, tr("terminated outside Gantry"));
        else if (it->state == providers::InstanceState::Stopped && known.isRunning())
            done = recordStopped(provider, known.instanceId);
        // Stopping after the stop was recorded is that stop still under way, not a start.
        else if (providers::isBillingCompute(it->state) && it->state != providers::InstanceState::Stopping && !known.isRunning())
            done = recordStarted(provider, known.instanceId);
        if (!done)
            return done;
    }
    for (const providers::Instance &instance : live) {
        if (providers::isGone(instance.state) || openRow(provider, instance.id))
            continue;
        Result<void> added = recordLaunch(instance, instance.pricePerHour);
        if (!added)
            return added;
        if (instance.state == providers::InstanceState::Stopped)
            (void)recordStopped(provider, instance.id);
    }
    return {};
}

LedgerEntry Ledger::fill(LedgerEntry entry) const
{
    const BillingPolicy policy{entry.billingIncrementSeconds, 0};
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("SELECT started_at, ended_at FROM intervals WHERE instance_row = ?"));
    query.addBindValue(entry.row);
    query.exec();
    entry.billedSeconds = 0;
    entry.cost = 0;
    while (query.next()) {
        const qint64 start = query.value(0).toLongLong();
        const qint64 end = query.value(1).isNull() ? now : query.value(1).toLongLong();
        entry.billedSeconds += billedSeconds(std::max<qint64>(0, end - start) / 1000, policy);
        // The same costFor() as spentBetween(): the budget line and the row's cost agree.
        entry.cost += costFor(entry.pricePerHour, std::max<qint64>(0, end - start) / 1000, policy);
    }
    fillStorage(entry);
    return entry;
}

Result<QList<LedgerEntry>> Ledger::entries(const QDateTime &since) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral(
        "SELECT id, provider, instance_id, name, type, region, price_per_hour, volume_gb, launched_at, stopped_at, "
        "terminated_at, state, note, granularity, currency FROM instances WHERE terminated_at IS NULL OR terminated_at >= ? ORDER BY launched_at"));
    query.addBindValue(since.isValid() ? since.toMSecsSinceEpoch() : qint64(0));
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    QList<LedgerEntry> list;
    while (query.next()) {
        LedgerEntry entry;
        entry.row = query.value(0).toLongLong();
        entry.provider = query.value(1).toString();
        entry.instanceId = query.value(2).toString();
        entry.name = query.value(3).toString();
        entry.typeName = query.value(4).toString();
        entry.region = query.value(5).toString();
        entry.pricePerHour = query.value(6).toDouble();
        entry.volumeGb = query.value(7).toInt();
        entry.launchedAt = fromMs(query.value(8));
        entry.stoppedAt = fromMs(query.value(9));
        entry.terminatedAt = fromMs(query.value(10));
        entry.state = query.value(11).toString();
        entry.note = query.value(12).toString();
        entry.billingIncrementSeconds = std::max(1, query.value(13).toInt());
        entry.currency = query.value(14).toString();
        list.append(entry);
    }
    for (LedgerEntry &entry : list)
        entry = fill(entry);
    return list;
}

Result<LedgerEntry> Ledger::entry(const QString &provider, const QString &instanceId) const
{
    Result<QList<LedgerEntry>> all = entries();
    if (!all)
        return all.error();
    for (const LedgerEntry &entry : std::as_const(*all)) {
        if (entry.provider == provider && entry.instanceId == instanceId)
            return entry;
    }
    return Error{ErrorCode::NotFound, tr("The cost ledger has no instance %1 on %2.").arg(instanceId, provider)};
}

Result<double> Ledger::totalPerHourNow(const QString &currency) const
{
    Result<QList<LedgerEntry>> all = entries(m_clock.now());
    if (!all)
        return all.error();
    double total = 0;
    for (const LedgerEntry &entry : std::as_const(*all))
        total += entry.isOpen() && entry.isRunning() && entry.currency == currency ? entry.pricePerHour : 0;
    return total;
}

Result<double> Ledger::spentBetween(const QDateTime &from, const QDateTime &to, const QString &currency, CostPart part) const
{
    double total = 0;
    for (CostPart counted : {CostPart::Compute, CostPart::Storage}) {
        if (part != CostPart::All && part != counted)
            continue;
        Result<double> spent = sumBetween(counted == CostPart::Compute ? QStringLiteral("intervals") : QStringLiteral("storage_periods"),
                                          from, to, currency);
        if (!spent)
            return spent;
        total += *spent;
    }
    if (part != CostPart::Compute) {
        Result<double> volumes = volumeCostBetween(from, to, currency);
        if (!volumes)
            return volumes;
        total += *volumes;
    }
    return total;
}

QString Ledger::toCsv(const QList<LedgerEntry> &entries)
{
    QString csv = QStringLiteral("provider,instance_id,name,type,region,price_per_hour_usd,launched_at,stopped_at,"
                                 "terminated_at,state,billed_seconds,cost_usd,note,currency,storage_billed_seconds,storage_cost,storage_currency\n");
    for (const LedgerEntry &entry : entries) {
        const QStringList fields{
            csvField(entry.provider), csvField(entry.instanceId), csvField(entry.name), csvField(entry.typeName),
            csvField(entry.region), QString::number(entry.pricePerHour, 'f', 4),
            entry.launchedAt.toString(Qt::ISODate), entry.stoppedAt.toString(Qt::ISODate),
            entry.terminatedAt.toString(Qt::ISODate), entry.state, QString::number(entry.billedSeconds),
            QString::number(entry.cost, 'f', 4), csvField(entry.note), csvField(entry.currency),
            // Appended, so readers of the older columns by position keep working.
            QString::number(entry.storageSeconds), QString::number(entry.storageCost, 'f', 4), csvField(entry.storageCurrency)};
        csv += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return csv;
}

Result<void> Ledger::exportCsv(const QString &filePath, const QDateTime &since) const
{
    Result<QList<LedgerEntry>> all = entries(since);
    if (!all)
        return all.error();
    QSaveFile file(filePath);
    const QByteArray data = toCsv(*all).toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit())
        return Error{ErrorCode::Io, tr("Cannot write %1: %2").arg(filePath, file.errorString())};
    return {};
}

Result<void> Ledger::setBudget(const QString &period, double limitUsd)
{
    if (period != QLatin1String("daily") && period != QLatin1String("monthly"))
        return Error{ErrorCode::Usage, tr("A budget period is \"daily\" or \"monthly\".")};
    Result<void> done = limitUsd > 0
        ? exec(QStringLiteral("INSERT OR REPLACE INTO budgets(period, limit_usd) VALUES(?, ?)"), {period, limitUsd})
        : exec(QStringLiteral("DELETE FROM budgets WHERE period = ?"), {period});
    if (done)
        emit changed();
    return done;
}

Result<double> Ledger::budget(const QString &period) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("SELECT limit_usd FROM budgets WHERE period = ?"));
    query.addBindValue(period);
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    return query.next() ? query.value(0).toDouble() : 0.0;
}

Result<bool> Ledger::markAlert(const QString &periodKey, int threshold)
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(QStringLiteral("INSERT OR IGNORE INTO budget_alerts(period_key, threshold, fired_at) VALUES(?, ?, ?)"));
    query.addBindValue(periodKey);
    query.addBindValue(threshold);
    query.addBindValue(m_clock.now().toMSecsSinceEpoch());
    if (!query.exec())
        return Error{ErrorCode::Io, tr("Cost ledger error: %1").arg(query.lastError().text())};
    return query.numRowsAffected() > 0;
}

QMap<QString, double> totalsByCurrency(const QList<LedgerEntry> &entries, CostPart part)
{
    QMap<QString, double> totals;
    for (const LedgerEntry &entry : entries) {
        if (part != CostPart::Storage)
            totals[entry.currency.isEmpty() ? QStringLiteral("USD") : entry.currency] += entry.cost;
        if (part != CostPart::Compute && entry.storageCost > 0)
            totals[entry.storageCurrency.isEmpty() ? QStringLiteral("USD") : entry.storageCurrency] += entry.storageCost;
    }
    return totals;
}

QMap<QString, double> ratesByCurrency(const QList<LedgerEntry> &entries, CostPart part)
{
    QMap<QString, double> rates;
    for (const LedgerEntry &entry : entries) {
        if (part != CostPart::Storage && entry.isOpen() && entry.isRunning())
            rates[entry.currency.isEmpty() ? QStringLiteral("USD") : entry.currency] += entry.pricePerHour;
        if (part != CostPart::Compute && entry.isBillingStorage())
            rates[entry.storageCurrency.isEmpty() ? QStringLiteral("USD") : entry.storageCurrency] += entry.storagePerHour;
    }
    return rates;
}

} // namespace gantry::cost
