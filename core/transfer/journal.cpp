#include "core/transfer/journal.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/sha256.h"
#include "core/util/schemaversion.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gantry::transfer {

quint64 FileJournal::chunkLength(int index) const
{
    const quint64 start = chunkOffset(index);
    return start >= size ? 0 : std::min<quint64>(chunkSize, size - start);
}

quint64 FileJournal::doneBytes() const
{
    quint64 sum = 0;
    for (int i = 0; i < done.size(); ++i) {
        if (done[i]) sum += chunkLength(i);
    }
    return sum;
}

bool FileJournal::complete() const
{
    return !done.contains(false);
}

JournalStore::JournalStore(QString configDir)
    : m_dir(QDir(configDir).filePath(QStringLiteral("transfers")))
{
}

QString JournalStore::key(Direction direction, const QString &host, const QString &source, const QString &destination)
{
    const QString joined = directionName(direction) + QChar(0) + host + QChar(0) + source + QChar(0) + destination;
    return QString::fromLatin1(Sha256::hex(joined.toUtf8()).left(32));
}

QString JournalStore::stagingPath(Direction direction, const QString &host, const QString &finalPath)
{
    const qsizetype slash = finalPath.lastIndexOf(QLatin1Char('/'));
    const QString folder = finalPath.left(slash + 1);
    QString name = finalPath.mid(slash + 1);
    const QString joined = QStringLiteral("staging") + QChar(0) + directionName(direction) + QChar(0) + host + QChar(0) + finalPath;
    const QString tail = QStringLiteral(".gantry-") + QString::fromLatin1(Sha256::hex(joined.toUtf8()).left(16)) + QStringLiteral(".partial");
    // NAME_MAX is 255 bytes: a long name is shortened (the hash keeps it unique), whole characters only.
    while (!name.isEmpty() && (QLatin1Char('.') + name + tail).toUtf8().size() > 255) name.chop(name.back().isLowSurrogate() ? 2 : 1);
    return folder + QLatin1Char('.') + name + tail;
}

QString JournalStore::pathFor(const QString &key) const
{
    return QDir(m_dir).filePath(key + QStringLiteral(".json"));
}

namespace {
constexpr int kJournalSchema = 1; // 1: every journal so far (file and tree)

// Written to a temporary file and renamed over the old journal, without fsync: the journal is
// saved after every chunk, and an fsync each time stalled the transfer (≈130 per 512 MiB). A
// crash of the app loses nothing (the page cache keeps the file); after a power loss the rename
// leaves the old or the new journal, and either one claims only chunks that were acknowledged.
Result<void> writeJson(const QString &dir, const QString &path, const QJsonObject &object)
{
    QDir().mkpath(dir);
    const QString temporary = path + QStringLiteral(".tmp");
    QFile file(temporary);
    auto failed = [&](const QString &why) {
        file.remove();
        return Error{ErrorCode::Io, TransferText::tr("Cannot write the resume journal %1: %2.").arg(path, why)};
    };
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return failed(file.errorString());
    const QByteArray data = QJsonDocument(schema::stamped(object, kJournalSchema)).toJson(QJsonDocument::Compact);
    if (file.write(data) != data.size() || !file.flush()) return failed(file.errorString());
    file.close();
    if (std::rename(QFile::encodeName(temporary).constData(), QFile::encodeName(path).constData()) != 0) {
        return failed(QString::fromLocal8Bit(std::strerror(errno)));
    }
    return {};
}

std::optional<QJsonObject> readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    if (!doc.isObject()) return std::nullopt;
    // A journal from a newer Gantry is not resumed from; checkReplaceable() keeps it from being replaced.
    auto upgraded = schema::upgrade(doc.object(), kJournalSchema, path);
    if (!upgraded) return std::nullopt;
    return *upgraded;
}
} // namespace

Result<void> JournalStore::checkReplaceable(const QString &key) const
{
    return schema::checkReplaceable(pathFor(key), kJournalSchema);
}

std::optional<FileJournal> JournalStore::loadFile(const QString &key) const
{
    const auto obj = readJson(pathFor(key));
    if (!obj || obj->value(QStringLiteral("kind")).toString() != QLatin1String("file")) return std::nullopt;
    FileJournal j;
    j.direction = obj->value(QStringLiteral("direction")).toString() == QLatin1String("download") ? Direction::Download
                                                                                                  : Direction::Upload;
    j.host = obj->value(QStringLiteral("host")).toString();
    j.source = obj->value(QStringLiteral("source")).toString();
    j.destination = obj->value(QStringLiteral("destination")).toString();
    j.size = quint64(obj->value(QStringLiteral("size")).toInteger());
    j.mtime = obj->value(QStringLiteral("mtime")).toInteger();
    j.chunkSize = quint64(obj->value(QStringLiteral("chunkSize")).toInteger());
    j.wireBytes = quint64(obj->value(QStringLiteral("wireBytes")).toInteger());
    const QJsonArray hashes = obj->value(QStringLiteral("chunks")).toArray();
    for (const QJsonValue &v : hashes) {
        const QString h = v.toString();
        j.done.append(!h.isEmpty());
        j.chunkHashes.append(h.toLatin1());
    }
    if (j.chunkSize == 0 || quint64(j.done.size()) != (j.size + j.chunkSize - 1) / j.chunkSize) return std::nullopt;
    return j;
}

Result<void> JournalStore::save(const QString &key, const FileJournal &j) const
{
    QJsonArray chunks;
    for (int i = 0; i < j.done.size(); ++i) {
        chunks.append(j.done[i] ? QString::fromLatin1(j.chunkHashes.value(i, "-")) : QString());
    }
    const QJsonObject obj{
        {QStringLiteral("kind"), QStringLiteral("file")},
        {QStringLiteral("direction"), directionName(j.direction)},
        {QStringLiteral("host"), j.host},
        {QStringLiteral("source"), j.source},
        {QStringLiteral("destination"), j.destination},
        {QStringLiteral("size"), qint64(j.size)},
        {QStringLiteral("mtime"), j.mtime},
        {QStringLiteral("chunkSize"), qint64(j.chunkSize)},
        {QStringLiteral("wireBytes"), qint64(j.wireBytes)},
        {QStringLiteral("chunks"), chunks},
    };
    return writeJson(m_dir, pathFor(key), obj);
}

std::optional<TreeJournal> JournalStore::loadTree(const QString &key) const
{
    const auto obj = readJson(pathFor(key));
    if (!obj || obj->value(QStringLiteral("kind")).toString() != QLatin1String("tree")) return std::nullopt;
    TreeJournal j;
    j.host = obj->value(QStringLiteral("host")).toString();
    j.source = obj->value(QStringLiteral("source")).toString();
    j.destination = obj->value(QStringLiteral("destination")).toString();
    j.fingerprint = obj->value(QStringLiteral("fingerprint")).toString().toLatin1();
    j.wireBytes = quint64(obj->value(QStringLiteral("wireBytes")).toInteger());
    j.batchFiles = obj->value(QStringLiteral("batchFiles")).toInt();
    j.batchBytes = quint64(obj->value(QStringLiteral("batchBytes")).toInteger());
    for (const QJsonValue &v : obj->value(QStringLiteral("doneBatches")).toArray()) j.doneBatches.append(v.toInt());
    return j;
}

Result<void> JournalStore::save(const QString &key, const TreeJournal &j) const
{
    QJsonArray batches;
    for (int b : j.doneBatches) batches.append(b);
    const QJsonObject obj{
        {QStringLiteral("kind"), QStringLiteral("tree")},
        {QStringLiteral("host"), j.host},
        {QStringLiteral("source"), j.source},
        {QStringLiteral("destination"), j.destination},
        {QStringLiteral("fingerprint"), QString::fromLatin1(j.fingerprint)},
        {QStringLiteral("wireBytes"), qint64(j.wireBytes)},
        {QStringLiteral("doneBatches"), batches},
        {QStringLiteral("batchFiles"), j.batchFiles},
        {QStringLiteral("batchBytes"), qint64(j.batchBytes)},
    };
    return writeJson(m_dir, pathFor(key), obj);
}

void JournalStore::remove(const QString &key) const
{
    QFile::remove(pathFor(key));
}

} // namespace gantry::transfer
