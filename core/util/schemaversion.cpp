#include "core/util/schemaversion.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QJsonDocument>

namespace gantry::schema {
namespace {

class SchemaText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::schema)
};

const QLatin1StringView kKey("schema");

} // namespace

int versionOf(const QJsonObject &root, QLatin1StringView legacyKey)
{
    if (root.contains(kKey))
        return root.value(kKey).toInt(1);
    if (!legacyKey.isEmpty() && root.contains(legacyKey))
        return root.value(legacyKey).toInt(1);
    return 1;
}

Result<QJsonObject> upgrade(QJsonObject root, int current, const QString &path, std::span<const Migration> steps,
                            QLatin1StringView legacyKey)
{
    Q_ASSERT(qsizetype(steps.size()) == current - 1);
    const int found = versionOf(root, legacyKey);
    if (found > current)
        return newerFileError(path, found, current);
    for (int version = std::max(found, 1); version < current; ++version)
        root = steps[std::size_t(version - 1)](std::move(root));
    return stamped(std::move(root), current, legacyKey);
}

QJsonObject stamped(QJsonObject root, int version, QLatin1StringView legacyKey)
{
    if (!legacyKey.isEmpty())
        root.remove(legacyKey);
    root.insert(kKey, version);
    return root;
}

QString damagedCopyPath(const QString &path)
{
    return path + QStringLiteral(".damaged-") + QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

Result<void> checkReplaceable(const QString &path, int current, QLatin1StringView legacyKey)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = file.readAll();
    file.close();
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    if (!document.isObject()) {
        // A damaged file may still hold what the user saved (a hand edit gone wrong, a disk
        // error): it is kept beside, never written over. An empty file holds nothing to keep.
        if (!bytes.trimmed().isEmpty()) {
            const QString copy = damagedCopyPath(path);
            if (!QFile::exists(copy) && !QFile::rename(path, copy))
                return makeError(ErrorCode::Io, SchemaText::tr("%1 is damaged and could not be kept aside as %2; move it "
                                                               "away by hand, then try again.")
                                                    .arg(path, copy));
        }
        return {};
    }
    if (const int found = versionOf(document.object(), legacyKey); found > current)
        return newerFileError(path, found, current);
    return {};
}

Error newerFileError(const QString &path, int found, int known)
{
    return makeError(ErrorCode::Conflict,
                     SchemaText::tr("%1 was written by a newer Gantry (format %2; this one reads up to format %3) and was "
                                    "left unchanged. Upgrade Gantry, or move the file away to start without it.")
                         .arg(path)
                         .arg(found)
                         .arg(known));
}

} // namespace gantry::schema
