// SPDX-License-Identifier: Apache-2.0
#include "core/storage/localcopy.h"

#include "core/storage/s3errors.h"
#include "core/storage/storagetext.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <curl/curl.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gantry::storage {
namespace {

constexpr qsizetype kMaxErrorBody = 64 * 1024;
constexpr qint64 kMaxSinglePut = 5LL * 1024 * 1024 * 1024;

// What one transfer saw: the file side, the hashes of what went by, an error body.
struct Stream
{
    CURL *curl = nullptr;
    QFile *out = nullptr; // a download's file
    QFile *in = nullptr;  // an upload's file
    QCryptographicHash sha256{QCryptographicHash::Sha256};
    QCryptographicHash md5{QCryptographicHash::Md5};
    qint64 bytes = 0;
    bool fileFailed = false;
    QByteArray errorBody;
    QByteArray etag;
    QByteArray encryption; // x-amz-server-side-encryption of the answer
    const std::atomic_bool *cancel = nullptr;
    std::atomic<qint64> *moved = nullptr; // the caller's progress, bytes so far
};

long statusOf(CURL *curl)
{
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

size_t writeDownload(char *data, size_t size, size_t count, void *user)
{
    auto *stream = static_cast<Stream *>(user);
    const qsizetype n = qsizetype(size * count);
    if (statusOf(stream->curl) >= 300 || !stream->out) {
        stream->errorBody.append(data, std::min(n, kMaxErrorBody - stream->errorBody.size()));
        return size * count;
    }
    if (stream->out->write(data, n) != n) {
        stream->fileFailed = true;
        return 0;
    }
    stream->sha256.addData(QByteArrayView(data, n));
    stream->md5.addData(QByteArrayView(data, n));
    stream->bytes += n;
    if (stream->moved)
        stream->moved->fetch_add(n);
    return size * count;
}

size_t readUpload(char *buffer, size_t size, size_t count, void *user)
{
    auto *stream = static_cast<Stream *>(user);
    const qint64 n = stream->in->read(buffer, qint64(size * count));
    if (n < 0) {
        stream->fileFailed = true;
        return CURL_READFUNC_ABORT;
    }
    stream->bytes += n;
    if (stream->moved)
        stream->moved->fetch_add(n);
    return size_t(n);
}

size_t readHeader(char *data, size_t size, size_t count, void *user)
{
    const QByteArray line = QByteArray(data, qsizetype(size * count)).trimmed();
    const QByteArray lower = line.toLower();
    if (lower.startsWith("etag:"))
        static_cast<Stream *>(user)->etag = line.mid(5).trimmed().replace('"', "");
    else if (lower.startsWith("x-amz-server-side-encryption:"))
        static_cast<Stream *>(user)->encryption = line.mid(29).trimmed();
    return size * count;
}

int progress(void *user, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto *stream = static_cast<Stream *>(user);
    return stream->cancel && stream->cancel->load() ? 1 : 0;
}

// One request through a presigned URL; the error names the S3 code or curl's reason.
Result<void> perform(Stream &stream, const QUrl &url, const QList<QByteArray> &headers, const S3Client &client, const QString &key)
{
    CURL *curl = stream.curl;
    const QByteArray encoded = url.toEncoded();
    char errorBuffer[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(curl, CURLOPT_URL, encoded.constData());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 15000L);
    // A stalled transfer ends; a slow but moving one may take as long as it needs.
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 120L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, writeDownload);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &stream);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, readHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &stream);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &stream);
    curl_slist *list = nullptr;
    for (const QByteArray &header : headers)
        list = curl_slist_append(list, header.constData());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    const CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(list);
    if (stream.cancel && stream.cancel->load())
        return Error{ErrorCode::Cancelled, StorageText::tr("Stopped.")};
    if (stream.fileFailed) {
        const QFile *file = stream.out ? stream.out : stream.in;
        return Error{ErrorCode::DiskFull, StorageText::tr("Could not write or read %1 (%2): is the disk full?")
                                              .arg(file->fileName(), file->errorString())};
    }
    if (code != CURLE_OK) {
        return Error{ErrorCode::ConnectFailed, StorageText::tr("Cannot reach %1: %2. Check --endpoint and the network.")
                                                   .arg(client.config().endpoint, QString::fromUtf8(errorBuffer[0] ? errorBuffer : curl_easy_strerror(code)))};
    }
    const long status = statusOf(curl);
    if (status < 200 || status >= 300) {
        const BucketConfig &c = client.config();
        return s3Error(int(status), stream.errorBody, S3ErrorContext{c.endpoint, c.bucket, c.region, key, {}});
    }
    return {};
}

struct Easy
{
    CURL *curl = curl_easy_init();
    ~Easy() { curl_easy_cleanup(curl); }
};

} // namespace

Result<CopyResult> downloadToLocal(const S3Client &client, const CopyItem &listed, const std::atomic_bool *cancel,
                                  std::atomic<qint64> *moved)
{
    Result<CopyItem> facts = withObjectFacts(client, listed, cancel);
    if (!facts)
        return facts.error();
    const CopyItem &item = *facts;
    Result<QUrl> url = client.presign("GET", item.key, MachineCopy::kUrlSeconds);
    if (!url)
        return url.error();
    QDir().mkpath(QFileInfo(item.remotePath).absolutePath());
    const QString partial = item.remotePath + QStringLiteral(".gantry-part");
    QFile file(partial);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Error{ErrorCode::Io, StorageText::tr("Cannot write %1: %2.").arg(partial, file.errorString())};
    Easy easy;
    Stream stream;
    stream.curl = easy.curl;
    stream.out = &file;
    stream.cancel = cancel;
    stream.moved = moved;
    Result<void> done = perform(stream, *url, {}, client, item.key);
    file.close();
    const QString sha = QString::fromLatin1(stream.sha256.result().toHex());
    const QString md5 = QString::fromLatin1(stream.md5.result().toHex());
    const bool md5Known = !item.etag.isEmpty(); // withObjectFacts keeps an ETag only where it is an MD5
    QString mismatch;
    if (done && item.size >= 0 && stream.bytes != item.size)
        mismatch = QStringLiteral("size");
    else if (done && !item.sha256.isEmpty() && sha != item.sha256)
        mismatch = QStringLiteral("sha256");
    else if (done && item.sha256.isEmpty() && md5Known && md5 != item.etag)
        mismatch = QStringLiteral("md5");
    if (!done || !mismatch.isEmpty()) {
        QFile::remove(partial);
        if (!done)
            return done.error();
        return Error{ErrorCode::RemoteFailed, StorageText::tr("%1 did not match the object's %2 after the copy; nothing was kept. Run the copy again.")
                                                  .arg(item.remotePath, mismatch)};
    }
    // rename(2) replaces an older file in one step: the name never holds a partial copy.
    if (std::rename(QFile::encodeName(partial).constData(), QFile::encodeName(item.remotePath).constData()) != 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        QFile::remove(partial);
        return Error{ErrorCode::Io, StorageText::tr("Cannot write %1: %2.").arg(item.remotePath, why)};
    }
    return CopyResult{item, stream.bytes, sha, !item.sha256.isEmpty() || md5Known};
}

Result<CopyResult> uploadFromLocal(const S3Client &client, const CopyItem &item, const std::atomic_bool *cancel,
                                  std::atomic<qint64> *moved)
{
    QFile file(item.remotePath);
    if (!file.open(QIODevice::ReadOnly))
        return Error{ErrorCode::NotFound, StorageText::tr("Cannot read %1: %2.").arg(item.remotePath, file.errorString())};
    if (file.size() > kMaxSinglePut) {
        return Error{ErrorCode::Usage, StorageText::tr("%1 is larger than 5 GiB: one upload cannot hold it and Gantry does not make multipart uploads yet.")
                                           .arg(item.remotePath)};
    }
    QCryptographicHash sha(QCryptographicHash::Sha256);
    QCryptographicHash md5(QCryptographicHash::Md5);
    while (!file.atEnd()) {
        const QByteArray chunk = file.read(1 << 20);
        if (chunk.isEmpty() && file.error() != QFileDevice::NoError)
            return Error{ErrorCode::Io, StorageText::tr("Cannot read %1: %2.").arg(item.remotePath, file.errorString())};
        sha.addData(chunk);
        md5.addData(chunk);
    }
    const QByteArray shaHex = sha.result().toHex();
    const QByteArray md5Base64 = md5.result().toBase64();
    Result<QUrl> url = client.presign("PUT", item.key, MachineCopy::kUrlSeconds, {{"Content-MD5", md5Base64}, {"x-amz-meta-sha256", shaHex}});
    if (!url)
        return url.error();
    file.seek(0);
    Easy easy;
    Stream stream;
    stream.curl = easy.curl;
    stream.in = &file;
    stream.cancel = cancel;
    stream.moved = moved;
    curl_easy_setopt(easy.curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(easy.curl, CURLOPT_READFUNCTION, readUpload);
    curl_easy_setopt(easy.curl, CURLOPT_READDATA, &stream);
    curl_easy_setopt(easy.curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(file.size()));
    Result<void> done = perform(stream, *url, {"Content-MD5: " + md5Base64, "x-amz-meta-sha256: " + shaHex}, client, item.key);
    if (!done)
        return done.error();
    const QString md5Hex = QString::fromLatin1(md5.result().toHex());
    // The server checked Content-MD5; an ETag that is an MD5 (not under SSE-KMS) must be the same one.
    if (stream.etag.size() == 32 && !stream.encryption.startsWith("aws:kms") && QString::fromLatin1(stream.etag) != md5Hex) {
        return Error{ErrorCode::RemoteFailed, StorageText::tr("%1 did not match the object's %2 after the copy; nothing was kept. Run the copy again.")
                                                  .arg(item.remotePath, QStringLiteral("md5"))};
    }
    return CopyResult{item, file.size(), QString::fromLatin1(shaHex), true};
}

} // namespace gantry::storage
