// SPDX-License-Identifier: Apache-2.0
#include "core/runs/bucketcheckpoints.h"
#include "core/runs/foldermirror.h"
#include "core/ssh/session.h"
#include "s3emulatorprocess.h"
#include "sshdfixture.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;
using namespace gantry::runs;

namespace {

constexpr qint64 kSize = 4 << 20;

void writeUniform(const QString &path, char value)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(kSize, value));
}

// The file is whole and one version of it: every byte the same, all of them there.
bool wholeVersion(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    const QByteArray data = file.readAll();
    return data.size() == kSize && data.count(data.at(0)) == data.size();
}

// Two trainers checkpointing without pause: one rewrites its file in place, one renames a finished
// file over its own.
const char kInPlaceWriter[] = "import os, sys\nf = os.open(sys.argv[1], os.O_WRONLY)\nv = 0\n"
                              "while True:\n    v += 1\n    os.lseek(f, 0, 0)\n    for i in range(4):\n        os.write(f, bytes([66 + v % 20]) * (1 << 20))\n";
const char kRenamingWriter[] = "import os, sys\nv = 0\nwhile True:\n    v += 1\n    open(sys.argv[1] + '.part', 'wb').write(bytes([66 + v % 20]) * (4 << 20))\n"
                               "    os.replace(sys.argv[1] + '.part', sys.argv[1])\n";

QByteArray firstByte(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(1) : QByteArray();
}

// Starts both trainers on the two files in `remote` and waits until both are writing (python
// starts slowly on a busy machine).
bool startWriters(QProcess (&writers)[2], const QString &remote)
{
    writers[0].start(QStringLiteral("python3"), {QStringLiteral("-c"), QLatin1String(kInPlaceWriter), remote + QStringLiteral("/inplace.bin")});
    writers[1].start(QStringLiteral("python3"), {QStringLiteral("-c"), QLatin1String(kRenamingWriter), remote + QStringLiteral("/renamed.bin")});
    if (!writers[0].waitForStarted() || !writers[1].waitForStarted())
        return false;
    const QDeadlineTimer deadline(30000);
    while (!deadline.hasExpired()) {
        if (firstByte(remote + QStringLiteral("/inplace.bin")) != "A" && firstByte(remote + QStringLiteral("/renamed.bin")) != "A")
            return true;
        QTest::qWait(50);
    }
    return false;
}

} // namespace

// The checkpoint mirror over a real sshd: only new or changed files travel, a file rewritten in
// place while it is copied never comes home half-written (its last complete copy stays), and one
// put in place by rename comes home whole even while the next version is being renamed over it;
// the mirror goes back to a machine as it is.
class TestFolderMirror final : public QObject
{
    Q_OBJECT

    test::SshdFixture m_sshd;
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        GANTRY_REQUIRE_SSHD(m_sshd.start());
        QVERIFY(m_dir.isValid());
    }

    void completeFilesOnly()
    {
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()));
        const QString remote = m_dir.filePath(QStringLiteral("machine/ckpt"));
        const QString home = m_dir.filePath(QStringLiteral("home"));
        QDir().mkpath(remote);
        writeUniform(remote + QStringLiteral("/inplace.bin"), 'A');
        writeUniform(remote + QStringLiteral("/renamed.bin"), 'A');
        QHash<QString, QString> known;
        Result<MirrorOutcome> first = mirrorFolderHome(session, remote, home, &known);
        QVERIFY2(first, qPrintable(first ? QString() : first.error().message));
        QCOMPARE(first->received.size(), 2);
        Result<MirrorOutcome> again = mirrorFolderHome(session, remote, home, &known);
        QVERIFY(again);
        QVERIFY(again->received.isEmpty()); // nothing changed, nothing travels

        QProcess writers[2];
        QVERIFY(startWriters(writers, remote));
        int renamedHome = 0;
        for (int round = 0; round < 20 && renamedHome < 2; ++round) {
            Result<MirrorOutcome> during = mirrorFolderHome(session, remote, home, &known);
            QVERIFY2(during, qPrintable(during ? QString() : during.error().message));
            renamedHome += int(during->received.contains(QStringLiteral("renamed.bin")));
            // Held open for writing by its trainer: busy, whatever its size and time say (a writer
            // paused mid-rewrite leaves both as they were while the copy is made).
            QVERIFY(during->busy.contains(QStringLiteral("inplace.bin")));
            QVERIFY(!during->received.contains(QStringLiteral("inplace.bin")));
            // Whatever came home is one whole version; the in-place file never arrives mid-write.
            QVERIFY(wholeVersion(home + QStringLiteral("/inplace.bin")));
            QVERIFY(wholeVersion(home + QStringLiteral("/renamed.bin")));
        }
        for (QProcess &writer : writers) {
            writer.kill();
            writer.waitForFinished();
        }
        QVERIFY(renamedHome > 0); // a renamed-in-place file counts as complete

        // The mirror goes back to a new machine as it is.
        const QString fresh = m_dir.filePath(QStringLiteral("machine2/ckpt"));
        Result<int> restored = restoreFolder(session, home, fresh);
        QVERIFY2(restored, qPrintable(restored ? QString() : restored.error().message));
        QVERIFY(*restored >= 2);
        QFile a(home + QStringLiteral("/renamed.bin")), b(fresh + QStringLiteral("/renamed.bin"));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY(a.readAll() == b.readAll());
    }

    // The same trainers with the checkpoints kept in a bucket (the S3 emulator; the machine's curl
    // with presigned URLs): what the bucket's manifest points at is always one whole version, and
    // it goes back to a new machine as it is.
    void bucketKeepsTheLastCompleteCopy()
    {
        test::S3EmulatorProcess s3;
        GANTRY_REQUIRE_S3(s3.start({QStringLiteral("--bucket"), QStringLiteral("ckpts")}));
        const storage::S3Client client(storage::BucketConfig{QStringLiteral("ckpts"), s3.endpoint(), QStringLiteral("ckpts"), QStringLiteral("us-east-1")},
                                       storage::sigv4::Credentials{QString::fromLatin1(test::S3EmulatorProcess::kAccessKey),
                                                          QString::fromLatin1(test::S3EmulatorProcess::kSecretKey), {}});
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()));
        const QString remote = m_dir.filePath(QStringLiteral("bucketed/ckpt"));
        QDir().mkpath(remote);
        writeUniform(remote + QStringLiteral("/inplace.bin"), 'A');
        writeUniform(remote + QStringLiteral("/renamed.bin"), 'A');
        BucketCheckpoints store(client, QStringLiteral("runs/r1"), m_dir.filePath(QStringLiteral("scratch")));
        Result<MirrorOutcome> first = store.mirror(session, remote, {});
        QVERIFY2(first, qPrintable(first ? QString() : first.error().message));
        QCOMPARE(first->received.size(), 2);
        Result<MirrorOutcome> again = store.mirror(session, remote, {});
        QVERIFY(again && again->received.isEmpty()); // nothing changed, nothing goes up

        QProcess writers[2];
        QVERIFY(startWriters(writers, remote));
        int busy = 0;
        for (int round = 0; round < 6; ++round) {
            Result<MirrorOutcome> during = store.mirror(session, remote, {});
            QVERIFY2(during, qPrintable(during ? QString() : during.error().message));
            busy += int(during->busy.size());
            QVERIFY(during->busy.contains(QStringLiteral("inplace.bin"))); // its trainer holds it open
            // A new machine gets one whole version of each, whatever was being written meanwhile.
            const QString fresh = m_dir.filePath(QStringLiteral("restored-%1/ckpt").arg(round));
            Result<int> restored = BucketCheckpoints(client, QStringLiteral("runs/r1"), m_dir.filePath(QStringLiteral("scratch2")))
                                       .restore(session, fresh, {});
            QVERIFY2(restored && *restored == 2, qPrintable(restored ? QString::number(*restored) : restored.error().message));
            QVERIFY(wholeVersion(fresh + QStringLiteral("/inplace.bin")));
            QVERIFY(wholeVersion(fresh + QStringLiteral("/renamed.bin")));
        }
        for (QProcess &writer : writers) {
            writer.kill();
            writer.waitForFinished();
        }
        QVERIFY(busy > 0); // the in-place file was caught mid-write at least once, and left as it was
    }
};

QTEST_GUILESS_MAIN(TestFolderMirror)
#include "test_foldermirror.moc"
