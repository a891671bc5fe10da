// SPDX-License-Identifier: Apache-2.0
// Tar batches staged over SFTP while the runners' login shells start (#33), against the real test
// sshd with a 1 s shell start-up (a conda init): a first sync's (and a folder upload's) runners
// unpack the staged files instead of receiving the bytes after the listing; a plan other than the
// one staged for leaves nothing behind; an sftp-server that starts through the same slow shell is
// neither staged to nor listed with.

#include "sshdfixture.h"
#include "testfiles.h"

#include "core/sync/syncengine.h"
#include "core/sync/syncmanifest.h"
#include "core/transfer/journal.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/transfercontext.h"
#include "core/transfer/transferjob.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <future>

using namespace gantry;
using namespace gantry::sync;

class TestSyncStage : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_config;

    // 240 files of 40-110 KB in 12 folders (18 MB: enough for helper sessions), each with its own
    // modification time.
    static void makeTree(const QString &top, int files = 240, int first = 0)
    {
        for (int i = first; i < first + files; ++i) {
            const QString path = top + QStringLiteral("/d%1/f%2.bin").arg(i % 12).arg(i);
            QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
            QByteArray data(40000 + (i * 2903) % 70000, Qt::Uninitialized);
            for (qsizetype k = 0; k < data.size(); ++k) data[k] = char((k * 31 + i * 7) & 0xff);
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QCOMPARE(f.write(data), data.size());
            QVERIFY(f.setFileTime(QDateTime::fromSecsSinceEpoch(1600000000 + i), QFileDevice::FileModificationTime));
        }
    }

    // Appends a line to the file and gives it the time `mtime` (whole seconds, as tar keeps them).
    [[nodiscard]] static bool edit(const QString &path, qint64 mtime)
    {
        QFile f(path);
        return f.open(QIODevice::Append) && f.write("one more line\n") > 0 && f.flush()
               && f.setFileTime(QDateTime::fromSecsSinceEpoch(mtime), QFileDevice::FileModificationTime);
    }

    // Sent events for `path` among events.
    static qsizetype sentEvents(const QList<SyncEvent> &events, const QByteArray &path)
    {
        return std::count_if(events.cbegin(), events.cend(), [&path](const SyncEvent &e) {
            return e.kind == SyncEvent::Sent && e.path == path && e.changed;
        });
    }

    // Every file under local is under remote with its content and modification time.
    static QString differences(const QString &local, const QString &remote)
    {
        QStringList diffs;
        QDirIterator it(local, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            const QString rel = QDir(local).relativeFilePath(path);
            const QFileInfo there(QDir(remote).filePath(rel));
            if (!there.exists() || test::readAll(there.filePath()) != test::readAll(path)) {
                diffs << rel + QStringLiteral(" (content)");
            } else if (there.lastModified() != QFileInfo(path).lastModified()) {
                diffs << rel + QStringLiteral(" (time)");
            }
        }
        return diffs.join(QLatin1Char(' '));
    }

    Result<void> sync(const test::SshdFixture &sshd, const QString &local, const QString &remote, QList<SyncEvent> *events,
                      const CancelToken &cancel = {})
    {
        SyncOptions options;
        options.parallel = 3; // helper sessions on a link this short
        SyncEngine engine(transfer::makeSessionFactory(sshd.target(), sshd.connectOptions()),
                          SyncTarget{QStringLiteral("test"), local, remote, m_config.path()}, options,
                          [events](const SyncEvent &e) { events->append(e); }, cancel);
        return engine.run();
    }

    // An upload of localFolder into remoteParent, over three sessions.
    static transfer::TransferRequest folderUpload(const QString &localFolder, const QString &remoteParent)
    {
        transfer::TransferRequest request;
        request.direction = transfer::Direction::Upload;
        request.host = QStringLiteral("test");
        request.localPath = localFolder;
        request.remotePath = remoteParent + QLatin1Char('/');
        request.destinationIsDir = true;
        request.options.parallel = 3;
        return request;
    }

    // A host whose login shell takes 1 s to start; its SFTP starts in `home` (its "~") and logs
    // its requests, starting at once (as internal-sftp does) unless it goes through that shell.
    struct Host
    {
        QTemporaryDir home;
        test::SshdFixture sshd;
        const QString stage = home.filePath(QStringLiteral(".cache/gantry-stage"));

        // sftpArgs: more for the sftp-server ("-P fsetstat" refuses that request).
        QString start(bool sftpThroughTheShell = false, const QString &binDir = QString(), const QString &sftpArgs = QString())
        {
            test::SshdFixture::Options options;
            options.binDir = binDir;
            options.shellStartupMs = 1000; // well above what a loaded machine adds to a listing
            options.sftpServer = QStringLiteral("/usr/lib/openssh/sftp-server -d %1 -l INFO -e %3 2>>%2").arg(home.path(), log(), sftpArgs);
            options.sftpServerStartsAtOnce = !sftpThroughTheShell;
            options.debugLog = true;
            return sshd.start(options);
        }
        QString log() const { return home.filePath(QStringLiteral("sftp.log")); }
        // SFTP requests of one kind ("open", "close", "remove name") on the stage folder.
        int logged(const char *request) const
        {
            int n = 0;
            for (const QByteArray &line : test::readAll(log()).split('\n')) {
                if (line.contains(QByteArray(QByteArray(request) + " \"")) && line.contains(QFile::encodeName(stage))) ++n;
            }
            return n;
        }
        QStringList staged() const { return QDir(stage).entryList(QDir::Files | QDir::Hidden); }
        // Staged files a runner unpacked (and removed): those not removed over SFTP (a batch the
        // runners took over half-written is), once the stage folder is empty.
        int unpackedByRunners() const { return logged("open") - logged("remove name"); }
        QByteArray logTail() const { return test::readAll(log()).right(3000); }
        // Files SFTP renamed into place (a small edit's way past the slow shell).
        int renamedOverSftp() const { return int(test::readAll(log()).count("posix-rename old \"")); }
    };

    // An upload's context against host, its journals in the test's config folder.
    struct Uploading
    {
        std::atomic_bool cancel{false};
        transfer::JournalStore journals;
        transfer::TransferContext ctx;
        Uploading(const Host &host, const QString &config, const transfer::TransferRequest &request, transfer::ProgressSink sink = {})
            : journals(config)
            , ctx(transfer::makeSessionFactory(host.sshd.target(), host.sshd.connectOptions()), &cancel, &journals, request.host,
                  request.options, std::move(sink))
        {
        }
    };

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral("/usr/lib/openssh/sftp-server"))) QFAIL("openssh-sftp-server is not installed");
    }

    // The helpers write the first batches under ~/.cache/gantry-stage while the listing's and the
    // runners' shells start; the runners unpack them, and none is left.
    void firstSyncUnpacksWhatWasStaged()
    {
        Host host;
        GANTRY_REQUIRE_SSHD(host.start());
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path());
        QList<SyncEvent> events;
        auto r = sync(host.sshd, local.path(), remote.filePath(QStringLiteral("project")), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 240);
        QCOMPARE(differences(local.path(), remote.filePath(QStringLiteral("project"))), QString());
        QCOMPARE(host.staged(), QStringList());
        QVERIFY2(host.unpackedByRunners() >= 1, host.logTail().constData());
        QCOMPARE(QFileInfo(host.stage).permissions() & (QFile::ReadGroup | QFile::ReadOther | QFile::ExeOther), QFile::Permissions());
        // internal-sftp starts at once: the manifest says so, and later syncs stage again.
        const SyncManifest m = loadManifest(manifestPath(m_config.path(), QStringLiteral("test"), local.path(),
                                                         remote.filePath(QStringLiteral("project"))));
        QVERIFY2(m.sftpStartMs >= 0 && m.sftpStartMs < m.shellStartMs / 2,
                 qPrintable(QStringLiteral("%1 %2").arg(m.sftpStartMs).arg(m.shellStartMs)));
    }

    // Half the files are there already: the plan is not what was staged for, so the runners
    // stream what is missing and what was staged is removed.
    void aDifferentPlanLeavesNothingStaged()
    {
        Host host;
        GANTRY_REQUIRE_SSHD(host.start());
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path());
        makeTree(remote.path(), 120);
        QList<SyncEvent> events;
        auto r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 120);
        QCOMPARE(differences(local.path(), remote.path()), QString());
        QCOMPARE(host.staged(), QStringList());
        QVERIFY(host.logged("open") >= 1); // staged during the listing, as for a first sync
        QCOMPARE(host.unpackedByRunners(), 0);
    }

    // A folder upload's helpers stage while the probe's shell starts, as a sync's do; its progress
    // counts the staged batches too.
    void folderUploadUnpacksWhatWasStaged()
    {
        Host host;
        GANTRY_REQUIRE_SSHD(host.start());
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.filePath(QStringLiteral("data")));
        const transfer::TransferRequest request = folderUpload(local.filePath(QStringLiteral("data")), remote.path());
        transfer::TransferProgress last;
        Uploading up(host, m_config.path(), request, [&last](const transfer::TransferProgress &p) { last = p; });
        transfer::TransferContext &ctx = up.ctx;
        const auto r = transfer::runTransfer(request, ctx);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QVERIFY(r->verified);
        QCOMPARE(last.bytesDone, last.bytesTotal);
        QCOMPARE(last.filesDone, 240);
        QCOMPARE(differences(local.filePath(QStringLiteral("data")), remote.filePath(QStringLiteral("data"))), QString());
        QCOMPARE(host.staged(), QStringList());
        QVERIFY2(host.unpackedByRunners() >= 1, host.logTail().constData());
    }

    // The clean-up of stale staging folders and files never decides a batch: a find that fails
    // (as one does where another batch's staging folder goes while it looks) fails no batch, staged
    // or streamed.
    void aFailingCleanupFailsNoBatch()
    {
        QTemporaryDir bin;
        test::writeFile(bin.filePath(QStringLiteral("find")), "#!/bin/sh\necho \"find: vanished\" >&2\nexit 1\n");
        QVERIFY(QFile::setPermissions(bin.filePath(QStringLiteral("find")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        Host host;
        GANTRY_REQUIRE_SSHD(host.start(false, bin.path()));
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path());
        QList<SyncEvent> events;
        auto r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 240);
        QCOMPARE(differences(local.path(), remote.path()), QString());
        QCOMPARE(host.staged(), QStringList());
        QVERIFY2(host.unpackedByRunners() >= 1, host.logTail().constData());
    }

    // A staged file older than half a day (a sync killed mid-way) goes with the next staged
    // unpack; a recent one (another sync's, in progress) stays.
    void staleStagedFilesGo()
    {
        Host host;
        QVERIFY(QDir().mkpath(host.stage));
        for (const auto &[name, age] : {std::pair{"old.tar", 2 * 86400}, std::pair{"recent.tar", 60}}) {
            QFile f(host.stage + QLatin1Char('/') + QLatin1String(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-age), QFileDevice::FileModificationTime));
        }
        GANTRY_REQUIRE_SSHD(host.start());
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path());
        QList<SyncEvent> events;
        auto r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(host.staged(), QStringList{QStringLiteral("recent.tar")});
        QVERIFY2(host.unpackedByRunners() >= 1, host.logTail().constData());
    }

    // The machine drops off while the helpers stage (its sshd restarts: every connection goes):
    // the sync connects again and finishes with every file in place, and the next round removes
    // what the cut-off one had staged.
    void aLinkDroppedWhileStagingIsSyncedAgain()
    {
        Host host;
        GANTRY_REQUIRE_SSHD(host.start());
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path());
        QList<SyncEvent> events;
        auto running = std::async(std::launch::async, [&] { return sync(host.sshd, local.path(), remote.path(), &events); });
        QTRY_VERIFY_WITH_TIMEOUT(host.logged("open") > 0, 10000); // a first batch is being staged
        QCOMPARE(host.sshd.restart(), QString());
        const auto r = running.get();
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().kind, SyncEvent::Done);
        QCOMPARE(differences(local.path(), remote.path()), QString());
        // Neither the cut-off round's staged files nor its batches' staging folders stay behind.
        QCOMPARE(host.staged(), QStringList());
        const QStringList top = QDir(remote.path()).entryList(QDir::Hidden | QDir::NoDotAndDotDot | QDir::Dirs | QDir::Files);
        QCOMPARE(top.filter(QStringLiteral(".gantry")), QStringList());
    }

    // A sync cancelled while its helpers stage removes what they staged before it returns (the
    // cancel does not keep up to 512 MiB on the host's disk for half a day).
    void aCancelledSyncLeavesNothingStaged()
    {
        Host host;
        GANTRY_REQUIRE_SSHD(host.start());
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path());
        CancelToken cancel;
        QList<SyncEvent> events;
        auto running = std::async(std::launch::async, [&] { return sync(host.sshd, local.path(), remote.path(), &events, cancel); });
        QTRY_VERIFY_WITH_TIMEOUT(host.logged("open") > 0, 10000); // a first batch is being staged
        cancel.cancel();
        const auto r = running.get();
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::Cancelled);
        QCOMPARE(host.staged(), QStringList());

        // A folder upload cancelled while its helpers stage: the same.
        const transfer::TransferRequest request = folderUpload(local.path(), remote.filePath(QStringLiteral("up")));
        Uploading up(host, m_config.path(), request);
        const int opened = host.logged("open");
        auto uploading = std::async(std::launch::async, [&] { return transfer::runTransfer(request, up.ctx); });
        QTRY_VERIFY_WITH_TIMEOUT(host.logged("open") > opened, 10000);
        up.cancel = true;
        const auto u = uploading.get();
        QVERIFY(!u);
        QCOMPARE(u.error().code, ErrorCode::Cancelled);
        QCOMPARE(host.staged(), QStringList());
    }

    // A cancel does not wait for the listing's login shell to start (a conda init can take many
    // seconds): with one that takes 20 s, the sync returns well within half of that.
    void aCancelDoesNotWaitForTheLoginShell()
    {
        test::SshdFixture sshd;
        test::SshdFixture::Options slow;
        slow.shellStartupMs = 20000;
        slow.debugLog = true;
        GANTRY_REQUIRE_SSHD(sshd.start(slow));
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path(), 24);
        CancelToken cancel;
        QList<SyncEvent> events;
        auto running = std::async(std::launch::async, [&] { return sync(sshd, local.path(), remote.path(), &events, cancel); });
        QTRY_VERIFY_WITH_TIMEOUT(sshd.log().contains("req exec"), 10000); // the listing waits for its shell
        QElapsedTimer sinceCancel;
        sinceCancel.start();
        cancel.cancel();
        const auto r = running.get();
        QVERIFY(sinceCancel.elapsed() < 10000); // liveness, not speed: the shell alone takes 20 s
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::Cancelled);

        // A folder upload's probe and a folder download's listing wait for the same shell.
        QVERIFY(QDir().mkpath(remote.filePath(QStringLiteral("there"))));
        transfer::TransferRequest download;
        download.direction = transfer::Direction::Download;
        download.host = QStringLiteral("test");
        download.remotePath = remote.filePath(QStringLiteral("there"));
        download.localPath = local.filePath(QStringLiteral("back"));
        for (const transfer::TransferRequest &request : {folderUpload(local.path(), remote.path()), download}) {
            std::atomic_bool stop{false};
            transfer::JournalStore journals(m_config.path());
            transfer::TransferContext ctx(transfer::makeSessionFactory(sshd.target(), sshd.connectOptions()), &stop, &journals,
                                          request.host, request.options);
            const qsizetype execs = sshd.log().count("req exec");
            auto transferring = std::async(std::launch::async, [&] { return transfer::runTransfer(request, ctx); });
            QTRY_VERIFY_WITH_TIMEOUT(sshd.log().count("req exec") > execs, 10000);
            sinceCancel.restart();
            stop = true;
            const auto t = transferring.get();
            QVERIFY(sinceCancel.elapsed() < 10000);
            QVERIFY(!t);
            QCOMPARE(t.error().code, ErrorCode::Cancelled);
        }
    }

    // The same for a folder upload: its next attempt finishes it and removes what the cut-off
    // one had staged.
    void aFolderUploadCutOffWhileStagingIsFinished()
    {
        Host host;
        GANTRY_REQUIRE_SSHD(host.start());
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.filePath(QStringLiteral("data")));
        const transfer::TransferRequest request = folderUpload(local.filePath(QStringLiteral("data")), remote.path());
        Uploading up(host, m_config.path(), request);
        transfer::TransferContext &ctx = up.ctx;
        auto running = std::async(std::launch::async, [&] { return transfer::runTransferWithRetries(request, ctx, 3, {}); });
        QTRY_VERIFY_WITH_TIMEOUT(host.logged("open") > 0, 10000); // a first batch is being staged
        QCOMPARE(host.sshd.restart(), QString());
        const auto r = running.get();
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(differences(local.filePath(QStringLiteral("data")), remote.filePath(QStringLiteral("data"))), QString());
        QCOMPARE(host.staged(), QStringList());
        QCOMPARE(QDir(remote.path()).entryList(QDir::Hidden | QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{QStringLiteral("data")});
    }

    // Once a listing has measured the slow shell, re-syncs list over SFTP; an edit of a few small
    // files then goes over SFTP too (written, read back, renamed into place) instead of waiting for
    // the shell to unpack a one-file batch. A new folder still goes through the runner.
    void aSmallEditGoesOverSftp()
    {
        Host host;
        GANTRY_REQUIRE_SSHD(host.start());
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path(), 24);
        QList<SyncEvent> events;
        auto r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(host.renamedOverSftp(), 0);

        QFile edited(local.filePath(QStringLiteral("d3/f3.bin")));
        QVERIFY(edit(edited.fileName(), 1700000000));
        QVERIFY(edited.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QVERIFY(edit(local.filePath(QStringLiteral("d5/f17.bin")), 1700000050));
        events.clear();
        r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 2);
        QCOMPARE(sentEvents(events, "d3/f3.bin"), 1);
        QCOMPARE(sentEvents(events, "d5/f17.bin"), 1);
        QCOMPARE(host.renamedOverSftp(), 2);
        QCOMPARE(differences(local.path(), remote.path()), QString());
        QCOMPARE(QFileInfo(remote.filePath(QStringLiteral("d3/f3.bin"))).permissions(), edited.permissions());
        QCOMPARE(QDir(remote.path()).entryList({QStringLiteral(".gantry-*")}, QDir::AllEntries | QDir::Hidden), QStringList());

        QVERIFY(QDir(local.path()).mkdir(QStringLiteral("new")));
        QFile added(local.filePath(QStringLiteral("new/g.txt")));
        QVERIFY(added.open(QIODevice::WriteOnly) && added.write("in a new folder\n") > 0 && added.flush());
        QVERIFY(added.setFileTime(QDateTime::fromSecsSinceEpoch(1700000100), QFileDevice::FileModificationTime));
        added.close();
        r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 1);
        QCOMPARE(host.renamedOverSftp(), 2);
        QCOMPARE(differences(local.path(), remote.path()), QString());
    }

    // A host that refuses to set a file's mode and time over SFTP: the edit is written there,
    // then that file is removed and the edit goes through the runner.
    void anEditSftpCannotFinishGoesThroughTheRunner()
    {
        Host host;
        GANTRY_REQUIRE_SSHD(host.start(false, QString(), QStringLiteral("-P fsetstat")));
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path(), 24);
        QList<SyncEvent> events;
        auto r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QVERIFY(edit(local.filePath(QStringLiteral("d3/f3.bin")), 1700000000));
        events.clear();
        r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 1);
        QCOMPARE(sentEvents(events, "d3/f3.bin"), 1);
        QCOMPARE(differences(local.path(), remote.path()), QString());
        const QByteArray log = test::readAll(host.log());
        QVERIFY2(log.contains("open \"") && log.contains(".gantry-sftp-"), host.logTail().constData());
        QVERIFY2(log.contains("remove name \""), host.logTail().constData());
        QCOMPARE(host.renamedOverSftp(), 0);
        QCOMPARE(QDir(remote.path()).entryList({QStringLiteral(".gantry-*")}, QDir::AllEntries | QDir::Hidden), QStringList());
    }

    // Where sshd runs an sftp-server program, it starts through the login shell and pays its
    // start-up: the first sync measures that, and later syncs neither stage nor list over SFTP
    // (a no-change re-sync through the shell is the quicker one there), until that measure is a
    // day old.
    void sftpThroughTheSlowShellIsLeftAlone()
    {
        Host host;
        GANTRY_REQUIRE_SSHD(host.start(true));
        QTemporaryDir local;
        QTemporaryDir remote;
        makeTree(local.path());
        QList<SyncEvent> events;
        auto r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        const QString manifest = manifestPath(m_config.path(), QStringLiteral("test"), local.path(), remote.path());
        const SyncManifest measured = loadManifest(manifest);
        QVERIFY2(measured.sftpStartMs >= 500, qPrintable(QString::number(measured.sftpStartMs)));
        const int opened = host.logged("open");
        const qsizetype subsystems = host.sshd.log().count("req subsystem");
        makeTree(local.path(), 240, 240); // as much again: helpers, but no stage
        r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 240);
        r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 0);
        QCOMPARE(host.sshd.log().count("req subsystem"), subsystems);
        QCOMPARE(host.logged("open"), opened);
        QCOMPARE(differences(local.path(), remote.path()), QString());

        // A day later the measure is stale: the next re-sync tries SFTP again, and measures again.
        SyncManifest stale = loadManifest(manifest);
        stale.sftpMeasuredAt -= 2 * 24 * 3600;
        QVERIFY(saveManifest(manifest, stale, QStringLiteral("test"), local.path(), remote.path()));
        r = sync(host.sshd, local.path(), remote.path(), &events);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(events.last().files, 0);
        QCOMPARE(host.sshd.log().count("req subsystem"), subsystems + 1);
        const SyncManifest again = loadManifest(manifest);
        QVERIFY2(again.sftpStartMs >= 500, qPrintable(QString::number(again.sftpStartMs)));
        QVERIFY(trustedSftpStartMs(again) == again.sftpStartMs);
    }
};

QTEST_GUILESS_MAIN(TestSyncStage)
#include "test_sync_stage.moc"
