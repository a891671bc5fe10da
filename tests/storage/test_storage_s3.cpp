// SPDX-License-Identifier: Apache-2.0
// The S3 client and the bucket store against the S3 emulator (tests/support/s3emulator.py, whose
// every signature check is botocore's), and the listing parser's caps.

#include "core/providers/httpclient.h"
#include "core/storage/buckets.h"
#include "core/storage/localcopy.h"
#include "core/storage/machinecopy.h"
#include "core/storage/s3client.h"
#include "core/util/secretstore.h"

#include "s3emulatorprocess.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::storage;
using gantry::test::S3EmulatorProcess;

namespace {

sigv4::Credentials goodKeys()
{
    return sigv4::Credentials{QString::fromLatin1(S3EmulatorProcess::kAccessKey), QString::fromLatin1(S3EmulatorProcess::kSecretKey), {}};
}

BucketConfig config(const S3EmulatorProcess &s3, const QString &bucket = QStringLiteral("data"))
{
    return BucketConfig{QStringLiteral("data"), s3.endpoint(), bucket, QStringLiteral("us-east-1")};
}

QByteArray listingWith(int objects, const QByteArray &key = "k")
{
    QByteArray xml = "<ListBucketResult><IsTruncated>false</IsTruncated>";
    for (int i = 0; i < objects; ++i)
        xml += "<Contents><Key>" + key + QByteArray::number(i) + "</Key><Size>1</Size><ETag>\"x\"</ETag></Contents>";
    return xml + "</ListBucketResult>";
}

} // namespace

class TestStorageS3 : public QObject
{
    Q_OBJECT

    S3EmulatorProcess m_s3;
    QString m_why;

private slots:
    void initTestCase()
    {
        m_why = m_s3.start({QStringLiteral("--bucket"), QStringLiteral("data"), QStringLiteral("--bucket"), QStringLiteral("empty"),
                            QStringLiteral("--object"), QStringLiteral("data/runs/a b+c=d$.txt=hello"),
                            QStringLiteral("--object"), QStringLiteral("data/runs/sub/deep.txt=deep"),
                            QStringLiteral("--object"), QStringLiteral("data/top.txt=top"),
                            QStringLiteral("--many"), QStringLiteral("data/many/:1500"), QStringLiteral("--min-part-size"),
                            QStringLiteral("1024")});
    }

    // Above the threshold a file goes up in parts, several at a time: the object holds every byte,
    // its SHA-256 is kept, and no upload is left open.
    void multipartUpload()
    {
        GANTRY_REQUIRE_S3(m_why);
        const S3Client client(config(m_s3), goodKeys());
        QTemporaryDir dir;
        QByteArray bytes;
        for (int i = 0; bytes.size() < 10 * 1024 + 123; ++i)
            bytes += QByteArray::number(i) + ' ';
        const QString path = dir.filePath(QStringLiteral("big.bin"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        const MultipartPolicy policy{4096, 2048, 3, {}};
        std::atomic<qint64> moved{0};
        Result<CopyResult> up = uploadFromLocal(client, CopyItem{QStringLiteral("big/big.bin"), path, bytes.size(), {}, {}}, nullptr, &moved, policy);
        QVERIFY2(up.ok(), qPrintable(up.ok() ? QString() : up.error().message));
        QCOMPARE(moved.load(), bytes.size());
        Result<ObjectInfo> head = client.head(QStringLiteral("big/big.bin"));
        QVERIFY(head.ok());
        QCOMPARE(head->size, bytes.size());
        QVERIFY2(head->etag.endsWith(QStringLiteral("-%1").arg((bytes.size() + 2047) / 2048)), qPrintable(head->etag));
        QCOMPARE(head->sha256, QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
        const QString back = dir.filePath(QStringLiteral("back.bin"));
        QVERIFY(downloadToLocal(client, CopyItem{QStringLiteral("big/big.bin"), back, -1, {}, {}}, nullptr).ok());
        QFile copy(back);
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), bytes);
        QVERIFY(m_s3.openUploads() == 0);
    }

    // A part that fails: one line, nothing under the key, and the upload aborted.
    void multipartFailureLeavesNothing()
    {
        GANTRY_REQUIRE_S3(m_why);
        const S3Client client(config(m_s3), goodKeys());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.bin"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(9000, 'x'));
        file.close();
        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=3")));
        Result<CopyResult> up = uploadFromLocal(client, CopyItem{QStringLiteral("big/failed.bin"), path, 9000, {}, {}}, nullptr, nullptr,
                                                MultipartPolicy{4096, 2048, 2, {}});
        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=0")));
        QVERIFY(!up.ok());
        QVERIFY2(!up.error().message.contains(QLatin1Char('\n')), qPrintable(up.error().message));
        QCOMPARE(client.head(QStringLiteral("big/failed.bin")).error().code, ErrorCode::NotFound);
        QVERIFY(m_s3.openUploads() == 0);
    }

    void listsFoldersAndObjects()
    {
        GANTRY_REQUIRE_S3(m_why);
        const S3Client client(config(m_s3), goodKeys());
        Result<ListPage> page = client.listPage(QStringLiteral("runs/"), QStringLiteral("/"), {}, 1000);
        QVERIFY2(page.ok(), qPrintable(page.ok() ? QString() : page.error().message));
        QCOMPARE(page->commonPrefixes, QStringList{QStringLiteral("runs/sub/")});
        QCOMPARE(page->objects.size(), 1);
        QCOMPARE(page->objects[0].key, QStringLiteral("runs/a b+c=d$.txt"));
        QCOMPARE(page->objects[0].size, 5);
        QCOMPARE(page->objects[0].etag, QString::fromLatin1(QCryptographicHash::hash("hello", QCryptographicHash::Md5).toHex()));
    }

    // 1500 objects come in two pages of ListObjectsV2, all of them, none twice.
    void listsEveryPage()
    {
        GANTRY_REQUIRE_S3(m_why);
        const S3Client client(config(m_s3), goodKeys());
        Result<QList<ObjectInfo>> all = client.listAll(QStringLiteral("many/"), 100000);
        QVERIFY2(all.ok(), qPrintable(all.ok() ? QString() : all.error().message));
        QCOMPARE(all->size(), 1500);
        QCOMPARE(all->constLast().key, QStringLiteral("many/01499.txt"));
        Result<QList<ObjectInfo>> capped = client.listAll(QStringLiteral("many/"), 1200);
        QVERIFY(!capped.ok());
        QVERIFY(capped.error().message.contains(QLatin1String("narrower prefix")));
    }

    void headsAnObject()
    {
        GANTRY_REQUIRE_S3(m_why);
        const S3Client client(config(m_s3), goodKeys());
        Result<ObjectInfo> object = client.head(QStringLiteral("runs/a b+c=d$.txt"));
        QVERIFY2(object.ok(), qPrintable(object.ok() ? QString() : object.error().message));
        QCOMPARE(object->size, 5);
        Result<ObjectInfo> missing = client.head(QStringLiteral("runs/nothing"));
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QVERIFY(missing.error().message.contains(QLatin1String("storage ls")));
    }

    // A presigned PUT with signed Content-MD5 and metadata, then a presigned GET, as the machine's
    // curl makes them; a wrong MD5 is refused by the server.
    void presignedPutAndGet()
    {
        GANTRY_REQUIRE_S3(m_why);
        const S3Client client(config(m_s3), goodKeys());
        const QByteArray body = "checkpoint bytes";
        const QByteArray md5 = QCryptographicHash::hash(body, QCryptographicHash::Md5).toBase64();
        const QByteArray sha = QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex();
        const sigv4::Pairs signedHeaders{{"Content-MD5", md5}, {"x-amz-meta-sha256", sha}};
        Result<QUrl> put = client.presign("PUT", QStringLiteral("up/数据 1.bin"), 600, signedHeaders);
        QVERIFY(put.ok());
        providers::HttpRequest request{"PUT", *put, signedHeaders, body};
        QCOMPARE(providers::HttpClient::performOnce(request, nullptr).status, 200);
        request.headers = {{"Content-MD5", QCryptographicHash::hash("other", QCryptographicHash::Md5).toBase64()}, {"x-amz-meta-sha256", sha}};
        QCOMPARE(providers::HttpClient::performOnce(request, nullptr).status, 403); // signed: another MD5 breaks the signature
        // A URL signed for another MD5 than the body's: the server refuses the damaged body.
        Result<QUrl> damaged = client.presign("PUT", QStringLiteral("up/bad.bin"), 600, request.headers);
        QVERIFY(damaged.ok());
        request.url = *damaged;
        const providers::HttpResponse refused = providers::HttpClient::performOnce(request, nullptr);
        QCOMPARE(refused.status, 400);
        QVERIFY(client.errorFor(refused, QStringLiteral("up/bad.bin")).message.contains(QLatin1String("arrived damaged")));
        Result<QUrl> get = client.presign("GET", QStringLiteral("up/数据 1.bin"), 600);
        QVERIFY(get.ok());
        const providers::HttpResponse got = providers::HttpClient::performOnce(providers::HttpRequest{"GET", *get, {}, {}}, nullptr);
        QCOMPARE(got.status, 200);
        QCOMPARE(got.body, body);
        Result<ObjectInfo> object = client.head(QStringLiteral("up/数据 1.bin"));
        QVERIFY(object.ok());
        QCOMPARE(object->sha256, QString::fromLatin1(sha));
        QVERIFY(!client.presign("GET", QStringLiteral("x"), kMaxUrlSeconds + 1).ok());
    }

    // Bad input: each a one-line error that says what to do next.
    void refusalsSayWhatToDo()
    {
        GANTRY_REQUIRE_S3(m_why);
        sigv4::Credentials wrongSecret = goodKeys();
        wrongSecret.secretAccessKey = QStringLiteral("not-the-secret");
        Result<void> signature = S3Client(config(m_s3), wrongSecret).checkAccess();
        QVERIFY(!signature.ok());
        QCOMPARE(signature.error().code, ErrorCode::AuthFailed);
        QVERIFY2(signature.error().message.contains(QLatin1String("SignatureDoesNotMatch")), qPrintable(signature.error().message));
        sigv4::Credentials unknown = goodKeys();
        unknown.accessKeyId = QStringLiteral("AKIAUNKNOWN");
        Result<void> keyId = S3Client(config(m_s3), unknown).checkAccess();
        QVERIFY(!keyId.ok() && keyId.error().message.contains(QLatin1String("InvalidAccessKeyId")));
        Result<void> bucket = S3Client(config(m_s3, QStringLiteral("nope")), goodKeys()).checkAccess();
        QVERIFY(!bucket.ok());
        QCOMPARE(bucket.error().code, ErrorCode::NotFound);
        QVERIFY(bucket.error().message.contains(QLatin1String("check --bucket")));
        BucketConfig elsewhere = config(m_s3);
        elsewhere.region = QStringLiteral("eu-west-1");
        Result<void> region = S3Client(elsewhere, goodKeys()).checkAccess();
        QVERIFY(!region.ok());
        QVERIFY2(region.error().message.contains(QLatin1String("--region us-east-1")), qPrintable(region.error().message));
        for (const Error &e : {signature.error(), keyId.error(), bucket.error(), region.error()})
            QVERIFY(!e.message.contains(QLatin1Char('\n')));
    }

    // A URL used after its hour is refused, and the error says to run the copy again.
    void expiredUrl()
    {
        GANTRY_REQUIRE_S3(m_why);
        ManualClock past(QDateTime::currentDateTimeUtc().addSecs(-2 * 3600));
        const S3Client client(config(m_s3), goodKeys(), past);
        Result<QUrl> url = client.presign("GET", QStringLiteral("top.txt"), kMaxUrlSeconds);
        QVERIFY(url.ok());
        const providers::HttpResponse response = providers::HttpClient::performOnce(providers::HttpRequest{"GET", *url, {}, {}}, nullptr);
        QCOMPARE(response.status, 403);
        const Error error = client.errorFor(response, QStringLiteral("top.txt"));
        QVERIFY2(error.message.contains(QLatin1String("expired")) && error.message.contains(QLatin1String("run the copy again")),
                 qPrintable(error.message));
    }

    // Temporary credentials: the token is signed into headers and presigned URLs; without it,
    // or once it has expired, the server refuses and the error says what to do.
    void sessionTokens()
    {
        GANTRY_REQUIRE_S3(m_why);
        S3EmulatorProcess withToken;
        GANTRY_REQUIRE_S3(withToken.start({QStringLiteral("--session-token"), QStringLiteral("FwoGZXIvYXdzEXAMPLE//token="),
                                           QStringLiteral("--bucket"), QStringLiteral("data"), QStringLiteral("--object"),
                                           QStringLiteral("data/t.txt=temporary")}));
        sigv4::Credentials keys = goodKeys();
        QVERIFY(!S3Client(config(withToken), keys).checkAccess().ok());
        keys.sessionToken = QStringLiteral("FwoGZXIvYXdzEXAMPLE//token=");
        const S3Client client(config(withToken), keys);
        QVERIFY(client.checkAccess().ok());
        Result<QUrl> url = client.presign("GET", QStringLiteral("t.txt"), 60);
        QVERIFY(url.ok() && url->query(QUrl::FullyEncoded).contains(QLatin1String("X-Amz-Security-Token=")));
        QCOMPARE(providers::HttpClient::performOnce(providers::HttpRequest{"GET", *url, {}, {}}, nullptr).body, QByteArray("temporary"));
        QVERIFY(withToken.control(QStringLiteral("expire-token")));
        Result<void> expired = client.checkAccess();
        QVERIFY(!expired.ok());
        QVERIFY2(expired.error().message.contains(QLatin1String("AWS_SESSION_TOKEN")), qPrintable(expired.error().message));
    }

    // Virtual-hosted names on AWS for DNS-safe buckets, path style everywhere else.
    void addressing()
    {
        const auto where = [](const QString &endpoint, const QString &bucket, const QString &key) {
            return S3Client(BucketConfig{QStringLiteral("n"), endpoint, bucket, QStringLiteral("eu-west-1")}, goodKeys()).address(key);
        };
        Result<S3Client::Address> aws = where(QStringLiteral("https://s3.eu-west-1.amazonaws.com"), QStringLiteral("my-data"), QStringLiteral("a b/c"));
        QVERIFY(aws.ok());
        QCOMPARE(aws->host, QByteArray("my-data.s3.eu-west-1.amazonaws.com"));
        QCOMPARE(aws->path, QByteArray("/a%20b/c"));
        QCOMPARE(where(QStringLiteral("https://s3.eu-west-1.amazonaws.com"), QStringLiteral("my.data"), QStringLiteral("k"))->path, QByteArray("/my.data/k"));
        Result<S3Client::Address> r2 = where(QStringLiteral("https://acct.r2.cloudflarestorage.com:443"), QStringLiteral("data"), QStringLiteral("k"));
        QCOMPARE(r2->host, QByteArray("acct.r2.cloudflarestorage.com"));
        QCOMPARE(r2->url.toEncoded(), QByteArray("https://acct.r2.cloudflarestorage.com/data/k"));
        QCOMPARE(where(QStringLiteral("http://127.0.0.1:9000"), QStringLiteral("data"), QString())->path, QByteArray("/data"));
        QVERIFY(!where(QStringLiteral("https://minio.example.com/data"), QStringLiteral("data"), QStringLiteral("k")).ok());
        QVERIFY(!where(QStringLiteral("ftp://minio.example.com"), QStringLiteral("data"), QStringLiteral("k")).ok());
    }

    void listingParserCaps()
    {
        QVERIFY(parseListObjectsV2(listingWith(1000)).ok());
        QVERIFY(!parseListObjectsV2(listingWith(1001)).ok());
        QVERIFY(!parseListObjectsV2(listingWith(1, QByteArray(1025, 'k'))).ok());
        QVERIFY(!parseListObjectsV2("<!DOCTYPE x [<!ENTITY a \"aaaa\">]><ListBucketResult><Contents><Key>&a;</Key></Contents></ListBucketResult>").ok());
        QVERIFY(!parseListObjectsV2("<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>").ok());
        QVERIFY(!parseListObjectsV2("<Error><Code>NoSuchBucket</Code></Error>").ok());
        QVERIFY(!parseListObjectsV2("<ListBucketResult><Contents><Key>a").ok());
        QCOMPARE(parseError("<Error><Code>NoSuchBucket</Code><Message>gone</Message></Error>").code, QStringLiteral("NoSuchBucket"));
    }

    // A key that would climb out of the destination folder is never joined to it.
    void keysStayInsideTheFolder()
    {
        QCOMPARE(relativeKeyPath(QStringLiteral("runs/a/b.txt"), QStringLiteral("runs/")), QStringLiteral("a/b.txt"));
        QVERIFY(relativeKeyPath(QStringLiteral("runs/../../etc/passwd"), QStringLiteral("runs/")).isEmpty());
        QVERIFY(relativeKeyPath(QStringLiteral("runs//x"), QStringLiteral("runs/")) == QStringLiteral("x"));
        QVERIFY(relativeKeyPath(QStringLiteral("runs/a//x"), QStringLiteral("runs/")).isEmpty());
        QVERIFY(relativeKeyPath(QStringLiteral("runs/./x"), QStringLiteral("runs/")).isEmpty());
        QVERIFY(relativeKeyPath(QStringLiteral("other/x"), QStringLiteral("runs/")).isEmpty());
        QCOMPARE(machinePath(QStringLiteral("~/data")), QStringLiteral("data"));
        QCOMPARE(machinePath(QStringLiteral("-rf")), QStringLiteral("./-rf"));
    }

    // add tests the keys before anything is saved; the keys go to the secret store, never to
    // storage.json; remove forgets both.
    void bucketStore()
    {
        GANTRY_REQUIRE_S3(m_why);
        QTemporaryDir dir;
        std::unique_ptr<SecretStore> secrets = makeMemorySecretStore();
        Buckets buckets(dir.path(), secrets.get());
        sigv4::Credentials wrong = goodKeys();
        wrong.secretAccessKey = QStringLiteral("wrong");
        QVERIFY(!buckets.add(config(m_s3), wrong, KeySource::Keychain).ok());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("storage.json"))));
        QVERIFY(!secrets->read(QStringLiteral("storage/data/keys"))->has_value());
        BucketConfig remote = config(m_s3);
        remote.endpoint = QStringLiteral("http://s3.example.com");
        Result<StoredBucket> plain = buckets.add(remote, goodKeys(), KeySource::Keychain);
        QVERIFY(!plain.ok() && plain.error().message.contains(QLatin1String("http://")));
        QVERIFY(buckets.add(config(m_s3), goodKeys(), KeySource::Keychain).ok());
        QCOMPARE(buckets.add(config(m_s3), goodKeys(), KeySource::Keychain).error().code, ErrorCode::Conflict);
        QFile saved(dir.filePath(QStringLiteral("storage.json")));
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY(!saved.readAll().contains(S3EmulatorProcess::kSecretKey));
        Result<S3Client> client = buckets.client(QStringLiteral("data"));
        QVERIFY(client.ok() && client->checkAccess().ok());
        QVERIFY(buckets.remove(QStringLiteral("data")).ok());
        QVERIFY(!secrets->read(QStringLiteral("storage/data/keys"))->has_value());
        QCOMPARE(buckets.list()->size(), 0);
        QCOMPARE(buckets.client(QStringLiteral("data")).error().code, ErrorCode::NotFound);
    }
};

QTEST_GUILESS_MAIN(TestStorageS3)
#include "test_storage_s3.moc"
