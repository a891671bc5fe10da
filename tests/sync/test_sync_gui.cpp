// "Sync a local folder here…" against the real test sshd: the dialog's preview is the dry-run
// plan (new, changed, to delete, with sizes) and changes nothing; Start sends it with a full
// progress bar; "Keep in sync" sends a later change; the pair and its watch come back after the
// service is made again (an app restart). Renders the dialog at 1024x700 and 1440x900 into
// renders/ (with GANTRY_RENDER_QM=…/gantry_zh_CN.qm in Chinese).

#include "sshdfixture.h"

#include "core/sync/syncpairs.h"
#include "ui/sync/syncdialog.h"
#include "core/sync/syncservice.h"
#include "ui/sync/syncstrip.h"
#include "ui/transfer/filestab.h"
#include "core/transfer/transferqueue.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/sessionfactory.h"

#include <QApplication>
#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLocale>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QTreeWidget>

using namespace gantry;
using namespace gantry::ui;
using gantry::sync::SyncService;

namespace {

void write(const QString &path, const QByteArray &content, qint64 mtime = 0)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(content);
    QVERIFY(f.flush());
    if (mtime) QVERIFY(f.setFileTime(QDateTime::fromSecsSinceEpoch(mtime), QFileDevice::FileModificationTime));
}

QByteArray read(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Change column → path → size text, from the preview list.
QMap<QString, QPair<int, QString>> rows(const SyncDialog &dialog)
{
    QMap<QString, QPair<int, QString>> out;
    const QTreeWidget *list = dialog.previewList();
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = list->topLevelItem(i);
        out.insert(item->text(1), {item->data(0, Qt::UserRole).toInt(), item->text(2)});
    }
    return out;
}

QString renderPath(const QString &name)
{
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/renders");
    QDir().mkpath(dir);
    return dir + QLatin1Char('/') + name;
}

} // namespace

class TestSyncGui : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTranslator m_translator;

    SyncService::FactoryProvider provider() const
    {
        return [this](const QString &host) -> Result<transfer::SessionFactory> {
            if (host != QLatin1String("fixture")) return Error{ErrorCode::NotFound, host};
            return transfer::makeSessionFactory(m_sshd.target(), m_sshd.connectOptions());
        };
    }

    static void previewAndWait(SyncDialog &dialog)
    {
        QSignalSpy ready(&dialog, &SyncDialog::previewReady);
        dialog.preview();
        QVERIFY2(ready.wait(60000), qPrintable(dialog.summaryText()));
    }

    // What the strip says of a pair whose watch is in sync.
    static QString inSyncText(const SyncService &service, const sync::SyncPair &pair)
    {
        const auto status = service.status(pair);
        return SyncStrip::tr("In sync (%1); watching for changes").arg(QLocale().toString(status.lastSynced.time(), QLocale::ShortFormat));
    }

    // Waits for the service's next successful watch sync until done() holds.
    static bool waitSynced(SyncService &service, const std::function<bool()> &done)
    {
        QSignalSpy synced(&service, &SyncService::synced);
        while (!done()) {
            if (!synced.wait(20000)) return done();
        }
        return true;
    }

private slots:
    void initTestCase()
    {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        const QString qm = qEnvironmentVariable("GANTRY_RENDER_QM");
        if (!qm.isEmpty() && m_translator.load(qm)) QCoreApplication::installTranslator(&m_translator);
        GANTRY_REQUIRE_SSHD(m_sshd.start());
    }

    void previewListsThePlanAndStartSendsIt()
    {
        QTemporaryDir config, local, remote;
        write(local.filePath(QStringLiteral("train.py")), QByteArray(1200, 't'), 1700000000);
        write(local.filePath(QStringLiteral("gone.txt")), "bye", 1700000000);
        write(local.filePath(QStringLiteral("data/c.bin")), QByteArray(5000, 'c'), 1700000000);
        write(local.filePath(QStringLiteral("run.log")), "ignored");
        write(local.filePath(QStringLiteral(".gitignore")), "*.log\n", 1700000000);
        SyncService service(config.path(), provider());
        SyncDialog dialog(&service, QStringLiteral("fixture"), QStringLiteral("/tmp"));
        dialog.setLocalDir(local.path());
        dialog.setRemoteDir(remote.path());
        previewAndWait(dialog);
        auto plan = rows(dialog);
        QCOMPARE(plan.keys(), (QStringList{QStringLiteral(".gitignore"), QStringLiteral("data/c.bin"), QStringLiteral("gone.txt"),
                                           QStringLiteral("train.py")}));
        QCOMPARE(plan.value(QStringLiteral("train.py")), qMakePair(int(SyncDialog::NewFile), transfer::formatBytes(1200)));
        QVERIFY(!QFile::exists(remote.filePath(QStringLiteral("train.py")))); // a preview sends nothing
        QVERIFY(service.pairs(QStringLiteral("fixture")).isEmpty());         // nor remembers

        QSignalSpy finished(&dialog, &SyncDialog::finished);
        dialog.start();
        QVERIFY(dialog.isRunning());
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.first().first().toBool(), qPrintable(dialog.summaryText()));
        QCOMPARE(read(remote.filePath(QStringLiteral("data/c.bin"))), QByteArray(5000, 'c'));
        QVERIFY(!QFile::exists(remote.filePath(QStringLiteral("run.log"))));
        QCOMPARE(dialog.progressBar()->value(), dialog.progressBar()->maximum());
        QCOMPARE(service.pairs(QStringLiteral("fixture")).size(), 1);

        // A second preview: the edit, the deletion (asked for), and nothing else.
        QFile::remove(local.filePath(QStringLiteral("gone.txt")));
        write(local.filePath(QStringLiteral("train.py")), QByteArray(2500, 'u'), 1700000100);
        dialog.setDeleteGone(true);
        previewAndWait(dialog);
        plan = rows(dialog);
        QCOMPARE(plan.size(), 2);
        QCOMPARE(plan.value(QStringLiteral("train.py")), qMakePair(int(SyncDialog::ChangedFile), transfer::formatBytes(2500)));
        QCOMPARE(plan.value(QStringLiteral("gone.txt")).first, int(SyncDialog::DeletedFile));
        QVERIFY(QFile::exists(remote.filePath(QStringLiteral("gone.txt"))));
    }

    // Cancel (the Close button while running) stops the sync; the pair is not remembered.
    void cancelStopsTheSync()
    {
        QTemporaryDir config, local, remote;
        for (int i = 0; i < 20; ++i) write(local.filePath(QStringLiteral("f%1.bin").arg(i)), QByteArray(1 << 20, char('a' + i)));
        SyncService service(config.path(), provider());
        SyncDialog dialog(&service, QStringLiteral("fixture"), remote.path());
        dialog.setLocalDir(local.path());
        dialog.setRemoteDir(remote.path());
        QSignalSpy finished(&dialog, &SyncDialog::finished);
        dialog.start();
        dialog.reject(); // while running: stops, does not close
        QVERIFY(finished.wait(60000));
        QVERIFY(!finished.first().first().toBool());
        QCOMPARE(dialog.summaryText(), SyncDialog::tr("Stopped. What was sent is complete on the machine; the rest is sent next time."));
        QVERIFY(service.pairs(QStringLiteral("fixture")).isEmpty());
        QVERIFY(dialog.startButton()->isEnabled());
    }

    void keepInSyncSendsALaterChangeAndResumesAfterRestart()
    {
        QTemporaryDir config, local, remote;
        write(local.filePath(QStringLiteral("a.py")), "print(1)\n");
        const sync::SyncPair pair{QStringLiteral("fixture"), QDir(local.path()).canonicalPath(), remote.path(), false, true};
        const QString sent = remote.filePath(QStringLiteral("b.py"));
        {
            SyncService service(config.path(), provider());
            SyncStrip strip(&service);
            strip.setHost(QStringLiteral("fixture"));
            QVERIFY(service.setKeepInSync(pair, true));
            QVERIFY(waitSynced(service, [&] { return QFile::exists(remote.filePath(QStringLiteral("a.py"))); }));
            QVERIFY(!strip.isHidden());
            QCOMPARE(strip.stateTexts().size(), 1);
            QCOMPARE(strip.stateTexts().first(), inSyncText(service, pair));
            write(local.filePath(QStringLiteral("b.py")), "print(2)\n");
            QVERIFY(waitSynced(service, [&] { return read(sent) == "print(2)\n"; }));
        }
        // "Restart": a new service over the same config dir finds the pair and watches it again.
        SyncService again(config.path(), provider());
        QVERIFY(again.resume());
        const auto pairs = again.pairs(QStringLiteral("fixture"));
        QCOMPARE(pairs.size(), 1);
        QVERIFY(pairs.first().keepInSync);
        QCOMPARE(pairs.first().localDir, pair.localDir);
        write(local.filePath(QStringLiteral("b.py")), "print(3)\n", QDateTime::currentSecsSinceEpoch() + 5);
        QVERIFY(waitSynced(again, [&] { return read(sent) == "print(3)\n"; }));
        QCOMPARE(again.status(pair).state, SyncService::State::Watching);
        // Turned off: remembered, no longer watched.
        QVERIFY(again.setKeepInSync(pair, false));
        QCOMPARE(again.status(pair).state, SyncService::State::Off);
        QCOMPARE(sync::SyncPairStore(config.path()).load()->size(), 1);
    }

    // The Files tab: the entry in its context menu, and a line per remembered pair of the machine
    // (shown before connecting too), with its "Keep in sync" state.
    void filesTabShowsTheEntryAndRememberedPairs()
    {
        QTemporaryDir config, local, remote;
        write(local.filePath(QStringLiteral("a.py")), "print(1)\n");
        const sync::SyncPair pair{QStringLiteral("fixture"), QDir(local.path()).canonicalPath(), remote.path(), false, false};
        QVERIFY(sync::SyncPairStore(config.path()).save({pair}));
        transfer::TransferQueue queue(config.path(), provider());
        // The application core's pairs (resumed by AppCore::open() in the app), over the fixture.
        SyncService pairs(config.path(), provider());
        QVERIFY(pairs.resume());
        transfer::RemoteFiles remoteFiles(provider());
        FilesTab tab(AppContext{config.path(), nullptr, nullptr}, &queue, &pairs, &remoteFiles);
        QCOMPARE(tab.syncService(), &pairs);
        SavedHost host;
        host.name = QStringLiteral("fixture");
        tab.setMachine(host, nullptr);
        QVERIFY(!tab.syncStrip()->isHidden());
        QCOMPARE(tab.syncStrip()->stateTexts(), QStringList{SyncStrip::tr("Not kept in sync")});
        std::unique_ptr<QMenu> menu(tab.contextMenu(&tab));
        QVERIFY(menu->actions().contains(tab.syncFolderAction()));
        QVERIFY(!tab.syncFolderAction()->isEnabled()); // until the machine is connected and listed
        tab.resize(1024, 560);
        tab.show();
        QCoreApplication::processEvents();
        QVERIFY(tab.grab().save(renderPath(QStringLiteral("files-tab-sync-1024.png"))));
        // The row's toggle starts the watch (and the row survives its own toggle).
        QSignalSpy synced(tab.syncService(), &SyncService::synced);
        auto *keep = tab.syncStrip()->findChild<QCheckBox *>();
        QVERIFY(keep);
        keep->click();
        QVERIFY(synced.wait(20000));
        QCOMPARE(read(remote.filePath(QStringLiteral("a.py"))), QByteArray("print(1)\n"));
        QCOMPARE(tab.syncStrip()->stateTexts().first(), inSyncText(*tab.syncService(), pair));
        QVERIFY(sync::SyncPairStore(config.path()).load()->first().keepInSync);
        host.name = QStringLiteral("other");
        tab.setMachine(host, nullptr);
        QVERIFY(tab.syncStrip()->isHidden());
    }

    void aPairForgottenByTheCliStaysForgotten()
    {
        // The GUI holds the list in memory; `gantry-cli sync --forget` edits the file meanwhile.
        QTemporaryDir config, first, second;
        SyncService service(config.path(), provider());
        const sync::SyncPair a{QStringLiteral("fixture"), QDir(first.path()).canonicalPath(), QStringLiteral("a")};
        const sync::SyncPair b{QStringLiteral("fixture"), QDir(second.path()).canonicalPath(), QStringLiteral("b")};
        QVERIFY(service.remember(a));
        QVERIFY(sync::SyncPairStore(config.path()).forget(a)); // what the CLI does
        QVERIFY(service.remember(b));
        const auto stored = sync::SyncPairStore(config.path()).load();
        QVERIFY(stored);
        QCOMPARE(stored->size(), 1);
        QVERIFY(stored->first().sameAs(b));
        QCOMPARE(service.pairs(QStringLiteral("fixture")).size(), 1);
    }

    void rendersAtCommonSizes()
    {
        QTemporaryDir config, local, remote;
        for (int i = 0; i < 30; ++i) {
            write(local.filePath(QStringLiteral("src/models/layer_%1.py").arg(i, 2, 10, QLatin1Char('0'))), QByteArray(800 + i * 311, 'x'));
        }
        SyncService service(config.path(), provider());
        SyncDialog dialog(&service, QStringLiteral("fixture"), remote.path());
        dialog.setLocalDir(local.path());
        dialog.setRemoteDir(remote.path());
        previewAndWait(dialog);
        QCOMPARE(dialog.previewList()->topLevelItemCount(), 30);
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
            // A dialog over the main window: what it gets at that screen size.
            dialog.resize(size.width() * 3 / 4, size.height() * 3 / 4);
            dialog.show();
            QCoreApplication::processEvents();
            const QTreeWidget *list = dialog.previewList();
            const QFontMetrics fm = list->fontMetrics();
            const QTreeWidgetItem *item = list->topLevelItem(0);
            for (int column = 0; column < 3; ++column) {
                QVERIFY2(list->header()->sectionSize(column) >= fm.horizontalAdvance(item->text(column)),
                         qPrintable(QStringLiteral("column %1 clips \"%2\"").arg(column).arg(item->text(column))));
            }
            QVERIFY(dialog.grab().save(renderPath(QStringLiteral("sync-dialog-%1x%2.png").arg(size.width()).arg(size.height()))));
        }
    }
};

QTEST_MAIN(TestSyncGui)
#include "test_sync_gui.moc"
