// SPDX-License-Identifier: Apache-2.0
// A sync's listing over SFTP (#33), against the real test sshd: it sees what the listing command
// (find through a login shell) sees, and a re-sync to a host whose login shell starts slowly lists
// that way, with no shell on its critical path; where SFTP is missing it lists through the shell.

#include "fakesftp.h"
#include "sshdfixture.h"
#include "testfiles.h"

#include "core/ssh/session.h"
#include "core/sync/remotetree.h"
#include "core/sync/sftplisting.h"
#include "core/sync/syncengine.h"
#include "core/sync/syncmanifest.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/sftpclient.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace gantry;
using namespace gantry::sync;

namespace {

// Appended to test::kFakeSftpPrelude: every folder opens, and every READDIR answers "." "..",
// "a/b" and "".
const char kEndlessSftpServer[] = R"py(
while True:
    pkt = exact(struct.unpack('>I', exact(4))[0])
    if pkt[0] == 1:
        send(2, 3)
        continue
    rid = struct.unpack('>I', pkt[1:5])[0]
    if pkt[0] in (7, 17):
        send(105, rid, attrs(0o040755, 4096))
    elif pkt[0] == 11:
        send(102, rid, string(b'D'))
    elif pkt[0] == 12:
        names = [b'.', b'..', b'a/b', b'']
        send(104, rid, u32(len(names)) + b''.join(string(n) + string(n) + attrs(0o100644, 4096) for n in names))
    else:
        status(rid, 0)
)py";

} // namespace

class TestSyncSftpListing : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_config;

    static void write(const QString &path, const QByteArray &content, qint64 mtime, QFile::Permissions mode = {})
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(content);
        QVERIFY(f.flush());
        QVERIFY(f.setFileTime(QDateTime::fromSecsSinceEpoch(mtime), QFileDevice::FileModificationTime));
        if (mode) QVERIFY(f.setPermissions(mode));
    }

    // Files, folders (one empty, one with more names than one READDIR answer holds), modes,
    // links (to a file, to nothing), names with a space, a newline and bytes that are not UTF-8,
    // and a pipe (left out by both).
    static void buildTree(const QString &top)
    {
        const QByteArray t = QFile::encodeName(top);
        QVERIFY(QDir().mkpath(top + QStringLiteral("/src/deep/er")));
        QVERIFY(QDir().mkpath(top + QStringLiteral("/empty")));
        QVERIFY(QDir().mkpath(top + QStringLiteral("/many")));
        write(top + QStringLiteral("/a.txt"), "alpha", 1000001);
        write(top + QStringLiteral("/run.sh"), "#!/bin/sh\n", 1000002,
              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup);
        write(top + QStringLiteral("/src/deep/er/b.py"), QByteArray(3000, 'b'), 1000003, QFile::ReadOwner | QFile::WriteOwner);
        write(top + QStringLiteral("/name with space\nand newline"), "c", 1000004);
        for (int i = 0; i < 230; ++i) write(top + QStringLiteral("/many/f%1").arg(i), QByteArray::number(i), 1000005 + i);
        QVERIFY(::symlink("a.txt", QByteArray(t + "/link").constData()) == 0);
        QVERIFY(::symlink("nowhere/at/all", QByteArray(t + "/src/dangling").constData()) == 0);
        QFile raw(QFile::decodeName(QByteArray(t + "/caf\xe9.bin")));
        QVERIFY(raw.open(QIODevice::WriteOnly));
        raw.write("latin-1");
        raw.close();
        QVERIFY(::mkfifo(QByteArray(t + "/pipe").constData(), 0644) == 0);
        QVERIFY(::symlink("src/deep", QByteArray(t + "/to-folder").constData()) == 0); // listed as a link, not followed
        QVERIFY(::chmod(QByteArray(t + "/run.sh").constData(), 04755) == 0);
        QVERIFY(::chmod(QByteArray(t + "/empty").constData(), 01777) == 0);
        // More folders than are kept open at once, and more requests than are sent at once.
        for (int i = 0; i < 300; ++i) {
            QVERIFY(QDir().mkpath(top + QStringLiteral("/wide/d%1").arg(i)));
            write(top + QStringLiteral("/wide/d%1/x").arg(i), "x", 1000000);
        }
    }

    static QString describe(const RemoteListing &l)
    {
        QStringList lines{QStringLiteral("exists=%1 notDir=%2").arg(l.exists).arg(l.notDir)};
        for (const SyncEntry &e : l.entries) {
            lines << QStringLiteral("%1 %2 %3 %4 %5 -> %6")
                         .arg(QString::fromLatin1(e.path.toPercentEncoding()))
                         .arg(QChar::fromLatin1(char(e.type)))
                         .arg(e.size)
                         .arg(e.mtime)
                         .arg(e.mode, 0, 8)
                         .arg(QString::fromLatin1(e.linkTarget));
        }
        return lines.join(QLatin1Char('\n'));
    }

    struct Both
    {
        Result<RemoteListing> shell = Error{ErrorCode::ConnectFailed, QStringLiteral("not listed")};
        Result<RemoteListing> sftp = Error{ErrorCode::ConnectFailed, QStringLiteral("not listed")};
    };

    Both listBothWays(const QString &remoteDir, ssh::OutputLimits limits = {})
    {
        Both both;
        ssh::ConnectOptions options = m_sshd.connectOptions();
        options.limits = limits;
        ssh::Session session;
        if (auto c = session.connect(m_sshd.target(), options); !c) return both;
        both.shell = listRemote(session, QStringLiteral("test"), remoteDir);
        auto sftp = transfer::SftpClient::start(session.handle(), QStringLiteral("test"));
        if (!sftp) return both;
        both.sftp = listOverSftp(**sftp, session.limits(), QStringLiteral("test"), remoteDir);
        return both;
    }

    static QString manifestFile(const QString &config, const QString &local, const QString &remote)
    {
        return manifestPath(config, QStringLiteral("test"), local, remote);
    }

private slots:
    void initTestCase() { GANTRY_REQUIRE_SSHD(m_sshd.start()); }

    // SFTP pays where the shell's start-up outweighs its round trips per level of the tree.
    void whenSftpPays()
    {
        const QList<QByteArray> deep{QByteArray(), "pkg", "pkg/mod", "pkg/mod/sub"};
        QVERIFY(!sftpListingPays(-1, 50, deep));            // the shell not measured yet
        QVERIFY(sftpListingPays(1000, 50, deep));           // a conda init on a 50 ms link
        QVERIFY(!sftpListingPays(300, 50, deep));           // 11 round trips cost more than 300 ms
        QVERIFY(sftpListingPays(300, 50, {QByteArray()}));  // one folder: 5 round trips
        QVERIFY(!sftpListingPays(20, 1, deep));             // a plain shell on a LAN
        QVERIFY(sftpListingPays(300, 1, deep));
        // An sftp-server that starts through the same slow shell (Debian's default Subsystem).
        QVERIFY(!sftpListingPays(1000, 50, deep, 1000));
        QVERIFY(sftpListingPays(1000, 50, deep, 20));       // internal-sftp
    }

    void seesWhatTheListingCommandSees()
    {
        QTemporaryDir remote;
        buildTree(remote.path());
        const Both both = listBothWays(remote.path());
        QVERIFY2(both.shell, qPrintable(both.shell ? QString() : both.shell.error().message));
        QVERIFY2(both.sftp, qPrintable(both.sftp ? QString() : both.sftp.error().message));
        QCOMPARE(describe(*both.sftp), describe(*both.shell));
        QVERIFY(both.sftp->exists);
        QCOMPARE(both.sftp->entries.size(), 230 + 13 + 601); // the pipe is not among them
    }

    // Nothing there, a file there, a link to nowhere there, a link to a folder there.
    void theTopFolderAsTheCommandSeesIt()
    {
        QTemporaryDir remote;
        write(remote.filePath(QStringLiteral("file")), "x", 1000000);
        QVERIFY(QDir().mkpath(remote.filePath(QStringLiteral("real/inside"))));
        QVERIFY(::symlink("nothing", QFile::encodeName(remote.filePath(QStringLiteral("dangling"))).constData()) == 0);
        QVERIFY(::symlink("real", QFile::encodeName(remote.filePath(QStringLiteral("alias"))).constData()) == 0);
        for (const char *top : {"missing", "file", "dangling", "alias", "alias/"}) {
            const Both both = listBothWays(remote.filePath(QString::fromLatin1(top)));
            QVERIFY2(both.shell && both.sftp, top);
            QCOMPARE(describe(*both.sftp), describe(*both.shell));
        }
    }

    // A folder the user cannot read is listed without its content, as find lists it. (Root reads
    // every folder: as root, the case is the plain one, and both must still agree.)
    void anUnreadableFolderIsListedEmpty()
    {
        QTemporaryDir remote;
        QVERIFY(QDir().mkpath(remote.filePath(QStringLiteral("closed"))));
        write(remote.filePath(QStringLiteral("closed/secret")), "s", 1000000);
        QVERIFY(::chmod(QFile::encodeName(remote.filePath(QStringLiteral("closed"))).constData(), 0) == 0);
        const Both both = listBothWays(remote.path());
        QVERIFY(::chmod(QFile::encodeName(remote.filePath(QStringLiteral("closed"))).constData(), 0755) == 0);
        QVERIFY(both.shell && both.sftp);
        QCOMPARE(describe(*both.sftp), describe(*both.shell));
        QCOMPARE(both.sftp->entries.size(), ::geteuid() == 0 ? 2 : 1);
    }

    // A server that answers every READDIR with names that are all left out ("." "..", a name
    // with '/') is stopped by the entry limit, not followed forever.
    void endlessAnswersStopAtTheLimit()
    {
        QTemporaryDir bin;
        const QString server = bin.filePath(QStringLiteral("endless-sftp"));
        test::writeFile(server, QByteArray(test::kFakeSftpPrelude) + kEndlessSftpServer);
        QVERIFY(QFile::setPermissions(server, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        test::SshdFixture sshd;
        test::SshdFixture::Options options;
        options.sftpServer = server;
        GANTRY_REQUIRE_SSHD(sshd.start(options));
        ssh::ConnectOptions connect = sshd.connectOptions();
        connect.limits.maxListEntries = 5000;
        ssh::Session session;
        QVERIFY(session.connect(sshd.target(), connect).ok());
        auto sftp = transfer::SftpClient::start(session.handle(), QStringLiteral("test"));
        QVERIFY2(sftp, qPrintable(sftp ? QString() : sftp.error().message));
        const auto listed = listOverSftp(**sftp, session.limits(), QStringLiteral("test"), QStringLiteral("/srv"));
        QVERIFY(!listed);
        QVERIFY2(listed.error().message.contains(QStringLiteral("--max-entries")), qPrintable(listed.error().message));
    }

    void keepsTheSessionsLimits()
    {
        QTemporaryDir remote;
        buildTree(remote.path());
        ssh::OutputLimits limits;
        limits.maxListEntries = 100;
        const Both both = listBothWays(remote.path(), limits);
        QVERIFY(!both.sftp);
        QVERIFY2(both.sftp.error().message.contains(QStringLiteral("--max-entries")), qPrintable(both.sftp.error().message));
        QVERIFY(!both.shell); // the command's listing stops at the same limit
    }

    // The first sync measures the login shell (1 s here); the next process's syncs list over
    // SFTP (sshd logs the subsystem) and still send what changed, through the runner that starts
    // beside the listing.
    void aSlowShellHostIsListedOverSftp()
    {
        test::SshdFixture sshd;
        test::SshdFixture::Options options;
        options.debugLog = true;
        options.shellStartupMs = 1000; // well above what a loaded machine adds to a connect
        GANTRY_REQUIRE_SSHD(sshd.start(options));
        QTemporaryDir local;
        QTemporaryDir remote;
        write(local.filePath(QStringLiteral("a.txt")), "one", 1000000);
        QVERIFY(QDir().mkpath(local.filePath(QStringLiteral("src"))));
        write(local.filePath(QStringLiteral("src/b.py")), QByteArray(20000, 'b'), 1000000);
        const auto factory = transfer::makeSessionFactory(sshd.target(), sshd.connectOptions());
        const auto syncOnce = [&](QList<SyncEvent> *events) {
            SyncEngine engine(factory, SyncTarget{QStringLiteral("test"), local.path(), remote.path(), m_config.path()},
                              SyncOptions{}, [events](const SyncEvent &e) { events->append(e); });
            return engine.run();
        };
        QList<SyncEvent> events;
        auto r = syncOnce(&events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        const SyncManifest measured = loadManifest(manifestFile(m_config.path(), local.path(), remote.path()));
        QVERIFY2(measured.shellStartMs >= 500, qPrintable(QString::number(measured.shellStartMs)));
        QVERIFY(measured.haveTar && measured.haveRunner);
        QCOMPARE(sshd.log().count("req subsystem"), 0);

        write(local.filePath(QStringLiteral("a.txt")), "two", 1000010);
        r = syncOnce(&events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 1);
        QCOMPARE(test::readAll(remote.filePath(QStringLiteral("a.txt"))), QByteArray("two"));
        QVERIFY2(sshd.log().count("req subsystem") == 1, sshd.log().right(3000).constData());
        r = syncOnce(&events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 0);
        QCOMPARE(sshd.log().count("req subsystem"), 2);
        // What the shell measured stays for the next syncs.
        QCOMPARE(loadManifest(manifestFile(m_config.path(), local.path(), remote.path())).shellStartMs, measured.shellStartMs);
    }

    // A host without the SFTP subsystem: the re-sync lists through the shell, as before.
    void withoutSftpTheShellLists()
    {
        test::SshdFixture sshd;
        test::SshdFixture::Options options;
        options.debugLog = true;
        options.shellStartupMs = 1000; // well above what a loaded machine adds to a connect
        options.sftpServer = QStringLiteral("/nonexistent/sftp-server");
        GANTRY_REQUIRE_SSHD(sshd.start(options));
        QTemporaryDir local;
        QTemporaryDir remote;
        write(local.filePath(QStringLiteral("a.txt")), "one", 1000000);
        const auto factory = transfer::makeSessionFactory(sshd.target(), sshd.connectOptions());
        for (const QByteArray &content : {QByteArray("one"), QByteArray("three")}) {
            write(local.filePath(QStringLiteral("a.txt")), content, content == "one" ? 1000000 : 1000020);
            QList<SyncEvent> events;
            SyncEngine engine(factory, SyncTarget{QStringLiteral("test"), local.path(), remote.path(), m_config.path()},
                              SyncOptions{}, [&events](const SyncEvent &e) { events.append(e); });
            auto r = engine.run();
            QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
            QCOMPARE(events.last().files, 1);
            QCOMPARE(test::readAll(remote.filePath(QStringLiteral("a.txt"))), content);
        }
        const SyncManifest after = loadManifest(manifestFile(m_config.path(), local.path(), remote.path()));
        QVERIFY(after.shellStartMs >= 500);
        QVERIFY(after.sftpRefused);
        const qsizetype tried = sshd.log().count("req subsystem");
        QVERIFY(tried >= 1); // the second sync tried SFTP first
        // The next syncs of the pair go to the shell at once.
        write(local.filePath(QStringLiteral("a.txt")), "four", 1000030);
        QList<SyncEvent> events;
        SyncEngine engine(factory, SyncTarget{QStringLiteral("test"), local.path(), remote.path(), m_config.path()},
                          SyncOptions{}, [&events](const SyncEvent &e) { events.append(e); });
        auto r = engine.run();
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(test::readAll(remote.filePath(QStringLiteral("a.txt"))), QByteArray("four"));
        QCOMPARE(sshd.log().count("req subsystem"), tried);
    }
};

QTEST_GUILESS_MAIN(TestSyncSftpListing)
#include "test_sync_sftplisting.moc"
