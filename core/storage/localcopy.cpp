// SPDX-License-Identifier: Apache-2.0
#include "core/storage/localcopy.h"

#include "core/storage/s3errors.h"
#include "core/storage/storagetext.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QDir>
#include <QRandomGenerator>
#include <QXmlStreamReader>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QLockFile>

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
    qint64 resumeFrom = 0;  // a download asked for the bytes from here on (Range)
    bool answered = false;  // the first bytes of the answer's body came
    bool restarted = false; // the server sent the whole object instead: begun again from 0
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
    if (!std::exchange(stream->answered, true) && stream->resumeFrom > 0 && statusOf(stream->curl) != 206) {
        // Not the range asked for: the whole object comes, so the file starts again.
        stream->out->resize(0);
        stream->out->seek(0);
        stream->sha256.reset();
        stream->md5.reset();
        if (stream->moved)
            stream->moved->fetch_sub(stream->bytes);
        stream->bytes = 0;
        stream->restarted = true;
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
// Parts an interrupted copy already sent are read and compared by their MD5, not sent again.
Result<QList<QByteArray>> sendParts(const S3Client &client, const CopyItem &item, const MultipartStart &start, qint64 partSize,
                                    int parallel, const std::atomic_bool *cancel, std::atomic<qint64> *moved, std::atomic<qint64> *resumed)
{
    const QString &uploadId = start.uploadId;
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
            const bool whole = data.size() == std::min(partSize, size - qint64(i) * partSize);
            if (whole && start.sent.value(i + 1) == md5.toHex()) {
                etags[i] = md5.toHex();
                resumed->fetch_add(data.size());
                if (moved)
                    moved->fetch_add(data.size());
                continue;
            }
            if (whole) {
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

// Create (or take up an interrupted upload again), the parts, Complete; after a failure the
// upload is kept to resume or aborted (finishMultipart).
Result<CopyResult> uploadMultipart(const S3Client &client, const CopyItem &item, qint64 size, const QByteArray &shaHex,
                                   const MultipartPolicy &policy, const std::atomic_bool *cancel, std::atomic<qint64> *moved)
{
    Result<MultipartStart> start = beginMultipart(client, policy, item.key, shaHex, size, cancel);
    if (!start)
        return start.error();
    std::atomic<qint64> resumed{0};
    Result<QList<QByteArray>> etags = sendParts(client, item, *start, multipartPartSize(policy, size), policy.parallel, cancel, moved, &resumed);
    if (Result<void> completed = finishMultipart(client, policy, item.key, *start, etags, cancel); !completed)
        return completed.error();
    return CopyResult{item, size, QString::fromLatin1(shaHex), true, false, resumed.load()};
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

Result<QHash<int, QByteArray>> listParts(const S3Client &client, const QString &key, const QString &uploadId, const std::atomic_bool *cancel)
{
    QHash<int, QByteArray> parts;
    QByteArray marker = "0";
    // 200 a page keeps each answer under what call() reads (64 KiB); 10,000 parts at most.
    for (int page = 0; page < 60; ++page) {
        Result<QByteArray> listed = call(client, key, Call{"GET", {{"max-parts", "200"}, {"part-number-marker", marker}, {"uploadId", uploadId.toUtf8()}}, {}, {}, nullptr}, cancel);
        if (!listed)
            return listed.error();
        QXmlStreamReader xml(*listed);
        int number = 0;
        QByteArray etag;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("PartNumber"))
                number = xml.readElementText().toInt();
            else if (xml.isStartElement() && xml.name() == QLatin1String("ETag"))
                etag = xml.readElementText().remove(QLatin1Char('"')).toLatin1();
            else if (xml.isEndElement() && xml.name() == QLatin1String("Part") && number > 0)
                parts.insert(std::exchange(number, 0), std::exchange(etag, {}));
        }
        if (xmlText(*listed, "IsTruncated") != QLatin1String("true"))
            return parts;
        marker = xmlText(*listed, "NextPartNumberMarker").toLatin1();
    }
    return parts;
}

void abortMultipart(const S3Client &client, const QString &key, const QString &uploadId)
{
    // No cancel flag: the abort goes out even after Stop.
    (void)call(client, key, Call{"DELETE", {{"uploadId", uploadId.toUtf8()}}, {}, {}, nullptr}, nullptr);
}

namespace {

// A new file beside the destination under a name no listing produces — ".gantry-part-" and 12
// random hex digits, created exclusively — never "NAME.gantry-part", which may be another object
// of the same copy ("x" and a left-over "x.gantry-part" in one prefix).
Result<void> openStaging(const QString &dir, QFile *file)
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

// The file holds these bytes already: its size and the object's SHA-256, else its MD5 ETag.
bool sameLocalFile(const CopyItem &item)
{
    const QFileInfo info(item.remotePath);
    if (!info.isFile() || info.size() != item.size || (item.sha256.isEmpty() && item.etag.isEmpty()))
        return false;
    QFile file(item.remotePath);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    QCryptographicHash hash(item.sha256.isEmpty() ? QCryptographicHash::Md5 : QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return false;
    return QString::fromLatin1(hash.result().toHex()) == (item.sha256.isEmpty() ? item.etag : item.sha256);
}

// Where a download is staged: under a name kept for the object's version where it is large
// enough to be worth resuming (a run after an interruption goes on from it; the lock keeps two
// copies of one object apart), else under a fresh random name. `have` is what it already holds.
struct Staging
{
    QFile file;
    std::unique_ptr<QLockFile> lock;
    qint64 have = 0;
    bool kept() const { return lock != nullptr; }
};

Result<void> openResumable(const CopyItem &item, Staging *staging, Stream *stream)
{
    const QString dir = QFileInfo(item.remotePath).absolutePath();
    const QString name = resumablePartName(item);
    if (!name.isEmpty()) {
        auto lock = std::make_unique<QLockFile>(QDir(dir).filePath(name + QStringLiteral(".lock")));
        lock->setStaleLockTime(0); // only a holder that is gone (its pid) gives the part up, however long it runs
        staging->file.setFileName(QDir(dir).filePath(name));
        if (lock->tryLock(0) && !QFileInfo(staging->file.fileName()).isSymLink() && staging->file.open(QIODevice::ReadWrite)) {
            staging->lock = std::move(lock);
            if (staging->file.size() > item.size)
                staging->file.resize(0);
            // What an earlier run received counts in the checksums as if it had come now.
            while (!staging->file.atEnd()) {
                const QByteArray chunk = staging->file.read(1 << 20);
                if (chunk.isEmpty())
                    break;
                stream->sha256.addData(chunk);
                stream->md5.addData(chunk);
                staging->have += chunk.size();
            }
            stream->bytes = stream->resumeFrom = staging->have;
            return {};
        }
    }
    return openStaging(dir, &staging->file);
}

} // namespace

Result<CopyResult> downloadToLocal(const S3Client &client, const CopyItem &listed, const std::atomic_bool *cancel,
                                   std::atomic<qint64> *moved)
{
    Result<CopyItem> facts = withObjectFacts(client, listed, cancel);
    if (!facts)
        return facts.error();
    const CopyItem &item = *facts;
    if (sameLocalFile(item))
        return CopyResult{item, item.size, item.sha256, true, true, 0};
    Result<QUrl> url = client.presign("GET", item.key, MachineCopy::kUrlSeconds);
    if (!url)
        return url.error();
    QDir().mkpath(QFileInfo(item.remotePath).absolutePath());
    Easy easy;
    Stream stream;
    Staging staging;
    if (Result<void> staged = openResumable(item, &staging, &stream); !staged)
        return staged.error();
    QFile &file = staging.file;
    const QString partial = file.fileName();
    stream.curl = easy.curl;
    stream.out = &file;
    stream.cancel = cancel;
    stream.moved = moved;
    if (moved)
        moved->fetch_add(staging.have);
    Result<void> done;
    if (staging.have < item.size || item.size < 0)
        done = perform(stream, *url, staging.have > 0 ? QList<QByteArray>{"Range: bytes=" + QByteArray::number(staging.have) + '-'} : QList<QByteArray>{}, client, item.key);
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
    if (!done && staging.kept() && resumableInterruption(done.error())) {
        Error kept = done.error();
        kept.message += QLatin1Char(' ') + StorageText::tr("The %1 received are kept in %2: run the same copy again to go on from there.")
                                               .arg(QLocale::c().formattedDataSize(stream.bytes), partial);
        return kept;
    }
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
    return CopyResult{item, stream.bytes, sha, !item.sha256.isEmpty() || md5Known, false, stream.restarted ? 0 : staging.have};
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
    Result<bool> there = alreadyInBucket(client, item.key, file.size(), QString::fromLatin1(md5.result().toHex()), QString::fromLatin1(shaHex), cancel);
    if (!there)
        return there.error();
    if (*there)
        return CopyResult{item, file.size(), QString::fromLatin1(shaHex), true, true, 0};
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
    return CopyResult{item, file.size(), QString::fromLatin1(shaHex), true, false, 0};
}

} // namespace gantry::storage
