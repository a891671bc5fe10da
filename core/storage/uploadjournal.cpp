// SPDX-License-Identifier: Apache-2.0
#include "core/storage/uploadjournal.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>

#include <functional>

namespace gantry::storage {
namespace {

QJsonObject toJson(const OpenUpload &u)
{
    return QJsonObject{{QStringLiteral("endpoint"), u.endpoint}, {QStringLiteral("bucket"), u.bucket},
                       {QStringLiteral("key"), u.key}, {QStringLiteral("upload_id"), u.uploadId},
                       {QStringLiteral("sha256"), u.sha256}, {QStringLiteral("size"), double(u.size)},
                       {QStringLiteral("part_size"), double(u.partSize)},
                       {QStringLiteral("started"), u.started.toString(Qt::ISODate)}};
}

OpenUpload fromJson(const QJsonObject &o)
{
    return OpenUpload{o.value(QStringLiteral("endpoint")).toString(), o.value(QStringLiteral("bucket")).toString(),
                      o.value(QStringLiteral("key")).toString(), o.value(QStringLiteral("upload_id")).toString(),
                      o.value(QStringLiteral("sha256")).toString(), qint64(o.value(QStringLiteral("size")).toDouble()),
                      qint64(o.value(QStringLiteral("part_size")).toDouble()),
                      QDateTime::fromString(o.value(QStringLiteral("started")).toString(), Qt::ISODate)};
}

QList<OpenUpload> readAll(const QString &path)
{
    QFile file(path);
    QList<OpenUpload> uploads;
    if (!file.open(QIODevice::ReadOnly))
        return uploads;
    const QJsonArray array = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("uploads")).toArray();
    for (const QJsonValue &value : array) {
        OpenUpload upload = fromJson(value.toObject());
        if (!upload.uploadId.isEmpty())
            uploads << upload;
    }
    return uploads;
}

// Reads, changes and writes the journal under its lock; a journal that cannot be written only
// loses the chance to resume.
bool update(const QString &path, const std::function<void(QList<OpenUpload> &)> &change)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QLockFile lock(path + QStringLiteral(".lock"));
    if (!lock.tryLock(5000))
        return false;
    QList<OpenUpload> uploads = readAll(path);
    change(uploads);
    QJsonArray array;
    for (const OpenUpload &upload : std::as_const(uploads))
        array << toJson(upload);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("uploads"), array}}).toJson());
    return file.commit();
}

bool sameObject(const OpenUpload &u, const QString &endpoint, const QString &bucket, const QString &key)
{
    return u.endpoint == endpoint && u.bucket == bucket && u.key == key;
}

} // namespace

std::optional<OpenUpload> UploadJournal::find(const QString &endpoint, const QString &bucket, const QString &key) const
{
    if (!enabled())
        return std::nullopt;
    for (const OpenUpload &upload : readAll(m_file)) {
        if (sameObject(upload, endpoint, bucket, key))
            return upload;
    }
    return std::nullopt;
}

QList<OpenUpload> UploadJournal::stale(const QString &endpoint, const QString &bucket) const
{
    QList<OpenUpload> old;
    if (!enabled())
        return old;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const OpenUpload &upload : readAll(m_file)) {
        if (upload.endpoint == endpoint && upload.bucket == bucket && (!upload.started.isValid() || upload.started.daysTo(now) > kMaxAgeDays))
            old << upload;
    }
    return old;
}

bool UploadJournal::remember(const OpenUpload &upload) const
{
    if (!enabled())
        return false;
    return update(m_file, [&](QList<OpenUpload> &uploads) {
        uploads.removeIf([&](const OpenUpload &u) { return sameObject(u, upload.endpoint, upload.bucket, upload.key); });
        uploads << upload;
    });
}

void UploadJournal::forget(const QString &uploadId) const
{
    if (!enabled())
        return;
    (void)update(m_file, [&](QList<OpenUpload> &uploads) { uploads.removeIf([&](const OpenUpload &u) { return u.uploadId == uploadId; }); });
}

} // namespace gantry::storage
