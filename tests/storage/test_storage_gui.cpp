// SPDX-License-Identifier: Apache-2.0
// The Storage panel as a user meets it, against the S3 emulator (every signature checked by
// botocore): Add bucket tests the keys before saving, the browser walks prefixes, a download lands
// whole; the models under QAbstractItemModelTester. Renders go to the build tree's renders/ (set
// GANTRY_RENDER_QM to a .qm file to render in that language).

#include "s3emulatorprocess.h"
#include "sshdfixture.h"

#include "core/hosts/hoststore.h"
#include "core/storage/buckets.h"
#include "core/transfer/sessionfactory.h"
#include "core/util/secretstore.h"
#include "ui/storage/addbucketdialog.h"
#include "ui/storage/bucketbrowser.h"
#include "ui/storage/buckettablemodel.h"
#include "ui/storage/copyoperations.h"
#include "ui/storage/objecttablemodel.h"
#include "ui/storage/storagepanel.h"
#include "ui/transfer/transferqueuemodel.h"
#include "ui/transfer/transferspanel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLineEdit>
#include <QMimeData>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTableView>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QTranslator>
#include <QTreeView>
#include <QtTest>

using namespace gantry;
using namespace gantry::ui;
using gantry::test::S3EmulatorProcess;

namespace {

QString renderPath(const QString &name)
{
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/renders");
    QDir().mkpath(dir);
    return dir + QLatin1Char('/') + name;
}

storage::BucketConfig bucketConfig(const S3EmulatorProcess &s3, const QString &name = QStringLiteral("data"))
{
    return storage::BucketConfig{name, s3.endpoint(), QStringLiteral("data"), QStringLiteral("us-east-1")};
}

QStringList names(const QAbstractItemModel &model)
{
    QStringList out;
    for (int row = 0; row < model.rowCount(); ++row)
        out << model.index(row, ObjectTableModel::NameColumn).data().toString();
    return out;
}

void selectName(BucketBrowser &browser, const QString &name)
{
    QAbstractItemModel *model = browser.view()->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 0).data().toString() == name) {
            browser.view()->selectionModel()->select(model->index(row, 0),
                                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            return;
        }
    }
    QFAIL(qPrintable(QStringLiteral("no row named ") + name));
}

storage::ObjectInfo object(const QString &key, qint64 size, int day)
{
    storage::ObjectInfo info;
    info.key = key;
    info.size = size;
    info.lastModified = QDateTime(QDate(2026, 12, day), QTime(10, 0), Qt::UTC);
    return info;
}

// A panel over its own config folder and an in-memory keychain.
struct Setup
{
    QTemporaryDir config;
    std::unique_ptr<SecretStore> secrets = makeMemorySecretStore();
    storage::Buckets buckets{config.path(), secrets.get()};
    StoragePanel panel{&buckets};

    bool saved() const { return QFile::exists(config.filePath(QStringLiteral("storage.json"))); }
};

} // namespace

class TestStorageGui : public QObject
{
    Q_OBJECT

    S3EmulatorProcess m_s3;
    QString m_why;
    QTranslator m_translator;

    // The first modal message box that opens answers `button` (askDestructive's question).
    void answerNextQuestion(QMessageBox::StandardButton button, QMessageBox::StandardButton *defaultSeen)
    {
        QTimer::singleShot(0, this, [button, defaultSeen] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            *defaultSeen = box->standardButton(box->defaultButton());
            box->button(button)->click();
        });
    }

    // The browser inside runs/ once its four entries are listed.
    static void openRuns(BucketBrowser *browser)
    {
        browser->openPrefix(QStringLiteral("runs/"));
        QTRY_COMPARE_WITH_TIMEOUT(browser->model()->rowCount(), 4, 20000);
    }

    // A panel with the emulator's bucket added through the dialog, as a user adds it.
    void addThroughDialog(StoragePanel &panel)
    {
        QSignalSpy loaded(&panel, &StoragePanel::bucketsLoaded);
        AddBucketDialog *dialog = panel.openAddBucket();
        dialog->setFields(bucketConfig(m_s3), QString::fromLatin1(S3EmulatorProcess::kAccessKey), QString::fromLatin1(S3EmulatorProcess::kSecretKey));
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && panel.bucketModel()->rowCount() == 1, 20000);
    }

private slots:
    void initTestCase()
    {
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        const QString qm = qEnvironmentVariable("GANTRY_RENDER_QM");
        if (!qm.isEmpty() && m_translator.load(qm))
            QCoreApplication::installTranslator(&m_translator);
        for (const char *name : {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"})
            qunsetenv(name);
        m_why = m_s3.start({QStringLiteral("--bucket"), QStringLiteral("data"), QStringLiteral("--object"), QStringLiteral("data/top.txt=top\n"),
                            QStringLiteral("--object"), QStringLiteral("data/runs/shard-10.bin=ten"), QStringLiteral("--object"),
                            QStringLiteral("data/runs/shard-2.bin=two"), QStringLiteral("--object"),
                            QStringLiteral("data/runs/notes/readme.md=# notes\nkept whole\n"), QStringLiteral("--object"),
                            QStringLiteral("data/runs/ckpt/step-1.pt=weights one"), QStringLiteral("--object"),
                            QStringLiteral("data/runs/ckpt/step-2.pt=weights two")});
    }

    // Folders first, names as people count them, sizes by their bytes; the tester checks the rest.
    void objectModelSortsAsPeopleCount()
    {
        ObjectTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ObjectSortProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setListing(QStringLiteral("runs/"), {QStringLiteral("runs/ckpt/")},
                         {object(QStringLiteral("runs/"), 0, 1), object(QStringLiteral("runs/shard-10.bin"), 5000, 2),
                          object(QStringLiteral("runs/shard-2.bin"), 900, 3), object(QStringLiteral("runs/Alpha.txt"), 1 << 20, 4)});
        QCOMPARE(model.rowCount(), 4); // the prefix's own marker is not an entry
        proxy.sort(ObjectTableModel::NameColumn, Qt::AscendingOrder);
        QCOMPARE(names(proxy), (QStringList{QStringLiteral("ckpt/"), QStringLiteral("Alpha.txt"), QStringLiteral("shard-2.bin"),
                                            QStringLiteral("shard-10.bin")}));
        proxy.sort(ObjectTableModel::SizeColumn, Qt::DescendingOrder);
        QCOMPARE(names(proxy).first(), QStringLiteral("ckpt/"));
        QCOMPARE(names(proxy).at(1), QStringLiteral("Alpha.txt"));
        const QModelIndex size = model.index(1, ObjectTableModel::SizeColumn);
        QCOMPARE(size.data(ObjectTableModel::SortRole).toLongLong(), 5000);
        QVERIFY(!size.data().toString().isEmpty());
        QCOMPARE(model.index(0, 0).data(ObjectTableModel::KeyRole).toString(), QStringLiteral("runs/ckpt/"));
        QVERIFY(model.index(0, 0).data(ObjectTableModel::IsFolderRole).toBool());
        model.clear();
        QCOMPARE(proxy.rowCount(), 0);
    }

    void bucketModelShowsWhereKeysComeFrom()
    {
        BucketTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setBuckets({storage::StoredBucket{bucketConfig(m_s3, QStringLiteral("a")), storage::KeySource::Keychain},
                          storage::StoredBucket{bucketConfig(m_s3, QStringLiteral("b")), storage::KeySource::Environment}});
        QCOMPARE(model.rowOf(QStringLiteral("b")), 1);
        QCOMPARE(model.index(1, BucketTableModel::KeysColumn).data().toString(), QStringLiteral("Environment"));
        QVERIFY(!model.index(1, BucketTableModel::KeysColumn).data(Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(model.index(0, BucketTableModel::EndpointColumn).data().toString(), m_s3.endpoint());
    }

    // A wrong key: one line that says what to do, the dialog stays open, and nothing is saved.
    void wrongKeySavesNothing()
    {
        GANTRY_REQUIRE_S3(m_why);
        Setup setup;
        StoragePanel &panel = setup.panel;
        AddBucketDialog *dialog = panel.openAddBucket();
        dialog->setFields(bucketConfig(m_s3), QString::fromLatin1(S3EmulatorProcess::kAccessKey), QStringLiteral("not-the-secret"));
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QVERIFY(dialog->isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isBusy(), 20000);
        const QString error = dialog->errorText();
        QVERIFY2(!error.isEmpty() && !error.contains(QLatin1Char('\n')), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("secret"), Qt::CaseInsensitive), qPrintable(error));
        QVERIFY(dialog->isVisible());
        QVERIFY(!setup.saved());
        QVERIFY(!setup.secrets->read(QStringLiteral("storage/data/keys")).value().has_value());
        QCOMPARE(setup.buckets.list()->size(), 0);
    }

    // Plain http to another computer is refused before any request leaves.
    void plainHttpElsewhereIsRefusedAtOnce()
    {
        Setup setup;
        StoragePanel &panel = setup.panel;
        AddBucketDialog *dialog = panel.openAddBucket();
        storage::BucketConfig remote = bucketConfig(m_s3);
        remote.endpoint = QStringLiteral("http://s3.example.com");
        dialog->setFields(remote, QStringLiteral("AK"), QStringLiteral("SK"));
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QVERIFY(!dialog->isBusy());
        QVERIFY2(dialog->errorText().contains(QLatin1String("https")), qPrintable(dialog->errorText()));
        QVERIFY(!setup.saved());
    }

    // Add, open a prefix, download an object and a folder: the bytes arrive whole and no partial
    // file is left; then Remove asks (Cancel by default) and forgets only when told to.
    void addBrowseDownloadRemove()
    {
        GANTRY_REQUIRE_S3(m_why);
        QTemporaryDir downloads;
        Setup setup;
        StoragePanel &panel = setup.panel;
        panel.resize(1024, 700);
        panel.show();
        addThroughDialog(panel);
        QCOMPARE(panel.bucketModel()->index(0, BucketTableModel::KeysColumn).data().toString(), QStringLiteral("Keychain"));
        BucketBrowser *browser = panel.browser();
        QTRY_COMPARE_WITH_TIMEOUT(names(*browser->view()->model()), (QStringList{QStringLiteral("runs/"), QStringLiteral("top.txt")}), 20000);

        browser->openPrefix(QStringLiteral("runs/"));
        QTRY_COMPARE_WITH_TIMEOUT(names(*browser->view()->model()),
                                  (QStringList{QStringLiteral("ckpt/"), QStringLiteral("notes/"), QStringLiteral("shard-2.bin"),
                                               QStringLiteral("shard-10.bin")}),
                                  20000);
        selectName(*browser, QStringLiteral("shard-10.bin"));
        browser->downloadSelectedTo(downloads.path());
        QTRY_COMPARE_WITH_TIMEOUT(panel.copies()->runningCount(), 0, 20000);
        QFile ten(downloads.filePath(QStringLiteral("shard-10.bin")));
        QVERIFY(ten.open(QIODevice::ReadOnly));
        QCOMPARE(ten.readAll(), QByteArray("ten"));

        selectName(*browser, QStringLiteral("ckpt/"));
        browser->downloadSelectedTo(downloads.path());
        QTRY_COMPARE_WITH_TIMEOUT(panel.copies()->runningCount(), 0, 20000);
        QFile step(downloads.filePath(QStringLiteral("ckpt/step-2.pt")));
        QVERIFY(step.open(QIODevice::ReadOnly));
        QCOMPARE(step.readAll(), QByteArray("weights two"));
        QVERIFY2(panel.copies()->rowTexts().last().contains(QLatin1String("2 file")), qPrintable(panel.copies()->rowTexts().join(QLatin1Char(10))));
        QDirIterator it(downloads.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            QVERIFY2(!it.next().endsWith(QLatin1String(".gantry-part")), "a partial file was left");

        QMessageBox::StandardButton defaultSeen = QMessageBox::NoButton;
        panel.bucketView()->selectRow(0);
        answerNextQuestion(QMessageBox::Cancel, &defaultSeen);
        panel.removeSelected();
        QCOMPARE(defaultSeen, QMessageBox::Cancel);
        QCOMPARE(setup.buckets.list()->size(), 1);
        QSignalSpy loaded(&panel, &StoragePanel::bucketsLoaded);
        answerNextQuestion(QMessageBox::Yes, &defaultSeen);
        panel.removeSelected();
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 20000);
        QCOMPARE(panel.bucketModel()->rowCount(), 0);
        QVERIFY(!setup.secrets->read(QStringLiteral("storage/data/keys")).value().has_value());
    }

    // An upload lands under the open prefix and shows in the listing when it is done.
    void uploadShowsInTheListing()
    {
        GANTRY_REQUIRE_S3(m_why);
        QTemporaryDir local;
        Setup setup;
        StoragePanel &panel = setup.panel;
        addThroughDialog(panel);
        BucketBrowser *browser = panel.browser();
        QSignalSpy listed(browser, &BucketBrowser::listed);
        browser->openPrefix(QStringLiteral("runs/notes/"));
        QTRY_VERIFY_WITH_TIMEOUT(browser->model()->rowCount() == 1, 20000);
        const QString path = local.filePath(QStringLiteral("plan 3.txt"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("the plan\n");
        file.close();
        listed.clear();
        browser->uploadFiles({path});
        QTRY_VERIFY_WITH_TIMEOUT(browser->model()->rowCount() == 2, 20000);
        QVERIFY(names(*browser->view()->model()).contains(QStringLiteral("plan 3.txt")));
        QCOMPARE(setup.buckets.client(QStringLiteral("data"))->head(QStringLiteral("runs/notes/plan 3.txt"))->size, 9);
    }

    // Objects dragged onto a machine: Copy to machine… opens for that machine, and the machine (a
    // real sshd's shell) fetches them itself with presigned URLs; the folder keeps its name.
    void dropOnMachineCopiesThere()
    {
        GANTRY_REQUIRE_S3(m_why);
        test::SshdFixture sshd;
        GANTRY_REQUIRE_SSHD(sshd.start());
        QTemporaryDir remote;
        Setup setup;
        StoragePanel &panel = setup.panel;
        HostStore hosts(setup.config.path());
        for (const QString &name : {QStringLiteral("other"), QStringLiteral("gpu-box")}) {
            SavedHost host;
            host.name = name;
            host.target = sshd.target();
            QVERIFY(hosts.add(host).ok());
        }
        QString askedFor;
        panel.setMachines(&hosts, [&sshd, &askedFor](const QString &host) -> Result<transfer::SessionFactory> {
            askedFor = host;
            return transfer::makeSessionFactory(sshd.target(), sshd.connectOptions());
        });
        addThroughDialog(panel);
        BucketBrowser *browser = panel.browser();
        openRuns(browser);
        selectName(*browser, QStringLiteral("ckpt/"));
        const QModelIndexList rows = browser->view()->selectionModel()->selectedIndexes();
        std::unique_ptr<QMimeData> dragged(browser->view()->model()->mimeData(rows));
        QCOMPARE(dragged->urls().size(), 1);
        QCOMPARE(dragged->urls().first().toString(), QStringLiteral("s3://data/runs/ckpt/"));
        browser->view()->clearSelection(); // the drop, not the selection, says what to copy
        const qsizetype before = m_s3.log().size();
        QDialog *dialog = browser->copyDroppedToMachine(QStringLiteral("gpu-box"), dragged->urls());
        QVERIFY(dialog);
        QCOMPARE(dialog->findChild<QComboBox *>()->currentText(), QStringLiteral("gpu-box"));
        dialog->findChild<QLineEdit *>()->setText(remote.path());
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_COMPARE_WITH_TIMEOUT(panel.copies()->runningCount(), 0, 20000);
        QCOMPARE(askedFor, QStringLiteral("gpu-box"));
        QFile step(remote.filePath(QStringLiteral("ckpt/step-1.pt")));
        QVERIFY2(step.open(QIODevice::ReadOnly), qPrintable(panel.copies()->rowTexts().join(QLatin1Char(10))));
        QCOMPARE(step.readAll(), QByteArray("weights one"));
        int presignedGets = 0;
        for (const QJsonObject &entry : m_s3.log().mid(before))
            presignedGets += entry.value(QStringLiteral("method")).toString() == QLatin1String("GET")
                && entry.value(QStringLiteral("auth")).toString() == QLatin1String("presigned");
        QCOMPARE(presignedGets, 2);
    }

    // Files of one machine dropped on another (the Files tab's drag onto the Machines list): the
    // panel asks for the folder on the target and copies between the machines. This sshd honours
    // no ~/.ssh/authorized_keys, so the direct path is refused and the copy goes through this
    // computer, saying so; the files arrive whole, and the copy's key line is gone again.
    void machineFilesDroppedOnAnotherMachine()
    {
        QTemporaryDir remoteHome;
        test::SshdFixture sshd;
        test::SshdFixture::Options o;
        // Its commands run in a home of the test's own, so the copy's authorized_keys line never
        // touches this machine's real one.
        o.home = remoteHome.path();
        GANTRY_REQUIRE_SSHD(sshd.start(o));
        QVERIFY(QDir().mkpath(remoteHome.filePath(QStringLiteral("run/sub"))));
        QFile weights(remoteHome.filePath(QStringLiteral("run/sub/weights.bin")));
        QVERIFY(weights.open(QIODevice::WriteOnly) && weights.write(QByteArray(300 * 1024, 'w')) > 0);
        weights.close();
        Setup setup;
        StoragePanel &panel = setup.panel;
        QStringList asked;
        panel.setMachines(nullptr, [&sshd, &asked](const QString &host) -> Result<transfer::SessionFactory> {
            asked << host;
            return transfer::makeSessionFactory(sshd.target(), sshd.connectOptions());
        });
        QVERIFY(!panel.copyBetweenMachines(QStringLiteral("box"), QStringLiteral("box"), {QStringLiteral("/x")}));
        QDialog *dialog = panel.copyBetweenMachines(QStringLiteral("gpu-b"), QStringLiteral("gpu-a"),
                                                    {remoteHome.filePath(QStringLiteral("run"))});
        QVERIFY(dialog);
        QVERIFY(dialog->findChild<QLabel *>()->text().contains(QStringLiteral("from gpu-a to gpu-b")));
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QVERIFY(dialog->grab().save(renderPath(QStringLiteral("storage-machine-copy.png"))));
        for (const QLabel *label : dialog->findChildren<QLabel *>()) { // nothing cut off at its size
            const bool whole = label->wordWrap() ? label->heightForWidth(label->width()) <= label->height()
                                                 : label->sizeHint().width() <= label->width();
            QVERIFY2(whole, qPrintable(label->text()));
        }
        dialog->findChild<QLineEdit *>(QStringLiteral("targetFolder"))->setText(remoteHome.filePath(QStringLiteral("dest")));
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_COMPARE_WITH_TIMEOUT(panel.copies()->runningCount(), 0, 60000);
        const QString row = panel.copies()->rowTexts().join(QLatin1Char('\n'));
        QVERIFY2(row.contains(QStringLiteral("copied through this computer")), qPrintable(row));
        QCOMPARE(asked, (QStringList{QStringLiteral("gpu-a"), QStringLiteral("gpu-b")}));
        QFile arrived(remoteHome.filePath(QStringLiteral("dest/run/sub/weights.bin")));
        QVERIFY2(arrived.open(QIODevice::ReadOnly), qPrintable(row));
        QCOMPARE(arrived.readAll(), QByteArray(300 * 1024, 'w'));
        QFile keys(remoteHome.filePath(QStringLiteral(".ssh/authorized_keys")));
        QVERIFY(!keys.open(QIODevice::ReadOnly) || !keys.readAll().contains("gantry-copy-"));
    }

    // A copy started in the Storage panel is a row of the Transfers queue too: "Copy", its bytes,
    // "Done · verified"; Remove from list takes it off both. A running one counts as pending for
    // its machine, and Cancel in the queue stops it.
    void copiesShowInTheTransfersQueue()
    {
        GANTRY_REQUIRE_S3(m_why);
        QTemporaryDir downloads;
        QTemporaryDir config;
        std::unique_ptr<SecretStore> secrets = makeMemorySecretStore();
        storage::Buckets buckets{config.path(), secrets.get()};
        storage::CopyJobs copies;
        StoragePanel panel(&buckets, &copies);
        transfer::TransferQueue queue(config.filePath(QStringLiteral("transfers")),
                                      [](const QString &) -> Result<transfer::SessionFactory> { return Error{ErrorCode::Usage, QStringLiteral("none")}; });
        TransfersPanel transfers(&queue, &copies);
        QAbstractItemModelTester tester(transfers.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // A queue item first: the copies' rows come after the queue's, whatever either does.
        transfer::TransferRequest upload;
        upload.host = QStringLiteral("nowhere");
        upload.localPath = downloads.path();
        upload.remotePath = QStringLiteral("/tmp/x");
        queue.enqueue(upload);
        panel.show();
        addThroughDialog(panel);
        openRuns(panel.browser());
        selectName(*panel.browser(), QStringLiteral("ckpt/"));
        panel.browser()->downloadSelectedTo(downloads.path());
        QCOMPARE(transfers.model()->rowCount(), 2);
        queue.enqueue(upload); // while the copy runs: its row moves down one
        QCOMPARE(transfers.model()->rowCount(), 3);
        QTRY_COMPARE_WITH_TIMEOUT(copies.runningCount(), 0, 20000);
        const TransferQueueModel *model = transfers.model();
        const int copyRow = 2;
        QCOMPARE(model->idAt(copyRow), TransferQueueModel::kCopyRowBit | copies.jobs().first().id);
        auto cell = [model, copyRow](int column) { return model->index(copyRow, column).data().toString(); };
        QCOMPARE(cell(TransferQueueModel::DirectionColumn), TransferQueueModel::tr("Copy"));
        QCOMPARE(cell(TransferQueueModel::ProgressColumn), QStringLiteral("100%"));
        QVERIFY2(cell(TransferQueueModel::StateColumn).contains(TransferQueueModel::tr("verified")), qPrintable(cell(TransferQueueModel::StateColumn)));
        QVERIFY2(cell(TransferQueueModel::SizeColumn).contains(QStringLiteral(" of ")), qPrintable(cell(TransferQueueModel::SizeColumn)));
        QVERIFY(model->index(copyRow, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("2 file")));

        // One that runs until it is cancelled, on a machine.
        copies.start(QStringLiteral("gpu-a:/data → s3://data/"), {QStringLiteral("gpu-a")}, [](const CancelToken &token, storage::CopyProgress &) -> Result<QString> {
            while (!token.isCancelled())
                QThread::msleep(5);
            return Error{ErrorCode::Cancelled, QStringLiteral("Stopped.")};
        });
        QVERIFY(transfers.hasPendingTransfers(QStringLiteral("gpu-a")));
        QVERIFY(!transfers.hasPendingTransfers(QStringLiteral("gpu-b")));
        transfers.resize(1024, 700);
        transfers.show();
        QCoreApplication::processEvents();
        QVERIFY(transfers.grab().save(renderPath(QStringLiteral("transfers-with-copies-1024x700.png"))));
        transfers.view()->selectionModel()->select(transfers.proxy()->mapFromSource(model->index(3, 0)),
                                                    QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        transfers.cancelSelected();
        QTRY_COMPARE_WITH_TIMEOUT(copies.runningCount(), 0, 5000);
        QVERIFY(!transfers.hasPendingTransfers(QStringLiteral("gpu-a")));
        QCOMPARE(model->index(3, TransferQueueModel::StateColumn).data().toString(), storage::copyJobStateName(storage::CopyJobState::Cancelled));

        QTRY_VERIFY_WITH_TIMEOUT(!queue.hasPendingTransfers(), 20000); // the uploads to "nowhere" failed
        transfers.view()->selectAll();
        transfers.removeSelected();
        QCOMPARE(model->rowCount(), 0);
        QVERIFY(panel.copies()->rowTexts().isEmpty());
    }

    void render()
    {
        GANTRY_REQUIRE_S3(m_why);
        QTemporaryDir downloads;
        Setup setup;
        StoragePanel &panel = setup.panel;
        panel.addSection(tr("Volumes"), new QWidget);
        panel.show();
        addThroughDialog(panel);
        BucketBrowser *browser = panel.browser();
        openRuns(browser);
        selectName(*browser, QStringLiteral("shard-2.bin"));
        browser->downloadSelectedTo(downloads.path());
        QTRY_COMPARE_WITH_TIMEOUT(panel.copies()->runningCount(), 0, 20000);
        const QString language = qEnvironmentVariable("GANTRY_RENDER_QM").isEmpty() ? QStringLiteral("en") : QStringLiteral("tr");
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            panel.resize(size);
            QCoreApplication::processEvents();
            QVERIFY(panel.grab().save(renderPath(QStringLiteral("storage-%1-%2x%3.png").arg(language).arg(size.width()).arg(size.height()))));
        }
        AddBucketDialog *dialog = panel.openAddBucket();
        dialog->setFields(bucketConfig(m_s3, QStringLiteral("r2")), QStringLiteral("AK"), QStringLiteral("wrong"));
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isBusy(), 20000);
        dialog->adjustSize();
        QVERIFY(dialog->grab().save(renderPath(QStringLiteral("storage-add-%1.png").arg(language))));
    }
};

QTEST_MAIN(TestStorageGui)
#include "test_storage_gui.moc"
