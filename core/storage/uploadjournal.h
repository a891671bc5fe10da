// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace gantry::storage {

// A multipart upload left open at the storage after an interruption, so the same copy run again
// goes on from the parts already there instead of sending them a second time.
struct OpenUpload
{
    QString endpoint;
    QString bucket;
    QString key;
    QString uploadId;
    QString sha256;      // of the whole file, as its Create kept it (x-amz-meta-sha256)
    qint64 size = 0;
    qint64 partSize = 0;
    QDateTime started;   // UTC
};

// The open uploads this computer knows of (<configDir>/storage-uploads.json). An upload is only
// taken up again by a file of the same size and SHA-256 cut into the same parts: the object's
// x-amz-meta-sha256 was fixed when the upload began. Each change rewrites the file whole under
// a lock, so two copies (the window's and the CLI's) never lose each other's entries. Blocking.
class UploadJournal final
{
public:
    // Older ones are given up (and aborted at the storage) rather than continued.
    static constexpr int kMaxAgeDays = 7;

    explicit UploadJournal(QString file) : m_file(std::move(file)) {}
    bool enabled() const { return !m_file.isEmpty(); }

    std::optional<OpenUpload> find(const QString &endpoint, const QString &bucket, const QString &key) const;
    // Entries of this bucket older than kMaxAgeDays.
    QList<OpenUpload> stale(const QString &endpoint, const QString &bucket) const;
    // Replaces any entry for the same object; false when the journal could not be written.
    bool remember(const OpenUpload &upload) const;
    void forget(const QString &uploadId) const;

private:
    QString m_file;
};

} // namespace gantry::storage
