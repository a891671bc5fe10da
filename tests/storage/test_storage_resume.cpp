// SPDX-License-Identifier: Apache-2.0
// Copies run again after an interruption go on instead of starting over, here and on a machine
// (the real sshd's shell and curl), against the S3 emulator: a download cut mid-way continues
// with a Range request from its kept part; files already there with the same checksum are
// skipped; a multipart upload that failed part-way takes up its open upload (remembered in the
// journal) and sends only the parts the storage lacks.
#include "testfiles.h"
#include "core/ssh/session.h"
#include "core/storage/localcopy.h"
#include "core/storage/machinecopy.h"
#include "core/storage/s3client.h"
#include "core/storage/uploadjournal.h"

#include "s3emulatorprocess.h"
#include "sshdfixture.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using gantry::test::readAll;
using gantry::test::writeFile;
using namespace gantry::storage;
using gantry::test::S3EmulatorProcess;

namespace {

constexpr qint64 kBig = 9 * 1024 * 1024 + 321; // above kResumableBytes
constexpr qint64 kCut = 3 * 1024 * 1024;

QByteArray patterned(qint64 size, int seed)
{
    QByteArray bytes;
    bytes.reserve(size + 16);
    for (qint64 i = 0; bytes.size() < size; ++i)
        bytes += QByteArray::number(i * 31 + seed) + ' ';
    return bytes.left(size);
}

QStringList partsIn(const QString &dir)
{
    return QDir(dir).entryList({QStringLiteral(".gantry-part-*")}, QDir::Files | QDir::Hidden);
}

QString messageOf(const Result<CopyResult> &r)
{
    return r.ok() ? QString() : r.error().message;
}

} // namespace

class TestStorageResume final : public QObject
{
    Q_OBJECT

    S3EmulatorProcess m_s3;
    QString m_why;
    test::SshdFixture m_sshd;
    QTemporaryDir m_dir;

    S3Client client() const
    {
        return S3Client(BucketConfig{QStringLiteral("data"), m_s3.endpoint(), QStringLiteral("data"), QStringLiteral("us-east-1")},
                        sigv4::Credentials{QString::fromLatin1(S3EmulatorProcess::kAccessKey), QString::fromLatin1(S3EmulatorProcess::kSecretKey), {}});
    }

    // The requests for one key since `from` (an index into the log).
    QList<QJsonObject> requestsFor(const QString &key, qsizetype from) const
    {
        QList<QJsonObject> out;
        const QList<QJsonObject> log = m_s3.log();
        for (qsizetype i = from; i < log.size(); ++i) {
            if (log[i].value(QStringLiteral("path")).toString() == QStringLiteral("/data/") + key)
                out << log[i];
        }
        return out;
    }

    static QStringList partNumbersPut(const QList<QJsonObject> &requests)
    {
        QStringList numbers;
        for (const QJsonObject &r : requests) {
            const QJsonObject query = r.value(QStringLiteral("query")).toObject();
            if (r.value(QStringLiteral("method")).toString() == QLatin1String("PUT") && query.contains(QStringLiteral("partNumber")))
                numbers << query.value(QStringLiteral("partNumber")).toString();
        }
        return numbers;
    }

    // An object of kBig bytes put whole under `key`.
    void putBig(const QString &key, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(QStringLiteral("source-") + QString::number(qHash(key)));
        writeFile(path, bytes);
        const MultipartPolicy whole{1LL << 30, 1LL << 29, 1, {}};
        Result<CopyResult> up = uploadFromLocal(client(), CopyItem{key, path, -1, {}, {}}, nullptr, nullptr, whole);
        QVERIFY2(up.ok(), qPrintable(messageOf(up)));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_why = m_s3.start({QStringLiteral("--bucket"), QStringLiteral("data"), QStringLiteral("--min-part-size"), QStringLiteral("1024")});
    }

    // Cut after 3 MiB: the error says what is kept; the next run asks for the rest (Range), the
    // file is whole and checked, and no part is left. A third run finds it there and fetches nothing.
    void downloadGoesOnAfterACut()
    {
        GANTRY_REQUIRE_S3(m_why);
        const QByteArray bytes = patterned(kBig, 1);
        putBig(QStringLiteral("resume/here.bin"), bytes);
        const QString into = m_dir.filePath(QStringLiteral("down"));
        const QString dest = into + QStringLiteral("/here.bin");
        const CopyItem item{QStringLiteral("resume/here.bin"), dest, -1, {}, {}};
        QVERIFY(m_s3.control(QStringLiteral("cut-after?bytes=%1").arg(kCut)));
        Result<CopyResult> cut = downloadToLocal(client(), item, nullptr);
        QVERIFY(!cut.ok());
        QVERIFY2(cut.error().message.contains(QStringLiteral("run the same copy again")), qPrintable(cut.error().message));
        QVERIFY(!QFile::exists(dest));
        QCOMPARE(partsIn(into).size(), 1);
        QCOMPARE(QFileInfo(into + QLatin1Char('/') + partsIn(into).first()).size(), kCut);

        const qsizetype before = m_s3.log().size();
        std::atomic<qint64> moved{0};
        Result<CopyResult> again = downloadToLocal(client(), item, nullptr, &moved);
        QVERIFY2(again.ok(), qPrintable(messageOf(again)));
        QCOMPARE(again->resumedBytes, kCut);
        QVERIFY(again->verified);
        QCOMPARE(moved.load(), kBig);
        QCOMPARE(readAll(dest), bytes);
        QVERIFY(partsIn(into).isEmpty());
        const QList<QJsonObject> requests = requestsFor(item.key, before);
        QCOMPARE(requests.last().value(QStringLiteral("range")).toString(), QStringLiteral("bytes=%1-").arg(kCut));

        // A server that ignores Range answers 200 with the whole object: the part starts again.
        QFile::remove(dest);
        QVERIFY(m_s3.control(QStringLiteral("cut-after?bytes=%1").arg(kCut)));
        QVERIFY(!downloadToLocal(client(), item, nullptr).ok());
        QVERIFY(m_s3.control(QStringLiteral("ranges?on=0")));
        Result<CopyResult> whole = downloadToLocal(client(), item, nullptr);
        QVERIFY(m_s3.control(QStringLiteral("ranges?on=1")));
        QVERIFY2(whole.ok(), qPrintable(messageOf(whole)));
        QCOMPARE(whole->resumedBytes, 0);
        QCOMPARE(readAll(dest), bytes);
        QVERIFY(partsIn(into).isEmpty());

        const qsizetype third = m_s3.log().size();
        Result<CopyResult> there = downloadToLocal(client(), item, nullptr);
        QVERIFY2(there.ok() && there->alreadyThere, qPrintable(messageOf(there)));
        for (const QJsonObject &r : requestsFor(item.key, third))
            QCOMPARE(r.value(QStringLiteral("method")).toString(), QStringLiteral("HEAD"));
    }

    // An upload of a file the bucket already holds (its SHA-256 kept) sends nothing.
    void uploadSkipsWhatTheBucketHas()
    {
        GANTRY_REQUIRE_S3(m_why);
        const QString path = m_dir.filePath(QStringLiteral("small.txt"));
        writeFile(path, "the same bytes\n");
        const CopyItem item{QStringLiteral("resume/small.txt"), path, -1, {}, {}};
        Result<CopyResult> first = uploadFromLocal(client(), item, nullptr);
        QVERIFY2(first.ok() && !first->alreadyThere, qPrintable(messageOf(first)));
        const qsizetype before = m_s3.log().size();
        Result<CopyResult> second = uploadFromLocal(client(), item, nullptr);
        QVERIFY2(second.ok() && second->alreadyThere, qPrintable(messageOf(second)));
        for (const QJsonObject &r : requestsFor(item.key, before))
            QCOMPARE(r.value(QStringLiteral("method")).toString(), QStringLiteral("HEAD"));
        writeFile(path, "other bytes\n");
        Result<CopyResult> changed = uploadFromLocal(client(), item, nullptr);
        QVERIFY2(changed.ok() && !changed->alreadyThere, qPrintable(messageOf(changed)));
    }

    // Part 3 fails: the upload stays open and in the journal, and the error says so. Run again,
    // only parts 3.. go up; the object is whole with its SHA-256; nothing stays open or journalled.
    // Without a journal the same failure aborts the upload (nothing to resume from).
    void multipartGoesOnFromItsParts()
    {
        GANTRY_REQUIRE_S3(m_why);
        const QString journal = m_dir.filePath(QStringLiteral("config/storage-uploads.json"));
        const MultipartPolicy policy{4096, 2048, 1, journal};
        const QByteArray bytes = patterned(9000, 2);
        const QString path = m_dir.filePath(QStringLiteral("parts.bin"));
        writeFile(path, bytes);
        const CopyItem item{QStringLiteral("resume/parts.bin"), path, -1, {}, {}};
        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=3")));
        Result<CopyResult> failed = uploadFromLocal(client(), item, nullptr, nullptr, policy);
        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=0")));
        QVERIFY(!failed.ok());
        QVERIFY2(failed.error().message.contains(QStringLiteral("run the same copy again")), qPrintable(failed.error().message));
        QVERIFY(!failed.error().message.contains(QLatin1Char('\n')));
        QVERIFY(UploadJournal(journal).find(m_s3.endpoint(), QStringLiteral("data"), item.key).has_value());

        const qsizetype before = m_s3.log().size();
        Result<CopyResult> again = uploadFromLocal(client(), item, nullptr, nullptr, policy);
        QVERIFY2(again.ok(), qPrintable(messageOf(again)));
        QCOMPARE(again->resumedBytes, 4096);
        QCOMPARE(partNumbersPut(requestsFor(item.key, before)), (QStringList{QStringLiteral("3"), QStringLiteral("4"), QStringLiteral("5")}));
        Result<ObjectInfo> head = client().head(item.key);
        QVERIFY(head.ok());
        QCOMPARE(head->sha256, QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
        QVERIFY(!UploadJournal(journal).find(m_s3.endpoint(), QStringLiteral("data"), item.key).has_value());

        // The file changed after the failure: the open upload (another file's SHA-256) is aborted.
        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=2")));
        QVERIFY(!uploadFromLocal(client(), CopyItem{QStringLiteral("resume/changed.bin"), path, -1, {}, {}}, nullptr, nullptr, policy).ok());
        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=0")));
        const QByteArray other = patterned(9000, 3);
        writeFile(path, other);
        Result<CopyResult> fresh = uploadFromLocal(client(), CopyItem{QStringLiteral("resume/changed.bin"), path, -1, {}, {}}, nullptr, nullptr, policy);
        QVERIFY2(fresh.ok() && fresh->resumedBytes == 0, qPrintable(messageOf(fresh)));
        QCOMPARE(m_s3.openUploads(), 0); // the other file's upload was aborted, not left open
        QCOMPARE(client().head(QStringLiteral("resume/changed.bin"))->sha256,
                 QString::fromLatin1(QCryptographicHash::hash(other, QCryptographicHash::Sha256).toHex()));
    }

    // The same on a machine: its curl is cut mid-way, the part stays there, the next run goes on
    // with curl -C - (a Range request); a multipart upload from the machine sends only what is missing.
    void onAMachine()
    {
        GANTRY_REQUIRE_S3(m_why);
        GANTRY_REQUIRE_SSHD(m_sshd.start());
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()).ok());
        const S3Client c = client();
        MachineCopy copy(session, c);
        copy.setMultipartPolicy(MultipartPolicy{4096, 2048, 1, m_dir.filePath(QStringLiteral("config/storage-uploads.json"))});
        QVERIFY(copy.start().ok());

        const QByteArray bytes = patterned(kBig, 4);
        putBig(QStringLiteral("resume/machine.bin"), bytes);
        const QString into = m_dir.filePath(QStringLiteral("machine"));
        const CopyItem item{QStringLiteral("resume/machine.bin"), into + QStringLiteral("/machine.bin"), -1, {}, {}};
        QVERIFY(m_s3.control(QStringLiteral("cut-after?bytes=%1").arg(kCut)));
        Result<CopyResult> cut = copy.download(item, nullptr);
        QVERIFY(!cut.ok());
        QVERIFY2(cut.error().message.contains(QStringLiteral("on the machine: run the same copy again")), qPrintable(cut.error().message));
        QCOMPARE(partsIn(into).size(), 1);
        const qsizetype before = m_s3.log().size();
        Result<CopyResult> again = copy.download(item, nullptr);
        QVERIFY2(again.ok(), qPrintable(messageOf(again)));
        QCOMPARE(again->resumedBytes, kCut);
        QCOMPARE(readAll(item.remotePath), bytes);
        QVERIFY(partsIn(into).isEmpty());
        QCOMPARE(requestsFor(item.key, before).last().value(QStringLiteral("range")).toString(), QStringLiteral("bytes=%1-").arg(kCut));
        Result<CopyResult> there = copy.download(item, nullptr);
        QVERIFY2(there.ok() && there->alreadyThere, qPrintable(messageOf(there)));
        // The machine's curl meets a server that ignores Range (curl's exit 33 on a 200): begun again.
        QFile::remove(item.remotePath);
        QVERIFY(m_s3.control(QStringLiteral("cut-after?bytes=%1").arg(kCut)));
        QVERIFY(!copy.download(item, nullptr).ok());
        QVERIFY(m_s3.control(QStringLiteral("ranges?on=0")));
        Result<CopyResult> whole = copy.download(item, nullptr);
        QVERIFY(m_s3.control(QStringLiteral("ranges?on=1")));
        QVERIFY2(whole.ok() && whole->resumedBytes == 0, qPrintable(messageOf(whole)));
        QCOMPARE(readAll(item.remotePath), bytes);
        QVERIFY(partsIn(into).isEmpty());

        const QByteArray small = patterned(9000, 5);
        const QString path = into + QStringLiteral("/up.bin");
        writeFile(path, small);
        const CopyItem up{QStringLiteral("resume/from-machine.bin"), path, -1, {}, {}};
        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=4")));
        Result<CopyResult> failed = copy.upload(up, nullptr);
        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=0")));
        QVERIFY2(!failed.ok() && failed.error().message.contains(QStringLiteral("run the same copy again")), qPrintable(messageOf(failed)));
        const qsizetype mark = m_s3.log().size();
        Result<CopyResult> resumed = copy.upload(up, nullptr);
        QVERIFY2(resumed.ok(), qPrintable(messageOf(resumed)));
        QCOMPARE(resumed->resumedBytes, 3 * 2048);
        QCOMPARE(partNumbersPut(requestsFor(up.key, mark)), (QStringList{QStringLiteral("4"), QStringLiteral("5")}));
        QCOMPARE(client().head(up.key)->sha256, QString::fromLatin1(QCryptographicHash::hash(small, QCryptographicHash::Sha256).toHex()));
        Result<CopyResult> same = copy.upload(up, nullptr);
        QVERIFY2(same.ok() && same->alreadyThere, qPrintable(messageOf(same)));
    }
};

QTEST_GUILESS_MAIN(TestStorageResume)
#include "test_storage_resume.moc"
