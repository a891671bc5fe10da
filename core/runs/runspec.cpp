// SPDX-License-Identifier: Apache-2.0
#include "core/runs/runspec.h"

#include "core/providers/gpumodels.h"
#include "core/providers/providerregistry.h"
#include "core/runs/runstext.h"
#include "core/storage/buckets.h"
#include "core/storage/copyplan.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <yaml-cpp/yaml.h>

namespace gantry::runs {
namespace {

// Reads the fields of one spec; every error names the source, the line and the field.
class Reader
{
public:
    explicit Reader(QString source) : m_source(std::move(source)) {}

    Error fail(const YAML::Node &node, const QString &field, const QString &what) const
    {
        const int line = node.Mark().line >= 0 ? node.Mark().line + 1 : 0;
        return Error{ErrorCode::Parse, line > 0 ? RunsText::tr("%1 line %2: %3: %4").arg(m_source).arg(line).arg(field, what)
                                                : RunsText::tr("%1: %2: %3").arg(m_source, field, what)};
    }

    Result<QString> text(const YAML::Node &node, const QString &field) const
    {
        if (!node.IsScalar())
            return fail(node, field, RunsText::tr("expected text; write it on one line or as a block (|)."));
        return QString::fromStdString(node.Scalar());
    }

    Result<double> number(const YAML::Node &node, const QString &field, double min) const
    {
        bool ok = false;
        const double value = node.IsScalar() ? QString::fromStdString(node.Scalar()).toDouble(&ok) : 0;
        if (!ok || value < min)
            return fail(node, field, RunsText::tr("expected a number of at least %1, such as 3.5.").arg(min));
        return value;
    }

    Result<int> integer(const YAML::Node &node, const QString &field, int min) const
    {
        bool ok = false;
        const int value = node.IsScalar() ? QString::fromStdString(node.Scalar()).toInt(&ok) : 0;
        if (!ok || value < min)
            return fail(node, field, RunsText::tr("expected a whole number of at least %1.").arg(min));
        return value;
    }

    Result<bool> boolean(const YAML::Node &node, const QString &field) const
    {
        const QString value = node.IsScalar() ? QString::fromStdString(node.Scalar()).toLower() : QString();
        if (value == QLatin1String("true") || value == QLatin1String("yes"))
            return true;
        if (value == QLatin1String("false") || value == QLatin1String("no"))
            return false;
        return fail(node, field, RunsText::tr("expected true or false."));
    }

    // A list, or one item written alone ("results: outputs/").
    Result<QStringList> list(const YAML::Node &node, const QString &field) const
    {
        QStringList out;
        if (node.IsScalar())
            return QStringList{QString::fromStdString(node.Scalar())};
        if (!node.IsSequence())
            return fail(node, field, RunsText::tr("expected a list, such as [a, b]."));
        for (const YAML::Node &item : node) {
            Result<QString> value = text(item, field);
            if (!value)
                return value.error();
            out.append(*value);
        }
        return out;
    }

    Result<void> unknownKeys(const YAML::Node &map, const QString &prefix, const QSet<QString> &known) const
    {
        for (const auto &entry : map) {
            const QString key = QString::fromStdString(entry.first.Scalar());
            if (!known.contains(key)) {
                QStringList names(known.begin(), known.end());
                names.sort();
                return fail(entry.first, prefix + key,
                            RunsText::tr("not a field of a run spec; the fields here are %1.").arg(names.join(QStringLiteral(", "))));
            }
        }
        return {};
    }

    struct IntField { const char *key; int *target; int min; };
    struct PriceField { const char *key; double *target; };
    // The whole numbers and the amounts (at least 0) of a map, where given.
    Result<void> numbers(const YAML::Node &map, const QString &prefix, std::initializer_list<IntField> ints,
                         std::initializer_list<PriceField> prices) const
    {
        for (const IntField &f : ints) {
            if (const YAML::Node n = map[f.key]) {
                Result<int> value = integer(n, prefix + QLatin1String(f.key), f.min);
                if (!value)
                    return value.error();
                *f.target = *value;
            }
        }
        for (const PriceField &f : prices) {
            if (const YAML::Node n = map[f.key]) {
                Result<double> value = number(n, prefix + QLatin1String(f.key), 0);
                if (!value)
                    return value.error();
                *f.target = *value;
            }
        }
        return {};
    }

    Result<void> resources(const YAML::Node &node, RunResources *out) const;
    Result<void> checkpoint(const YAML::Node &node, RunSpec *out) const;
    Result<void> optional(const YAML::Node &root, RunSpec *out) const;

private:
    QString m_source;
};

Result<void> Reader::resources(const YAML::Node &node, RunResources *out) const
{
    if (!node.IsMap())
        return fail(node, QStringLiteral("resources"), RunsText::tr("expected a map, such as {gpu: H100, count: 1}."));
    if (Result<void> keys = unknownKeys(node, QStringLiteral("resources."),
                                        {QStringLiteral("providers"), QStringLiteral("gpu"), QStringLiteral("count"),
                                         QStringLiteral("max_price_per_hour"), QStringLiteral("spot"), QStringLiteral("nodes"),
                                         QStringLiteral("master_port")});
        !keys)
        return keys;
    if (const YAML::Node p = node["providers"]) {
        Result<QStringList> ids = list(p, QStringLiteral("resources.providers"));
        if (!ids)
            return ids.error();
        for (const QString &id : *ids) {
            if (!providers::knownProviderIds().contains(id)) {
                return fail(p, QStringLiteral("resources.providers"),
                            RunsText::tr("\"%1\" is not a provider; use %2.")
                                .arg(id, providers::knownProviderIds().join(QStringLiteral(", "))));
            }
        }
        out->providers = *ids;
    }
    if (const YAML::Node g = node["gpu"]) {
        Result<QString> gpu = text(g, QStringLiteral("resources.gpu"));
        if (!gpu)
            return gpu.error();
        if (gpu->compare(QLatin1String("any"), Qt::CaseInsensitive) != 0 && !providers::parseGpuModel(*gpu).isKnown()) {
            return fail(g, QStringLiteral("resources.gpu"),
                        RunsText::tr("\"%1\" is not a GPU model Gantry knows; write one such as H100, A100 or RTX 4090, or any.")
                            .arg(*gpu));
        }
        out->gpu = gpu->compare(QLatin1String("any"), Qt::CaseInsensitive) == 0 ? QStringLiteral("any") : *gpu;
    }
    if (Result<void> read = numbers(node, QStringLiteral("resources."), {{"count", &out->count, 1}, {"nodes", &out->nodes, 1}, {"master_port", &out->masterPort, 1}},
                                    {{"max_price_per_hour", &out->maxPricePerHour}});
        !read)
        return read;
    if (const YAML::Node s = node["spot"]) {
        Result<bool> spot = boolean(s, QStringLiteral("resources.spot"));
        if (!spot)
            return spot.error();
        out->spot = *spot;
    }
    return {};
}

Result<void> Reader::checkpoint(const YAML::Node &node, RunSpec *out) const
{
    if (node.IsScalar()) {
        out->checkpointPath = QString::fromStdString(node.Scalar());
        return {};
    }
    if (!node.IsMap() || !node["path"])
        return fail(node, QStringLiteral("checkpoint"), RunsText::tr("expected {path: checkpoints/, every: 5m}."));
    if (Result<void> keys = unknownKeys(node, QStringLiteral("checkpoint."), {QStringLiteral("path"), QStringLiteral("every"), QStringLiteral("store")});
        !keys)
        return keys;
    if (const YAML::Node store = node["store"]) {
        Result<QString> url = text(store, QStringLiteral("checkpoint.store"));
        if (!url)
            return url.error();
        const std::optional<storage::BucketPath> where = storage::parseBucketPath(*url);
        if (!where || !storage::Buckets::checkName(where->name))
            return fail(store, QStringLiteral("checkpoint.store"),
                        RunsText::tr("write a bucket added with gantry-cli storage add (or in Storage) and a prefix, such as s3://data/runs/llama-ft/."));
        out->checkpointStore = *url;
    }
    Result<QString> path = text(node["path"], QStringLiteral("checkpoint.path"));
    if (!path)
        return path.error();
    if (QDir::isAbsolutePath(*path) || path->split(QLatin1Char('/')).contains(QStringLiteral("..")))
        return fail(node["path"], QStringLiteral("checkpoint.path"), RunsText::tr("write a folder inside the workdir, such as checkpoints/."));
    out->checkpointPath = *path;
    if (const YAML::Node every = node["every"]) {
        Result<int> seconds = parseDuration(every.IsScalar() ? QString::fromStdString(every.Scalar()) : QString());
        if (!seconds)
            return fail(every, QStringLiteral("checkpoint.every"), seconds.error().message);
        out->checkpointEverySeconds = *seconds;
    }
    return {};
}

Result<void> Reader::optional(const YAML::Node &root, RunSpec *out) const
{
    for (const auto &[key, target] : {std::pair{"workdir", &out->workdir}, std::pair{"setup", &out->setup}}) {
        if (const YAML::Node n = root[key]) {
            Result<QString> value = text(n, QLatin1String(key));
            if (!value)
                return value.error();
            *target = *value;
        }
    }
    for (const auto &[key, target] : {std::pair{"results", &out->results}, std::pair{"secrets", &out->secrets}}) {
        if (const YAML::Node n = root[key]) {
            Result<QStringList> value = list(n, QLatin1String(key));
            if (!value)
                return value.error();
            *target = *value;
        }
    }
    if (const YAML::Node env = root["env"]) {
        if (!env.IsMap())
            return fail(env, QStringLiteral("env"), RunsText::tr("expected a map, such as {WANDB_PROJECT: ft}."));
        static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
        for (const auto &entry : env) {
            const QString key = QString::fromStdString(entry.first.Scalar());
            if (!identifier.match(key).hasMatch() || !entry.second.IsScalar())
                return fail(entry.first, QStringLiteral("env.") + key, RunsText::tr("expected NAME: value, NAME a shell variable name."));
            out->env.append({key, QString::fromStdString(entry.second.Scalar())});
        }
    }
    if (const YAML::Node c = root["checkpoint"]) {
        if (Result<void> read = checkpoint(c, out); !read)
            return read;
    }
    if (Result<void> read = numbers(root, {}, {{"max_attempts", &out->maxAttempts, 1}, {"max_preemptions", &out->maxPreemptions, 0}},
                                    {{"max_cost", &out->maxCost}});
        !read)
        return read;
    if (const YAML::Node r = root["retry"]) {
        const QString value = r.IsScalar() ? QString::fromStdString(r.Scalar()) : QString();
        if (value != QLatin1String("on-failure") && value != QLatin1String("never"))
            return fail(r, QStringLiteral("retry"), RunsText::tr("expected on-failure or never."));
        out->retry = value == QLatin1String("never") ? RetryPolicy::Never : RetryPolicy::OnFailure;
    }
    return {};
}

Result<void> required(const Reader &reader, const YAML::Node &root, RunSpec *out)
{
    for (const char *key : {"name", "resources", "run"}) {
        if (!root[key]) {
            return reader.fail(root, QLatin1String(key),
                               RunsText::tr("is required; a spec needs at least name, resources and run."));
        }
    }
    Result<QString> name = reader.text(root["name"], QStringLiteral("name"));
    if (!name)
        return name.error();
    if (Result<void> valid = validateRunName(*name); !valid)
        return reader.fail(root["name"], QStringLiteral("name"), valid.error().message);
    out->name = *name;
    Result<QString> run = reader.text(root["run"], QStringLiteral("run"));
    if (!run)
        return run.error();
    if (run->trimmed().isEmpty())
        return reader.fail(root["run"], QStringLiteral("run"), RunsText::tr("is empty; write the command that trains."));
    out->run = *run;
    return reader.resources(root["resources"], &out->resources);
}

} // namespace

QString RunSpec::localWorkdir() const
{
    return QDir::cleanPath(QDir(specDir.isEmpty() ? QDir::currentPath() : specDir).absoluteFilePath(workdir));
}

Result<int> parseDuration(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d+)\\s*([smh]?)\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    const int value = match.hasMatch() ? match.captured(1).toInt() : 0;
    if (!match.hasMatch() || value <= 0)
        return Error{ErrorCode::Parse, RunsText::tr("\"%1\" is not a duration; write it as 30s, 5m or 1h.").arg(text)};
    const QString unit = match.captured(2);
    return value * (unit == QLatin1String("h") ? 3600 : unit == QLatin1String("m") ? 60 : 1);
}

Result<void> validateRunName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,47}$"));
    if (!pattern.match(name).hasMatch() || name.contains(QLatin1String("..")))
        return Error{ErrorCode::Usage, RunsText::tr("\"%1\" cannot name a run; use letters, digits, dot, dash and underscore "
                                                    "(up to 48, starting with a letter or digit).").arg(name)};
    return {};
}

Result<RunSpec> parseRunSpec(const QByteArray &yaml, const QString &source, const QString &specDir)
{
    const Reader reader(source);
    YAML::Node root;
    try {
        root = YAML::Load(yaml.toStdString());
    } catch (const YAML::Exception &e) {
        return Error{ErrorCode::Parse, RunsText::tr("%1 line %2: not valid YAML (%3); fix it and start again.")
                                           .arg(source).arg(e.mark.line + 1).arg(QString::fromStdString(e.msg))};
    }
    if (!root.IsMap())
        return Error{ErrorCode::Parse, RunsText::tr("%1: a run spec is a map of fields (name:, resources:, run:).").arg(source)};
    RunSpec spec;
    spec.specDir = specDir;
    try {
        if (Result<void> keys = reader.unknownKeys(root, {}, {QStringLiteral("version"), QStringLiteral("name"), QStringLiteral("resources"),
                                                              QStringLiteral("workdir"), QStringLiteral("setup"), QStringLiteral("run"),
                                                              QStringLiteral("checkpoint"), QStringLiteral("results"), QStringLiteral("env"),
                                                              QStringLiteral("secrets"), QStringLiteral("max_attempts"),
                                                              QStringLiteral("max_preemptions"), QStringLiteral("max_cost"),
                                                              QStringLiteral("retry")});
            !keys)
            return keys.error();
        if (const YAML::Node v = root["version"]) {
            Result<int> version = reader.integer(v, QStringLiteral("version"), 1);
            if (!version)
                return version.error();
            if (*version > kRunSpecVersion)
                return reader.fail(v, QStringLiteral("version"), RunsText::tr("version %1 is newer than this Gantry reads (%2); update Gantry.")
                                                                     .arg(*version).arg(kRunSpecVersion));
            spec.version = *version;
        }
        if (Result<void> ok = required(reader, root, &spec); !ok)
            return ok.error();
        if (Result<void> ok = reader.optional(root, &spec); !ok)
            return ok.error();
    } catch (const YAML::Exception &e) {
        return Error{ErrorCode::Parse, RunsText::tr("%1 line %2: %3").arg(source).arg(e.mark.line + 1).arg(QString::fromStdString(e.msg))};
    }
    return spec;
}

Result<RunSpec> loadRunSpec(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{ErrorCode::NotFound, RunsText::tr("Cannot read %1: %2.").arg(path, file.errorString())};
    return parseRunSpec(file.readAll(), QFileInfo(path).fileName(), QFileInfo(path).absolutePath());
}

} // namespace gantry::runs
