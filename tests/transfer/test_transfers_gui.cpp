// SPDX-License-Identifier: Apache-2.0
// What a FileZilla or WinSCP user expects of the Files tab and the Transfers panel, against the
// real test sshd, offscreen: the listing follows uploads and syncs, Cancel leaves no staging file on
// the host (Pause keeps it), finished rows say how long, how fast and "verified", the rows' context
// menu, the drop highlight, and a download folder that exists. Renders at 1024x700 and 1600x1000.

#include "tests/support/stagingfile.h"
#include "sshdfixture.h"

#include "ui/common/filedialogs.h"
#include "ui/transfer/dragout.h"
#include "ui/transfer/filestab.h"
#include "ui/transfer/localfilespane.h"
#include "ui/transfer/remotedirmodel.h"
#include "ui/transfer/transferqueuemodel.h"
#include "ui/transfer/transferspanel.h"

#include "core/ssh/connection.h"
#include "core/sync/syncservice.h"
#include "core/transfer/sessionfactory.h"

#include <QPushButton>
#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileSystemModel>
#include <QGuiApplication>
#include <QMenu>
#include <QMimeData>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUrl>

using namespace gantry;
using namespace gantry::transfer;
using namespace gantry::ui;

namespace {

QString renderPath(const QString &name)
{
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/renders");
    QDir().mkpath(dir);
    return dir + QLatin1Char('/') + name;
}

bool lists(const RemoteDirModel *model, const QString &name)
{
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->entry(row).name == name) return true;
    }
    return false;
}

} // namespace

class TestTransfersGui : public QObject
{
    Q_OBJECT

    test::SshdFixture m_sshd;
    QTemporaryDir m_local;
    QTemporaryDir m_remote;
    QTemporaryDir m_config;

    TransferQueue::FactoryProvider provider()
    {
        return [this](const QString &host) -> Result<SessionFactory> {
            if (host != QLatin1String("fixture")) return Error{ErrorCode::NotFound, QStringLiteral("no host %1").arg(host)};
            return makeSessionFactory(m_sshd.target(), m_sshd.connectOptions());
        };
    }
    TransferRequest upload(const QString &local, const QString &remoteDir) const
    {
        TransferRequest r;
        r.host = QStringLiteral("fixture");
        r.localPath = local;
        r.remotePath = remoteDir + QLatin1Char('/');
        r.destinationIsDir = true;
        r.options.parallel = 1;
        return r;
    }
    // A file large enough to be caught mid-way (sparse: made at once).
    QString bigFile(const QString &name)
    {
        const QString path = m_local.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || !f.resize(qint64(768) << 20)) return {};
        return path;
    }
    void select(TransfersPanel &panel, quint64 id)
    {
        const QModelIndex source = panel.model()->index(panel.queue()->rowOf(id), 0);
        panel.view()->selectionModel()->select(panel.proxy()->mapFromSource(source),
                                               QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    // Connects `connection` to the fixture and has `tab` show `folder` there.
    bool show(FilesTab &tab, ssh::Connection &connection, const QString &folder)
    {
        connection.connectToHost(m_sshd.connectOptions());
        if (!QTest::qWaitFor([&] { return connection.state() == ssh::ConnectionState::Connected; }, 20000)) return false;
        SavedHost host;
        host.name = QStringLiteral("fixture");
        host.target = m_sshd.target();
        QSignalSpy listed(&tab, &FilesTab::listed);
        tab.setMachine(host, &connection);
        if (!QTest::qWaitFor([&] { return !listed.isEmpty(); }, 20000)) return false;
        listed.clear();
        tab.navigate(folder);
        return QTest::qWaitFor([&] { return !listed.isEmpty() && tab.currentPath() == folder; }, 20000);
    }
    static QAction *entry(QMenu *menu, const QString &text)
    {
        for (QAction *action : menu->actions()) {
            if (action->text() == text) return action;
        }
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        GANTRY_REQUIRE_SSHD(m_sshd.start());
        FileDialogs::setConfigDir(m_config.path());
    }

    // Cancel ends the upload for good: its staging file leaves the host. Pause keeps it (the upload
    // resumes from it); cancelling the paused item then removes it too.
    void cancelledUploadLeavesNoPartial()
    {
        TransferQueue queue(m_config.path(), provider());
        const QString src = bigFile(QStringLiteral("huge.bin"));
        QVERIFY(!src.isEmpty());
        const QString finalPath = m_remote.filePath(QStringLiteral("c/huge.bin"));
        const auto partial = [&finalPath] { return gantry::testsupport::stagingFileOf(finalPath); };
        QDir().mkpath(m_remote.filePath(QStringLiteral("c")));

        const quint64 cancelled = queue.enqueue(upload(src, m_remote.filePath(QStringLiteral("c"))));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(partial()).size() > 0 || queue.item(cancelled)->isFinished(), 60000);
        QVERIFY2(!queue.item(cancelled)->isFinished(), "the upload ended before it could be cancelled");
        queue.cancel(cancelled);
        QTRY_COMPARE_WITH_TIMEOUT(queue.item(cancelled)->state, ItemState::Cancelled, 60000);
        QVERIFY2(!QFileInfo::exists(partial()), "a cancelled upload left its staging file on the host");
        QVERIFY(!QFileInfo::exists(m_remote.filePath(QStringLiteral("c/huge.bin"))));

        const quint64 paused = queue.enqueue(upload(src, m_remote.filePath(QStringLiteral("c"))));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(partial()).size() > 0 || queue.item(paused)->isFinished(), 60000);
        QVERIFY2(!queue.item(paused)->isFinished(), "the upload ended before it could be paused");
        queue.pause(paused);
        QTRY_COMPARE_WITH_TIMEOUT(queue.item(paused)->state, ItemState::Paused, 60000);
        QVERIFY2(QFileInfo::exists(partial()), "Pause must keep the staging file to resume from");
        queue.cancel(paused);
        QCOMPARE(queue.item(paused)->state, ItemState::Cancelled);
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(partial()), 30000);
    }

    // The remote listing follows what uploads and syncs create in the folder shown, without F5.
    void listingFollowsUploadsAndSyncs()
    {
        TransferQueue queue(m_config.path(), provider());
        sync::SyncService pairs(m_config.path(), provider());
        RemoteFiles remoteFiles(provider());
        FilesTab tab(AppContext{m_config.path(), nullptr, nullptr}, &queue, &pairs, &remoteFiles);
        ssh::Connection connection(m_sshd.target());
        const QString shown = m_remote.filePath(QStringLiteral("shown"));
        QDir().mkpath(shown);
        QVERIFY(show(tab, connection, shown));

        // An upload queued elsewhere (the Transfers panel, the CLI's queue in the app) into it.
        test::writeRandom(m_local.filePath(QStringLiteral("fresh.txt")), 64);
        const quint64 id = queue.enqueue(upload(m_local.filePath(QStringLiteral("fresh.txt")), shown));
        QTRY_VERIFY_WITH_TIMEOUT(queue.item(id)->isFinished(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(lists(tab.model(), QStringLiteral("fresh.txt")), 20000);

        // A "Keep in sync" pair that writes into a folder inside the one shown.
        test::writeRandom(m_local.filePath(QStringLiteral("project/train.py")), 64);
        const sync::SyncPair pair{QStringLiteral("fixture"), QDir(m_local.filePath(QStringLiteral("project"))).canonicalPath(),
                                  shown + QStringLiteral("/project"), false, false};
        QVERIFY(pairs.remember(pair));
        QSignalSpy synced(&pairs, &sync::SyncService::synced);
        QVERIFY(pairs.setKeepInSync(pair, true));
        QVERIFY(synced.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(lists(tab.model(), QStringLiteral("project")), 20000);
        QVERIFY(pairs.setKeepInSync(pair, false));
        QCOMPARE(tab.currentPath(), shown); // refreshed in place, never sent elsewhere
    }

    // A finished row says how long it took, its average speed and that the SHA-256 matched; its
    // context menu opens the local folder, shows the folder on the machine, copies the path,
    // retries and removes.
    void finishedRowsAndTheirMenu()
    {
        TransferQueue queue(m_config.path(), provider());
        TransfersPanel panel(&queue);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString src = m_local.filePath(QStringLiteral("weights/model.safetensors"));
        test::writeRandom(src, 1 << 20);
        const quint64 done = queue.enqueue(upload(src, m_remote.filePath(QStringLiteral("runs"))));
        const quint64 failed = queue.enqueue(upload(m_local.filePath(QStringLiteral("weights/missing.bin")), m_remote.path()));
        QTRY_VERIFY_WITH_TIMEOUT(queue.item(done)->isFinished() && !queue.item(failed)->isPending(), 60000);
        QCOMPARE(queue.item(done)->state, ItemState::Done);

        const QAbstractItemModel *m = panel.model();
        const int row = queue.rowOf(done);
        const QString status = m->index(row, TransferQueueModel::StateColumn).data().toString();
        QVERIFY2(status.contains(TransferQueueModel::tr("verified")), qPrintable(status));
        QVERIFY2(m->index(row, TransferQueueModel::SpeedColumn).data().toString().startsWith(QStringLiteral("avg ")),
                 qPrintable(m->index(row, TransferQueueModel::SpeedColumn).data().toString()));
        QVERIFY2(m->index(row, TransferQueueModel::EtaColumn).data().toString().startsWith(QStringLiteral("took ")),
                 qPrintable(m->index(row, TransferQueueModel::EtaColumn).data().toString()));
        QVERIFY(m->index(row, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("SHA-256")));

        QString opened;
        panel.setFolderOpener([&](const QString &folder) { opened = folder; return true; });
        QSignalSpy show(&panel, &TransfersPanel::showOnMachineRequested);
        select(panel, done);
        std::unique_ptr<QMenu> menu(panel.contextMenu(&panel));
        for (const QString &text : {TransfersPanel::tr("Open local folder"), TransfersPanel::tr("Show on the machine"),
                                    TransfersPanel::tr("Copy path"), TransfersPanel::tr("Remove from list")})
            QVERIFY2(entry(menu.get(), text) && entry(menu.get(), text)->isEnabled(), qPrintable(text));
        QVERIFY(!entry(menu.get(), TransfersPanel::tr("Retry"))->isEnabled()); // it worked
        entry(menu.get(), TransfersPanel::tr("Open local folder"))->trigger();
        QCOMPARE(opened, QFileInfo(src).absolutePath());
        entry(menu.get(), TransfersPanel::tr("Show on the machine"))->trigger();
        QCOMPARE(show.size(), 1);
        QCOMPARE(show.first().at(0).toString(), QStringLiteral("fixture"));
        QCOMPARE(show.first().at(1).toString(), m_remote.filePath(QStringLiteral("runs")));
        entry(menu.get(), TransfersPanel::tr("Copy path"))->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("fixture:") + m_remote.filePath(QStringLiteral("runs/model.safetensors")));

        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            panel.resize(size);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QVERIFY(panel.grab().save(renderPath(QStringLiteral("transfers-finished-%1x%2.png").arg(size.width()).arg(size.height()))));
            QCOMPARE(panel.view()->horizontalScrollBar()->maximum(), 0); // every column fits
        }
        menu->adjustSize();
        QVERIFY(menu->grab().save(renderPath(QStringLiteral("transfers-context-menu.png"))));

        select(panel, failed);
        menu.reset(panel.contextMenu(&panel));
        QVERIFY(entry(menu.get(), TransfersPanel::tr("Retry"))->isEnabled());
        entry(menu.get(), TransfersPanel::tr("Remove from list"))->trigger();
        QCOMPARE(queue.rowOf(failed), -1);
        QCOMPARE(panel.model()->rowCount(), 1);
    }

    // Files dragged over the Files tab frame the list and say where they will go; leaving clears it.
    void dropHighlightSaysWhere()
    {
        TransferQueue queue(m_config.path(), provider());
        sync::SyncService pairs(m_config.path(), provider());
        RemoteFiles remoteFiles(provider());
        FilesTab tab(AppContext{m_config.path(), nullptr, nullptr}, &queue, &pairs, &remoteFiles);
        ssh::Connection connection(m_sshd.target());
        QVERIFY(show(tab, connection, m_remote.path()));

        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(m_local.filePath(QStringLiteral("fresh.txt")))});
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            tab.resize(size);
            tab.show();
            QVERIFY(QTest::qWaitForWindowExposed(&tab));
            QDragEnterEvent enter(tab.rect().center(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&tab, &enter);
            QVERIFY(enter.isAccepted());
            QVERIFY2(tab.view()->dropTarget().contains(m_remote.path()), qPrintable(tab.view()->dropTarget()));
            QVERIFY(tab.grab().save(renderPath(QStringLiteral("files-drop-%1x%2.png").arg(size.width()).arg(size.height()))));
            QDragLeaveEvent leave;
            QCoreApplication::sendEvent(&tab, &leave);
            QVERIFY(tab.view()->dropTarget().isEmpty());
        }
    }

    // Two panes, as in FileZilla: this computer's files beside the machine's, dragged both ways;
    // "Local files" turns it on and off, and the choice and the folder come back next time.
    void twoPanesDragBothWays()
    {
        QTemporaryDir config;
        const QString localDir = m_local.filePath(QStringLiteral("pane"));
        test::writeRandom(localDir + QStringLiteral("/notes.txt"), 64);
        const QString remoteDir = m_remote.filePath(QStringLiteral("pane"));
        test::writeRandom(remoteDir + QStringLiteral("/results.csv"), 64);
        TransferQueue queue(config.path(), provider());
        sync::SyncService pairs(config.path(), provider());
        RemoteFiles remoteFiles(provider());
        ssh::Connection connection(m_sshd.target());
        {
            FilesTab tab(AppContext{config.path(), nullptr, nullptr}, &queue, &pairs, &remoteFiles);
            QVERIFY(tab.localPane()->isHidden()); // today's single pane until asked
            QVERIFY(show(tab, connection, remoteDir));
            tab.twoPaneAction()->setChecked(true);
            tab.localPane()->setFolder(localDir);
            for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
                tab.resize(size);
                tab.show();
                QVERIFY(QTest::qWaitForWindowExposed(&tab));
                QVERIFY(tab.localPane()->isVisible());
                QTRY_VERIFY(tab.localPane()->model()->rowCount(tab.localPane()->view()->rootIndex()) == 1);
                QVERIFY(tab.localPane()->width() >= 300 && tab.view()->width() >= 400);
                QVERIFY(tab.grab().save(renderPath(QStringLiteral("files-two-panes-%1x%2.png").arg(size.width()).arg(size.height()))));
            }

            // Local → machine: the local pane's drag carries file URLs; dropped on the list, it uploads.
            QFileSystemModel *local = tab.localPane()->model();
            std::unique_ptr<QMimeData> up(local->mimeData({local->index(localDir + QStringLiteral("/notes.txt"))}));
            const QPoint overList = tab.view()->mapTo(&tab, tab.view()->rect().center());
            QDragEnterEvent upEnter(overList, Qt::CopyAction, up.get(), Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&tab, &upEnter); // the drag manager's target until the drop
            QVERIFY(upEnter.isAccepted());
            QDropEvent drop(overList, Qt::CopyAction, up.get(), Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(&tab, &drop);
            QCOMPARE(queue.items().size(), 1);
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(remoteDir + QStringLiteral("/notes.txt")), 30000);
            QTRY_VERIFY_WITH_TIMEOUT(lists(tab.model(), QStringLiteral("notes.txt")), 20000);

            // Machine → local: the list's drag dropped on the local pane downloads into its folder.
            for (int row = 0; row < tab.view()->model()->rowCount(); ++row) {
                if (tab.view()->model()->index(row, 0).data().toString() == QLatin1String("results.csv"))
                    tab.view()->selectionModel()->select(tab.view()->model()->index(row, 0),
                                                         QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            }
            DragOutStaging staging(&queue, QStringLiteral("fixture"), {}, config.filePath(QStringLiteral("staging")));
            DragOutMimeData down(&staging, nullptr);
            QWidget *target = tab.localPane()->view()->viewport();
            QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &down, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(target, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent downDrop(QPointF(10, target->height() - 5), Qt::CopyAction, &down, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(target, &downDrop);
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(localDir + QStringLiteral("/results.csv")), 30000);
            QVERIFY(tab.statusText().contains(localDir));
        }
        // The next Files tab (the next start) comes back with both panes and the same folder.
        FilesTab again(AppContext{config.path(), nullptr, nullptr}, &queue, &pairs, &remoteFiles);
        QVERIFY(again.twoPaneAction()->isChecked());
        QCOMPARE(again.localPane()->folder(), localDir);
        again.twoPaneAction()->setChecked(false);
        FilesTab single(AppContext{config.path(), nullptr, nullptr}, &queue, &pairs, &remoteFiles);
        QVERIFY(!single.twoPaneAction()->isChecked());
        QVERIFY(single.localPane()->isHidden());
    }

    // The download chooser opens in a folder that exists, so its Choose button takes it as it is:
    // the desktop's Downloads folder when there is one, else home; later the folder chosen last.
    void downloadFolderExistsAndCanBeChosen()
    {
        QTemporaryDir home;
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", QFile::encodeName(home.path()));
        const auto restore = qScopeGuard([&] { qputenv("HOME", oldHome); });
        QCOMPARE(FileDialogs::downloadStartFolder(), QDir(home.path()).absolutePath()); // no ~/Downloads
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral("Downloads")));
        QCOMPARE(FileDialogs::downloadStartFolder(), QDir(home.path()).absoluteFilePath(QStringLiteral("Downloads")));

        std::unique_ptr<QFileDialog> dialog(FileDialogs::downloadFolderDialog(nullptr, FilesTab::tr("Download to")));
        dialog->setOption(QFileDialog::DontUseNativeDialog);
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            dialog->resize(size.width() * 2 / 3, size.height() * 2 / 3);
            dialog->show();
            QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
            QCOMPARE(QDir(dialog->directory()).absolutePath(), QDir(home.path()).absoluteFilePath(QStringLiteral("Downloads")));
            auto *buttons = dialog->findChild<QDialogButtonBox *>();
            QVERIFY(buttons);
            QPushButton *choose = buttons->button(QDialogButtonBox::Open);
            QVERIFY(choose);
            QTRY_VERIFY(choose->isEnabled());
            QVERIFY(dialog->grab().save(renderPath(QStringLiteral("download-folder-%1x%2.png").arg(size.width()).arg(size.height()))));
        }
    }
};

QTEST_MAIN(TestTransfersGui)
#include "test_transfers_gui.moc"
