#pragma once

#include "core/util/result.h"
#include "core/verify/assessment.h"
#include "core/verify/report.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace gantry::verify {

// One finished run, as kept in <configDir>/verify.sqlite.
struct HistoryEntry
{
    qint64 id = 0;
    QDateTime time;             // UTC
    QString provider;           // "" for hand-added hosts
    QString instanceType;
    QString host;               // saved host name or user@host:port
    QString gpuName;            // first GPU's name
    int gpuCount = 0;
    Verdict verdict = Verdict::Error;
    QString method;             // methodName()
    std::optional<double> bandwidthGbs;   // mean over GPUs
    std::optional<double> fp32Tflops;     // sum
    std::optional<double> tensorTflops;   // sum
    std::optional<double> hourlyPriceUsd;
    std::optional<double> usdPerTflopHour;
    QString reportJson;         // the full report, compact

    static HistoryEntry fromRun(const Report &report, const Assessment &assessment, const Advertised &advertised,
                                const QString &host, const QDateTime &time);
};

// SQLite history of runs. Each instance opens its own QSqlDatabase connection (unique name), so
// one store per thread; it is closed and removed in the destructor.
class HistoryStore final
{
public:
    explicit HistoryStore(QString configDir);
    ~HistoryStore();
    Q_DISABLE_COPY_MOVE(HistoryStore)

    Result<void> open();
    Result<qint64> add(const HistoryEntry &entry);
    // Newest first; filters are ignored when empty.
    Result<QList<HistoryEntry>> list(const QString &provider = {}, const QString &instanceType = {},
                                     const QString &host = {}, int limit = 100) const;

    QString filePath() const;

private:
    QString m_configDir;
    QString m_connectionName;
    bool m_open = false;
};

} // namespace gantry::verify
