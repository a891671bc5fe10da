// The Files tab's actions against the real test sshd: Ctrl+U / Ctrl+Shift+U with a stubbed file
// chooser, the context menu's rename and delete (hostile names included), copy path, open
// terminal here, the empty folder's hint, and a long delete (held on the host by the gated rm)
// that holds up no listing and stops with the Stop button.

#include "gatedrm.h"
#include "sshdfixture.h"

#include "core/handoff/handoff.h"
#include "core/sync/syncservice.h"
#include "ui/transfer/filestab.h"
#include "ui/transfer/remotedirmodel.h"

#include "core/ssh/connection.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sessionfactory.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace gantry;
using namespace gantry::transfer;
using namespace gantry::ui;

namespace {
void writeText(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

QAction *menuAction(QMenu *menu, QAction *wanted)
{
    return menu->actions().contains(wanted) ? wanted : nullptr;
}
} // namespace

class TestFilesActions : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_bin; // the host's PATH: the gated rm
    QTemporaryDir m_local;
    QTemporaryDir m_remote;
    QTemporaryDir m_config;
    std::unique_ptr<TransferQueue> m_queue;
    std::unique_ptr<sync::SyncService> m_syncPairs;
    std::unique_ptr<RemoteFiles> m_files;
    std::unique_ptr<ssh::Connection> m_connection;
    std::unique_ptr<FilesTab> m_tab;

    SavedHost fixtureHost() const
    {
        SavedHost host;
        host.name = QStringLiteral("fixture");
        host.target = m_sshd.target();
        return host;
    }

    // Shows path and waits for its listing.
    void go(const QString &path)
    {
        QSignalSpy listed(m_tab.get(), &FilesTab::listed);
        m_tab->navigate(path);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
        QCOMPARE(m_tab->currentPath(), path);
    }

    void select(const QString &display)
    {
        QAbstractItemModel *model = m_tab->view()->model();
        m_tab->view()->clearSelection();
        for (int i = 0; i < model->rowCount(); ++i) {
            if (model->index(i, 0).data().toString() == display) {
                m_tab->view()->selectionModel()->select(model->index(i, 0),
                                                         QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
                return;
            }
        }
        QFAIL(qPrintable(QStringLiteral("no row %1").arg(display)));
    }

    // Triggers an action and waits for the listing that follows it.
    void triggerAndWait(QAction *action)
    {
        QVERIFY(action);
        QVERIFY2(action->isEnabled(), qPrintable(action->text()));
        QSignalSpy listed(m_tab.get(), &FilesTab::listed);
        action->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 30000);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(test::writeGatedRm(m_bin.path()));
        test::SshdFixture::Options options;
        options.binDir = m_bin.path();
        const QString why = m_sshd.start(options);
        GANTRY_REQUIRE_SSHD(why);
        const auto provider = [this](const QString &host) -> Result<SessionFactory> {
            if (host != QLatin1String("fixture")) return Error{ErrorCode::NotFound, host};
            return makeSessionFactory(m_sshd.target(), m_sshd.connectOptions());
        };
        m_queue = std::make_unique<TransferQueue>(m_config.path(), provider);
        m_files = std::make_unique<RemoteFiles>(provider);
        AppContext context;
        context.configDir = m_config.path();
        m_syncPairs = std::make_unique<sync::SyncService>(context.configDir, sync::SyncService::savedHostProvider(nullptr, nullptr));
        m_tab = std::make_unique<FilesTab>(context, m_queue.get(), m_syncPairs.get(), m_files.get());
        m_connection = std::make_unique<ssh::Connection>(m_sshd.target());
        m_connection->connectToHost(m_sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(m_connection->state(), ssh::ConnectionState::Connected, 20000);
        QVERIFY(!m_tab->uploadFilesAction()->isEnabled()); // nothing to upload into yet
        QSignalSpy listed(m_tab.get(), &FilesTab::listed);
        m_tab->setMachine(fixtureHost(), m_connection.get());
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
        // Right after connecting: the home folder, resolved to an absolute path.
        QVERIFY2(m_tab->currentPath().startsWith(QLatin1Char('/')), qPrintable(m_tab->currentPath()));
        QVERIFY(m_tab->uploadFilesAction()->isEnabled());
    }

    void shortcutsAndMenuEntries()
    {
        QCOMPARE(m_tab->uploadFilesAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_U));
        QCOMPARE(m_tab->uploadFolderAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
        QCOMPARE(m_tab->deleteAction()->shortcut(), QKeySequence(QKeySequence::Delete));
        const QString base = m_remote.filePath(QStringLiteral("menu"));
        writeText(base + QStringLiteral("/a.txt"), "a");
        go(base);
        select(QStringLiteral("a.txt"));
        std::unique_ptr<QMenu> onEntry(m_tab->contextMenu(nullptr));
        for (QAction *a : {m_tab->downloadAction(), m_tab->renameAction(), m_tab->deleteAction(), m_tab->copyPathAction(),
                           m_tab->openTerminalAction(), m_tab->uploadFilesAction(), m_tab->uploadFolderAction()}) {
            QVERIFY2(menuAction(onEntry.get(), a), qPrintable(a->text()));
            QVERIFY2(a->isEnabled(), qPrintable(a->text()));
        }
        m_tab->view()->clearSelection();
        std::unique_ptr<QMenu> onFolder(m_tab->contextMenu(nullptr));
        QVERIFY(!menuAction(onFolder.get(), m_tab->deleteAction())); // nothing selected: nothing to delete
        QVERIFY(menuAction(onFolder.get(), m_tab->uploadFilesAction()));
    }

    // Edit on one file asks the window to open it in the local editor (its hand-offs); not on a folder.
    void editOnAFileAsksForTheLocalEditor()
    {
        const QString base = m_remote.filePath(QStringLiteral("edit"));
        writeText(base + QStringLiteral("/train.py"), "x");
        writeText(base + QStringLiteral("/sub/b.txt"), "b");
        go(base);
        QSignalSpy asked(m_tab.get(), &FilesTab::editRequested);
        select(QStringLiteral("train.py"));
        std::unique_ptr<QMenu> menu(m_tab->contextMenu(nullptr));
        QVERIFY(menuAction(menu.get(), m_tab->editAction()));
        QVERIFY(m_tab->editAction()->isEnabled());
        m_tab->editAction()->trigger();
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.first().at(1).toString(), m_tab->currentPath() + QStringLiteral("/train.py"));
        select(QStringLiteral("sub/"));
        menu.reset(m_tab->contextMenu(nullptr));
        QVERIFY(!m_tab->editAction()->isEnabled());
        m_tab->editAction()->trigger();
        QCOMPARE(asked.size(), 1);
    }

    // Ctrl+U opens the chooser (a stub here) and uploads into the folder shown, asking nothing;
    // only an existing name asks, and Ctrl+Shift+U uploads a folder.
    void ctrlUUploadsIntoTheCurrentFolder()
    {
        const QString base = m_remote.filePath(QStringLiteral("ctrlu"));
        QVERIFY(QDir().mkpath(base));
        go(base);
        const QString file = m_local.filePath(QStringLiteral("weights.bin"));
        writeText(file, QByteArray(200 * 1024, 'w'));
        const QString folder = m_local.filePath(QStringLiteral("dataset"));
        writeText(folder + QStringLiteral("/part-0.csv"), "x,y\n");
        QList<bool> asked;
        m_tab->setFileChooser([&](bool wantsFolder) {
            asked.append(wantsFolder);
            return wantsFolder ? QStringList{folder} : QStringList{file};
        });
        int conflicts = 0;
        m_queue->setConflictAsker([&](const QString &, const QString &, bool) {
            ++conflicts;
            return ConflictPolicy::Rename;
        });

        m_tab->resize(800, 500);
        m_tab->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_tab.get()));
        m_tab->activateWindow();
        m_tab->view()->setFocus();
        QVERIFY(QTest::qWaitForWindowActive(m_tab.get()));
        QSignalSpy finished(m_queue.get(), &TransferQueue::itemFinished);
        QTest::keyClick(m_tab->view(), Qt::Key_U, Qt::ControlModifier);
        QCOMPARE(asked, QList<bool>{false});
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/weights.bin")));
        QCOMPARE(conflicts, 0);

        QTest::keyClick(m_tab->view(), Qt::Key_U, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(asked, (QList<bool>{false, true}));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 60000);
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/dataset/part-0.csv")));

        // The same file again: now there is a conflict, and the answer (keep both) is followed.
        QTest::keyClick(m_tab->view(), Qt::Key_U, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, 60000);
        QCOMPARE(conflicts, 1);
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/weights (1).bin")));
        m_tab->hide();
        m_queue->setConflictAsker({});
    }

    // Names that a shell would take for options or split: renamed and deleted as names.
    void renameAndDeleteHostileNames()
    {
        const QString base = m_remote.filePath(QStringLiteral("hostile"));
        writeText(base + QStringLiteral("/-rf/inside.txt"), "x");
        writeText(base + QStringLiteral("/-rf/sub/deeper.txt"), "y");
        writeText(base + QStringLiteral("/-rf/sub/deepest.txt"), "z");
        writeText(base + QStringLiteral("/line\nbreak.txt"), "newline");
        writeText(base + QStringLiteral("/keep.txt"), "must survive");
        go(base);

        // Rename through the context menu's entry.
        select(QStringLiteral("-rf/"));
        std::unique_ptr<QMenu> menu(m_tab->contextMenu(nullptr));
        m_tab->setTextAsker([](const QString &, const QString &initial) { return QString(initial + QStringLiteral(" renamed")); });
        triggerAndWait(menuAction(menu.get(), m_tab->renameAction()));
        QVERIFY(QFileInfo(base + QStringLiteral("/-rf renamed")).isDir());
        QVERIFY(!QFileInfo::exists(base + QStringLiteral("/-rf")));

        // A name with '/' is refused before anything is sent.
        select(QStringLiteral("keep.txt"));
        m_tab->setTextAsker([](const QString &, const QString &) { return QStringLiteral("../escaped.txt"); });
        m_tab->renameAction()->trigger();
        QVERIFY(m_tab->statusText().contains(QStringLiteral("not a file name")));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/keep.txt")));

        // Rename onto an existing name is refused; nothing is replaced.
        m_tab->setTextAsker([](const QString &, const QString &) { return QStringLiteral("line\nbreak.txt"); });
        triggerAndWait(m_tab->renameAction());
        QVERIFY2(m_tab->statusText().contains(QStringLiteral("already exists")), qPrintable(m_tab->statusText()));
        QCOMPARE(QFileInfo(base + QStringLiteral("/keep.txt")).size(), 12);

        // Delete a folder: the question counts what goes.
        go(base);
        select(QStringLiteral("-rf renamed/"));
        QString question;
        m_tab->setConfirmer([&](const QString &q) {
            question = q;
            return true;
        });
        menu.reset(m_tab->contextMenu(nullptr));
        triggerAndWait(menuAction(menu.get(), m_tab->deleteAction()));
        QVERIFY2(question.contains(QStringLiteral("3 file(s)")), qPrintable(question));
        QVERIFY2(question.contains(QStringLiteral("1 subfolder(s)")), qPrintable(question));
        QVERIFY(!QFileInfo::exists(base + QStringLiteral("/-rf renamed")));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/keep.txt")));

        // The file with a newline (shown escaped) goes, its neighbour stays.
        QAbstractItemModel *model = m_tab->view()->model();
        QString shown;
        for (int i = 0; i < model->rowCount(); ++i) {
            if (model->index(i, 0).data().toString().startsWith(QStringLiteral("line"))) shown = model->index(i, 0).data().toString();
        }
        QVERIFY2(!shown.contains(QLatin1Char('\n')), qPrintable(shown));
        select(shown);
        question.clear();
        triggerAndWait(m_tab->deleteAction());
        QVERIFY(!question.isEmpty());
        QVERIFY(!QFileInfo::exists(base + QStringLiteral("/line\nbreak.txt")));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/keep.txt")));

        // "No" deletes nothing.
        select(QStringLiteral("keep.txt"));
        m_tab->setConfirmer([](const QString &) { return false; });
        m_tab->deleteAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!m_tab->isBusy(), 20000);
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/keep.txt")));
    }

    void copyPathAndTerminalHere()
    {
        const QString base = m_remote.filePath(QStringLiteral("paths"));
        writeText(base + QStringLiteral("/run 1/metrics.csv"), "m");
        go(base);
        select(QStringLiteral("run 1/"));
        m_tab->copyPathAction()->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), base + QStringLiteral("/run 1"));

        // The command core/handoff makes for this folder, as `gantry-cli open HOST --editor
        // terminal DIR` does: ssh -t … 'cd -- DIR && exec "$SHELL" -l'.
        const Result<handoff::Launch> expected = handoff::launchForHost(handoff::Tool::Terminal, fixtureHost(), std::nullopt,
                                                                        base + QStringLiteral("/run 1"));
        QVERIFY(expected);
        QVERIFY2(expected->commandLine.contains(QStringLiteral(" -t ")), qPrintable(expected->commandLine));
        QVERIFY2(expected->commandLine.contains(QStringLiteral("cd -- ")), qPrintable(expected->commandLine));
        QVERIFY(expected->commandLine.contains(ssh::shellQuote(base + QStringLiteral("/run 1"))));

        QString started;
        QStringList startedArgs;
        m_tab->setProgramStarter([&](const QString &program, const QStringList &a) {
            started = program;
            startedArgs = a;
            return true;
        });
        m_tab->openTerminalAction()->trigger();
        if (!expected->found) {
            // No terminal emulator on this machine: the ssh line is on the clipboard instead.
            QTRY_COMPARE(QGuiApplication::clipboard()->text(), expected->commandLine);
        } else {
            QTRY_COMPARE(started, expected->program);
            QCOMPARE(startedArgs, expected->arguments);
        }
    }

    void emptyFolderShowsTheHint()
    {
        const QString empty = m_remote.filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(empty));
        go(empty);
        QCOMPARE(m_tab->model()->rowCount(), 0);
        QVERIFY(m_tab->view()->emptyHint().contains(QStringLiteral("Ctrl+U")));
        m_tab->resize(800, 500);
        const QImage image = m_tab->view()->viewport()->grab().toImage();
        const QColor background = image.pixelColor(2, image.height() - 3);
        int ink = 0;
        for (int y = image.height() / 3; y < 2 * image.height() / 3; ++y) {
            for (int x = 0; x < image.width(); ++x) ink += image.pixelColor(x, y) != background;
        }
        QVERIFY2(ink > 50, "the hint is not painted in the middle of the empty list");

        // A folder with entries shows them, not the hint.
        writeText(empty + QStringLiteral("/now.txt"), "n");
        go(empty);
        QCOMPARE(m_tab->model()->rowCount(), 1);
    }

    void stopEndsTheOperation()
    {
        const QString base = m_remote.filePath(QStringLiteral("stop"));
        QVERIFY(QDir().mkpath(base));
        go(base);
        m_tab->refreshAction()->trigger();
        QVERIFY(m_tab->isBusy());
        m_tab->stopOperation();
        QVERIFY(!m_tab->isBusy());
        QVERIFY(m_tab->statusText().contains(QStringLiteral("Stopped")));
        QSignalSpy listed(m_tab.get(), &FilesTab::listed);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000); // it lists what is there afterwards
    }

    // The delete runs on a session of its own: held on the host, it does not hold up the listing
    // of another folder (the status line still says it runs, and no second change starts), and
    // when it ends the folder shown is listed again.
    void aListingAnswersWhileADeleteRuns()
    {
        const QString base = m_remote.filePath(QStringLiteral("busy"));
        const QString tree = base + QStringLiteral("/gated-tree");
        for (int i = 0; i < 300; ++i) writeText(tree + QStringLiteral("/d%1/f%2.bin").arg(i % 10).arg(i), "x");
        const QString other = m_remote.filePath(QStringLiteral("elsewhere"));
        writeText(other + QStringLiteral("/seen.txt"), "s");
        go(base);
        select(QStringLiteral("gated-tree/"));
        m_tab->setConfirmer([](const QString &) { return true; });
        m_tab->deleteAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(tree + QStringLiteral(".started")), 30000); // counted, confirmed, held
        QVERIFY(m_tab->isChanging());

        go(other);
        QVERIFY(m_tab->isChanging()); // the listing came first
        QVERIFY(QFileInfo::exists(tree + QStringLiteral("/d0")));
        QCOMPARE(m_tab->model()->rowCount(), 1);
        QVERIFY2(m_tab->statusText().startsWith(QStringLiteral("Deleting")), qPrintable(m_tab->statusText()));
        select(QStringLiteral("seen.txt"));
        QVERIFY(!m_tab->deleteAction()->isEnabled()); // one change at a time
        QVERIFY(!m_tab->renameAction()->isEnabled());

        QSignalSpy listed(m_tab.get(), &FilesTab::listed);
        writeText(tree + QStringLiteral(".gate"), "");
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 30000);
        QVERIFY(!m_tab->isChanging());
        QVERIFY(!QFileInfo::exists(tree));
        QCOMPARE(m_tab->currentPath(), other);
        QVERIFY2(m_tab->statusText().contains(QStringLiteral("1 item(s)")), qPrintable(m_tab->statusText()));
        select(QStringLiteral("seen.txt"));
        QVERIFY(m_tab->deleteAction()->isEnabled());
    }

    // Stop interrupts the delete on the host; the tab then lists what is left.
    void stopCancelsTheDeleteAndListsWhatIsLeft()
    {
        const QString base = m_remote.filePath(QStringLiteral("stopdelete"));
        const QString tree = base + QStringLiteral("/gated-keep");
        writeText(tree + QStringLiteral("/a.txt"), "a");
        writeText(tree + QStringLiteral("/sub/b.txt"), "b");
        go(base);
        select(QStringLiteral("gated-keep/"));
        m_tab->setConfirmer([](const QString &) { return true; });
        m_tab->deleteAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(tree + QStringLiteral(".started")), 30000);

        QPushButton *stop = nullptr;
        for (QPushButton *b : m_tab->findChildren<QPushButton *>()) {
            if (b->text() == QLatin1String("Stop")) stop = b;
        }
        QVERIFY(stop);
        QVERIFY(stop->isVisibleTo(m_tab.get()));
        QSignalSpy listed(m_tab.get(), &FilesTab::listed);
        stop->click();
        QVERIFY(!m_tab->isChanging());
        QCOMPARE(m_tab->statusText(), QStringLiteral("Stopped."));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(tree + QStringLiteral(".interrupted")), 30000); // the host's rm stopped
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 30000);
        QCOMPARE(m_tab->currentPath(), base);
        select(QStringLiteral("gated-keep/")); // still there, all of it
        QVERIFY(QFileInfo::exists(tree + QStringLiteral("/sub/b.txt")));
        QVERIFY(m_tab->deleteAction()->isEnabled());
        QVERIFY(!stop->isVisibleTo(m_tab.get()));
    }

    void cleanupTestCase()
    {
        m_tab.reset();
        m_files.reset();
        m_connection.reset();
    }
};

QTEST_MAIN(TestFilesActions)
#include "test_files_actions.moc"
