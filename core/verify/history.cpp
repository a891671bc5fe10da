#include "core/verify/history.h"
#include "core/verify/verifytext.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

namespace gantry::verify {
namespace {

QVariant opt(const std::optional<double> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType(QMetaType::Double));
}

// SQLite stores a null QString as NULL, which the NOT NULL columns refuse.
QString text(const QString &value)
{
    return value.isNull() ? QStringLiteral("") : value;
}

std::optional<double> optFrom(const QVariant &value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toDouble();
}

} // namespace

HistoryEntry HistoryEntry::fromRun(const Report &report, const Assessment &assessment, const Advertised &advertised,
                                   const QString &host, const QDateTime &time)
{
    HistoryEntry e;
    e.time = time.toUTC();
    e.provider = advertised.provider;
    e.instanceType = advertised.instanceType;
    e.host = host;
    e.gpuCount = int(report.gpus.size());
    e.gpuName = report.gpus.isEmpty() ? QString() : report.gpus.constFirst().name;
    e.verdict = assessment.verdict;
    e.method = methodName(report.method);
    double bw = 0;
    int bwCount = 0;
    double fp32 = 0;
    bool anyFp32 = false;
    for (const SpecComparison &c : assessment.comparisons) {
        if (c.bandwidthGbs) {
            bw += *c.bandwidthGbs;
            ++bwCount;
        }
        if (c.fp32Tflops) {
            fp32 += *c.fp32Tflops;
            anyFp32 = true;
        }
    }
    if (bwCount > 0)
        e.bandwidthGbs = bw / bwCount;
    if (anyFp32)
        e.fp32Tflops = fp32;
    e.tensorTflops = assessment.totalTensorTflops;
    if (advertised.hourlyPriceUsd > 0)
        e.hourlyPriceUsd = advertised.hourlyPriceUsd;
    e.usdPerTflopHour = assessment.usdPerTflopHour;
    e.reportJson = QString::fromUtf8(QJsonDocument(reportToJson(report)).toJson(QJsonDocument::Compact));
    return e;
}

HistoryStore::HistoryStore(QString configDir)
    : m_configDir(std::move(configDir))
    , m_connectionName(QStringLiteral("gantry-verify-history-") + QUuid::createUuid().toString(QUuid::WithoutBraces))
{
}

HistoryStore::~HistoryStore()
{
    if (QSqlDatabase::contains(m_connectionName)) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_connectionName);
    }
}

QString HistoryStore::filePath() const
{
    return QDir(m_configDir).filePath(QStringLiteral("verify.sqlite"));
}

Result<void> HistoryStore::open()
{
    if (m_open)
        return {};
    if (!QDir().mkpath(m_configDir))
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot create the config directory %1; check its permissions.").arg(m_configDir));
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName);
    db.setDatabaseName(filePath());
    if (!db.open()) {
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot open the verification history %1: %2")
                                              .arg(filePath(), db.lastError().text()));
    }
    QSqlQuery q(db);
    q.exec(QStringLiteral("PRAGMA busy_timeout = 5000"));
    const bool created = q.exec(QStringLiteral(
        "CREATE TABLE IF NOT EXISTS runs ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " time TEXT NOT NULL, provider TEXT NOT NULL, instance_type TEXT NOT NULL, host TEXT NOT NULL,"
        " gpu_name TEXT NOT NULL, gpu_count INTEGER NOT NULL, verdict TEXT NOT NULL, method TEXT NOT NULL,"
        " bandwidth_gbs REAL, fp32_tflops REAL, tensor_tflops REAL, hourly_usd REAL, usd_per_tflop_hour REAL,"
        " report TEXT NOT NULL)"));
    if (!created || !q.exec(QStringLiteral("CREATE INDEX IF NOT EXISTS runs_by_type ON runs(provider, instance_type, time)"))) {
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot prepare the verification history %1: %2")
                                              .arg(filePath(), q.lastError().text()));
    }
    m_open = true;
    return {};
}

Result<qint64> HistoryStore::add(const HistoryEntry &e)
{
    if (auto opened = open(); !opened)
        return opened.error();
    QSqlQuery q(QSqlDatabase::database(m_connectionName));
    q.prepare(QStringLiteral(
        "INSERT INTO runs (time, provider, instance_type, host, gpu_name, gpu_count, verdict, method, bandwidth_gbs,"
        " fp32_tflops, tensor_tflops, hourly_usd, usd_per_tflop_hour, report)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(e.time.toUTC().toString(Qt::ISODateWithMs));
    q.addBindValue(text(e.provider));
    q.addBindValue(text(e.instanceType));
    q.addBindValue(text(e.host));
    q.addBindValue(text(e.gpuName));
    q.addBindValue(e.gpuCount);
    q.addBindValue(verdictName(e.verdict));
    q.addBindValue(text(e.method));
    q.addBindValue(opt(e.bandwidthGbs));
    q.addBindValue(opt(e.fp32Tflops));
    q.addBindValue(opt(e.tensorTflops));
    q.addBindValue(opt(e.hourlyPriceUsd));
    q.addBindValue(opt(e.usdPerTflopHour));
    q.addBindValue(text(e.reportJson));
    if (!q.exec()) {
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot save the run in %1: %2").arg(filePath(), q.lastError().text()));
    }
    return q.lastInsertId().toLongLong();
}

Result<QList<HistoryEntry>> HistoryStore::list(const QString &provider, const QString &instanceType,
                                               const QString &host, int limit) const
{
    if (!m_open)
        return Error::make(ErrorCode::Io, VerifyText::tr("The verification history is not open."));
    QSqlQuery q(QSqlDatabase::database(m_connectionName));
    q.prepare(QStringLiteral(
        "SELECT id, time, provider, instance_type, host, gpu_name, gpu_count, verdict, method, bandwidth_gbs,"
        " fp32_tflops, tensor_tflops, hourly_usd, usd_per_tflop_hour, report FROM runs"
        " WHERE (? = '' OR provider = ?) AND (? = '' OR instance_type = ?) AND (? = '' OR host = ?)"
        " ORDER BY time DESC, id DESC LIMIT ?"));
    for (const QString &filter : {provider, instanceType, host}) {
        q.addBindValue(text(filter));
        q.addBindValue(text(filter));
    }
    q.addBindValue(limit);
    if (!q.exec())
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot read the verification history: %1").arg(q.lastError().text()));
    QList<HistoryEntry> entries;
    while (q.next()) {
        HistoryEntry e;
        e.id = q.value(0).toLongLong();
        e.time = QDateTime::fromString(q.value(1).toString(), Qt::ISODateWithMs);
        e.time.setTimeSpec(Qt::UTC);
        e.provider = q.value(2).toString();
        e.instanceType = q.value(3).toString();
        e.host = q.value(4).toString();
        e.gpuName = q.value(5).toString();
        e.gpuCount = q.value(6).toInt();
        e.verdict = verdictFromName(q.value(7).toString()).value_or(Verdict::Error);
        e.method = q.value(8).toString();
        e.bandwidthGbs = optFrom(q.value(9));
        e.fp32Tflops = optFrom(q.value(10));
        e.tensorTflops = optFrom(q.value(11));
        e.hourlyPriceUsd = optFrom(q.value(12));
        e.usdPerTflopHour = optFrom(q.value(13));
        e.reportJson = q.value(14).toString();
        entries.append(e);
    }
    return entries;
}

} // namespace gantry::verify
