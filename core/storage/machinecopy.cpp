// SPDX-License-Identifier: Apache-2.0
#include "core/storage/machinecopy.h"

#include "core/ssh/session.h"
#include "core/storage/localcopy.h"
#include "core/storage/s3errors.h"
#include "core/storage/storagetext.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace gantry::storage {
namespace {

constexpr int kReadSliceMs = 200;
constexpr qsizetype kMaxLineBytes = 64 * 1024;
constexpr int kMaxListedFiles = 100000;

bool md5Etag(const QString &etag)
{
    static const QRegularExpression pattern(QStringLiteral("^[0-9a-f]{32}$"));
    return pattern.match(etag).hasMatch();
}

QString orDash(const QString &value)
{
    return value.isEmpty() ? QStringLiteral("-") : value;
}

bool hasLineBreak(const QString &value)
{
    return value.contains(QLatin1Char('\n')) || value.contains(QLatin1Char('\r'));
}

Error brokenScript(const QString &line)
{
    return Error{ErrorCode::RemoteFailed, StorageText::tr("The copy script on the machine answered \"%1\"; run the copy again.").arg(line.left(200))};
}

} // namespace

Result<CopyItem> withObjectFacts(const S3Client &client, CopyItem item, const std::atomic_bool *cancel)
{
    Result<ObjectInfo> object = client.head(item.key, cancel);
    if (!object)
        return object.error();
    item.size = object->size;
    item.etag = object->etagIsMd5 ? object->etag : QString();
    item.sha256 = object->sha256;
    return item;
}

QString resumablePartName(const CopyItem &item)
{
    if (item.size < kResumableBytes || (item.sha256.isEmpty() && item.etag.isEmpty()))
        return {};
    const QByteArray version = item.key.toUtf8() + '\n' + QByteArray::number(item.size) + '\n' + (item.sha256.isEmpty() ? item.etag : item.sha256).toUtf8();
    return QStringLiteral(".gantry-part-") + QString::fromLatin1(QCryptographicHash::hash(version, QCryptographicHash::Sha256).toHex().left(12));
}

QString machinePath(const QString &path)
{
    QString out = path;
    if (out == QLatin1String("~"))
        out = QStringLiteral(".");
    else if (out.startsWith(QLatin1String("~/")))
        out = out.mid(2);
    if (out.isEmpty())
        out = QStringLiteral(".");
    if (out.startsWith(QLatin1Char('-')))
        out.prepend(QLatin1String("./"));
    return out;
}

QString relativeKeyPath(const QString &key, const QString &prefix)
{
    if (!key.startsWith(prefix))
        return {};
    QString rest = key.mid(prefix.size());
    while (rest.startsWith(QLatin1Char('/')))
        rest.remove(0, 1);
    if (rest.isEmpty() || hasLineBreak(rest))
        return {};
    const QStringList segments = rest.split(QLatin1Char('/'));
    for (const QString &segment : segments) {
        if (segment.isEmpty() || segment == QLatin1String(".") || segment == QLatin1String(".."))
            return {};
    }
    return rest;
}

MachineCopy::MachineCopy(ssh::Session &session, const S3Client &client)
    : m_session(session)
    , m_client(client)
{
}

MachineCopy::~MachineCopy()
{
    if (m_channel) {
        (void)m_channel->sendEof();
        m_channel->close();
    }
}

Result<void> MachineCopy::start()
{
    Result<std::unique_ptr<ssh::Channel>> channel =
        m_session.openExec(QStringLiteral("sh -c ") + ssh::shellQuote(QString::fromUtf8(machineScript())));
    if (!channel)
        return channel.error();
    m_channel = std::move(*channel);
    Result<QString> ready = readLine(nullptr);
    if (!ready)
        return ready.error();
    if (*ready == QLatin1String("NOCURL")) {
        return Error{ErrorCode::RemoteFailed, StorageText::tr("curl is not installed on %1: install it (apt-get install -y curl) and run the copy again.")
                                                  .arg(m_session.target().display())};
    }
    if (*ready != QLatin1String("READY"))
        return brokenScript(*ready);
    return {};
}

Result<void> MachineCopy::send(const QStringList &lines)
{
    for (const QString &line : lines) {
        if (hasLineBreak(line))
            return Error{ErrorCode::Usage, StorageText::tr("\"%1\" holds a line break; Gantry does not copy such names.").arg(line.simplified())};
    }
    return m_channel->write((lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
}

Result<QString> MachineCopy::readLine(const std::atomic_bool *cancel)
{
    for (;;) {
        const qsizetype newline = m_buffer.indexOf('\n');
        if (newline >= 0) {
            const QString line = QString::fromUtf8(m_buffer.left(newline));
            m_buffer.remove(0, newline + 1);
            return line;
        }
        if (m_buffer.size() > kMaxLineBytes)
            return brokenScript(QString::fromUtf8(m_buffer.left(80)));
        if (cancel && cancel->load())
            return Error{ErrorCode::Cancelled, StorageText::tr("Stopped.")};
        if (m_channel->isEof() || !m_channel->isOpen())
            return Error{ErrorCode::RemoteFailed, StorageText::tr("The copy script on %1 ended early; run the copy again.").arg(m_session.target().display())};
        Result<QByteArray> data = m_channel->read(kReadSliceMs);
        if (!data)
            return data.error();
        m_buffer += *data;
    }
}

Result<QString> MachineCopy::exchange(const QStringList &lines, const std::atomic_bool *cancel)
{
    if (Result<void> sent = send(lines); !sent)
        return sent.error();
    return readLine(cancel);
}

Error MachineCopy::failure(const QString &line, const CopyItem &item) const
{
    const QString where = m_session.target().display() + QLatin1Char(':') + item.remotePath;
    if (line.startsWith(QLatin1String("HTTP "))) {
        const QStringList parts = line.split(QLatin1Char(' '));
        const int status = parts.value(1).toInt();
        const QString code = parts.value(2) == QLatin1String("-") ? QString() : parts.value(2);
        const QString message = parts.mid(3).join(QLatin1Char(' '));
        // The XML the machine saw, rebuilt from its code and message for the one error table.
        const QByteArray body = code.isEmpty() ? QByteArray()
                                               : QStringLiteral("<Error><Code>%1</Code><Message>%2</Message></Error>").arg(code, message.toHtmlEscaped()).toUtf8();
        const BucketConfig &c = m_client.config();
        return s3Error(status, body, S3ErrorContext{c.endpoint, c.bucket, c.region, item.key, {}});
    }
    if (line.startsWith(QLatin1String("CURL 23 ")) || line.contains(QLatin1String("No space left"))) {
        return Error{ErrorCode::DiskFull, StorageText::tr("The machine could not write %1 (%2): is its disk full? Free space (df -h) and run the copy again.")
                                              .arg(where, line.section(QLatin1Char(' '), 2))};
    }
    if (line.startsWith(QLatin1String("CURL "))) {
        return Error{ErrorCode::ConnectFailed, StorageText::tr("The machine's curl could not reach the storage (%1): can %2 reach %3?")
                                                   .arg(line.section(QLatin1Char(' '), 2), m_session.target().display(), m_client.config().endpoint)};
    }
    if (line.startsWith(QLatin1String("BAD "))) {
        return Error{ErrorCode::RemoteFailed, StorageText::tr("%1 did not match the object's %2 after the copy; nothing was kept. Run the copy again.")
                                                  .arg(where, line.section(QLatin1Char(' '), 1, 1))};
    }
    if (line.startsWith(QLatin1String("ISDIR "))) {
        return Error{ErrorCode::Usage, StorageText::tr("%1 is a folder: end the destination with / to copy into it.").arg(where)};
    }
    if (line.startsWith(QLatin1String("MISSING ")))
        return Error{ErrorCode::NotFound, StorageText::tr("There is no file %1 to copy.").arg(where)};
    return brokenScript(line);
}

Result<CopyResult> MachineCopy::download(const CopyItem &listed, const std::atomic_bool *cancel)
{
    Result<CopyItem> item = withObjectFacts(m_client, listed, cancel);
    if (!item)
        return item.error();
    Result<QUrl> url = m_client.presign("GET", item->key, kUrlSeconds);
    if (!url)
        return url.error();
    const QString md5 = item->etag;
    const QString keep = resumablePartName(*item);
    Result<QString> line = exchange({QStringLiteral("get"), QString::fromLatin1(url->toEncoded()), item->remotePath,
                                     QString::number(item->size), orDash(md5), orDash(item->sha256), orDash(keep)},
                                    cancel);
    if (!line)
        return line.error();
    const QStringList parts = line->split(QLatin1Char(' '));
    const bool verified = !md5.isEmpty() || !item->sha256.isEmpty();
    if (parts.value(0) == QLatin1String("SAME"))
        return CopyResult{*item, parts.value(1).toLongLong(), item->sha256, verified, true, 0};
    if (parts.value(0) != QLatin1String("OK")) {
        Error error = failure(*line, *item);
        // A stalled or dropped transfer leaves the part for the next run (a full disk does not).
        if (!keep.isEmpty() && resumableInterruption(error)) {
            error.message += QLatin1Char(' ') + StorageText::tr("What arrived is kept in %1 on the machine: run the same copy again to go on from there.")
                                                    .arg(QFileInfo(item->remotePath).dir().filePath(keep));
        }
        return error;
    }
    return CopyResult{*item, parts.value(1).toLongLong(), parts.value(2), verified, false, parts.value(3).toLongLong()};
}

Result<MachineCopy::FileHash> MachineCopy::hash(const QString &remotePath, const std::atomic_bool *cancel)
{
    Result<QString> hashed = exchange({QStringLiteral("hash"), remotePath}, cancel);
    if (!hashed)
        return hashed.error();
    const QStringList fields = hashed->split(QLatin1Char(' '));
    // Empty values: the file went between the script's test and its reading (renamed away).
    if (fields.value(0) == QLatin1String("HASH") && fields.size() == 4 && (fields[2].isEmpty() || fields[3].isEmpty()))
        return failure(QStringLiteral("MISSING ") + remotePath, CopyItem{{}, remotePath, -1, {}, {}});
    if (fields.value(0) != QLatin1String("HASH") || fields.size() != 4)
        return failure(*hashed, CopyItem{{}, remotePath, -1, {}, {}});
    return FileHash{fields[1].toLongLong(), fields[2], fields[3]};
}

Result<CopyResult> MachineCopy::upload(const CopyItem &item, const std::atomic_bool *cancel)
{
    Result<FileHash> hashed = hash(item.remotePath, cancel);
    if (!hashed)
        return hashed.error();
    const QStringList hash{QStringLiteral("HASH"), QString::number(hashed->size), hashed->md5, hashed->sha256};
    const qint64 size = hash[1].toLongLong();
    Result<bool> there = alreadyInBucket(m_client, item.key, size, hash[2], hash[3], cancel);
    if (!there)
        return there.error();
    if (*there)
        return CopyResult{item, size, hash[3], true, true, 0};
    if (size > std::min(m_policy.threshold, 5LL * 1024 * 1024 * 1024)) {
        Result<MultipartStart> start = beginMultipart(m_client, m_policy, item.key, hash[3].toLatin1(), size, cancel);
        if (!start)
            return start.error();
        qint64 resumed = 0;
        Result<QList<QByteArray>> etags = uploadParts(item, size, *start, cancel, &resumed);
        if (Result<void> completed = finishMultipart(m_client, m_policy, item.key, *start, etags, cancel); !completed)
            return completed.error();
        return CopyResult{item, size, hash[3], true, false, resumed};
    }
    const QByteArray md5Base64 = QByteArray::fromHex(hash[2].toLatin1()).toBase64();
    Result<QUrl> url = m_client.presign("PUT", item.key, kUrlSeconds, {{"Content-MD5", md5Base64}, {"x-amz-meta-sha256", hash[3].toLatin1()}});
    if (!url)
        return url.error();
    Result<QString> line = exchange({QStringLiteral("put"), QString::fromLatin1(url->toEncoded()), item.remotePath,
                                     QString::fromLatin1(md5Base64), hash[3]},
                                    cancel);
    if (!line)
        return line.error();
    if (!line->startsWith(QLatin1String("OK ")))
        return failure(*line, item);
    // The server checked Content-MD5; an ETag that is an MD5 (not under SSE-KMS) must be the same one.
    const QString etag = line->section(QLatin1Char(' '), 1, 1);
    const bool kms = line->section(QLatin1Char(' '), 2, 2).startsWith(QLatin1String("aws:kms"));
    if (md5Etag(etag) && !kms && etag != hash[2])
        return failure(QStringLiteral("BAD md5"), item);
    return CopyResult{item, hash[1].toLongLong(), hash[3], true, false, 0};
}

Result<QList<QByteArray>> MachineCopy::uploadParts(const CopyItem &item, qint64 size, const MultipartStart &start, const std::atomic_bool *cancel,
                                                   qint64 *resumed)
{
    const qint64 partSize = multipartPartSize(m_policy, size);
    QList<QByteArray> etags;
    for (qint64 index = 0; index * partSize < size; ++index) {
        Result<QUrl> url = m_client.presign("PUT", item.key, kUrlSeconds, {},
                                            {{"partNumber", QByteArray::number(index + 1)}, {"uploadId", start.uploadId.toUtf8()}});
        if (!url)
            return url.error();
        const QString sent = QString::fromLatin1(start.sent.value(int(index + 1)));
        Result<QString> line = exchange({QStringLiteral("part"), QString::fromLatin1(url->toEncoded()), item.remotePath,
                                         QString::number(index), QString::number(partSize), orDash(sent)},
                                        cancel);
        if (!line)
            return line.error();
        const QStringList fields = line->split(QLatin1Char(' '));
        if (fields.value(0) != QLatin1String("OK") || fields.size() != 5)
            return failure(*line, item);
        // The ETag is the MD5 of what the server received: the part the machine read, unchanged.
        if (md5Etag(fields[1]) && fields[1] != fields[2])
            return failure(QStringLiteral("BAD md5"), item);
        if (fields[3].toLongLong() != std::min(partSize, size - index * partSize))
            return failure(QStringLiteral("BAD size ") + fields[3], item);
        if (fields[4] == QLatin1String("kept"))
            *resumed += fields[3].toLongLong();
        etags << fields[1].toLatin1();
    }
    return etags;
}

Result<QList<MachineCopy::RemoteFile>> MachineCopy::listFiles(const QString &root, bool *isFolder, const std::atomic_bool *cancel)
{
    if (Result<void> sent = send({QStringLiteral("list"), root}); !sent)
        return sent.error();
    QList<RemoteFile> files;
    *isFolder = false;
    for (;;) {
        Result<QString> line = readLine(cancel);
        if (!line)
            return line.error();
        if (*line == QLatin1String("END"))
            return files;
        if (*line == QLatin1String("DIR")) {
            *isFolder = true;
        } else if (line->startsWith(QLatin1String("FILE "))) {
            QString relative = line->section(QLatin1Char(' '), 2);
            if (relative.startsWith(QLatin1String("./")))
                relative = relative.mid(2);
            files.append(RemoteFile{relative, line->section(QLatin1Char(' '), 1, 1).toLongLong()});
            if (files.size() > kMaxListedFiles)
                return Error{ErrorCode::Usage, StorageText::tr("More than %1 files under %2: copy a smaller folder.").arg(kMaxListedFiles).arg(root)};
        } else {
            return failure(*line, CopyItem{QString(), root, -1, QString(), QString()});
        }
    }
}

} // namespace gantry::storage
