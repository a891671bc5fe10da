// SPDX-License-Identifier: Apache-2.0
// gantry-cli storage and cp as a user runs them: the S3 emulator (every signature checked by
// botocore) and a real sshd whose shell runs curl against it with the URLs presigned here.

#include "testfiles.h"
#include "clirun.h"
#include "s3emulatorprocess.h"
#include "sshdfixture.h"

#include "core/ssh/session.h"
#include "core/storage/machinecopy.h"
#include "core/storage/s3client.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using gantry::test::readAll;
using gantry::test::writeFile;
using gantry::test::S3EmulatorProcess;

namespace {

// Files under a folder whose name says they were left half-written.
QStringList partials(const QString &root)
{
    QStringList out;
    QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (QFileInfo(path).fileName().startsWith(QLatin1String(".gantry-part-")))
            out.append(path);
    }
    return out;
}

} // namespace

class TestStorageCli : public QObject
{
    Q_OBJECT

    S3EmulatorProcess m_s3;
    QString m_why;
    test::SshdFixture m_sshd;
    QTemporaryDir m_config;
    QTemporaryDir m_remote; // the machine's files (the sshd logs in this computer's user)
    QTemporaryDir m_bin;    // a curl on the machine's PATH that records its arguments

    QProcessEnvironment environment(bool withKeys) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"})
            env.remove(QString::fromLatin1(name));
        if (withKeys) {
            env.insert(QStringLiteral("AWS_ACCESS_KEY_ID"), QString::fromLatin1(S3EmulatorProcess::kAccessKey));
            env.insert(QStringLiteral("AWS_SECRET_ACCESS_KEY"), QString::fromLatin1(S3EmulatorProcess::kSecretKey));
        }
        return env;
    }

    test::CliRun cli(const QStringList &args, bool withKeys = true, const std::optional<QByteArray> &input = std::nullopt,
                     const QString &configDir = {})
    {
        test::RunOptions options;
        options.env = environment(withKeys);
        options.input = input;
        options.timeoutMs = 60000;
        return test::runCli(configDir.isEmpty() ? m_config.path() : configDir, args, options);
    }

    // The copies' bucket, added once (addListAndLs adds it first when the suite runs whole).
    void ensureStorage()
    {
        if (QFile::exists(m_config.filePath(QStringLiteral("storage.json"))))
            return;
        QCOMPARE(cli({QStringLiteral("storage"), QStringLiteral("add"), QStringLiteral("data"), QStringLiteral("--endpoint"), m_s3.endpoint(),
                      QStringLiteral("--bucket"), QStringLiteral("data")})
                     .code,
                 0);
    }

    test::CliRun cp(const QStringList &args)
    {
        ensureStorage();
        return cli(QStringList{QStringLiteral("--json"), QStringLiteral("cp"), QStringLiteral("-i"), m_sshd.clientKeyPath(),
                               QStringLiteral("--known-hosts"), m_sshd.knownHostsPath()}
                   + args);
    }

    QString at(const QString &path) const
    {
        return QStringLiteral("%1@127.0.0.1:%2:%3").arg(m_sshd.user()).arg(m_sshd.port()).arg(path);
    }

    static QString oneLine(const test::CliRun &run) { return QString::fromUtf8(run.err).trimmed(); }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral(GANTRY_CLI_PATH)))
            QSKIP("gantry-cli not built");
        m_why = m_s3.start({QStringLiteral("--bucket"), QStringLiteral("data"), QStringLiteral("--object"),
                            QStringLiteral("data/runs/r1/metrics.json={\"loss\": 0.5}"), QStringLiteral("--object"),
                            QStringLiteral("data/runs/r1/logs/train.log=step 1"), QStringLiteral("--object"),
                            QStringLiteral("data/runs/../../escape.txt=nope"), QStringLiteral("--many"), QStringLiteral("data/many/:1200"),
                            QStringLiteral("--min-part-size"), QStringLiteral("1024")});
        GANTRY_REQUIRE_S3(m_why);
        const QString curl = QStandardPaths::findExecutable(QStringLiteral("curl"));
        QVERIFY(!curl.isEmpty());
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("curl")),
                                  QStringLiteral("#!/bin/sh\nprintf '%s\\n' \"$*\" >> %1/curl-args\n"
                                                 // A full disk, as curl reports it.
                                                 "[ -f %1/disk-full ] && { echo 'curl: (23) Failure writing output to destination' >&2; exit 23; }\n"
                                                 "exec %2 \"$@\"\n")
                                      .arg(m_bin.path(), curl)));
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        GANTRY_REQUIRE_SSHD(m_sshd.start(options));
    }

    // Machine -> bucket above the threshold: the machine sends each part itself with its own URL;
    // the object appears whole, and a failed part leaves nothing under the key and no open upload.
    void machineMultipartUpload()
    {
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()).ok());
        const storage::S3Client client(storage::BucketConfig{QStringLiteral("data"), m_s3.endpoint(), QStringLiteral("data")},
                                       storage::sigv4::Credentials{QString::fromLatin1(S3EmulatorProcess::kAccessKey),
                                                                   QString::fromLatin1(S3EmulatorProcess::kSecretKey), {}});
        storage::MachineCopy copy(session, client);
        copy.setMultipartPolicy(storage::MultipartPolicy{4096, 2048, 1, {}});
        QVERIFY(copy.start().ok());
        QByteArray bytes;
        for (int i = 0; bytes.size() < 9000; ++i)
            bytes += QByteArray::number(i * 7) + '\n';
        const QString path = m_remote.filePath(QStringLiteral("big.bin"));
        writeFile(path, bytes);
        Result<storage::CopyResult> up = copy.upload(storage::CopyItem{QStringLiteral("parts/big.bin"), path, -1, {}, {}}, nullptr);
        QVERIFY2(up.ok(), qPrintable(up.ok() ? QString() : up.error().message));
        Result<storage::ObjectInfo> head = client.head(QStringLiteral("parts/big.bin"));
        QVERIFY(head.ok());
        QCOMPARE(head->size, bytes.size());
        QVERIFY2(head->etag.endsWith(QStringLiteral("-%1").arg((bytes.size() + 2047) / 2048)), qPrintable(head->etag));
        QCOMPARE(head->sha256, QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));

        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=2")));
        Result<storage::CopyResult> failed = copy.upload(storage::CopyItem{QStringLiteral("parts/failed.bin"), path, -1, {}, {}}, nullptr);
        QVERIFY(m_s3.control(QStringLiteral("fail-part?number=0")));
        QVERIFY(!failed.ok());
        QVERIFY2(!failed.error().message.contains(QLatin1Char('\n')), qPrintable(failed.error().message));
        QCOMPARE(client.head(QStringLiteral("parts/failed.bin")).error().code, ErrorCode::NotFound);
        QProcess curl;
        curl.start(QStringLiteral("curl"), {QStringLiteral("-sf"), m_s3.endpoint() + QStringLiteral("/_emulator/uploads")});
        curl.waitForFinished(10000);
        QCOMPARE(curl.readAllStandardOutput().trimmed(), QByteArray(R"({"open": 0})"));
    }

    // add with keys from the environment: tested by one request, saved without them; list, ls.
    void addListAndLs()
    {
        const test::CliRun added = cli({QStringLiteral("--json"), QStringLiteral("storage"), QStringLiteral("add"), QStringLiteral("data"),
                                        QStringLiteral("--endpoint"), m_s3.endpoint(), QStringLiteral("--bucket"), QStringLiteral("data")});
        QVERIFY2(added.code == 0, added.err.constData());
        QCOMPARE(added.json().value(QStringLiteral("keys")).toString(), QStringLiteral("environment"));
        QVERIFY(!readAll(m_config.filePath(QStringLiteral("storage.json"))).contains(S3EmulatorProcess::kSecretKey));
        const test::CliRun listed = cli({QStringLiteral("--json"), QStringLiteral("storage"), QStringLiteral("list")}, false);
        QCOMPARE(listed.code, 0);
        QCOMPARE(listed.json().value(QStringLiteral("storage")).toArray().size(), 1);
        const test::CliRun ls = cli({QStringLiteral("--json"), QStringLiteral("storage"), QStringLiteral("ls"), QStringLiteral("data/runs/r1/")});
        QVERIFY2(ls.code == 0, ls.err.constData());
        QCOMPARE(ls.json().value(QStringLiteral("prefixes")).toArray().at(0).toString(), QStringLiteral("runs/r1/logs/"));
        QCOMPARE(ls.json().value(QStringLiteral("objects")).toArray().at(0).toObject().value(QStringLiteral("key")).toString(),
                 QStringLiteral("runs/r1/metrics.json"));
        // Every page: 1200 objects are two pages of ListObjectsV2.
        const test::CliRun many = cli({QStringLiteral("--json"), QStringLiteral("storage"), QStringLiteral("ls"), QStringLiteral("data/many/")});
        QCOMPARE(many.json().value(QStringLiteral("objects")).toArray().size(), 1200);
        // The keys are read from the environment at each use.
        const test::CliRun without = cli({QStringLiteral("storage"), QStringLiteral("ls"), QStringLiteral("data")}, false);
        QVERIFY(without.code != 0);
        QVERIFY2(oneLine(without).contains(QLatin1String("set AWS_ACCESS_KEY_ID")), without.err.constData());
    }

    // Keys on stdin go to the private secrets file (no keyring here), never to storage.json.
    void keysOnStdin()
    {
        QTemporaryDir config;
        const QByteArray keys = QByteArray(S3EmulatorProcess::kAccessKey) + '\n' + S3EmulatorProcess::kSecretKey + '\n';
        const test::CliRun added = cli({QStringLiteral("storage"), QStringLiteral("add"), QStringLiteral("kept"), QStringLiteral("--endpoint"),
                                        m_s3.endpoint(), QStringLiteral("--bucket"), QStringLiteral("data"), QStringLiteral("--store"), QStringLiteral("file")},
                                       false, keys, config.path());
        QVERIFY2(added.code == 0, added.err.constData());
        QVERIFY(!readAll(config.filePath(QStringLiteral("storage.json"))).contains(S3EmulatorProcess::kSecretKey));
        const test::CliRun ls = cli({QStringLiteral("--json"), QStringLiteral("storage"), QStringLiteral("ls"), QStringLiteral("kept/runs/r1/")},
                                    false, std::nullopt, config.path());
        QVERIFY2(ls.code == 0, ls.err.constData());
        const test::CliRun removed = cli({QStringLiteral("storage"), QStringLiteral("remove"), QStringLiteral("kept")}, false, std::nullopt, config.path());
        QCOMPARE(removed.code, 0);
        QVERIFY(!readAll(config.filePath(QStringLiteral("secrets.json"))).contains(S3EmulatorProcess::kSecretKey));
    }

    // Wrong key, missing bucket, plain http to another host: one line each, with the next step,
    // and nothing saved.
    void badInput()
    {
        QTemporaryDir config;
        const QStringList add{QStringLiteral("storage"), QStringLiteral("add"), QStringLiteral("x"), QStringLiteral("--endpoint"), m_s3.endpoint(),
                              QStringLiteral("--bucket")};
        const test::CliRun wrongKey = cli(add + QStringList{QStringLiteral("data")}, false, QByteArray("AKIAWRONG\nwrong-secret\n"), config.path());
        QCOMPARE(wrongKey.code, 3);
        QVERIFY2(oneLine(wrongKey).contains(QLatin1String("InvalidAccessKeyId")) && !oneLine(wrongKey).contains(QLatin1Char('\n')), wrongKey.err.constData());
        const test::CliRun missing = cli(add + QStringList{QStringLiteral("nope")}, true, std::nullopt, config.path());
        QVERIFY(missing.code != 0);
        QVERIFY2(oneLine(missing).contains(QLatin1String("no bucket nope")) && oneLine(missing).contains(QLatin1String("check --bucket")),
                 missing.err.constData());
        const test::CliRun plain = cli({QStringLiteral("storage"), QStringLiteral("add"), QStringLiteral("x"), QStringLiteral("--endpoint"),
                                        QStringLiteral("http://s3.example.com"), QStringLiteral("--bucket"), QStringLiteral("data")},
                                       true, std::nullopt, config.path());
        QCOMPARE(plain.code, 2);
        QVERIFY(oneLine(plain).contains(QLatin1String("http://")));
        QVERIFY(!QFile::exists(config.filePath(QStringLiteral("storage.json"))));
    }

    // Bucket -> machine and back, run by the machine's curl with presigned URLs: no key and no
    // URL on any command line there, checked sizes and hashes, nothing left half-written.
    void copiesRunOnTheMachine()
    {
        const QString folder = m_remote.filePath(QStringLiteral("fetched"));
        test::CliRun one = cp({QStringLiteral("s3://data/runs/r1/metrics.json"), at(folder + QStringLiteral("/m.json"))});
        QVERIFY2(one.code == 0, one.err.constData());
        QCOMPARE(readAll(folder + QStringLiteral("/m.json")), QByteArray("{\"loss\": 0.5}"));
        QVERIFY(one.lines().first().value(QStringLiteral("verified")).toBool());
        test::CliRun tree = cp({QStringLiteral("-r"), QStringLiteral("s3://data/runs/"), at(folder + QStringLiteral("/tree/"))});
        QVERIFY2(tree.code == 0, tree.err.constData());
        QCOMPARE(readAll(folder + QStringLiteral("/tree/r1/logs/train.log")), QByteArray("step 1"));
        QVERIFY2(tree.err.contains("left out"), tree.err.constData()); // runs/../../escape.txt
        QVERIFY(!QFile::exists(m_remote.filePath(QStringLiteral("escape.txt"))));

        const QByteArray big = QByteArray(3 * 1024 * 1024 + 7, 'x') + "end";
        writeFile(m_remote.filePath(QStringLiteral("out/ckpt/model.bin")), big);
        writeFile(m_remote.filePath(QStringLiteral("out/ckpt/sub/opt.bin")), "adam");
        test::CliRun up = cp({QStringLiteral("-r"), at(m_remote.filePath(QStringLiteral("out/ckpt"))), QStringLiteral("s3://data/ckpt/step-100")});
        QVERIFY2(up.code == 0, up.err.constData());
        QCOMPARE(up.json().value(QStringLiteral("files")).toInt(), 2);
        // Back to another folder, checked against the SHA-256 the upload kept.
        test::CliRun back = cp({QStringLiteral("s3://data/ckpt/step-100/model.bin"), at(m_remote.filePath(QStringLiteral("again/")))});
        QVERIFY2(back.code == 0, back.err.constData());
        QCOMPARE(readAll(m_remote.filePath(QStringLiteral("again/model.bin"))), big);
        QCOMPARE(back.lines().first().value(QStringLiteral("sha256")).toString(),
                 QString::fromLatin1(QCryptographicHash::hash(big, QCryptographicHash::Sha256).toHex()));

        QVERIFY(partials(m_remote.path()).isEmpty());
        const QByteArray curlArgs = readAll(m_bin.filePath(QStringLiteral("curl-args")));
        QVERIFY(!curlArgs.isEmpty());
        QVERIFY2(!curlArgs.contains("X-Amz-") && !curlArgs.contains(S3EmulatorProcess::kSecretKey), curlArgs.constData());
        for (const QJsonObject &entry : m_s3.log()) {
            QVERIFY(!entry.value(QStringLiteral("secret_seen")).toBool());
            if (entry.value(QStringLiteral("method")).toString() == QLatin1String("PUT"))
                QCOMPARE(entry.value(QStringLiteral("auth")).toString(), QStringLiteral("presigned"));
        }
    }

    // A URL the machine uses after its hour: one line that says to run the copy again, and no
    // file under its final name or its temporary one.
    void expiredUrlOnTheMachine()
    {
        QVERIFY(m_s3.control(QStringLiteral("presign-skew?seconds=7200")));
        const QString target = m_remote.filePath(QStringLiteral("late/metrics.json"));
        const test::CliRun late = cp({QStringLiteral("s3://data/runs/r1/metrics.json"), at(target)});
        QVERIFY(m_s3.control(QStringLiteral("presign-skew?seconds=0")));
        QVERIFY(late.code != 0);
        QVERIFY2(oneLine(late).contains(QLatin1String("expired")) && oneLine(late).contains(QLatin1String("run the copy again")),
                 late.err.constData());
        QVERIFY(!QFile::exists(target));
        QVERIFY(partials(m_remote.path()).isEmpty());
    }

    // This computer <-> bucket: streamed here, the same checks, the same temporary name.
    void copiesWithThisComputer()
    {
        QTemporaryDir local;
        writeFile(local.filePath(QStringLiteral("set/a.txt")), "alpha");
        writeFile(local.filePath(QStringLiteral("set/deep/b.bin")), QByteArray(2 * 1024 * 1024, 'b'));
        const test::CliRun up = cp({QStringLiteral("-r"), local.filePath(QStringLiteral("set")), QStringLiteral("s3://data/local/set/")});
        QVERIFY2(up.code == 0, up.err.constData());
        QCOMPARE(up.json().value(QStringLiteral("files")).toInt(), 2);
        const test::CliRun down = cp({QStringLiteral("-r"), QStringLiteral("s3://data/local/set"), local.filePath(QStringLiteral("back"))});
        QVERIFY2(down.code == 0, down.err.constData());
        QCOMPARE(readAll(local.filePath(QStringLiteral("back/deep/b.bin"))), QByteArray(2 * 1024 * 1024, 'b'));
        const test::CliRun one = cp({QStringLiteral("s3://data/local/set/a.txt"), local.path()});
        QVERIFY2(one.code == 0, one.err.constData());
        QCOMPARE(readAll(local.filePath(QStringLiteral("a.txt"))), QByteArray("alpha"));
        QVERIFY(one.lines().first().value(QStringLiteral("verified")).toBool());
        QVERIFY(m_s3.control(QStringLiteral("presign-skew?seconds=7200")));
        const test::CliRun late = cp({QStringLiteral("s3://data/local/set/a.txt"), local.filePath(QStringLiteral("late.txt"))});
        QVERIFY(m_s3.control(QStringLiteral("presign-skew?seconds=0")));
        QVERIFY2(late.code != 0 && oneLine(late).contains(QLatin1String("run the copy again")), late.err.constData());
        QVERIFY(!QFile::exists(local.filePath(QStringLiteral("late.txt"))));
        QVERIFY(partials(local.path()).isEmpty());
    }

    // A file named like a staging copy is just a file: "x.gantry-part" already in the destination
    // folder (a user's, or one left by an interrupted copy) survives a copy of "x" into it, here and
    // on the machine, and a prefix holding both "x" and "x.gantry-part" comes back whole and unmixed.
    void aStagingNameInTheListingIsJustAnotherFile()
    {
        QTemporaryDir local;
        writeFile(local.filePath(QStringLiteral("pair/x")), "the real x");
        writeFile(local.filePath(QStringLiteral("pair/x.gantry-part")), "another object altogether");
        const test::CliRun up = cp({QStringLiteral("-r"), local.filePath(QStringLiteral("pair")), QStringLiteral("s3://data/pair/")});
        QVERIFY2(up.code == 0, up.err.constData());
        writeFile(local.filePath(QStringLiteral("mine/x.gantry-part")), "kept by the user");
        const test::CliRun one = cp({QStringLiteral("s3://data/pair/x"), local.filePath(QStringLiteral("mine/"))});
        QVERIFY2(one.code == 0, one.err.constData());
        QCOMPARE(readAll(local.filePath(QStringLiteral("mine/x"))), QByteArray("the real x"));
        QCOMPARE(readAll(local.filePath(QStringLiteral("mine/x.gantry-part"))), QByteArray("kept by the user"));
        const test::CliRun down = cp({QStringLiteral("-r"), QStringLiteral("s3://data/pair"), local.filePath(QStringLiteral("back"))});
        QVERIFY2(down.code == 0, down.err.constData());
        QCOMPARE(readAll(local.filePath(QStringLiteral("back/x"))), QByteArray("the real x"));
        QCOMPARE(readAll(local.filePath(QStringLiteral("back/x.gantry-part"))), QByteArray("another object altogether"));
        QVERIFY(partials(local.path()).isEmpty());

        const QString folder = m_remote.filePath(QStringLiteral("pair"));
        writeFile(folder + QStringLiteral("/x.gantry-part"), "kept on the machine");
        const test::CliRun there = cp({QStringLiteral("s3://data/pair/x"), at(folder + QStringLiteral("/"))});
        QVERIFY2(there.code == 0, there.err.constData());
        QCOMPARE(readAll(folder + QStringLiteral("/x")), QByteArray("the real x"));
        QCOMPARE(readAll(folder + QStringLiteral("/x.gantry-part")), QByteArray("kept on the machine"));
        QVERIFY(partials(m_remote.path()).isEmpty());
    }

    // curl cannot write on the machine: one line that asks whether its disk is full, nothing kept.
    void fullDiskOnTheMachine()
    {
        writeFile(m_bin.filePath(QStringLiteral("disk-full")), "1");
        const QString target = m_remote.filePath(QStringLiteral("full/metrics.json"));
        const test::CliRun full = cp({QStringLiteral("s3://data/runs/r1/metrics.json"), at(target)});
        QFile::remove(m_bin.filePath(QStringLiteral("disk-full")));
        QCOMPARE(full.code, 1);
        QVERIFY2(oneLine(full).contains(QLatin1String("disk full")) && oneLine(full).contains(QLatin1String("df -h")), full.err.constData());
        QVERIFY(!QFile::exists(target));
        QVERIFY(partials(m_remote.path()).isEmpty());
    }

    void copyNeedsABucketSide()
    {
        QDir().mkpath(m_remote.filePath(QStringLiteral("adir")));
        const test::CliRun intoFolder = cp({QStringLiteral("s3://data/runs/r1/metrics.json"), at(m_remote.filePath(QStringLiteral("adir")))});
        QVERIFY2(intoFolder.code != 0 && oneLine(intoFolder).contains(QLatin1String("end the destination with /")), intoFolder.err.constData());
        QVERIFY(QDir(m_remote.filePath(QStringLiteral("adir"))).isEmpty());
        const test::CliRun neither = cp({m_remote.filePath(QStringLiteral("a")), m_remote.filePath(QStringLiteral("b"))});
        QCOMPARE(neither.code, 2); // two local paths: cp is not for that
        QVERIFY2(oneLine(neither).contains(QLatin1String("s3://")) && oneLine(neither).contains(QLatin1String("HOST:PATH")), neither.err.constData());
        // Two machines: a machine-to-machine copy, whose missing source is one line that names it.
        const test::CliRun noSource = cp({at(m_remote.filePath(QStringLiteral("nothing-here"))), at(m_remote.filePath(QStringLiteral("adir/")))});
        QCOMPARE(noSource.code, 1);
        QVERIFY2(oneLine(noSource).contains(QLatin1String("nothing-here")), noSource.err.constData());
        const test::CliRun missing = cp({QStringLiteral("s3://data/runs/none.txt"), at(m_remote.filePath(QStringLiteral("none.txt")))});
        QVERIFY(missing.code != 0);
        QVERIFY2(oneLine(missing).contains(QLatin1String("storage ls")), missing.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestStorageCli)
#include "test_storage_cli.moc"
