#include "ui/common/machinepaths.h"
#include "ui/shell/machinetablemodel.h"

#include <QAbstractItemModelTester>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

using namespace gantry;
using namespace gantry::ui;

class TestShellModels : public QObject
{
    Q_OBJECT

private:
    static SavedHost host(const QString &name, const QString &address, double price, const QString &provider = {})
    {
        SavedHost h;
        h.name = name;
        h.target.host = address;
        h.hourlyPriceUsd = price;
        h.provider = provider;
        return h;
    }

private slots:
    void modelFollowsStoreAndStates()
    {
        QTemporaryDir dir;
        HostStore store(dir.path());
        MachineTableModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QVERIFY(store.add(host(QStringLiteral("b-box"), QStringLiteral("10.0.0.2"), 2.49)).ok());
        QVERIFY(store.add(host(QStringLiteral("a-box"), QStringLiteral("10.0.0.1"), 0.5, QStringLiteral("lambda"))).ok());
        QCOMPARE(reset.count(), 2);
        QCOMPARE(model.rowCount(), 2);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setState(QStringLiteral("a-box"), ssh::ConnectionState::Connected, {});
        QCOMPARE(changed.count(), 1);
        const int row = model.rowOf(QStringLiteral("a-box"));
        QCOMPARE(changed.first().at(0).toModelIndex(), model.index(row, MachineTableModel::StateColumn));
        QCOMPARE(model.index(row, MachineTableModel::StateColumn).data().toString(), QStringLiteral("connected"));
        QCOMPARE(model.index(row, MachineTableModel::PriceColumn).data(MachineTableModel::SortRole).toDouble(), 0.5);
    }

    void proxySortsByRawValueAndFilters()
    {
        QTemporaryDir dir;
        HostStore store(dir.path());
        QVERIFY(store.add(host(QStringLiteral("cheap"), QStringLiteral("h1"), 9.0)).ok());
        QVERIFY(store.add(host(QStringLiteral("dear"), QStringLiteral("h2"), 10.0, QStringLiteral("runpod"))).ok());
        QVERIFY(store.add(host(QStringLiteral("mid"), QStringLiteral("h3"), 0.75)).ok());
        MachineTableModel model(&store);
        MachineFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(MachineTableModel::PriceColumn, Qt::AscendingOrder);
        // "$10.00/h" sorts after "$9.00/h" only when the raw number is used.
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("mid"));
        QCOMPARE(proxy.index(2, 0).data().toString(), QStringLiteral("dear"));
        proxy.setText(QStringLiteral("runpod"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setText({});
        proxy.setConnectedOnly(true);
        QCOMPARE(proxy.rowCount(), 0);
        model.setState(QStringLiteral("cheap"), ssh::ConnectionState::Connected, {});
        proxy.invalidate();
        QCOMPARE(proxy.rowCount(), 1);
    }

    void dropOfLocalFilesIsReported()
    {
        QTemporaryDir dir;
        HostStore store(dir.path());
        QVERIFY(store.add(host(QStringLiteral("box"), QStringLiteral("h"), 0)).ok());
        MachineTableModel model(&store);
        QSignalSpy dropped(&model, &MachineTableModel::filesDropped);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(dir.path()), QUrl(QStringLiteral("https://example.com/x"))});
        QVERIFY(!model.canDropMimeData(&mime, Qt::CopyAction, -1, -1, QModelIndex()));
        QVERIFY(model.dropMimeData(&mime, Qt::CopyAction, -1, -1, model.index(0, 0)));
        QCOMPARE(dropped.count(), 1);
        QCOMPARE(dropped.first().at(0).toString(), QStringLiteral("box"));
        QCOMPARE(dropped.first().at(1).value<QList<QUrl>>().size(), 1);
    }

    // Objects dragged from the Storage panel's browser: a copy to that machine, not a file upload.
    void dropBucketObjectsOnMachine()
    {
        QTemporaryDir dir;
        HostStore store(dir.path());
        QVERIFY(store.add(host(QStringLiteral("box"), QStringLiteral("h"), 0)).ok());
        MachineTableModel model(&store);
        QSignalSpy files(&model, &MachineTableModel::filesDropped);
        QSignalSpy objects(&model, &MachineTableModel::objectsDropped);
        QMimeData mime;
        mime.setUrls({QUrl(QStringLiteral("s3://data/runs/ckpt/")), QUrl(QStringLiteral("s3://data/top.txt"))});
        QVERIFY(model.dropMimeData(&mime, Qt::CopyAction, -1, -1, model.index(0, 0)));
        QCOMPARE(files.count(), 0);
        QCOMPARE(objects.count(), 1);
        QCOMPARE(objects.first().at(0).toString(), QStringLiteral("box"));
        QCOMPARE(objects.first().at(1).value<QList<QUrl>>().size(), 2);
    }
    // Files dragged from another machine's Files tab: a copy between the machines, never an upload
    // of the local copies the drag could make; dropped on their own machine, nothing.
    void dropMachineFilesOnAnotherMachine()
    {
        QTemporaryDir dir;
        HostStore store(dir.path());
        QVERIFY(store.add(host(QStringLiteral("box"), QStringLiteral("h"), 0)).ok());
        QVERIFY(store.add(host(QStringLiteral("other"), QStringLiteral("h2"), 0)).ok());
        MachineTableModel model(&store);
        QSignalSpy files(&model, &MachineTableModel::filesDropped);
        QSignalSpy machines(&model, &MachineTableModel::machineFilesDropped);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(dir.path())});
        mime.setData(kMachinePathsMime, encodeMachinePaths({QStringLiteral("other"), {QStringLiteral("/data/run 1"), QStringLiteral("/x")}}));
        const QModelIndex box = model.index(0, 0).data().toString() == QLatin1String("box") ? model.index(0, 0) : model.index(1, 0);
        const QModelIndex other = box.row() == 0 ? model.index(1, 0) : model.index(0, 0);
        QVERIFY(model.canDropMimeData(&mime, Qt::CopyAction, -1, -1, box));
        QVERIFY(model.dropMimeData(&mime, Qt::CopyAction, -1, -1, box));
        QCOMPARE(files.count(), 0);
        QCOMPARE(machines.count(), 1);
        QCOMPARE(machines.first().at(0).toString(), QStringLiteral("box"));
        QCOMPARE(machines.first().at(1).toString(), QStringLiteral("other"));
        QCOMPARE(machines.first().at(2).toStringList(), (QStringList{QStringLiteral("/data/run 1"), QStringLiteral("/x")}));
        QVERIFY(!model.dropMimeData(&mime, Qt::CopyAction, -1, -1, other));
        QCOMPARE(machines.count(), 1);
        QCOMPARE(files.count(), 0);
        QVERIFY(!decodeMachinePaths("{\"host\":\"a\",\"paths\":[]}"));
        QVERIFY(!decodeMachinePaths("not json"));
    }
};

QTEST_MAIN(TestShellModels)
#include "test_shell_models.moc"
