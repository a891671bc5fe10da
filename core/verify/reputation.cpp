#include "core/verify/reputation.h"

#include "core/verify/verifytext.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSet>

#include "core/util/schemaversion.h"

namespace gantry::verify {
namespace {

QJsonValue optJson(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

std::optional<double> optFrom(const QJsonValue &value)
{
    return value.isDouble() ? std::optional<double>(value.toDouble()) : std::nullopt;
}

} // namespace

QJsonObject machineToJson(const MachineRecord &m)
{
    return QJsonObject{{QStringLiteral("provider"), m.provider},
                       {QStringLiteral("machine_id"), m.machineId},
                       {QStringLiteral("host"), m.host},
                       {QStringLiteral("passes"), m.passes},
                       {QStringLiteral("fails"), m.fails},
                       {QStringLiteral("last_verdict"), verdictName(m.lastVerdict)},
                       {QStringLiteral("last_problem"), m.lastProblem},
                       {QStringLiteral("last_time"), m.lastTime.toUTC().toString(Qt::ISODate)},
                       {QStringLiteral("bandwidth_gbs"), optJson(m.bandwidthGbs)},
                       {QStringLiteral("spec_bandwidth_gbs"), optJson(m.specBandwidthGbs)},
                       {QStringLiteral("tensor_tflops"), optJson(m.tensorTflops)},
                       {QStringLiteral("spec_tensor_tflops"), optJson(m.specTensorTflops)},
                       {QStringLiteral("usd_per_tflop_hour"), optJson(m.usdPerTflopHour)}};
}

namespace {

MachineRecord fromJson(const QJsonObject &o)
{
    MachineRecord m;
    m.provider = o.value(QStringLiteral("provider")).toString();
    m.machineId = o.value(QStringLiteral("machine_id")).toString();
    m.host = o.value(QStringLiteral("host")).toString();
    m.passes = o.value(QStringLiteral("passes")).toInt();
    m.fails = o.value(QStringLiteral("fails")).toInt();
    m.lastVerdict = verdictFromName(o.value(QStringLiteral("last_verdict")).toString()).value_or(Verdict::Error);
    m.lastProblem = o.value(QStringLiteral("last_problem")).toString();
    m.lastTime = QDateTime::fromString(o.value(QStringLiteral("last_time")).toString(), Qt::ISODate);
    m.bandwidthGbs = optFrom(o.value(QStringLiteral("bandwidth_gbs")));
    m.specBandwidthGbs = optFrom(o.value(QStringLiteral("spec_bandwidth_gbs")));
    m.tensorTflops = optFrom(o.value(QStringLiteral("tensor_tflops")));
    m.specTensorTflops = optFrom(o.value(QStringLiteral("spec_tensor_tflops")));
    m.usdPerTflopHour = optFrom(o.value(QStringLiteral("usd_per_tflop_hour")));
    return m;
}

// Keeps the last known figure when this run measured nothing.
void keep(std::optional<double> &into, const std::optional<double> &from)
{
    if (from)
        into = from;
}

} // namespace

QString machineKey(const QString &provider, const QString &machineId, const QString &host)
{
    return provider + u':' + (machineId.isEmpty() ? QStringLiteral("host:") + host : machineId);
}

std::function<bool(const QString &, const QString &)> flaggedMachines(const QString &configDir)
{
    ReputationStore store(configDir);
    (void)store.load(); // a damaged file flags nothing; Verify's next record keeps it aside
    QSet<QString> flagged;
    for (const MachineRecord &m : store.machines()) {
        if (m.bad() && !m.machineId.isEmpty())
            flagged.insert(m.key());
    }
    return [flagged](const QString &provider, const QString &machineId) {
        return flagged.contains(machineKey(provider, machineId, {}));
    };
}

QString MachineRecord::key() const
{
    return machineKey(provider, machineId, host);
}

ReputationStore::ReputationStore(QString configDir)
    : m_configDir(std::move(configDir))
{
}

QString ReputationStore::filePath() const
{
    return QDir(m_configDir).filePath(QStringLiteral("machines.json"));
}

Result<void> ReputationStore::load()
{
    m_machines.clear();
    m_readOnly = false;
    QFile file(filePath());
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly)) {
        m_readOnly = true; // what cannot be read is not overwritten
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot read %1: %2; check its permissions.").arg(filePath(), file.errorString()));
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject()) {
        // The next save keeps the damaged file aside (schema::checkReplaceable) and starts afresh.
        return Error::make(ErrorCode::Parse, VerifyText::tr("%1 is not valid JSON (%2); move it away and Gantry "
                                                                "starts a new record of machines.")
                                                 .arg(filePath(), parseError.errorString()));
    }
    const QJsonObject root = doc.object();
    for (const QJsonValue &value : root.value(QStringLiteral("machines")).toArray())
        m_machines.append(fromJson(value.toObject()));
    if (auto upgraded = schema::upgrade(root, kSchema, filePath()); !upgraded) {
        m_readOnly = true; // read as far as this build understands it, never rewritten
        return upgraded.error();
    }
    return {};
}

const MachineRecord *ReputationStore::find(const QString &key) const
{
    for (const MachineRecord &m : m_machines) {
        if (m.key() == key)
            return &m;
    }
    return nullptr;
}

const MachineRecord *ReputationStore::badMachine(const QString &provider, const QString &machineId) const
{
    if (machineId.isEmpty())
        return nullptr;
    const MachineRecord *m = find(machineKey(provider, machineId, {}));
    return m && m->bad() ? m : nullptr;
}

Result<void> ReputationStore::record(const MachineRun &run)
{
    if (auto loaded = load(); !loaded && m_readOnly)
        return loaded;
    const QString key = machineKey(run.provider, run.machineId, run.host);
    auto it = std::find_if(m_machines.begin(), m_machines.end(), [&key](const MachineRecord &m) { return m.key() == key; });
    if (it == m_machines.end()) {
        MachineRecord fresh;
        fresh.provider = run.provider;
        fresh.machineId = run.machineId;
        m_machines.append(fresh);
        it = m_machines.end() - 1;
    }
    it->host = run.host;
    it->lastTime = run.time.toUTC();
    if (run.verdict == Verdict::Fail) {
        ++it->fails;
        it->lastProblem = run.problem;
    } else if (run.verdict != Verdict::Error) {
        ++it->passes;
    }
    if (run.verdict != Verdict::Error)
        it->lastVerdict = run.verdict;
    keep(it->bandwidthGbs, run.bandwidthGbs);
    keep(it->specBandwidthGbs, run.specBandwidthGbs);
    keep(it->tensorTflops, run.tensorTflops);
    keep(it->specTensorTflops, run.specTensorTflops);
    keep(it->usdPerTflopHour, run.usdPerTflopHour);
    return save();
}

Result<void> ReputationStore::forget(const QString &key)
{
    if (auto loaded = load(); !loaded && m_readOnly)
        return loaded;
    if (m_machines.removeIf([&key](const MachineRecord &m) { return m.key() == key; }) == 0)
        return Error::make(ErrorCode::NotFound, VerifyText::tr("No machine %1 is recorded: it was forgotten already, "
                                                                   "or never verified.").arg(key));
    return save();
}

Result<void> ReputationStore::save()
{
    if (auto replaceable = schema::checkReplaceable(filePath(), kSchema); !replaceable)
        return replaceable;
    if (!QDir().mkpath(m_configDir))
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot create the config directory %1; check its permissions.").arg(m_configDir));
    QJsonArray machines;
    for (const MachineRecord &m : std::as_const(m_machines))
        machines.append(machineToJson(m));
    QSaveFile file(filePath());
    if (!file.open(QIODevice::WriteOnly))
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot write %1: %2").arg(filePath(), file.errorString()));
    file.write(QJsonDocument(schema::stamped(QJsonObject{{QStringLiteral("machines"), machines}}, kSchema)).toJson());
    if (!file.commit())
        return Error::make(ErrorCode::Io, VerifyText::tr("Cannot save %1: %2; check the free disk space.").arg(filePath(), file.errorString()));
    return {};
}

} // namespace gantry::verify
