// SPDX-License-Identifier: Apache-2.0
// Large files over a long link (a real sshd behind gantry-delayrelay, 80 ms round trip): an
// upload's staging file opened on all of the first session's channels in the round trip of its
// creation, the host's chunk check announced while the last sessions finish, a download read
// with a wide receive window; and requests asked ahead with the SFTP handshake, answered once.

#include "delayrelayprocess.h"
#include "sshdfixture.h"
#include "testfiles.h"
#include "tests/support/stagingfile.h"

#include "core/ssh/session.h"
#include "core/transfer/journal.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/sha256.h"
#include "core/transfer/transferjob.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::transfer;

namespace {
QByteArray hashOf(const QString &path)
{
    return sha256OfFile(path).valueOr(QByteArray());
}
} // namespace

class TestTransferLongLink : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    test::DelayRelay m_relay;
    QTemporaryDir m_local;
    QTemporaryDir m_remote;
    QTemporaryDir m_config;
    std::unique_ptr<JournalStore> m_journals;
    QString m_relayKnownHosts;

    Result<TransferOutcome> run(TransferRequest req)
    {
        req.host = QStringLiteral("far");
        std::atomic_bool none{false};
        ssh::Target target = m_sshd.target();
        target.port = m_relay.port;
        ssh::ConnectOptions options = m_sshd.connectOptions();
        options.knownHostsFile = m_relayKnownHosts;
        TransferContext ctx(makeSessionFactory(target, options), &none, m_journals.get(), req.host, req.options, {}, {});
        return runTransfer(req, ctx);
    }

    // The OPEN requests of the staging file of `name`, with these flags, as sftp-server logged them.
    int stagingOpens(const QString &name, const QString &flags) const
    {
        const QString log = QString::fromUtf8(test::readAll(m_config.filePath(QStringLiteral("sftp.log"))));
        return int(log.count(QRegularExpression(QStringLiteral("open \"[^\"]*/\\.%1\\.gantry-[^\"]*\\.partial\" flags %2 mode")
                                                    .arg(QRegularExpression::escape(name), flags))));
    }

    // The largest window adjust the client sent, as sshd logged them.
    quint64 largestWindowAdjust() const
    {
        quint64 largest = 0;
        static const QRegularExpression adjust(QStringLiteral("rcvd adjust (\\d+)"));
        for (auto it = adjust.globalMatch(QString::fromUtf8(m_sshd.log())); it.hasNext();)
            largest = std::max(largest, it.next().captured(1).toULongLong());
        return largest;
    }

private slots:
    void initTestCase()
    {
        // OpenSSH's sftp-server (not internal-sftp) logs each OPEN with its flags; sshd at
        // DEBUG2 each window adjust.
        test::SshdFixture::Options options;
        options.sftpServer = QStringLiteral("/usr/lib/openssh/sftp-server -e -l INFO 2>>") + m_config.filePath(QStringLiteral("sftp.log"));
        options.debugLog = true;
        options.debugLevel = 2;
        GANTRY_REQUIRE_SSHD(m_sshd.start(options));
        // 80 ms round trip: the first connect takes ~350 ms, a long link to SessionPrefetch's hint.
        QVERIFY(m_relay.start(m_sshd.port(), 40, m_config.path()));
        // The relay's port names the same host key.
        const QByteArray line = test::readAll(m_sshd.knownHostsPath()).trimmed().split('\n').first();
        m_relayKnownHosts = m_config.filePath(QStringLiteral("known_hosts"));
        test::writeFile(m_relayKnownHosts, "[127.0.0.1]:" + QByteArray::number(m_relay.port) + line.mid(line.indexOf(' ')) + '\n');
        m_journals = std::make_unique<JournalStore>(m_config.path());
    }

    // The first session's other channels open the staging file in the round trip that creates it
    // (WRITE,CREATE), not one by one after it (WRITE). A stale, longer staging file from another
    // upload is still cut to nothing by the creating open: no tail of it survives.
    void largeUploadOverChannelsOpenedTogether()
    {
        const QString src = m_local.filePath(QStringLiteral("weights.bin"));
        const quint64 size = 72ull * 1024 * 1024 + 4321;
        test::writeRandom(src, qint64(size), 21);
        const QString dest = m_remote.filePath(QStringLiteral("weights.bin"));
        const QString staging = JournalStore::stagingPath(Direction::Upload, QStringLiteral("far"), dest);
        test::writeRandom(staging, qint64(size + 9 * 1024 * 1024), 22);

        TransferRequest req;
        req.direction = Direction::Upload;
        req.localPath = src;
        req.remotePath = m_remote.path() + QLatin1Char('/');
        req.options.onConflict = ConflictPolicy::Overwrite;
        auto r = run(req);
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->verified);
        QVERIFY(!r->resumed);
        QVERIFY2(r->channels >= 5, qPrintable(QString::number(r->channels))); // several a session (four sessions at most)
        QCOMPARE(stagingOpens(QStringLiteral("weights.bin"), QStringLiteral("WRITE,CREATE,TRUNCATE")), 1);
        QVERIFY(stagingOpens(QStringLiteral("weights.bin"), QStringLiteral("WRITE,CREATE")) >= 1);
        QCOMPARE(QFileInfo(dest).size(), qint64(size));
        QCOMPARE(hashOf(dest), hashOf(src));
        QCOMPARE(r->sha256.toLatin1(), hashOf(src));
        QVERIFY(testsupport::stagingFileOf(dest).isEmpty());
    }

    // A folder goes over several sessions on a long link; the helpers start their batch runners as
    // they connect (one command at most each, not another once the batches are planned), and an
    // SFTP channel each at most (to stage batches where the probe's shell is slow, tarstage.h).
    void folderHelpersStartTheirRunnersAsTheyConnect()
    {
        const QString src = m_local.filePath(QStringLiteral("project"));
        for (int i = 0; i < 120; ++i) test::writeRandom(src + QStringLiteral("/d%1/f%2.bin").arg(i % 6).arg(i), 200 * 1024 + i, 30 + i);
        const QByteArray before = m_sshd.log();
        TransferRequest req;
        req.direction = Direction::Upload;
        req.localPath = src;
        req.remotePath = m_remote.path() + QLatin1Char('/');
        auto r = run(req);
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->verified);
        for (int i = 0; i < 120; i += 17) {
            const QString rel = QStringLiteral("/d%1/f%2.bin").arg(i % 6).arg(i);
            QCOMPARE(hashOf(m_remote.filePath(QStringLiteral("project")) + rel), hashOf(src + rel));
        }
        const QByteArray log = m_sshd.log().mid(before.size());
        const qsizetype logins = log.count("Accepted publickey");
        QVERIFY2(logins >= 3, log.right(3000).constData()); // 24 MiB at 80 ms: helpers came
        const qsizetype subsystems = log.count("req subsystem"); // the first session's SFTP, and the helpers'
        QVERIFY2(subsystems >= 1 && subsystems <= logins, qPrintable(QStringLiteral("%1 SFTP, %2 logins").arg(subsystems).arg(logins)));
        // Its probe and runner, and at most one runner a helper (one that connects once the upload
        // has the helpers it wants starts none).
        const qsizetype execs = log.count("req exec");
        QVERIFY2(execs >= 3 && execs <= 2 + (logins - 1), qPrintable(QStringLiteral("%1 commands, %2 logins").arg(execs).arg(logins)));
    }

    // A file back over the sessions a long link wants, each offering sshd a wide window.
    void largeDownloadOverALongLink()
    {
        const QString src = m_remote.filePath(QStringLiteral("checkpoint.bin"));
        test::writeRandom(src, 40ll * 1024 * 1024 + 99, 23);
        TransferRequest req;
        req.direction = Direction::Download;
        req.remotePath = src;
        req.localPath = m_local.filePath(QStringLiteral("back")) + QLatin1Char('/');
        req.destinationIsDir = true;
        auto r = run(req);
        QVERIFY2(r, r ? "" : qPrintable(r.error().message));
        QVERIFY(r->verified);
        QCOMPARE(hashOf(m_local.filePath(QStringLiteral("back/checkpoint.bin"))), hashOf(src));
        // libssh on its own offers ~1.2 MB at a time, and 4 MiB to the host's hash command (its
        // reads ask for that); the wide window's first adjust is about 7 MB.
        QVERIFY2(largestWindowAdjust() > 6u * 1024 * 1024, qPrintable(QString::number(largestWindowAdjust())));
    }

    // A python started before its program was known (so that a slow login shell runs beside the
    // transfer) hashes what it is told later: the chunks of a file whose name needs every byte
    // kept (spaces, a newline, non-ASCII), and the whole file; one never told anything just ends.
    void pythonStartedAheadHashesLater()
    {
        const QString path = m_remote.filePath(QStringLiteral("a b\nçà.bin"));
        const QByteArray data = QByteArray("gantry").repeated(1000000) + "tail";
        test::writeFile(path, data);
        const quint64 chunk = 1 << 20;
        const int chunks = int((quint64(data.size()) + chunk - 1) / chunk);
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()));
        const auto isDone = [](int) { return true; };

        auto waiting = session.openExec(waitingPythonCommand());
        QVERIFY(waiting);
        RemoteChunkHasher byChunk(std::move(*waiting), path, chunk, chunks, RemoteChunkHasher::Mode::Chunks, nullptr);
        auto digests = byChunk.finish(isDone);
        QVERIFY2(digests, digests ? "" : qPrintable(digests.error().message));
        QCOMPARE(digests->size(), chunks);
        for (int i = 0; i < chunks; ++i) QCOMPARE(digests->at(i), Sha256::hex(data.mid(qsizetype(i * chunk), qsizetype(chunk))));

        waiting = session.openExec(waitingPythonCommand());
        QVERIFY(waiting);
        RemoteChunkHasher whole(std::move(*waiting), path, chunk, chunks, RemoteChunkHasher::Mode::WholeFile, nullptr);
        auto digest = whole.finishWhole(isDone);
        QVERIFY2(digest, digest ? "" : qPrintable(digest.error().message));
        QCOMPARE(*digest, Sha256::hex(data));

        auto unused = session.openExec(waitingPythonCommand());
        QVERIFY(unused);
        QVERIFY((*unused)->sendEof());
        QVERIFY(QTest::qWaitFor([&] { return (*unused)->read(50) && (*unused)->exitStatus().has_value(); }, 30000));
        QCOMPARE(*(*unused)->exitStatus(), 0);
    }

    // What is asked with the handshake is answered by it: a later stat takes that answer (the
    // file as it was), the next one asks again; an answer no call took is settled, not left.
    void askedAheadIsAnsweredOnce()
    {
        const QString path = m_remote.filePath(QStringLiteral("ahead.txt"));
        test::writeFile(path, "12345");
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()));
        auto clients = SftpClient::startMany(session, 1, nullptr, [&](SftpClient &first) {
            first.askAhead(SftpClient::Stat, path);
            first.askAhead(SftpClient::Realpath, QStringLiteral("."));
        });
        QVERIFY2(clients, clients ? "" : qPrintable(clients.error().message));
        SftpClient &sftp = *clients->front();
        // One channel is answered in order: once the later question is answered, the stat ran.
        auto home = sftp.realpath(QStringLiteral("."));
        QVERIFY2(home, home ? "" : qPrintable(home.error().message));
        QVERIFY(home->startsWith(QLatin1Char('/')));
        QVERIFY(QFile::remove(path));
        const auto before = sftp.stats({path});
        QVERIFY(before.first());
        QCOMPARE(before.first()->size.value_or(0), quint64(5));
        QCOMPARE(sftp.stat(path).error().code, ErrorCode::NotFound);
        QCOMPARE(sftp.realpath(QStringLiteral(".")).valueOr(QString()), *home);
        sftp.askAhead(SftpClient::Stat, path);
        sftp.settleAhead();
        QVERIFY(sftp.stat(m_remote.path()));
        QCOMPARE(sftp.stat(path).error().code, ErrorCode::NotFound);
    }

    // A forgotten request's answer is dropped as it comes: neither next() nor a later wait meets it.
    void forgottenAnswersAreDropped()
    {
        ssh::Session session;
        QVERIFY(session.connect(m_sshd.target(), m_sshd.connectOptions()));
        auto clients = SftpClient::startMany(session, 1);
        QVERIFY2(clients, clients ? "" : qPrintable(clients.error().message));
        SftpClient &sftp = *clients->front();
        auto dropped = sftp.send(SftpClient::Stat, sftpwire::stringBody(QFile::encodeName(m_remote.path())));
        QVERIFY(dropped);
        sftp.forget(*dropped);
        auto kept = sftp.send(SftpClient::Realpath, sftpwire::stringBody("."));
        QVERIFY(kept);
        auto reply = sftp.next();
        QVERIFY2(reply, reply ? "" : qPrintable(reply.error().message));
        QCOMPARE(reply->id, *kept);
        QCOMPARE(reply->type, quint8(SftpClient::Name));
        QVERIFY(sftp.stat(m_remote.path())); // the stash holds nothing stale either
    }
};

QTEST_GUILESS_MAIN(TestTransferLongLink)
#include "test_transfer_longlink.moc"
