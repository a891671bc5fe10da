// Offscreen: the price table (model, proxy, panel with cache), the launch dialog against the Lambda
// emulator, the instances panel's confirmations and the cost panel.
#include "restconfigfor.h"
#include "lambdaemulator.h"

#include "ui/cost/costpanel.h"
#include "core/hosts/hoststore.h"
#include "core/cost/ledger.h"
#include "ui/cost/ledgermodel.h"
#include "ui/providers/instancesmodel.h"
#include "ui/providers/instancespanel.h"
#include "core/providers/lambdaprovider.h"
#include "ui/providers/launchdialog.h"
#include "core/providers/pricecache.h"
#include "ui/providers/pricefilterproxy.h"
#include "core/providers/priceboard.h"
#include "ui/providers/pricespanel.h"
#include "ui/providers/pricetablemodel.h"
#include "core/providers/sandboxprovider.h"
#include "core/workspace/workspace.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QSpinBox>
#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::ui;

namespace {

providers::InstanceType type(const QString &provider, const QString &name, const QString &gpu, int count, int vram, double price,
                             bool available)
{
    providers::InstanceType t;
    t.provider = provider;
    t.name = name;
    t.gpuModel = gpu;
    t.gpuCount = count;
    t.vramGbPerGpu = vram;
    t.pricePerHour = price;
    if (available)
        t.regionsWithCapacity = {providers::Region{QStringLiteral("us-east-1"), QString()}};
    return t;
}

std::unique_ptr<providers::LambdaProvider> lambdaFor(const test::LambdaEmulator &emulator)
{
    return std::make_unique<providers::LambdaProvider>(test::restConfigFor(emulator));
}

// The Launch dialog's world: the Lambda emulator as the only account, a ledger and saved hosts.
struct LambdaLaunch
{
    QTemporaryDir dir;
    test::LambdaEmulator emulator;
    providers::ProviderHub hub;
    cost::Ledger ledger{cost::Ledger::defaultPath(dir.path())};
    HostStore hosts{dir.path()};
    workspace::Workspace workspace{dir.path(), &hub, &ledger, &hosts};

    bool open()
    {
        if (!emulator.listen())
            return false;
        hub.addProvider(lambdaFor(emulator));
        return bool(ledger.open());
    }
};

} // namespace

class TestUiProviders final : public QObject
{
    Q_OBJECT

private slots:
    void priceModelAndProxy()
    {
        PriceTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        PriceFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTypes(QStringLiteral("lambda"), {type(QStringLiteral("lambda"), QStringLiteral("gpu_1x_a10"), QStringLiteral("A10"), 1, 24, 0.75, true),
                                                  type(QStringLiteral("lambda"), QStringLiteral("gpu_8x_a100"), QStringLiteral("A100"), 8, 40, 10.32, false)});
        model.setTypes(QStringLiteral("runpod"), {type(QStringLiteral("runpod"), QStringLiteral("NVIDIA H100"), QStringLiteral("H100 SXM"), 1, 80, 2.99, true)});
        QCOMPARE(model.rowCount(), 3);
        model.setTypes(QStringLiteral("lambda"), {type(QStringLiteral("lambda"), QStringLiteral("gpu_1x_a10"), QStringLiteral("A10"), 1, 24, 0.75, true),
                                                  type(QStringLiteral("lambda"), QStringLiteral("gpu_8x_a100"), QStringLiteral("A100"), 8, 40, 10.32, false)});
        QCOMPARE(model.rowCount(), 3); // replaced, not appended (the refreshed provider's rows move last)
        QCOMPARE(model.index(1, PriceTableModel::PriceColumn).data().toString(), QStringLiteral("$0.75"));
        QCOMPARE(model.index(2, PriceTableModel::PricePerGpuColumn).data(PriceTableModel::RawValueRole).toDouble(), 1.29);
        QCOMPARE(model.index(2, PriceTableModel::RegionsColumn).data().toString(), QStringLiteral("none now"));

        proxy.sort(PriceTableModel::PriceColumn, Qt::DescendingOrder); // raw numbers, not "$10" < "$2"
        QCOMPARE(proxy.index(0, PriceTableModel::GpuModelColumn).data().toString(), QStringLiteral("A100"));
        QCOMPARE(proxy.index(1, PriceTableModel::GpuModelColumn).data().toString(), QStringLiteral("H100 SXM"));
        proxy.setAvailableOnly(true);
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setMinVramGb(48);
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setMinVramGb(0);
        proxy.setMaxPricePerHour(1.0);
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setMaxPricePerHour(0);
        proxy.setAvailableOnly(false);
        proxy.setGpuText(QStringLiteral("h100"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setGpuText(QStringLiteral("a10"));
        QCOMPARE(proxy.rowCount(), 2); // A10 and A100
    }

    void instancesKeepSelectionAcrossRefresh()
    {
        InstancesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTableView view;
        view.setModel(&model);
        auto instance = [](const QString &id, providers::InstanceState state) {
            providers::Instance i;
            i.provider = QStringLiteral("lambda");
            i.id = id;
            i.name = id;
            i.state = state;
            return i;
        };
        model.setInstances(QStringLiteral("lambda"), {instance(QStringLiteral("a"), providers::InstanceState::Running),
                                                      instance(QStringLiteral("b"), providers::InstanceState::Booting)});
        view.setCurrentIndex(model.index(1, 0));
        // The auto-refresh: same instances, one changed state, one new, none removed.
        model.setInstances(QStringLiteral("lambda"), {instance(QStringLiteral("a"), providers::InstanceState::Running),
                                                      instance(QStringLiteral("b"), providers::InstanceState::Running),
                                                      instance(QStringLiteral("c"), providers::InstanceState::Booting)});
        QVERIFY(view.currentIndex().isValid());
        QCOMPARE(model.instanceAt(view.currentIndex().row()).id, QStringLiteral("b"));
        QCOMPARE(model.instanceAt(view.currentIndex().row()).state, providers::InstanceState::Running);
        // The selected one disappears: the selection goes with it, the others stay.
        model.setInstances(QStringLiteral("lambda"), {instance(QStringLiteral("a"), providers::InstanceState::Running)});
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(!view.selectionModel()->isSelected(model.index(0, 0)));
    }

    void pricesPanelRefreshesAndCaches()
    {
        QTemporaryDir dir;
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        providers::ProviderHub hub;
        hub.addProvider(lambdaFor(emulator));
        hub.addProvider(std::make_unique<providers::SandboxProvider>(dir.path()));
        {
            providers::PriceBoard panelBoard(&hub, dir.path());
            PricesPanel panel(&panelBoard);
            QCOMPARE(panel.ageText(), QStringLiteral("Never refreshed"));
            QSignalSpy refreshed(&panel, &PricesPanel::refreshed);
            panel.show();
            panel.refresh();
            QVERIFY(refreshed.wait(10000));
            QCOMPARE(panel.model()->rowCount(), 10); // 4 Lambda + 3 sandbox + their 3 spot variants
            QCOMPARE(panel.ageText(), QStringLiteral("Updated just now"));
            panel.findChild<QLineEdit *>(QStringLiteral("gpuFilter"))->setText(QStringLiteral("H100"));
            QCOMPARE(panel.proxy()->rowCount(), 1);
            QSignalSpy launch(&panel, &PricesPanel::launchRequested);
            panel.view()->setCurrentIndex(panel.proxy()->index(0, 0));
            emit panel.view()->doubleClicked(panel.proxy()->index(0, 0));
            QCOMPARE(launch.count(), 1);
            QCOMPARE(launch.at(0).at(1).toString(), QStringLiteral("gpu_1x_h100_sxm5"));
            QTRY_VERIFY_WITH_TIMEOUT(!panel.isWritingCache(), 10000); // written off the GUI thread
        }
        // Reopened without a provider answering: the cached table shows at once.
        providers::PriceBoard cachedBoard(nullptr, dir.path());
        PricesPanel cached(&cachedBoard);
        QCOMPARE(cached.model()->rowCount(), 10);
        QCOMPARE(cached.ageText(), QStringLiteral("Updated just now"));
    }

    void launchDialogAgainstEmulator()
    {
        LambdaLaunch at;
        QVERIFY(at.open());
        auto &[dir, emulator, hub, ledger, hosts, workspace] = at;
        LaunchDialog dialog(&workspace);
        QSignalSpy loaded(&dialog, &LaunchDialog::loaded);
        dialog.show();
        QVERIFY(loaded.count() > 0 || loaded.wait(10000));
        auto *typeBox = dialog.findChild<QComboBox *>(QStringLiteral("type"));
        auto *regionBox = dialog.findChild<QComboBox *>(QStringLiteral("region"));
        auto *keyBox = dialog.findChild<QComboBox *>(QStringLiteral("sshKey"));
        QCOMPARE(typeBox->count(), 4);
        QCOMPARE(typeBox->currentData().toString(), QStringLiteral("cpu_4x_general")); // cheapest with capacity
        dialog.preselect(QStringLiteral("lambda"), QStringLiteral("gpu_1x_a10"));
        QCOMPARE(typeBox->currentData().toString(), QStringLiteral("gpu_1x_a10"));
        QCOMPARE(regionBox->count(), 2); // only regions with capacity
        QCOMPARE(keyBox->itemData(0).toString(), QStringLiteral("laptop"));
        QCOMPARE(keyBox->itemData(keyBox->count() - 1).toString(), QString::fromLatin1(LaunchDialog::kGenerateKey));
        QCOMPARE(dialog.pricePerHour(), 0.75);
        QVERIFY2(dialog.estimateText().contains(QStringLiteral("$3.00 for 4 h")), qPrintable(dialog.estimateText()));
        QVERIFY(dialog.estimateText().contains(QStringLiteral("$3.90")));
        QCOMPARE(LaunchDialog::estimate(2.0, 10), 26.0);

        // A type without capacity offers no region, so it cannot be launched.
        typeBox->setCurrentIndex(typeBox->findData(QStringLiteral("gpu_8x_a100")));
        QCOMPARE(regionBox->count(), 0);
        QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("launchButton"))->isEnabled());

        typeBox->setCurrentIndex(typeBox->findData(QStringLiteral("gpu_1x_a10")));
        dialog.findChild<QLineEdit *>(QStringLiteral("name"))->setText(QStringLiteral("ui-box"));
        keyBox->setCurrentIndex(keyBox->count() - 1); // generate + upload in the same step
        QSignalSpy launched(&dialog, &LaunchDialog::launched);
        dialog.launch();
        QVERIFY(launched.wait(15000));
        const auto instance = launched.at(0).at(0).value<workspace::LaunchedInstance>();
        QCOMPARE(instance.provider, QStringLiteral("lambda"));
        QCOMPARE(instance.pricePerHour, 0.75);
        QVERIFY(!instance.adopted);
        QCOMPARE(ledger.entry(QStringLiteral("lambda"), instance.instanceId)->pricePerHour, 0.75); // billed from the answer
        QCOMPARE(emulator.instanceCount(), 1);
        QVERIFY(emulator.sshKeyNames().size() == 2); // the Gantry key was uploaded
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("keys/gantry_ed25519"))));
    }

    // A volume made from the Launch dialog: in the chosen region, selected for the launch, and
    // billed from now on (its ledger row); a name the provider refuses is said in the question.
    void launchDialogMakesAVolume()
    {
        LambdaLaunch at;
        QVERIFY(at.open());
        auto &[dir, emulator, hub, ledger, hosts, workspace] = at;
        LaunchDialog dialog(&workspace);
        QSignalSpy loaded(&dialog, &LaunchDialog::loaded);
        dialog.show();
        QVERIFY(loaded.count() > 0 || loaded.wait(10000));
        dialog.preselect(QStringLiteral("lambda"), QStringLiteral("gpu_1x_a10"));
        auto *storage = dialog.findChild<QComboBox *>(QStringLiteral("storage"));
        const QString region = dialog.findChild<QComboBox *>(QStringLiteral("region"))->currentData().toString();
        QVERIFY(storage && !region.isEmpty());
        dialog.findChild<QPushButton *>(QStringLiteral("newVolume"))->click();
        auto *ask = dialog.findChild<QDialog *>(QStringLiteral("newVolumeDialog"));
        QVERIFY(ask);
        QVERIFY(ask->findChild<QSpinBox *>(QStringLiteral("volumeSize"))->isHidden()); // Lambda filesystems grow with use
        const QString renders = QCoreApplication::applicationDirPath() + QStringLiteral("/renders");
        QDir().mkpath(renders);
        QVERIFY(dialog.grab().save(renders + QStringLiteral("/launch-storage.png")));
        QVERIFY(ask->grab().save(renders + QStringLiteral("/launch-new-volume.png")));
        auto *name = ask->findChild<QLineEdit *>(QStringLiteral("volumeName"));
        QPushButton *create = ask->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        name->setText(QStringLiteral("9 not a name"));
        create->click();
        auto *error = ask->findChild<QLabel *>(QStringLiteral("volumeError"));
        QTRY_VERIFY_WITH_TIMEOUT(error->text().contains(QStringLiteral("not a valid filesystem name")), 10000);
        QVERIFY(create->isEnabled());
        name->setText(QStringLiteral("ckpt-store"));
        create->click();
        QTRY_COMPARE_WITH_TIMEOUT(storage->currentData().toString(), QStringLiteral("ckpt-store"), 10000);
        QCOMPARE(dialog.request().filesystemNames, QStringList{QStringLiteral("ckpt-store")});
        Result<QList<cost::VolumeEntry>> billed = ledger.volumes();
        QVERIFY(billed && billed->size() == 1);
        QCOMPARE(billed->first().region, region);
    }

    void launchDialogShowsProviderErrors()
    {
        QTemporaryDir dir;
        test::LambdaEmulator emulator;
        emulator.quotaExceeded = true;
        QVERIFY(emulator.listen());
        providers::ProviderHub hub;
        hub.addProvider(lambdaFor(emulator));
        workspace::Workspace workspace(dir.path(), &hub, nullptr, nullptr);
        LaunchDialog dialog(&workspace);
        QSignalSpy loaded(&dialog, &LaunchDialog::loaded);
        QVERIFY(loaded.wait(10000));
        dialog.launch();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.errorText().contains(QStringLiteral("Quota exceeded")), 10000);
        QVERIFY(dialog.result() != QDialog::Accepted);
    }

    void instancesPanelConfirmsAndRecords()
    {
        QTemporaryDir dir;
        test::LambdaEmulator emulator;
        emulator.bootMs = 100;
        QVERIFY(emulator.listen());
        providers::ProviderHub hub;
        hub.addProvider(lambdaFor(emulator));
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()));
        QVERIFY(ledger.open());
        HostStore hosts(dir.path());
        (void)hosts.load();
        workspace::Workspace workspace(dir.path(), &hub, &ledger, &hosts);
        workspace.setLaunchTiming(100, 0, 0);
        InstancesPanel panel(&workspace);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QStringList asked;
        panel.setConfirmer([&asked](const QString &, const QString &text) {
            asked.append(text);
            return true;
        });
        providers::LaunchRequest request{QStringLiteral("gpu_1x_a10"), QStringLiteral("us-east-1"), QStringLiteral("laptop"),
                                         QStringLiteral("panel-box"), {}, {}, 0, 1};
        QString id;
        QSignalSpy ready(&panel, &InstancesPanel::hostReady);
        workspace::LaunchOptions options;
        options.pricePerHour = 0.75;
        workspace.launch(QStringLiteral("lambda"), request, options,
                         [&id](Result<workspace::LaunchedInstance> launched) { id = launched ? launched->instanceId : QString(); });
        QTRY_VERIFY_WITH_TIMEOUT(!id.isEmpty(), 10000);
        QVERIFY(ledger.entry(QStringLiteral("lambda"), id));
        QVERIFY(ready.wait(10000));
        QCOMPARE(ready.at(0).at(0).toString(), QStringLiteral("panel-box"));
        QCOMPARE(hosts.find(QStringLiteral("panel-box"))->target.user, QStringLiteral("ubuntu"));
        QTRY_COMPARE_WITH_TIMEOUT(panel.model()->rowCount(), 1, 10000);

        auto *view = panel.findChild<QTableView *>();
        view->setCurrentIndex(panel.model()->index(0, 0));
        panel.act(QStringLiteral("terminate"));
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked.first().contains(QStringLiteral("local disk")));
        // The ledger row can also be closed by a refresh that sees the instance terminating, before
        // the terminate call itself returns and forgets the host: wait for both.
        QTRY_VERIFY_WITH_TIMEOUT(!ledger.entry(QStringLiteral("lambda"), id)->isOpen(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!hosts.find(QStringLiteral("panel-box")).has_value(), 10000);

        providers::ProviderInfo runpod;
        runpod.displayName = QStringLiteral("RunPod");
        runpod.capabilities = providers::Capability::StopStart | providers::Capability::StorageBillsWhileStopped;
        runpod.cost = providers::costModelFor(QStringLiteral("runpod"));
        providers::Instance pod;
        pod.name = QStringLiteral("pod");
        pod.volumeGb = 20;
        const QString stop = confirmationText(runpod, pod, QStringLiteral("stop"));
        QVERIFY(stop.contains(QStringLiteral("20 GB volume disk")));
        QVERIFY(stop.contains(QStringLiteral("still billing")));
    }

    void costPanelShowsMetersAndWarnings()
    {
        QTemporaryDir dir;
        ManualClock clock;
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        providers::Instance pod;
        pod.provider = QStringLiteral("runpod");
        pod.id = QStringLiteral("p1");
        pod.name = QStringLiteral("pod");
        pod.volumeGb = 20;
        QVERIFY(ledger.recordLaunch(pod, 3.6));
        clock.advanceSeconds(3600);
        CostPanel panel(&ledger);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy alerts(&panel, &CostPanel::budgetAlert);
        QVERIFY2(panel.totalText().contains(QStringLiteral("$3.60/h")), qPrintable(panel.totalText()));
        QVERIFY(panel.totalText().contains(QStringLiteral("Total: $3.60")));
        QVERIFY(ledger.recordStopped(QStringLiteral("runpod"), QStringLiteral("p1")));
        QVERIFY(panel.warningsText().contains(QStringLiteral("20 GB volume disk")));
        QVERIFY(ledger.setBudget(QStringLiteral("monthly"), 4.0));
        panel.reload();
        QCOMPARE(alerts.count(), 1); // 50 % and 80 % crossed at once: the higher is said
        const QString alert = alerts.first().first().toString();
        QVERIFY2(alert.startsWith(QStringLiteral("80 %")) && alert.contains(QStringLiteral("pod (RunPod, stopped disk)")), qPrintable(alert));
        QVERIFY(panel.exportCsv(dir.filePath(QStringLiteral("out.csv"))));
    }
};

QTEST_MAIN(TestUiProviders)
#include "test_ui_providers.moc"
