// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/s3client.h"
#include "core/util/result.h"

#include <QList>
#include <QString>

#include <atomic>
#include <memory>

namespace gantry::ssh {
class Channel;
class Session;
} // namespace gantry::ssh

namespace gantry::storage {

// One object and its file on the machine.
struct CopyItem
{
    QString key;
    QString remotePath;  // as the machine's shell sees it (relative paths start in the home folder)
    qint64 size = -1;    // -1: unknown
    QString etag;        // the object's ETag (an MD5 unless it holds '-')
    QString sha256;      // hex, where known (x-amz-meta-sha256)
};

// Files above `threshold` go up as a multipart upload: parts of `partSize` (more where a file
// would need over 10,000 parts), `parallel` at a time, each checked by its Content-MD5; the object
// appears under its key only when every part is in, and a failed or stopped upload is aborted, so
// nothing half-written remains. Tests make the sizes small.
struct MultipartPolicy
{
    qint64 threshold = 64LL * 1024 * 1024;
    qint64 partSize = 16LL * 1024 * 1024;
    int parallel = 4;
    // The UploadJournal's file: where an interrupted upload is remembered so the same copy run
    // again goes on from its parts. Empty: an interrupted upload is aborted.
    QString journal;
};

// What arrived.
struct CopyResult
{
    CopyItem item;
    qint64 bytes = 0;
    QString sha256;      // of the bytes that arrived
    bool verified = false; // checked against the object's SHA-256 or MD5 (not only its size)
    bool alreadyThere = false; // the destination held the same bytes (checked): nothing was sent
    qint64 resumedBytes = 0;   // bytes an earlier, interrupted copy had already moved
};

struct MultipartStart;

// Copies between a bucket and a machine that run ON the machine: one shell script there
// (machineScript()) reads a presigned URL per file from its stdin — never from its command line,
// where other users of the machine could read it — and runs curl with it. No storage key reaches
// the machine; each URL is made just before its file and lives kUrlSeconds. A download lands
// under a temporary name (kept across runs for large objects: curl -C - goes on from it) and is
// renamed only once its size and checksum match; a destination that already holds the object's
// bytes is left as it is, as an object that already holds the file's; an upload sends
// its MD5 (Content-MD5, checked by the server) and its SHA-256 as metadata.
class MachineCopy final
{
public:
    static constexpr int kUrlSeconds = 3600;

    MachineCopy(ssh::Session &session, const S3Client &client);
    ~MachineCopy();
    MachineCopy(const MachineCopy &) = delete;
    MachineCopy &operator=(const MachineCopy &) = delete;

    // Files above its threshold go up in parts, one after the other, each read from the file by
    // the machine and sent with its own URL made just before it (so a long copy never outlives one).
    void setMultipartPolicy(const MultipartPolicy &policy) { m_policy = policy; }
    // Starts the script; fails when the machine has no curl.
    Result<void> start();
    Result<CopyResult> download(const CopyItem &item, const std::atomic_bool *cancel);
    Result<CopyResult> upload(const CopyItem &item, const std::atomic_bool *cancel);
    // What the machine reads in one of its files now: its size and hashes (hex).
    struct FileHash
    {
        qint64 size = 0;
        QString md5;
        QString sha256;
    };
    Result<FileHash> hash(const QString &remotePath, const std::atomic_bool *cancel);
    // The regular files under a folder of the machine, as paths relative to it with their sizes
    // (names holding a line break are left out); a file answers itself.
    struct RemoteFile
    {
        QString relative;
        qint64 size = 0;
    };
    Result<QList<RemoteFile>> listFiles(const QString &root, bool *isFolder, const std::atomic_bool *cancel);

private:
    Result<void> send(const QStringList &lines);
    Result<QString> readLine(const std::atomic_bool *cancel);
    // One request to the script and the first line of its answer.
    Result<QString> exchange(const QStringList &lines, const std::atomic_bool *cancel);
    Error failure(const QString &line, const CopyItem &item) const;
    Result<QList<QByteArray>> uploadParts(const CopyItem &item, qint64 size, const MultipartStart &start, const std::atomic_bool *cancel,
                                          qint64 *resumed);

    ssh::Session &m_session;
    const S3Client &m_client;
    std::unique_ptr<ssh::Channel> m_channel;
    QByteArray m_buffer;
    MultipartPolicy m_policy;
};

// The item with what HeadObject says of its object just before it is fetched: its size, its
// SHA-256 where the upload kept one, and its ETag only where that is an MD5.
Result<CopyItem> withObjectFacts(const S3Client &client, CopyItem item, const std::atomic_bool *cancel);

// Where a download is staged when it is large enough to be worth resuming after an interruption
// (8 MiB and more, with a known checksum): ".gantry-part-" and 12 hex digits of its key, size and
// checksum, so the same copy run again finds it and a changed object does not. "" otherwise (a
// fresh random name is used).
QString resumablePartName(const CopyItem &item);
inline constexpr qint64 kResumableBytes = 8LL * 1024 * 1024;

// The script MachineCopy runs (for tests that read it).
QByteArray machineScript();

// A copy's remote paths: "~/x" and "x" are in the home folder; a path that begins with '-' is
// made "./-…" so no program takes it for an option.
QString machinePath(const QString &path);

// The object key's path below a prefix, made safe to join under a folder: "" when the key is not
// under the prefix or would climb out of it ("..", absolute, empty or "." segments).
QString relativeKeyPath(const QString &key, const QString &prefix);

} // namespace gantry::storage
