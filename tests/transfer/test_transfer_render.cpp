// What a user sees of the Transfers panel and the Files tab, offscreen: the progress bars paint
// inside their cells and nowhere else, no header is elided at 1024x700, sizes and times fit, the
// row's and the summary's "time left" agree. Renders are saved under the build tree's renders/
// (set GANTRY_RENDER_QM to a .qm file to render in that language).

#include "sshdfixture.h"

#include "core/sync/syncservice.h"
#include "ui/transfer/filestab.h"
#include "ui/transfer/progressdelegate.h"
#include "ui/transfer/remotedirmodel.h"
#include "ui/transfer/transferqueuemodel.h"
#include "ui/transfer/transferspanel.h"

#include "core/ssh/connection.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/speedmeter.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QTreeView>

using namespace gantry;
using namespace gantry::transfer;
using namespace gantry::ui;

namespace {
const QColor kBarColour(200, 0, 0);

bool isBar(const QColor &c)
{
    return c.red() > 120 && c.red() - c.green() > 70 && c.red() - c.blue() > 70;
}

QString renderPath(const QString &name)
{
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/renders");
    QDir().mkpath(dir);
    return dir + QLatin1Char('/') + name;
}

// Every bar pixel of the view lies in a Progress cell; returns the bar pixels per row.
QList<int> barPixelsPerRow(QTreeView *view, int progressColumn)
{
    const QImage image = view->viewport()->grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    QAbstractItemModel *model = view->model();
    QList<int> perRow(model->rowCount(), 0);
    int stray = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            if (!isBar(image.pixelColor(x, y))) continue;
            const QPoint p(int(x / dpr), int(y / dpr));
            const QModelIndex at = view->indexAt(p);
            if (at.isValid() && at.column() == progressColumn && view->visualRect(at).contains(p)) ++perRow[at.row()];
            else ++stray;
        }
    }
    if (stray > 0) qWarning("%d bar pixels outside the Progress cells", stray);
    return stray > 0 ? QList<int>{} : perRow;
}

void colourBars(QWidget *widget)
{
    QPalette palette = widget->palette();
    palette.setColor(QPalette::Highlight, kBarColour);
    widget->setPalette(palette);
}
} // namespace

class TestTransferRender : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_local;
    QTemporaryDir m_remote;
    QTemporaryDir m_config;
    QTranslator m_translator;

    TransferQueue::FactoryProvider provider()
    {
        return [this](const QString &host) -> Result<SessionFactory> {
            if (host != QLatin1String("fixture")) return Error{ErrorCode::NotFound, host};
            return makeSessionFactory(m_sshd.target(), m_sshd.connectOptions());
        };
    }
    TransferRequest upload(const QString &local, const QString &remoteDir)
    {
        TransferRequest r;
        r.host = QStringLiteral("fixture");
        r.localPath = local;
        r.remotePath = remoteDir + QLatin1Char('/');
        r.destinationIsDir = true;
        r.options.onConflict = ConflictPolicy::Rename;
        return r;
    }

    // Uploads that end done, renamed, and failed.
    void fill(TransferQueue &queue)
    {
        const QString file = m_local.filePath(QStringLiteral("checkpoint-000120.safetensors"));
        test::writeRandom(file, 3 * 1024 * 1024);
        QSignalSpy finished(&queue, &TransferQueue::itemFinished);
        queue.enqueue(upload(file, m_remote.filePath(QStringLiteral("models"))));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 60000);
        queue.enqueue(upload(file, m_remote.filePath(QStringLiteral("models")))); // exists: "… (1).safetensors"
        queue.enqueue(upload(m_local.filePath(QStringLiteral("missing.bin")), m_remote.path()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 3, 60000);
    }

private slots:
    void initTestCase()
    {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        const QString qm = qEnvironmentVariable("GANTRY_RENDER_QM");
        if (!qm.isEmpty() && m_translator.load(qm)) QCoreApplication::installTranslator(&m_translator);
        const QString why = m_sshd.start();
        GANTRY_REQUIRE_SSHD(why);
    }

    // Fractions of a bar: its length follows the value, and it stays in its cell.
    void barLengthFollowsTheFraction()
    {
        QStandardItemModel model(4, 3);
        const QList<double> fractions{0.0, 0.25, 0.5, 1.0};
        for (int row = 0; row < fractions.size(); ++row) {
            model.setData(model.index(row, 0), QStringLiteral("file %1").arg(row));
            model.setData(model.index(row, 1), fractions[row], TransferQueueModel::UnderlyingDataRole);
            model.setData(model.index(row, 1), QStringLiteral("%1%").arg(int(fractions[row] * 100)));
            model.setData(model.index(row, 2), QStringLiteral("Running"));
        }
        QTreeView view;
        view.setModel(&model);
        view.setRootIsDecorated(false);
        view.setItemDelegateForColumn(1, new ProgressDelegate(&view));
        colourBars(&view);
        view.resize(600, 300);
        view.setColumnWidth(0, 150);
        view.setColumnWidth(1, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QList<int> perRow = barPixelsPerRow(&view, 1);
        QVERIFY2(!perRow.isEmpty(), "the delegate paints bars outside the Progress cells");
        QVERIFY2(perRow[0] <= perRow[1] / 4, qPrintable(QString::number(perRow[0]))); // 0 %: at most the frame
        QVERIFY(perRow[1] > 0);
        QVERIFY2(perRow[2] > perRow[1] * 3 / 2 && perRow[3] > perRow[2] * 3 / 2,
                 qPrintable(QStringLiteral("%1 %2 %3").arg(perRow[1]).arg(perRow[2]).arg(perRow[3])));
        // A full bar covers most of its cell.
        const QRect full = view.visualRect(model.index(3, 1));
        QVERIFY2(perRow[3] > full.width() * full.height() / 3, qPrintable(QString::number(perRow[3])));
    }

    void transfersPanelAtDesktopSizes()
    {
        TransferQueue queue(m_config.path(), provider());
        TransfersPanel panel(&queue);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        fill(queue);
        colourBars(panel.view());
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
            panel.resize(size);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QTreeView *view = panel.view();
            QHeaderView *header = view->header();
            const QFontMetrics fm = header->fontMetrics();
            for (int c = 0; c < TransferQueueModel::ColumnCount; ++c) {
                const QString text = panel.model()->headerData(c, Qt::Horizontal).toString();
                QVERIFY2(header->sectionSize(c) >= fm.horizontalAdvance(text) + 8,
                         qPrintable(QStringLiteral("header %1 elided at %2x%3").arg(text).arg(size.width()).arg(size.height())));
            }
            QCOMPARE(view->horizontalScrollBar()->maximum(), 0); // everything fits in 1024 px
            // Size: "3.0 MB of 3.0 MB" in full.
            const QModelIndex sizeCell = panel.proxy()->index(0, TransferQueueModel::SizeColumn);
            QVERIFY2(view->visualRect(sizeCell).width() >= view->fontMetrics().horizontalAdvance(sizeCell.data().toString()) + 6,
                     qPrintable(sizeCell.data().toString()));
            const QList<int> perRow = barPixelsPerRow(view, TransferQueueModel::ProgressColumn);
            QVERIFY2(!perRow.isEmpty(), "bar pixels outside the Progress cells");
            QVERIFY2(perRow[0] > 100, "the finished upload shows no bar"); // done: a full bar
            QVERIFY(panel.grab().save(renderPath(QStringLiteral("transfers-%1x%2.png").arg(size.width()).arg(size.height()))));
        }
        // The renamed copy shows where it went, not the source's name.
        const QString dest = panel.model()->index(1, TransferQueueModel::DestinationColumn).data().toString();
        QVERIFY2(dest.startsWith(QStringLiteral("fixture:")) && dest.endsWith(QStringLiteral("checkpoint-000120 (1).safetensors")),
                 qPrintable(dest));
    }

    void rowAndSummaryAgreeOnTimeLeft()
    {
        // One transfer: 10.5 s of work at the current speed is "11 s" in the row and in the total.
        const qint64 eta = SpeedMeter::eta(10'500'000, 1'000'000);
        QCOMPARE(eta, 11);
        QCOMPARE(SpeedMeter::eta(0, 1'000'000), 0);
        QCOMPARE(SpeedMeter::eta(1, 0), -1); // no speed yet: unknown, never "0 s"
    }

    void filesTabAtDesktopSizes()
    {
        TransferQueue queue(m_config.path(), provider());
        AppContext context;
        context.configDir = m_config.path();
        sync::SyncService syncPairs(context.configDir, sync::SyncService::savedHostProvider(context.hosts, context.connections));
        RemoteFiles remoteFiles(provider());
        FilesTab tab(context, &queue, &syncPairs, &remoteFiles);
        ssh::Connection connection(m_sshd.target());
        connection.connectToHost(m_sshd.connectOptions());
        QTRY_COMPARE_WITH_TIMEOUT(connection.state(), ssh::ConnectionState::Connected, 20000);
        SavedHost host;
        host.name = QStringLiteral("fixture");
        host.target = m_sshd.target();
        const QString base = m_remote.filePath(QStringLiteral("project"));
        test::writeRandom(base + QStringLiteral("/checkpoints/step-1000.pt"), 4096);
        test::writeRandom(base + QStringLiteral("/train.py"), 2048);
        test::writeRandom(base + QStringLiteral("/README.md"), 300);
        QDir().mkpath(base + QStringLiteral("/empty"));
        QSignalSpy listed(&tab, &FilesTab::listed);
        tab.setMachine(host, &connection);
        QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
        for (const QString &folder : QStringList{base, base + QStringLiteral("/empty")}) {
            listed.clear();
            tab.navigate(folder);
            QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 20000);
            for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
                tab.resize(size);
                tab.show();
                QVERIFY(QTest::qWaitForWindowExposed(&tab));
                QHeaderView *header = tab.view()->header();
                for (int c = 0; c < header->count(); ++c) {
                    const QString text = tab.view()->model()->headerData(c, Qt::Horizontal).toString();
                    QVERIFY2(header->sectionSize(c) >= header->fontMetrics().horizontalAdvance(text) + 8, qPrintable(text));
                }
                for (int row = 0; row < tab.view()->model()->rowCount(); ++row) {
                    const QModelIndex cell = tab.view()->model()->index(row, RemoteDirModel::ModifiedColumn);
                    QVERIFY2(tab.view()->visualRect(cell).width() >= tab.view()->fontMetrics().horizontalAdvance(cell.data().toString()) + 6,
                             qPrintable(cell.data().toString()));
                }
                const QString name = QStringLiteral("files-%1-%2x%3.png")
                                         .arg(folder == base ? QStringLiteral("folder") : QStringLiteral("empty"))
                                         .arg(size.width())
                                         .arg(size.height());
                QVERIFY(tab.grab().save(renderPath(name)));
            }
        }
    }
};

QTEST_MAIN(TestTransferRender)
#include "test_transfer_render.moc"
