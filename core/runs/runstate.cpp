// SPDX-License-Identifier: Apache-2.0
#include "core/runs/runstate.h"

#include "core/runs/runstext.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

namespace gantry::runs {
namespace {

const char *const kStateNames[] = {"launching", "syncing", "running", "recovering", "succeeded", "failed", "stopped"};

QJsonValue timeOrNull(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODate)) : QJsonValue(QJsonValue::Null);
}

QDateTime timeFrom(const QJsonValue &value)
{
    return value.isString() ? QDateTime::fromString(value.toString(), Qt::ISODate).toUTC() : QDateTime();
}

// A figure, or null while nothing it needs was read ("unknown" must not read as 0).
QJsonValue knownOrNull(double seconds, double value)
{
    return seconds > 0 ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QJsonObject attemptJson(const RunAttempt &a, const QDateTime &now)
{
    return QJsonObject{{QStringLiteral("provider"), a.provider},
                       {QStringLiteral("instance"), a.instance},
                       {QStringLiteral("type"), a.type},
                       {QStringLiteral("price_per_hour"), a.pricePerHour},
                       {QStringLiteral("started"), timeOrNull(a.started)},
                       {QStringLiteral("ended"), timeOrNull(a.ended)},
                       {QStringLiteral("end_reason"), a.endReason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(a.endReason)},
                       {QStringLiteral("cost"), a.cost(now)},
                       {QStringLiteral("rank"), a.rank},
                       {QStringLiteral("energy_kwh"), knownOrNull(a.usage.meteredSeconds, a.usage.energyKwh)},
                       {QStringLiteral("underused_usd"), knownOrNull(a.usage.observedSeconds, a.usage.underusedUsd)},
                       {QStringLiteral("metered_seconds"), a.usage.meteredSeconds},
                       {QStringLiteral("observed_seconds"), a.usage.observedSeconds}};
}

} // namespace

QString runStateName(RunState state)
{
    return QString::fromLatin1(kStateNames[int(state)]);
}

RunState runStateFromName(const QString &name)
{
    for (int i = 0; i < int(std::size(kStateNames)); ++i) {
        if (name == QLatin1String(kStateNames[i]))
            return RunState(i);
    }
    return RunState::Failed;
}

bool isFinal(RunState state)
{
    return state == RunState::Succeeded || state == RunState::Failed || state == RunState::Stopped;
}

double RunAttempt::cost(const QDateTime &now) const
{
    if (!started.isValid())
        return 0;
    const QDateTime end = ended.isValid() ? ended : now;
    return pricePerHour * double(std::max<qint64>(0, started.msecsTo(end))) / 3600000.0;
}

AttemptUsage RunRecord::usage() const
{
    AttemptUsage total;
    for (const RunAttempt &attempt : attempts) {
        total.energyKwh += attempt.usage.energyKwh;
        total.underusedUsd += attempt.usage.underusedUsd;
        total.meteredSeconds += attempt.usage.meteredSeconds;
        total.observedSeconds += attempt.usage.observedSeconds;
    }
    return total;
}

double RunRecord::costSoFar(const QDateTime &now) const
{
    double total = 0;
    for (const RunAttempt &attempt : attempts)
        total += attempt.cost(now);
    return total;
}

QJsonObject RunRecord::toJson(const QDateTime &now) const
{
    QJsonArray list;
    for (const RunAttempt &attempt : attempts)
        list.append(attemptJson(attempt, now));
    QJsonObject checkpoint{{QStringLiteral("path"), checkpointPath.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(checkpointPath)},
                           {QStringLiteral("age_seconds"), checkpointAt.isValid() ? QJsonValue(double(checkpointAt.secsTo(now)))
                                                                                  : QJsonValue(QJsonValue::Null)}};
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("state"), runStateName(state)},
                       {QStringLiteral("attempts"), list},
                       {QStringLiteral("checkpoint"), checkpoint},
                       {QStringLiteral("cost_so_far"), costSoFar(now)},
                       {QStringLiteral("energy_kwh"), knownOrNull(usage().meteredSeconds, usage().energyKwh)},
                       {QStringLiteral("underused_usd"), knownOrNull(usage().observedSeconds, usage().underusedUsd)}};
}

QJsonObject RunRecord::toStoreJson() const
{
    QJsonArray list;
    for (const RunAttempt &a : attempts) {
        QJsonObject o = attemptJson(a, a.ended.isValid() ? a.ended : a.started);
        o.remove(QStringLiteral("cost"));
        o.insert(QStringLiteral("host"), a.hostName);
        o.insert(QStringLiteral("spot"), a.spot);
        list.append(o);
    }
    return QJsonObject{{QStringLiteral("schema"), 1},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("state"), runStateName(state)},
                       {QStringLiteral("spec"), specPath},
                       {QStringLiteral("message"), message},
                       {QStringLiteral("attempts"), list},
                       {QStringLiteral("checkpoint_path"), checkpointPath},
                       {QStringLiteral("checkpoint_at"), timeOrNull(checkpointAt)},
                       {QStringLiteral("results_dir"), resultsDir},
                       {QStringLiteral("failures"), failures},
                       {QStringLiteral("preemptions"), preemptions},
                       {QStringLiteral("starts"), starts},
                       {QStringLiteral("owner_pid"), double(ownerPid)},
                       {QStringLiteral("stop_requested"), stopRequested},
                       {QStringLiteral("keep_machine"), keepMachine}};
}

RunRecord RunRecord::fromStoreJson(const QJsonObject &o)
{
    RunRecord r;
    r.name = o.value(QLatin1String("name")).toString();
    r.state = runStateFromName(o.value(QLatin1String("state")).toString());
    r.specPath = o.value(QLatin1String("spec")).toString();
    r.message = o.value(QLatin1String("message")).toString();
    for (const QJsonValue &v : o.value(QLatin1String("attempts")).toArray()) {
        const QJsonObject a = v.toObject();
        r.attempts.append(RunAttempt{a.value(QLatin1String("provider")).toString(), a.value(QLatin1String("instance")).toString(),
                                     a.value(QLatin1String("type")).toString(), a.value(QLatin1String("price_per_hour")).toDouble(),
                                     timeFrom(a.value(QLatin1String("started"))), timeFrom(a.value(QLatin1String("ended"))),
                                     a.value(QLatin1String("end_reason")).toString(), a.value(QLatin1String("host")).toString(),
                                     a.value(QLatin1String("spot")).toBool(), a.value(QLatin1String("rank")).toInt(),
                                     AttemptUsage{a.value(QLatin1String("energy_kwh")).toDouble(),
                                                  a.value(QLatin1String("underused_usd")).toDouble(),
                                                  a.value(QLatin1String("metered_seconds")).toDouble(),
                                                  a.value(QLatin1String("observed_seconds")).toDouble()}});
    }
    r.checkpointPath = o.value(QLatin1String("checkpoint_path")).toString();
    r.checkpointAt = timeFrom(o.value(QLatin1String("checkpoint_at")));
    r.resultsDir = o.value(QLatin1String("results_dir")).toString();
    r.failures = o.value(QLatin1String("failures")).toInt();
    r.preemptions = o.value(QLatin1String("preemptions")).toInt();
    r.starts = o.value(QLatin1String("starts")).toInt();
    r.ownerPid = qint64(o.value(QLatin1String("owner_pid")).toDouble());
    r.stopRequested = o.value(QLatin1String("stop_requested")).toBool();
    r.keepMachine = o.value(QLatin1String("keep_machine")).toBool();
    return r;
}

RunStore::RunStore(QString configDir) : m_configDir(std::move(configDir)) {}

QString RunStore::runsDir() const
{
    return QDir(m_configDir).filePath(QStringLiteral("runs"));
}

QString RunStore::runDir(const QString &name) const
{
    return runsDir() + QLatin1Char('/') + name;
}

QString RunStore::logPath(const QString &name) const
{
    return runDir(name) + QStringLiteral("/run.log");
}

Result<void> RunStore::save(const RunRecord &record) const
{
    if (!QDir().mkpath(runDir(record.name)))
        return Error{ErrorCode::Io, RunsText::tr("Cannot create %1; check the permissions of the config folder.").arg(runDir(record.name))};
    // Atomic, so a reader in another process never sees half a file.
    QSaveFile file(runDir(record.name) + QStringLiteral("/run.json"));
    const QByteArray data = QJsonDocument(record.toStoreJson()).toJson();
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit())
        return Error{ErrorCode::Io, RunsText::tr("Cannot write %1: %2.").arg(file.fileName(), file.errorString())};
    return {};
}

Result<RunRecord> RunStore::load(const QString &name) const
{
    QFile file(runDir(name) + QStringLiteral("/run.json"));
    if (!file.open(QIODevice::ReadOnly))
        return Error{ErrorCode::NotFound, RunsText::tr("No run named %1; the Runs panel (gantry-cli run list) shows the runs.").arg(name)};
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll());
    if (!document.isObject())
        return Error{ErrorCode::Parse, RunsText::tr("%1 is damaged; remove the folder %2 to forget the run.").arg(file.fileName(), runDir(name))};
    return RunRecord::fromStoreJson(document.object());
}

QStringList RunStore::names() const
{
    QStringList out;
    for (const QString &name : QDir(runsDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (QFile::exists(runDir(name) + QStringLiteral("/run.json")))
            out.append(name);
    }
    return out;
}

void RunStore::appendLog(const QString &name, const QDateTime &at, const QString &line) const
{
    QDir().mkpath(runDir(name));
    QFile file(logPath(name));
    if (file.open(QIODevice::WriteOnly | QIODevice::Append))
        file.write((at.toUTC().toString(Qt::ISODate) + QLatin1Char(' ') + line + QLatin1Char('\n')).toUtf8());
}

QString runHomeDir(const QString &name)
{
    return QDir(QDir::homePath()).filePath(QStringLiteral("Gantry runs/") + name);
}

} // namespace gantry::runs
