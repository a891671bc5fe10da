#pragma once

#include "core/cost/billing.h"
#include "core/providers/costmodel.h"
#include "core/providers/providertypes.h"
#include "core/util/clock.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QMap>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

namespace gantry::cost {

// Which part of a bill a sum counts: compute (the hourly price while running), storage (the disk
// of a stopped instance), or both.
enum class CostPart
{
    All,
    Compute,
    Storage,
};

struct LedgerEntry
{
    qint64 row = 0;
    QString provider;
    QString instanceId;
    QString name;
    QString typeName;
    QString region;
    double pricePerHour = 0;     // at launch
    int volumeGb = 0;
    QDateTime launchedAt;
    QDateTime stoppedAt;         // last stop, if any
    QDateTime terminatedAt;
    QString state;               // "running", "stopped", "terminated"
    QString note;
    int billingIncrementSeconds = 1; // the provider's, when the row was written
    qint64 billedSeconds = 0;    // up to now, rounded up to the billing increment
    double cost = 0;             // up to now
    QString currency = QStringLiteral("USD"); // what the price and cost are in; never converted
    // The disk of a stopped instance, billed at its provider's stopped-storage rate (storage periods).
    double storagePerHour = 0;   // of the open storage period, else of the last one (0: none)
    qint64 storageSeconds = 0;   // billed, each period rounded up to the billing increment
    double storageCost = 0;      // up to now
    QString storageCurrency = QStringLiteral("USD");

    // What the instance has cost so far: compute plus its stopped disk's storage (both are in the
    // provider's currency; a storage cost in another currency is never added).
    double costSoFar() const { return cost + (storageCurrency == currency ? storageCost : 0); }
    bool isOpen() const { return !terminatedAt.isValid(); }
    bool isRunning() const { return state == QLatin1String("running"); }
    // Stopped with a disk that bills now (the open storage period's rate).
    bool isBillingStorage() const { return isOpen() && state == QLatin1String("stopped") && storagePerHour > 0; }
};

// One stretch of time a stopped instance's disk billed: opened when the ledger records the stop,
// closed by the start or the terminate. One row per stop, however often the stop is reported.
struct StoragePeriod
{
    QString provider;
    QString instanceId;
    QString name;
    QDateTime startedAt;
    QDateTime endedAt;           // invalid while it still bills
    double pricePerHour = 0;     // volumeGb at the provider's stopped rate, when it was opened
    int volumeGb = 0;
    int billingIncrementSeconds = 1;
    qint64 billedSeconds = 0;
    double cost = 0;
    QString currency = QStringLiteral("USD");

    bool isOpen() const { return !endedAt.isValid(); }
};

// A volume at a provider (network volume, persistent filesystem): it bills its $/GB-month from the
// moment Gantry creates or first sees it until it is deleted.
struct VolumeEntry
{
    QString provider;
    QString volumeId;
    QString name;
    QString region;
    double sizeGb = 0;
    double pricePerHour = 0;     // the whole volume, at the rate when the row was opened
    QString currency = QStringLiteral("USD");
    QDateTime createdAt;         // created by Gantry, or first seen
    QDateTime deletedAt;         // invalid while it exists
    double cost = 0;             // up to now (or to the delete)

    bool isOpen() const { return !deletedAt.isValid(); }
};

// Every instance Gantry has seen and what it cost, in SQLite (<configDir>/cost.sqlite). Each state
// change is written at once (each in one transaction), so a crash loses nothing; a running entry
// keeps accruing until a later reconcile() sees the instance gone, and a stopped one accrues its
// disk (a storage period at the provider's stopped rate) until it is started or terminated.
// GUI-thread (or single-thread) owned.
class Ledger final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Ledger)

public:
    explicit Ledger(QString databasePath, Clock &clock = Clock::system(), QObject *parent = nullptr);
    ~Ledger() override;

    static QString defaultPath(const QString &configDir);
    // Opens and migrates the database (PRAGMA user_version); refuses one written by a newer Gantry
    // without changing it.
    Result<void> open();
    QString path() const { return m_path; }
    Clock &clock() const { return m_clock; }

    // How a provider rounds running time, from its ProviderInfo; rows written afterwards keep it
    // (unknown providers, hand-added hosts: 1 s, pro rata).
    void setBillingPolicy(const QString &provider, const BillingPolicy &policy);
    BillingPolicy billingPolicy(const QString &provider) const;
    // What a provider charges for the disk of a stopped instance, from its ProviderInfo (default:
    // providers::costModelFor()). A stop opens a storage period when the rate is above 0.
    void setCostModel(const QString &provider, const providers::CostModel &model);
    providers::CostModel costModel(const QString &provider) const;

    Result<void> recordLaunch(const providers::Instance &instance, double pricePerHour,
                              const QString &currency = QStringLiteral("USD"));
    Result<void> recordStopped(const QString &provider, const QString &instanceId);
    Result<void> recordStarted(const QString &provider, const QString &instanceId);
    Result<void> recordTerminated(const QString &provider, const QString &instanceId, const QString &note = {});
    // Brings the ledger in line with what the provider reports: gone instances are closed
    // ("terminated outside Gantry"), stops and starts are recorded, unknown ones are added.
    // `listedAt` (clock().now() when the listing was asked for): rows written since are left as
    // they are — the GUI and gantry-cli list and launch at once, and a listing sent before a launch
    // or a stop must not close or restart what it does not show yet.
    Result<void> reconcile(const QString &provider, const QList<providers::Instance> &live, const QDateTime &listedAt = {});

    // Volumes (ledgervolumes.cpp). The currency is the provider's bill's (costModel()).
    Result<void> recordVolume(const providers::Filesystem &volume);
    Result<void> recordVolumeDeleted(const QString &provider, const QString &volumeId);
    // Opens rows for volumes not yet known, closes those the provider no longer lists. `listedAt`
    // as for reconcile(): a volume created after it stays open, one deleted after it stays deleted.
    Result<void> reconcileVolumes(const QString &provider, const QList<providers::Filesystem> &live, const QDateTime &listedAt = {});
    // Open volumes, and those deleted since `since`.
    Result<QList<VolumeEntry>> volumes(const QDateTime &since = {}) const;
    // What the existing volumes billed in `currency` cost per hour now.
    Result<double> volumesPerHourNow(const QString &currency = QStringLiteral("USD")) const;

    Result<QList<LedgerEntry>> entries(const QDateTime &since = {}) const;
    Result<LedgerEntry> entry(const QString &provider, const QString &instanceId) const;
    // The storage periods of the instances entries(since) lists, oldest first.
    Result<QList<StoragePeriod>> storagePeriods(const QDateTime &since = {}) const;
    // What the running instances billed in `currency` cost per hour now (other currencies are not added in).
    Result<double> totalPerHourNow(const QString &currency = QStringLiteral("USD")) const;
    // Money spent in `currency` inside [from, to) by its instances (compute and the storage of
    // stopped ones) and its volumes (counted as storage), billed as each provider bills; rows in other currencies are left out, never
    // converted (so budgets, in USD, count USD only).
    Result<double> spentBetween(const QDateTime &from, const QDateTime &to, const QString &currency = QStringLiteral("USD"),
                                CostPart part = CostPart::All) const;
    Result<void> exportCsv(const QString &filePath, const QDateTime &since = {}) const;
    static QString toCsv(const QList<LedgerEntry> &entries);

    // Budgets live in the same database so they survive with the ledger.
    Result<void> setBudget(const QString &period, double limitUsd); // "daily" or "monthly"; 0 removes
    Result<double> budget(const QString &period) const;             // 0 when none
    // True the first time a threshold is marked for a period key ("daily:2026-01-01").
    Result<bool> markAlert(const QString &periodKey, int threshold);

signals:
    void changed();

private:
    Result<int> schemaVersion() const;
    Result<void> migrate();
    Result<void> exec(const QString &sql, const QVariantList &bind = {}) const;
    Result<qint64> openRow(const QString &provider, const QString &instanceId) const;
    qint64 recordedAt(qint64 row) const; // ms since the epoch, 0 when unknown
    qint64 volumeDeletedAt(const QString &provider, const QString &volumeId) const; // its last delete, 0: none
    Result<void> closeInterval(qint64 row, qint64 atMs);
    Result<void> openStorage(const LedgerEntry &stopped, qint64 atMs);
    Result<void> closeStorage(qint64 row, qint64 atMs);
    Result<void> backfillStorage();
    // Runs work in one SQLite transaction: all of it is written, or none (a crash half-way, an error).
    Result<void> transact(const std::function<Result<void>()> &work);
    Result<double> volumeCostBetween(const QDateTime &from, const QDateTime &to, const QString &currency) const;
    Result<double> sumBetween(const QString &table, const QDateTime &from, const QDateTime &to, const QString &currency) const;
    LedgerEntry fill(LedgerEntry entry) const;
    void fillStorage(LedgerEntry &entry) const;

    QString m_path;
    QString m_connection;
    Clock &m_clock;
    QHash<QString, BillingPolicy> m_policies;
    QHash<QString, providers::CostModel> m_costModels;
};

// Cost per currency ("USD" → 12.5, "CNY" → 30): rows in different currencies are never added up.
QMap<QString, double> totalsByCurrency(const QList<LedgerEntry> &entries, CostPart part = CostPart::All);
// Per hour per currency now: of the rows running (Compute), of the stopped disks that bill
// (Storage), or both.
QMap<QString, double> ratesByCurrency(const QList<LedgerEntry> &entries, CostPart part = CostPart::Compute);

} // namespace gantry::cost
