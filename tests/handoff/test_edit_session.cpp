// SPDX-License-Identifier: Apache-2.0
// Editing a remote file in a local editor, against the real test sshd: a fake editor (a script that
// stays open until the test lets it go) stands for the user's; the test saves the local copy as an
// editor would and looks at the file on the machine.

#include "sshdfixture.h"

#include "core/handoff/editsession.h"
#include "core/transfer/remotefiles.h"
#include "core/transfer/sessionfactory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::handoff;

namespace {

const QString kHost = QStringLiteral("fixture");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

// How gedit and vim (with backupcopy=no) save: a new file renamed over the old one.
bool replaceFile(const QString &path, const QByteArray &data)
{
    const QString temp = path + QStringLiteral(".new");
    return writeFile(temp, data) && QFile::remove(path) && QFile::rename(temp, path);
}

} // namespace

class TestEditSession : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_bin;
    QTemporaryDir m_remote;
    QTemporaryDir m_temp;
    ManualClock m_clock;

    transfer::RemoteFiles::FactoryProvider provider()
    {
        return [this](const QString &) -> Result<transfer::SessionFactory> {
            return transfer::makeSessionFactory(m_sshd.target(), m_sshd.connectOptions());
        };
    }

    // The fake editor: records the file it was given, then stays open until QUIT exists.
    EditSession::Options options()
    {
        EditSession::Options o;
        o.mode = EditSession::Mode::Window;
        o.desktop.env = QProcessEnvironment();
        o.desktop.env.insert(QStringLiteral("PATH"), m_bin.path() + QStringLiteral(":/usr/bin:/bin"));
        o.desktop.env.insert(QStringLiteral("EDITOR"), QStringLiteral("fake-editor"));
        o.desktop.env.insert(QStringLiteral("QUIT"), m_bin.filePath(QStringLiteral("quit")));
        o.desktop.env.insert(QStringLiteral("OPENED"), m_bin.filePath(QStringLiteral("opened")));
        o.clock = &m_clock;
        o.tempRoot = m_temp.path();
        o.settleMs = 50;
        o.openDefault = [](const QString &) { return false; };
        return o;
    }

    QString remoteFile(const QString &name, const QByteArray &content)
    {
        const QString path = m_remote.filePath(name);
        writeFile(path, content);
        return path;
    }

    void quitEditor() { QVERIFY(writeFile(m_bin.filePath(QStringLiteral("quit")), "q")); }

private slots:
    void initTestCase()
    {
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("fake-editor")),
                                  QStringLiteral("#!/bin/sh\nprintf '%s' \"$1\" > \"$OPENED\"\n"
                                                 "while [ ! -e \"$QUIT\" ]; do sleep 0.05; done\n")));
        GANTRY_REQUIRE_SSHD(m_sshd.start());
    }

    void init() { QFile::remove(m_bin.filePath(QStringLiteral("quit"))); }

    void eachSaveIsUploadedUntilTheEditorCloses()
    {
        transfer::RemoteFiles files(provider());
        const QString remote = remoteFile(QStringLiteral("train.py"), "lr = 0.1\n");
        EditSession session(&files, kHost, remote, options());
        QSignalSpy ended(&session, &EditSession::ended);
        session.start();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), EditSession::State::Editing, 20000);
        // The editor got the local copy: same name, the remote content, in a folder only we can enter.
        QTRY_COMPARE_WITH_TIMEOUT(readAll(m_bin.filePath(QStringLiteral("opened"))), session.localFile().toUtf8(), 10000);
        QCOMPARE(QFileInfo(session.localFile()).fileName(), QStringLiteral("train.py"));
        QCOMPARE(readAll(session.localFile()), QByteArray("lr = 0.1\n"));
        QCOMPARE(QFileInfo(session.localFolder()).permissions() & 0x0077, QFileDevice::Permissions());
        QVERIFY(session.localFolder().startsWith(m_temp.path()));

        QVERIFY(writeFile(session.localFile(), "lr = 0.01\n"));
        QTRY_COMPARE_WITH_TIMEOUT(readAll(remote), QByteArray("lr = 0.01\n"), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(session.uploads(), 1, 10000);
        // The second save replaces the file (rename over it): followed all the same.
        QVERIFY(replaceFile(session.localFile(), "lr = 0.001\nepochs = 3\n"));
        QTRY_COMPARE_WITH_TIMEOUT(readAll(remote), QByteArray("lr = 0.001\nepochs = 3\n"), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(session.uploads(), 2, 10000);
        QVERIFY(!session.hasConflict());

        const QString folder = session.localFolder();
        m_clock.advanceSeconds(30); // the user worked a while
        quitEditor();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 20000);
        QCOMPARE(session.state(), EditSession::State::Ended);
        QVERIFY2(ended.first().first().toString().contains(QStringLiteral("2 save(s) uploaded")), qPrintable(ended.first().first().toString()));
        QVERIFY2(!QFileInfo::exists(folder), qPrintable(folder)); // nothing left behind
        // Nothing beside the file on the machine either (the temporary upload names are gone).
        QCOMPARE(QDir(m_remote.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).filter(QStringLiteral("train")),
                 QStringList{QStringLiteral("train.py")});
    }

    void aChangeOnTheMachineIsNeverOverwritten()
    {
        transfer::RemoteFiles files(provider());
        const QString remote = remoteFile(QStringLiteral("config.yaml"), "batch: 8\n");
        EditSession session(&files, kHost, remote, options());
        QSignalSpy conflicts(&session, &EditSession::conflict);
        QSignalSpy ended(&session, &EditSession::ended);
        session.start();
        QTRY_COMPARE_WITH_TIMEOUT(session.state(), EditSession::State::Editing, 20000);
        // Someone (a job, a colleague) writes the file on the machine meanwhile, same size and second.
        QVERIFY(writeFile(remote, "batch: 9\n"));
        QVERIFY(writeFile(session.localFile(), "batch: 4\n"));
        QTRY_COMPARE_WITH_TIMEOUT(conflicts.size(), 1, 20000);
        QCOMPARE(readAll(remote), QByteArray("batch: 9\n")); // theirs stays
        const QString message = conflicts.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("changed on")) && message.contains(session.localFile()), qPrintable(message));
        QVERIFY(session.hasConflict());
        QCOMPARE(session.uploads(), 0);
        // Saving again changes nothing there, and says so in a line rather than a second conflict.
        QSignalSpy notices(&session, &EditSession::notice);
        QVERIFY(writeFile(session.localFile(), "batch: 16\n"));
        QTRY_COMPARE_WITH_TIMEOUT(notices.size(), 1, 20000);
        QCOMPARE(conflicts.size(), 1);
        QCOMPARE(readAll(remote), QByteArray("batch: 9\n"));

        const QString local = session.localFile();
        m_clock.advanceSeconds(30);
        quitEditor();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 20000);
        QCOMPARE(readAll(remote), QByteArray("batch: 9\n"));
        // The user's edit is kept, and the summary says where.
        QCOMPARE(readAll(local), QByteArray("batch: 16\n"));
        QVERIFY2(ended.first().first().toString().contains(local), qPrintable(ended.first().first().toString()));
        QDir(QFileInfo(local).absolutePath()).removeRecursively();
    }

    void anEditorThatReturnsAtOnceIsEndedByTheUser()
    {
        // `code` without --wait hands the file to an open window and exits: the edit goes on.
        QVERIFY(test::writeScript(m_bin.filePath(QStringLiteral("quick-editor")), QStringLiteral("#!/bin/sh\nexit 0\n")));
        transfer::RemoteFiles files(provider());
        const QString remote = remoteFile(QStringLiteral("notes.md"), "# notes\n");
        EditSession::Options o = options();
        o.desktop.env.insert(QStringLiteral("EDITOR"), QStringLiteral("quick-editor"));
        EditSession session(&files, kHost, remote, o);
        QSignalSpy ended(&session, &EditSession::ended);
        session.start();
        QTRY_VERIFY_WITH_TIMEOUT(session.waitsForUser(), 20000);
        QVERIFY(writeFile(session.localFile(), "# notes\n- one\n"));
        QTRY_COMPARE_WITH_TIMEOUT(readAll(remote), QByteArray("# notes\n- one\n"), 20000);
        QCOMPARE(ended.size(), 0);
        // The last save is uploaded even when the user ends the edit before it settled.
        QVERIFY(writeFile(session.localFile(), "# notes\n- one\n- two\n"));
        const QString folder = session.localFolder();
        session.end();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 20000);
        QCOMPARE(readAll(remote), QByteArray("# notes\n- one\n- two\n"));
        QCOMPARE(session.uploads(), 2);
        QVERIFY(!QFileInfo::exists(folder));
    }

    void aFileThatCannotBeEditedSaysWhy()
    {
        transfer::RemoteFiles files(provider());
        EditSession session(&files, kHost, m_remote.filePath(QStringLiteral("missing.txt")), options());
        QSignalSpy failed(&session, &EditSession::failed);
        QSignalSpy ended(&session, &EditSession::ended);
        session.start();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 20000);
        QCOMPARE(failed.size(), 1);
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("missing.txt")), qPrintable(failed.first().first().toString()));
        QCOMPARE(QDir(m_temp.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot), QStringList()); // no folder left
        // A folder is not a file to edit.
        EditSession folder(&files, kHost, m_remote.path(), options());
        QSignalSpy folderFailed(&folder, &EditSession::failed);
        folder.start();
        QTRY_COMPARE_WITH_TIMEOUT(folderFailed.size(), 1, 20000);
        QVERIFY2(folderFailed.first().first().toString().contains(QStringLiteral("not a regular file")),
                 qPrintable(folderFailed.first().first().toString()));
    }
};

QTEST_GUILESS_MAIN(TestEditSession)
#include "test_edit_session.moc"
