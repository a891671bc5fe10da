// End-to-end verification of uploads against a real sshd: large files are checked on the host
// while they go out (a remote python3), by the whole file on this short link and chunk by chunk
// after a resume, with the whole-file sha256 as the fallback. A python3 wrapper first on the
// remote PATH can answer honestly, lie about one chunk (or the whole file), or be missing, so the
// comparison, the error and the fallback are each exercised.

#include "sshdfixture.h"
#include "tests/support/stagingfile.h"

#include "core/transfer/journal.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/sha256.h"
#include "core/transfer/transferjob.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::transfer;

namespace {
void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(data), data.size());
}

QByteArray randomBytes(qint64 size, quint32 seed)
{
    QByteArray data(size, Qt::Uninitialized);
    QRandomGenerator gen(seed);
    for (qint64 i = 0; i < size; ++i) data[i] = char(gen.generate() & 0xff);
    return data;
}

// python3 on the host's PATH: honest, lying about chunk 1 and the whole file, or absent, after the
// mode file.
constexpr char kFakePython[] = R"(#!/bin/sh
mode=$(cat "$(dirname "$0")/python3.mode" 2>/dev/null)
case "$mode" in
  missing) echo "sh: 1: python3: not found" >&2; exit 127 ;;
  lie) /usr/bin/python3 "$@" | awk '{ h = $2; if ($1 == 1 || $1 == "whole") h = (substr(h, 1, 1) == "0" ? "1" : "0") substr(h, 2); print $1, h; fflush() }' ;;
  *) exec /usr/bin/python3 "$@" ;;
esac
)";
} // namespace

class TestTransferVerify : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_bin;
    test::SshdFixture m_sshd;
    QTemporaryDir m_local;
    QTemporaryDir m_remote;
    QTemporaryDir m_config;
    std::unique_ptr<JournalStore> m_journals;

    std::atomic_bool m_cancel{false};

    void setMode(const QByteArray &mode) { writeFile(m_bin.filePath(QStringLiteral("python3.mode")), mode); }

    // A session to the host, with `data` written there as `name` (its path in *path).
    Result<std::unique_ptr<ssh::Session>> sessionWithFile(const QString &name, const QByteArray &data, QString *path)
    {
        *path = m_remote.filePath(name);
        writeFile(*path, data);
        return makeSessionFactory(m_sshd.target(), m_sshd.connectOptions())(&m_cancel);
    }

    // The journal of an interrupted upload of `src` to `dest` whose first chunk is on the host
    // (with `firstHash` recorded for it), and that chunk written to dest's staging file.
    void interruptedAfterFirstChunk(const QString &src, const QString &dest, const QByteArray &onHost, const QByteArray &firstHash)
    {
        FileJournal j;
        j.direction = Direction::Upload;
        j.host = QStringLiteral("fixture");
        j.source = QFileInfo(src).absoluteFilePath();
        j.destination = dest;
        j.size = quint64(QFileInfo(src).size());
        j.mtime = QFileInfo(src).lastModified().toMSecsSinceEpoch();
        j.chunkSize = 4 * 1024 * 1024;
        for (int i = 0; i < int((j.size + j.chunkSize - 1) / j.chunkSize); ++i) {
            j.done.append(i == 0);
            j.chunkHashes.append(i == 0 ? firstHash : QByteArray());
        }
        QVERIFY(m_journals->save(JournalStore::key(Direction::Upload, j.host, j.source, dest), j));
        writeFile(JournalStore::stagingPath(Direction::Upload, j.host, dest), onHost);
    }

    Result<TransferOutcome> upload(const QString &local, const QString &remote)
    {
        TransferRequest req;
        req.direction = Direction::Upload;
        req.host = QStringLiteral("fixture");
        req.localPath = local;
        req.remotePath = remote;
        req.options.onConflict = ConflictPolicy::Overwrite;
        req.options.parallel = 1;
        std::atomic_bool cancel{false};
        TransferContext ctx(makeSessionFactory(m_sshd.target(), m_sshd.connectOptions()), &cancel, m_journals.get(),
                            req.host, req.options, {}, {});
        return runTransfer(req, ctx);
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral("/usr/bin/python3"))) QSKIP("needs /usr/bin/python3 (packaging/install-deps.sh installs it)");
        const QString python = m_bin.filePath(QStringLiteral("python3"));
        writeFile(python, kFakePython);
        QFile::setPermissions(python, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        const QString why = m_sshd.start(options);
        GANTRY_REQUIRE_SSHD(why);
        m_journals = std::make_unique<JournalStore>(m_config.path());
    }

    // The remote process answers one digest per announced chunk, including a short last chunk.
    void chunkHasherAnswersEveryChunk()
    {
        setMode("honest");
        const QByteArray data = randomBytes(2 * 65536 + 123, 7);
        QString path;
        auto session = sessionWithFile(QStringLiteral("chunks.bin"), data, &path);
        QVERIFY2(session, session ? "" : qPrintable(session.error().message));
        RemoteChunkHasher hasher(**session, path, 65536, 3);
        QList<bool> done{true, false, false};
        const auto isDone = [&](int chunk) { return done[chunk]; };
        hasher.advance(isDone);
        done = {true, true, true};
        auto digests = hasher.finish(isDone);
        QVERIFY2(digests, digests ? "" : qPrintable(digests.error().message));
        QCOMPARE(digests->size(), 3);
        for (int i = 0; i < 3; ++i) QCOMPARE(digests->at(i), Sha256::hex(data.mid(i * 65536, 65536)));
    }

    // In whole-file mode the chunks, announced in order, feed one digest of the whole file, read
    // on to its end; finishing while a chunk before the others is not done is refused.
    void wholeFileHasherAnswersOneDigest()
    {
        setMode("honest");
        const QByteArray data = randomBytes(2 * 65536 + 123, 8);
        QString path;
        auto session = sessionWithFile(QStringLiteral("whole.bin"), data, &path);
        QVERIFY2(session, session ? "" : qPrintable(session.error().message));
        const auto all = [](int) { return true; };
        RemoteChunkHasher hasher(**session, path, 65536, 3, RemoteChunkHasher::Mode::WholeFile);
        QList<bool> done{true, false, false};
        hasher.advance([&](int chunk) { return done[chunk]; });
        auto digest = hasher.finishWhole(all);
        QVERIFY2(digest, digest ? "" : qPrintable(digest.error().message));
        QCOMPARE(*digest, Sha256::hex(data));

        RemoteChunkHasher skipping(**session, path, 65536, 3, RemoteChunkHasher::Mode::WholeFile);
        skipping.advance([](int chunk) { return chunk != 0; }); // announces nothing: chunk 0 is not done
        done = {false, true, true};
        auto refused = skipping.finishWhole([&](int chunk) { return done[chunk]; });
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("chunk 0 is not done")), qPrintable(refused.error().message));
    }

    // A python3 that is a version manager's shim (first on PATH, in a `shims` folder) is passed
    // over for /usr/bin/python3: this one lies, so its digest would not match.
    void shimPythonIsPassedOver()
    {
        QTemporaryDir home;
        const QString shims = home.filePath(QStringLiteral(".pyenv/shims"));
        QVERIFY(QDir().mkpath(shims));
        QVERIFY(test::writeScript(shims + QStringLiteral("/python3"), QString::fromLatin1(kFakePython)));
        writeFile(shims + QStringLiteral("/python3.mode"), "lie");
        test::SshdFixture shimmed;
        test::SshdFixture::Options options;
        options.binDir = shims;
        GANTRY_REQUIRE_SSHD(shimmed.start(options));
        const QByteArray data = randomBytes(3 * 65536, 9);
        const QString path = m_remote.filePath(QStringLiteral("shimmed.bin"));
        writeFile(path, data);
        auto session = makeSessionFactory(shimmed.target(), shimmed.connectOptions())(&m_cancel);
        QVERIFY2(session, session ? "" : qPrintable(session.error().message));
        const auto all = [](int) { return true; };
        RemoteChunkHasher hasher(**session, path, 65536, 3, RemoteChunkHasher::Mode::WholeFile);
        auto digest = hasher.finishWhole(all);
        QVERIFY2(digest, digest ? "" : qPrintable(digest.error().message));
        QCOMPARE(*digest, Sha256::hex(data));
    }

    void honestHostVerifies()
    {
        setMode("honest");
        const QString src = m_local.filePath(QStringLiteral("weights.bin"));
        const QByteArray data = randomBytes(9 * 1024 * 1024 + 5, 1); // above the read-back limit: checked on the host
        writeFile(src, data);
        auto r = upload(src, m_remote.path() + QLatin1Char('/'));
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->verified);
        QCOMPARE(r->sha256.toLatin1(), Sha256::hex(data));
    }

    // A fresh upload whose copy reads back differently on the host fails, naming the file; the
    // good file already there is not replaced and no partial is left behind.
    void damagedFileIsAnErrorAndKeepsTheGoodFile()
    {
        const QString dest = m_remote.filePath(QStringLiteral("good.bin"));
        writeFile(dest, "the good copy");
        const QString src = m_local.filePath(QStringLiteral("good.bin"));
        writeFile(src, randomBytes(10 * 1024 * 1024, 2));
        setMode("lie");
        auto r = upload(src, dest);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::RemoteFailed);
        QVERIFY2(r.error().message.contains(QStringLiteral("Integrity check failed")), qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(QStringLiteral("SHA-256 of the file")), qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(QStringLiteral("retry")), qPrintable(r.error().message));
        QFile kept(dest);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("the good copy"));
        QVERIFY(gantry::testsupport::stagingFileOf(dest).isEmpty());
    }

    // A resumed upload is checked chunk by chunk: a chunk that reads back differently fails it
    // with the byte range, and nothing is left behind.
    void damagedChunkAfterResumeNamesTheBytes()
    {
        const QString src = m_local.filePath(QStringLiteral("resumed.bin"));
        const QByteArray data = randomBytes(10 * 1024 * 1024, 4);
        writeFile(src, data);
        const QString dest = m_remote.filePath(QStringLiteral("resumed.bin"));
        const QByteArray first = data.left(4 * 1024 * 1024);
        interruptedAfterFirstChunk(src, dest, first, Sha256::hex(first));
        setMode("lie");
        auto r = upload(src, dest);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QStringLiteral("bytes 4194304–8388608")), qPrintable(r.error().message));
        QVERIFY(!QFileInfo::exists(dest));
        QVERIFY(gantry::testsupport::stagingFileOf(dest).isEmpty());
    }

    // Chunks sent under the whole-file check carry no hash of their own ("-"): after a resume the
    // whole file is hashed on the host, which catches a byte damaged in the part sent before.
    void resumeAfterWholeFileCheckHashesTheWholeFile()
    {
        setMode("honest");
        const QString src = m_local.filePath(QStringLiteral("whole-resumed.bin"));
        const QByteArray data = randomBytes(10 * 1024 * 1024, 6);
        writeFile(src, data);
        const QString dest = m_remote.filePath(QStringLiteral("whole-resumed.bin"));
        interruptedAfterFirstChunk(src, dest, data.left(4 * 1024 * 1024), QByteArrayLiteral("-"));
        auto r = upload(src, dest);
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->resumed);
        QVERIFY(r->verified);
        QCOMPARE(r->payloadBytes, quint64(data.size() - 4 * 1024 * 1024));
        QFile got(dest);
        QVERIFY(got.open(QIODevice::ReadOnly));
        QCOMPARE(Sha256::hex(got.readAll()), Sha256::hex(data));

        QByteArray damaged = data.left(4 * 1024 * 1024);
        damaged[12345] = char(damaged[12345] ^ 0x20);
        interruptedAfterFirstChunk(src, dest, damaged, QByteArrayLiteral("-"));
        auto bad = upload(src, dest);
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.contains(QStringLiteral("SHA-256 of the file")), qPrintable(bad.error().message));
        QVERIFY(gantry::testsupport::stagingFileOf(dest).isEmpty());
    }

    // Offsets past 4 GiB: a sparse 4 GiB + 5 MiB file whose first 4 GiB are already on the host
    // (as an interrupted upload would have left them), so only the chunks beyond 4 GiB cross the
    // wire; then both sides hash the whole file.
    void fileAbove4GiBResumesPastTheBoundary()
    {
        setMode("honest");
        const quint64 fourGiB = 4ull * 1024 * 1024 * 1024;
        const quint64 size = fourGiB + 5 * 1024 * 1024;
        const QString src = m_local.filePath(QStringLiteral("huge.bin"));
        const QByteArray tail = randomBytes(5 * 1024 * 1024, 5);
        {
            QFile f(src);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QVERIFY(f.seek(qint64(fourGiB)));
            QCOMPARE(f.write(tail), tail.size());
        }
        const QString dest = m_remote.filePath(QStringLiteral("huge.bin"));
        {
            QFile partial(JournalStore::stagingPath(Direction::Upload, QStringLiteral("fixture"), dest));
            QVERIFY(partial.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QVERIFY(partial.resize(qint64(size))); // sparse zeros, like the source's first 4 GiB
        }
        FileJournal j;
        j.direction = Direction::Upload;
        j.host = QStringLiteral("fixture");
        j.source = QFileInfo(src).absoluteFilePath();
        j.destination = dest;
        j.size = size;
        j.mtime = QFileInfo(src).lastModified().toMSecsSinceEpoch();
        j.chunkSize = 4 * 1024 * 1024;
        const int chunks = int((size + j.chunkSize - 1) / j.chunkSize);
        const QByteArray zeroChunk = Sha256::hex(QByteArray(qsizetype(j.chunkSize), '\0'));
        for (int i = 0; i < chunks; ++i) {
            const bool below = j.chunkOffset(i) < fourGiB;
            j.done.append(below);
            j.chunkHashes.append(below ? zeroChunk : QByteArray());
        }
        QVERIFY(m_journals->save(JournalStore::key(Direction::Upload, j.host, j.source, dest), j));

        auto r = upload(src, dest);
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->resumed);
        QVERIFY(r->verified);
        QCOMPARE(r->payloadBytes, quint64(tail.size()));
        QCOMPARE(r->totalBytes, size);
        QFile got(dest);
        QVERIFY(got.open(QIODevice::ReadOnly));
        QCOMPARE(quint64(got.size()), size);
        QVERIFY(got.seek(qint64(fourGiB)));
        QCOMPARE(got.read(tail.size() + 1), tail);
    }

    // No python3 on the host: the whole file is hashed there at the end instead.
    void hostWithoutPythonFallsBackToWholeFileHash()
    {
        setMode("missing");
        const QString src = m_local.filePath(QStringLiteral("nopython.bin"));
        const QByteArray data = randomBytes(9 * 1024 * 1024, 3);
        writeFile(src, data);
        auto r = upload(src, m_remote.path() + QLatin1Char('/'));
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->verified);
        QVERIFY2(r->notes.isEmpty(), qPrintable(r->notes.join(QLatin1Char('\n'))));
        QFile got(m_remote.filePath(QStringLiteral("nopython.bin")));
        QVERIFY(got.open(QIODevice::ReadOnly));
        QCOMPARE(Sha256::hex(got.readAll()), Sha256::hex(data));
    }
};

QTEST_GUILESS_MAIN(TestTransferVerify)
#include "test_transfer_verify.moc"
