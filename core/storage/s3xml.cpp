// SPDX-License-Identifier: Apache-2.0
#include "core/storage/s3xml.h"

#include "core/storage/storagetext.h"

#include <QXmlStreamReader>

namespace gantry::storage {
namespace {

Error malformed(const QString &why)
{
    return Error{ErrorCode::Parse,
                 StorageText::tr("The storage server's listing could not be read (%1); is the endpoint an S3-compatible API?").arg(why)};
}

// The text of the element the reader stands on, at most maxBytes of UTF-8.
std::optional<QString> boundedText(QXmlStreamReader &xml, int maxBytes)
{
    const QString text = xml.readElementText(QXmlStreamReader::ErrorOnUnexpectedElement);
    if (text.toUtf8().size() > maxBytes)
        return std::nullopt;
    return text;
}

QString unquoted(QString etag)
{
    if (etag.size() >= 2 && etag.startsWith(QLatin1Char('"')) && etag.endsWith(QLatin1Char('"')))
        etag = etag.mid(1, etag.size() - 2);
    return etag;
}

Result<ObjectInfo> readContents(QXmlStreamReader &xml)
{
    ObjectInfo object;
    while (xml.readNextStartElement()) {
        const QStringView name = xml.name();
        if (name == QLatin1String("Key")) {
            const std::optional<QString> key = boundedText(xml, kMaxKeyBytes);
            if (!key)
                return malformed(QStringLiteral("a key longer than 1024 bytes"));
            object.key = *key;
        } else if (name == QLatin1String("Size")) {
            bool ok = false;
            object.size = xml.readElementText().toLongLong(&ok);
            if (!ok || object.size < 0)
                return malformed(QStringLiteral("a size that is no number"));
        } else if (name == QLatin1String("ETag")) {
            object.etag = unquoted(boundedText(xml, 256).value_or(QString()));
        } else if (name == QLatin1String("LastModified")) {
            object.lastModified = QDateTime::fromString(xml.readElementText(), Qt::ISODateWithMs);
        } else {
            xml.skipCurrentElement();
        }
    }
    if (object.key.isEmpty())
        return malformed(QStringLiteral("an object without a key"));
    return object;
}

Result<void> readPrefix(QXmlStreamReader &xml, ListPage &page)
{
    while (xml.readNextStartElement()) {
        if (xml.name() == QLatin1String("Prefix")) {
            const std::optional<QString> prefix = boundedText(xml, kMaxKeyBytes);
            if (!prefix)
                return malformed(QStringLiteral("a prefix longer than 1024 bytes"));
            page.commonPrefixes.append(*prefix);
        } else {
            xml.skipCurrentElement();
        }
    }
    return {};
}

Result<void> readResultChild(QXmlStreamReader &xml, ListPage &page)
{
    const QStringView name = xml.name();
    if (name == QLatin1String("Contents")) {
        if (page.objects.size() >= kMaxKeysPerPage)
            return malformed(QStringLiteral("more than 1000 objects in one page"));
        Result<ObjectInfo> object = readContents(xml);
        if (!object)
            return object.error();
        page.objects.append(*object);
    } else if (name == QLatin1String("CommonPrefixes")) {
        if (page.commonPrefixes.size() >= kMaxKeysPerPage)
            return malformed(QStringLiteral("more than 1000 prefixes in one page"));
        return readPrefix(xml, page);
    } else if (name == QLatin1String("IsTruncated")) {
        page.truncated = xml.readElementText() == QLatin1String("true");
    } else if (name == QLatin1String("NextContinuationToken")) {
        page.nextToken = boundedText(xml, 4096).value_or(QString());
    } else {
        xml.skipCurrentElement();
    }
    return {};
}

} // namespace

Result<ListPage> parseListObjectsV2(const QByteArray &body)
{
    if (body.size() > kMaxXmlBytes)
        return malformed(QStringLiteral("a page larger than 8 MiB"));
    QXmlStreamReader xml(body);
    ListPage page;
    bool root = false;
    while (!xml.atEnd()) {
        const QXmlStreamReader::TokenType token = xml.readNext();
        if (token == QXmlStreamReader::DTD)
            return malformed(QStringLiteral("a document type declaration"));
        if (token != QXmlStreamReader::StartElement)
            continue;
        if (!root) {
            if (xml.name() != QLatin1String("ListBucketResult"))
                return malformed(QStringLiteral("<%1> where <ListBucketResult> was expected").arg(xml.name().left(40)));
            root = true;
            continue;
        }
        if (Result<void> read = readResultChild(xml, page); !read)
            return read.error();
    }
    if (xml.hasError())
        return malformed(xml.errorString());
    if (!root)
        return malformed(QStringLiteral("no XML"));
    if (page.truncated && page.nextToken.isEmpty())
        return malformed(QStringLiteral("a truncated page without a continuation token"));
    return page;
}

S3ErrorBody parseError(const QByteArray &body)
{
    S3ErrorBody out;
    if (body.size() > kMaxXmlBytes)
        return out;
    QXmlStreamReader xml(body);
    while (!xml.atEnd()) {
        const QXmlStreamReader::TokenType token = xml.readNext();
        if (token == QXmlStreamReader::DTD)
            return {};
        if (token != QXmlStreamReader::StartElement || xml.name() == QLatin1String("Error"))
            continue;
        const QStringView name = xml.name();
        QString *field = name == QLatin1String("Code")       ? &out.code
                       : name == QLatin1String("Message")    ? &out.message
                       : name == QLatin1String("Region")     ? &out.region
                       : name == QLatin1String("Endpoint")   ? &out.endpoint
                                                             : nullptr;
        if (field)
            *field = boundedText(xml, 1024).value_or(QString()).left(300);
        else
            xml.skipCurrentElement();
    }
    return out;
}

} // namespace gantry::storage
