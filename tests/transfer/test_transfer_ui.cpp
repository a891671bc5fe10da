// The queue, its model and the two widgets, offscreen, against the real test sshd.

#include "sshdfixture.h"

#include "ui/transfer/dragout.h"
#include "core/sync/syncservice.h"
#include "ui/transfer/filestab.h"
#include "ui/transfer/remotedirmodel.h"
#include "ui/transfer/transferqueuemodel.h"
#include "ui/transfer/transferspanel.h"

#include "core/ssh/connection.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/sha256.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <utime.h>

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
} // namespace

class TestTransferUi : public QObject
{
    Q_OBJECT

private:
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
    SavedHost fixtureHost() const
    {
        SavedHost host;
        host.name = QStringLiteral("fixture");
        host.target = m_sshd.target();
        return host;
    }
    TransferRequest upload(const QString &local, const QString &remoteDir)
    {
        TransferRequest r;
        r.direction = Direction::Upload;
        r.host = QStringLiteral("fixture");
        r.localPath = local;
        r.remotePath = remoteDir + QLatin1Char('/');
        r.destinationIsDir = true;
        return r;
    }

private slots:
    void initTestCase()
    {
        const QString why = m_sshd.start();
        GANTRY_REQUIRE_SSHD(why);
    }

    void queueModelAndPanel()
    {
        TransferQueue queue(m_config.path(), provider());
        TransfersPanel panel(&queue);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(panel.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&queue, &TransferQueue::itemFinished);
        QSignalSpy changed(panel.model(), &QAbstractItemModel::dataChanged);

        const QString good = m_local.filePath(QStringLiteral("ok.bin"));
        writeText(good, QByteArray(3 * 1024 * 1024, 'x'));
        const quint64 okId = queue.enqueue(upload(good, m_remote.filePath(QStringLiteral("q"))));
        const quint64 badId = queue.enqueue(upload(m_local.filePath(QStringLiteral("missing.bin")), m_remote.path()));
        QVERIFY(queue.hasPendingTransfers(QStringLiteral("fixture")));
        QVERIFY(!queue.hasPendingTransfers(QStringLiteral("other")));
        QCOMPARE(panel.model()->rowCount(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 60000);
        QCOMPARE(queue.item(okId)->state, ItemState::Done);
        QCOMPARE(queue.item(badId)->state, ItemState::Failed);
        QVERIFY(queue.item(badId)->message.contains(QStringLiteral("does not exist")));
        QVERIFY(!changed.isEmpty());
        QVERIFY(!queue.hasPendingTransfers());
        QCOMPARE(transfer::sha256OfFile(m_remote.filePath(QStringLiteral("q/ok.bin"))).valueOr({}),
                 transfer::sha256OfFile(good).valueOr({}));

        const int okRow = queue.rowOf(okId);
        const QAbstractItemModel *m = panel.model();
        QCOMPARE(m->index(okRow, TransferQueueModel::ProgressColumn).data(TransferQueueModel::UnderlyingDataRole).toDouble(), 1.0);
        QCOMPARE(m->index(okRow, TransferQueueModel::SizeColumn).data(TransferQueueModel::UnderlyingDataRole).toULongLong(),
                 3ull * 1024 * 1024);
        QVERIFY(m->index(queue.rowOf(badId), TransferQueueModel::StateColumn).data().toString().startsWith(QStringLiteral("Failed")));
        QVERIFY(panel.summaryText().contains(QStringLiteral("1 failed")));

        // Sorting by size uses the raw value.
        panel.view()->sortByColumn(TransferQueueModel::SizeColumn, Qt::DescendingOrder);
        QCOMPARE(panel.proxy()->index(0, 0).data(TransferQueueModel::ItemIdRole).value<quint64>(), okId);

        // Retry the failed one after fixing the cause.
        writeText(m_local.filePath(QStringLiteral("missing.bin")), "now here");
        panel.view()->selectionModel()->select(panel.proxy()->mapFromSource(m->index(queue.rowOf(badId), 0)),
                                               QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        panel.retrySelected();
        QTRY_COMPARE_WITH_TIMEOUT(queue.item(badId)->state, ItemState::Done, 60000);

        queue.removeFinished();
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY(panel.confirmStopPending(QStringLiteral("fixture"), &panel)); // nothing pending: no question
    }

    void pausedItemsSurviveRestart()
    {
        QTemporaryDir config;
        const QString src = m_local.filePath(QStringLiteral("later.txt"));
        writeText(src, "later");
        {
            TransferQueue queue(config.path(), provider());
            queue.setMaxConcurrent(1);
            const quint64 busy = queue.enqueue(upload(m_local.filePath(QStringLiteral("ok.bin")), m_remote.filePath(QStringLiteral("p1"))));
            const quint64 later = queue.enqueue(upload(src, m_remote.filePath(QStringLiteral("p2"))));
            queue.pause(later);
            QCOMPARE(queue.item(later)->state, ItemState::Paused);
            Q_UNUSED(busy);
        } // the "app" quits with one item running and one paused
        TransferQueue queue(config.path(), provider());
        QAbstractItemModelTester tester(new TransferQueueModel(&queue, nullptr, &queue), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(queue.restore());
        QCOMPARE(queue.items().size(), 2);
        QCOMPARE(queue.items()[1].state, ItemState::Paused);
        QVERIFY(queue.hasPendingTransfers(QStringLiteral("fixture")));
        queue.resume(queue.items()[1].id);
        QTRY_VERIFY_WITH_TIMEOUT(!queue.hasPendingTransfers(), 60000);
        QVERIFY(QFileInfo::exists(m_remote.filePath(QStringLiteral("p2/later.txt"))));
        QVERIFY(QFileInfo::exists(m_remote.filePath(QStringLiteral("p1/ok.bin"))));
    }

    void filesTabBrowsesAndUploads()
    {
        TransferQueue queue(m_config.path(), provider());
        AppContext context;
        context.configDir = m_config.path();
        sync::SyncService syncPairs(context.configDir, sync::SyncService::savedHostProvider(context.hosts, context.connections));
        RemoteFiles remoteFiles(provider());
        FilesTab tab(context, &queue, &syncPairs, &remoteFiles);
        QAbstractItemModelTester tester(tab.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(tab.title(), QStringLiteral("Files"));

        ssh::Connection connection(m_sshd.target());
        connection.connectToHost(m_sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 20000);
        const SavedHost host = fixtureHost();
        QSignalSpy listed(&tab, &FilesTab::listed);
        tab.setMachine(host, &connection);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);

        const QString base = m_remote.filePath(QStringLiteral("browse"));
        QDir().mkpath(base + QStringLiteral("/sub"));
        writeText(base + QStringLiteral("/b.txt"), "bbb");
        listed.clear();
        tab.navigate(base);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
        QCOMPARE(tab.currentPath(), base);
        QCOMPARE(tab.model()->rowCount(), 2);
        // Folders first under the name sort.
        QCOMPARE(tab.view()->model()->index(0, 0).data().toString(), QStringLiteral("sub/"));

        tab.setTextAsker([](const QString &, const QString &) { return QStringLiteral("nouveau dossier"); });
        listed.clear();
        tab.makeFolder();
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
        QVERIFY(QFileInfo(base + QStringLiteral("/nouveau dossier")).isDir());

        // Drop a file and a folder: both go through the queue into the folder shown.
        const QString folder = m_local.filePath(QStringLiteral("dropped"));
        writeText(folder + QStringLiteral("/a.txt"), "a");
        writeText(m_local.filePath(QStringLiteral("single.txt")), "single");
        QSignalSpy finished(&queue, &TransferQueue::itemFinished);
        const auto ids = tab.uploadLocalPaths({folder, m_local.filePath(QStringLiteral("single.txt"))});
        QCOMPARE(ids.size(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 60000);
        QVERIFY2(queue.item(ids[0])->state == ItemState::Done, qPrintable(queue.item(ids[0])->message));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/dropped/a.txt")));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/single.txt")));

        // Delete asks first; "no" keeps the file.
        listed.clear();
        tab.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
        QModelIndex row;
        for (int i = 0; i < tab.view()->model()->rowCount(); ++i) {
            if (tab.view()->model()->index(i, 0).data().toString() == QLatin1String("b.txt")) row = tab.view()->model()->index(i, 0);
        }
        QVERIFY(row.isValid());
        tab.view()->selectionModel()->select(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QString asked;
        tab.setConfirmer([&](const QString &q) { asked = q; return false; });
        tab.deleteSelected(); // counts on the machine first, then asks
        QTRY_VERIFY_WITH_TIMEOUT(!asked.isEmpty(), 20000);
        QVERIFY(asked.contains(QStringLiteral("b.txt")));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/b.txt")));

        // Download the selection.
        const auto down = tab.downloadSelected(m_local.filePath(QStringLiteral("downloads")));
        QCOMPARE(down.size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(queue.item(down[0])->isFinished(), 60000);
        QVERIFY(QFileInfo::exists(m_local.filePath(QStringLiteral("downloads/b.txt"))));

        tab.setConfirmer([](const QString &) { return true; });
        listed.clear();
        tab.deleteSelected();
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
        QVERIFY(!QFileInfo::exists(base + QStringLiteral("/b.txt")));
        tab.resize(800, 500);
        QVERIFY(!tab.grab().isNull());
    }

    // The connection dies mid-file (sshd killed and started again): the queue retries by itself
    // and the upload continues from its journal instead of starting over.
    void queueResumesAfterTheConnectionDrops()
    {
        TransferQueue queue(m_config.path(), provider());
        const QString src = m_local.filePath(QStringLiteral("dataset.bin"));
        {
            QFile f(src);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray block(1 << 20, Qt::Uninitialized);
            for (int i = 0; i < 512; ++i) {
                for (int j = 0; j < block.size(); j += 4096) block[j] = char(i * 31 + j);
                f.write(block);
            }
        }
        TransferRequest r = upload(src, m_remote.filePath(QStringLiteral("drop")));
        r.options.parallel = 1;
        const quint64 id = queue.enqueue(r);
        QTRY_VERIFY_WITH_TIMEOUT(queue.item(id)->progress.bytesDone >= 16ull * 1024 * 1024 || queue.item(id)->isFinished(), 60000);
        QVERIFY2(!queue.item(id)->isFinished(), "the upload finished before the connection could be cut");
        m_sshd.stop();
        QCOMPARE(m_sshd.restart(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(!queue.item(id)->isPending(), 120000);
        const QueueItem *item = queue.item(id);
        QVERIFY2(item->state == ItemState::Done, qPrintable(item->message));
        QVERIFY(item->outcome.resumed);
        QVERIFY(item->outcome.verified);
        QVERIFY(item->outcome.payloadBytes < 512ull * 1024 * 1024);
        QCOMPARE(sha256OfFile(m_remote.filePath(QStringLiteral("drop/dataset.bin"))).valueOr(QByteArray()),
                 sha256OfFile(src).valueOr(QByteArray("local")));
    }

    // Dragging out to the desktop: the selection downloads into a staging folder as the drag
    // starts; the drop target gets local file URLs only once the files are complete.
    void filesTabDragsOutThroughStaging()
    {
        TransferQueue queue(m_config.path(), provider());
        AppContext context;
        context.configDir = m_config.path();
        sync::SyncService syncPairs(context.configDir, sync::SyncService::savedHostProvider(context.hosts, context.connections));
        RemoteFiles remoteFiles(provider());
        FilesTab tab(context, &queue, &syncPairs, &remoteFiles);
        const QString stagingRoot = m_local.filePath(QStringLiteral("drag-staging"));
        tab.setDragStagingRoot(stagingRoot);
        QVERIFY(!tab.stageSelectionForDrag()); // nothing selected, no machine

        ssh::Connection connection(m_sshd.target());
        connection.connectToHost(m_sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 20000);
        const SavedHost host = fixtureHost();
        const QString base = m_remote.filePath(QStringLiteral("dragout"));
        QByteArray big(3 * 1024 * 1024 + 17, '\0');
        for (int i = 0; i < big.size(); ++i) big[i] = char(i * 7 + i / 4096);
        writeText(base + QStringLiteral("/checkpoint.pt"), big);
        writeText(base + QStringLiteral("/run 1/metrics.csv"), "step,loss\n1,0.5\n");
        writeText(base + QStringLiteral("/ignored.txt"), "not selected");
        // An old staging folder from an earlier day is cleaned up by the next drag.
        const QString stale = stagingRoot + QStringLiteral("/20200101-000000-000");
        writeText(stale + QStringLiteral("/old.bin"), "old");
        const time_t threeDaysAgo = QDateTime::currentDateTimeUtc().addDays(-3).toSecsSinceEpoch();
        const utimbuf times{threeDaysAgo, threeDaysAgo};
        QCOMPARE(::utime(QFile::encodeName(stale).constData(), &times), 0);

        QSignalSpy listed(&tab, &FilesTab::listed);
        tab.setMachine(host, &connection);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
        listed.clear();
        tab.navigate(base);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
        QCOMPARE(tab.model()->rowCount(), 3);
        QAbstractItemModel *view = tab.view()->model();
        for (int i = 0; i < view->rowCount(); ++i) {
            const QString name = view->index(i, 0).data().toString();
            if (name == QLatin1String("checkpoint.pt") || name == QLatin1String("run 1/")) {
                tab.view()->selectionModel()->select(view->index(i, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
            }
        }
        QVERIFY(tab.view()->dragEnabled());

        std::unique_ptr<DragOutStaging> staging(tab.stageSelectionForDrag());
        QVERIFY(staging);
        QCOMPARE(staging->ids().size(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(stale), 10000); // removed on a pool thread
        QVERIFY(staging->stagingDir().startsWith(stagingRoot));
        DragOutMimeData mime(staging.get(), nullptr);
        QVERIFY(mime.hasUrls());
        const QList<QUrl> urls = mime.urls(); // what the drop target reads; waits for the downloads
        QCOMPARE(urls.size(), 2);
        QVERIFY(staging->isFinished());
        QStringList files;
        for (const QUrl &url : urls) {
            QVERIFY(url.isLocalFile());
            files.append(url.toLocalFile());
        }
        files.sort();
        QCOMPARE(QFileInfo(files[0]).fileName(), QStringLiteral("checkpoint.pt"));
        QFile got(files[0]);
        QVERIFY(got.open(QIODevice::ReadOnly));
        QCOMPARE(got.readAll(), big);
        QVERIFY(QFileInfo(files[1]).isDir());
        QVERIFY(QFileInfo::exists(files[1] + QStringLiteral("/metrics.csv")));
        QVERIFY(!QFileInfo::exists(staging->stagingDir() + QStringLiteral("/ignored.txt")));
        for (quint64 id : staging->ids()) QCOMPARE(queue.item(id)->state, ItemState::Done);

        // A drag let go outside any target cancels its downloads; nothing is handed over.
        DragOutStaging cancelled(&queue, QStringLiteral("fixture"), {base + QStringLiteral("/checkpoint.pt")},
                                 DragOutStaging::newStagingDir(stagingRoot));
        cancelled.start();
        cancelled.cancel();
        auto none = cancelled.waitForFiles(nullptr, 20000);
        QVERIFY(!none);
        QCOMPARE(none.error().code, ErrorCode::Cancelled);

        // A failed download names the cause instead of handing over a missing file.
        DragOutStaging missing(&queue, QStringLiteral("fixture"), {base + QStringLiteral("/no-such-file")},
                               DragOutStaging::newStagingDir(stagingRoot));
        auto failed = missing.waitForFiles(nullptr, 60000);
        QVERIFY(!failed);
        QVERIFY2(failed.error().message.contains(QStringLiteral("no-such-file")), qPrintable(failed.error().message));
        DragOutMimeData failedMime(&missing, nullptr);
        QVERIFY(failedMime.urls().isEmpty());
    }
};

QTEST_MAIN(TestTransferUi)
#include "test_transfer_ui.moc"
