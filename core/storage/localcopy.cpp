// SPDX-License-Identifier: Apache-2.0
#include "core/storage/localcopy.h"

#include "core/storage/s3errors.h"
#include "core/storage/storagetext.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDir>
#include <QRandomGenerator>
#include <QFile>
#include <QFileInfo>

#include <curl/curl.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace gantry::storage {
namespace {

constexpr qsizetype kMaxErrorBody = 64 * 1024;
constexpr qint64 kMaxSinglePut = 5LL * 1024 * 1024 * 1024;

// What one transfer saw: the file side, the hashes of what went by, an error body.
struct Stream
{
    CURL *curl = nullptr;
    QFile *out = nullptr; // a download's file
    QIODevice *in = nullptr; // an upload's file, or a part in memory
    QString inName;          // its name in errors
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
        const QIODevice *device = stream.out ? static_cast<QIODevice *>(stream.out) : stream.in;
        return Error{ErrorCode::DiskFull, StorageText::tr("Could not write or read %1 (%2): is the disk full?")
                                              .arg(stream.out ? stream.out->fileName() : stream.inName, device->errorString())};
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

// One presigned request with its body in memory (none for a GET or DELETE); the answer's body.
struct Call
{
    QByteArray method;
    sigv4::Pairs query;
    QByteArray body;
    sigv4::Pairs signedHeaders; // sent as they are
    QByteArray *etag = nullptr; // the answer's ETag
};

Result<QByteArray> call(const S3Client &client, const QString &key, const Call &c, const std::atomic_bool *cancel,
                        std::atomic<qint64> *moved = nullptr)
{
    Result<QUrl> url = client.presign(c.method, key, MachineCopy::kUrlSeconds, c.signedHeaders, c.query);
    if (!url)
        return url.error();
    QByteArray body = c.body;
    QBuffer buffer(&body);
    buffer.open(QIODevice::ReadOnly);
    Easy easy;
    Stream stream;
    stream.curl = easy.curl;
    stream.cancel = cancel;
    stream.moved = moved;
    stream.in = &buffer;
    stream.inName = key;
    if (c.method == "PUT") {
        curl_easy_setopt(easy.curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(easy.curl, CURLOPT_READFUNCTION, readUpload);
        curl_easy_setopt(easy.curl, CURLOPT_READDATA, &stream);
        curl_easy_setopt(easy.curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(body.size()));
    } else if (c.method == "POST") {
        curl_easy_setopt(easy.curl, CURLOPT_POST, 1L);
        curl_easy_setopt(easy.curl, CURLOPT_POSTFIELDS, body.constData());
        curl_easy_setopt(easy.curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
    } else {
        curl_easy_setopt(easy.curl, CURLOPT_CUSTOMREQUEST, c.method.constData());
    }
    QList<QByteArray> headers;
    for (const auto &[name, value] : c.signedHeaders)
        headers << name + ": " + value;
    if (Result<void> done = perform(stream, *url, headers, client, key); !done)
        return done.error();
    if (c.etag)
        *c.etag = stream.etag;
    return stream.errorBody; // the answer (only error bodies are kept from a download)
}

QString xmlText(const QByteArray &xml, const char *element)
{
    const QByteArray open = QByteArray("<") + element + '>';
    const QByteArray close = QByteArray("</") + element + '>';
    const qsizetype from = xml.indexOf(open);
    const qsizetype to = xml.indexOf(close, from);
    return from < 0 || to < 0 ? QString() : QString::fromUtf8(xml.mid(from + open.size(), to - from - open.size()));
}

// The parts of one upload, `parallel` workers each reading its own parts from the file: every
// part's ETag in order, or the first failure.
Result<QList<QByteArray>> sendParts(const S3Client &client, const CopyItem &item, const QString &uploadId, qint64 partSize,
                                    int parallel, const std::atomic_bool *cancel, std::atomic<qint64> *moved)
{
    const qint64 size = QFileInfo(item.remotePath).size();
    const int parts = int((size + partSize - 1) / partSize);
    QList<QByteArray> etags(parts);
    std::atomic<int> next{0};
    std::atomic_bool failed{false};
    std::mutex mutex;
    std::optional<Error> firstError;
    const auto work = [&] {
        QFile file(item.remotePath);
        const bool opened = file.open(QIODevice::ReadOnly);
        for (int i = next++; i < parts && !failed && !(cancel && cancel->load()); i = next++) {
            Result<QByteArray> sent = Error{ErrorCode::Io, StorageText::tr("Cannot read %1: %2.").arg(item.remotePath, file.errorString())};
            QByteArray data;
            if (opened && file.seek(qint64(i) * partSize))
                data = file.read(std::min(partSize, size - qint64(i) * partSize));
            QByteArray etag;
            const QByteArray md5 = QCryptographicHash::hash(data, QCryptographicHash::Md5);
            if (data.size() == std::min(partSize, size - qint64(i) * partSize)) {
                sent = call(client, item.key, Call{"PUT", {{"partNumber", QByteArray::number(i + 1)}, {"uploadId", uploadId.toUtf8()}}, data,
                                                   {{"Content-MD5", md5.toBase64()}}, &etag}, cancel, moved);
            }
            if (sent && etag != md5.toHex()) // the server checked Content-MD5; its ETag says the same
                sent = Error{ErrorCode::RemoteFailed, StorageText::tr("%1 did not match the object's %2 after the copy; nothing was kept. Run the copy again.").arg(item.remotePath, QStringLiteral("md5"))};
            if (!sent) {
                const std::lock_guard lock(mutex);
                if (!firstError)
                    firstError = sent.error();
                failed = true;
                return;
            }
            etags[i] = etag;
        }
    };
    std::vector<std::thread> workers;
    for (int w = 0; w < std::clamp(parallel, 1, parts); ++w)
        workers.emplace_back(work);
    for (std::thread &worker : workers)
        worker.join();
    if (firstError)
        return *firstError;
    if (cancel && cancel->load())
        return Error{ErrorCode::Cancelled, StorageText::tr("Stopped.")};
    return etags;
}

// Create, the parts, Complete; Abort after any failure so no upload is left open.
Result<CopyResult> uploadMultipart(const S3Client &client, const CopyItem &item, qint64 size, const QByteArray &shaHex,
                                   const MultipartPolicy &policy, const std::atomic_bool *cancel, std::atomic<qint64> *moved)
{
    Result<QString> uploadId = createMultipart(client, item.key, shaHex, cancel);
    if (!uploadId)
        return uploadId.error();
    Result<QList<QByteArray>> etags = sendParts(client, item, *uploadId, multipartPartSize(policy, size), policy.parallel, cancel, moved);
    Result<void> completed = etags ? completeMultipart(client, item.key, *uploadId, *etags, cancel) : Result<void>(etags.error());
    if (!completed) {
        abortMultipart(client, item.key, *uploadId);
        return completed.error();
    }
    return CopyResult{item, size, QString::fromLatin1(shaHex), true};
}

} // namespace

qint64 multipartPartSize(const MultipartPolicy &policy, qint64 size)
{
    constexpr qint64 kMaxParts = 10000; // S3's limit
    return std::max(policy.partSize, (size + kMaxParts - 1) / kMaxParts);
}

Result<QString> createMultipart(const S3Client &client, const QString &key, const QByteArray &sha256Hex, const std::atomic_bool *cancel)
{
    Result<QByteArray> created = call(client, key, Call{"POST", {{"uploads", ""}}, {}, {{"x-amz-meta-sha256", sha256Hex}}, nullptr}, cancel);
    if (!created)
        return created.error();
    const QString uploadId = xmlText(*created, "UploadId");
    if (uploadId.isEmpty())
        return Error{ErrorCode::RemoteFailed, StorageText::tr("%1 did not start a multipart upload of %2; try again.").arg(client.config().endpoint, key)};
    return uploadId;
}

Result<void> completeMultipart(const S3Client &client, const QString &key, const QString &uploadId, const QList<QByteArray> &etags,
                               const std::atomic_bool *cancel)
{
    QByteArray xml = "<CompleteMultipartUpload>";
    for (int i = 0; i < etags.size(); ++i)
        xml += "<Part><PartNumber>" + QByteArray::number(i + 1) + "</PartNumber><ETag>\"" + etags.at(i) + "\"</ETag></Part>";
    xml += "</CompleteMultipartUpload>";
    Result<QByteArray> completed = call(client, key, Call{"POST", {{"uploadId", uploadId.toUtf8()}}, xml, {}, nullptr}, cancel);
    if (!completed)
        return completed.error();
    // S3 may answer 200 and put the error in the body.
    if (completed->contains("<Error>")) {
        const BucketConfig &c = client.config();
        return s3Error(500, *completed, S3ErrorContext{c.endpoint, c.bucket, c.region, key, {}});
    }
    return {};
}

void abortMultipart(const S3Client &client, const QString &key, const QString &uploadId)
{
    // No cancel flag: the abort goes out even after Stop.
    (void)call(client, key, Call{"DELETE", {{"uploadId", uploadId.toUtf8()}}, {}, {}, nullptr}, nullptr);
}

// A new file beside the destination under a name no listing produces — ".gantry-part-" and 12
// random hex digits, created exclusively — never "NAME.gantry-part", which may be another object
// of the same copy ("x" and a left-over "x.gantry-part" in one prefix).
static Result<void> openStaging(const QString &dir, QFile *file)
{
    for (int tries = 0; tries < 8; ++tries) {
        const quint64 random = QRandomGenerator::system()->generate64() & 0xffffffffffffULL;
        file->setFileName(QDir(dir).filePath(QStringLiteral(".gantry-part-%1").arg(random, 12, 16, QLatin1Char('0'))));
        if (file->open(QIODevice::WriteOnly | QIODevice::NewOnly))
            return {};
        if (file->exists())
            continue;
        break;
    }
    return Error{ErrorCode::Io, StorageText::tr("Cannot write in %1: %2.").arg(dir, file->errorString())};
}

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
    QFile file;
    if (Result<void> staged = openStaging(QFileInfo(item.remotePath).absolutePath(), &file); !staged)
        return staged.error();
    const QString partial = file.fileName();
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
                                  std::atomic<qint64> *moved, const MultipartPolicy &policy)
{
    QFile file(item.remotePath);
    if (!file.open(QIODevice::ReadOnly))
        return Error{ErrorCode::NotFound, StorageText::tr("Cannot read %1: %2.").arg(item.remotePath, file.errorString())};
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
    if (file.size() > std::min(policy.threshold, kMaxSinglePut))
        return uploadMultipart(client, item, file.size(), shaHex, policy, cancel, moved);
    const QByteArray md5Base64 = md5.result().toBase64();
    Result<QUrl> url = client.presign("PUT", item.key, MachineCopy::kUrlSeconds, {{"Content-MD5", md5Base64}, {"x-amz-meta-sha256", shaHex}});
    if (!url)
        return url.error();
    file.seek(0);
    Easy easy;
    Stream stream;
    stream.curl = easy.curl;
    stream.in = &file;
    stream.inName = item.remotePath;
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
