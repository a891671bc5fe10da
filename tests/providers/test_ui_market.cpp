// Offscreen: the Prices panel with Vast.ai offers grouped by GPU model and count (and every offer
// on request) next to Shadeform's types, rendered at 1024x700 and 1440x900.
#include "restconfigfor.h"
#include "shadeformemulator.h"
#include "vastemulator.h"

#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/await.h"
#include "core/providers/gantrykey.h"
#include "core/ssh/keygen.h"
#include "core/workspace/workspace.h"
#include "ui/providers/launchdialog.h"
#include "ui/providers/instancesmodel.h"
#include "ui/providers/pricefilterproxy.h"
#include "core/providers/priceboard.h"
#include "ui/providers/pricespanel.h"
#include "ui/providers/pricetablemodel.h"
#include "core/providers/shadeformprovider.h"
#include "core/providers/vastprovider.h"

#include <QCheckBox>
#include <QComboBox>
#include <QListWidget>
#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::ui;

namespace {


int rowOf(const QAbstractItemModel &model, const QString &provider, const QString &gpu, int count)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, PriceTableModel::ProviderColumn).data(PriceTableModel::RawValueRole).toString() == provider
            && model.index(row, PriceTableModel::GpuModelColumn).data().toString() == gpu
            && model.index(row, PriceTableModel::GpuCountColumn).data().toInt() == count)
            return row;
    }
    return -1;
}

// One step of a watch's time: the emulator counts a listing before its answer is in, so a single
// jump could land before the next poll is scheduled; QTRY repeats this until the spy fires.
bool advancedUntil(ManualClock &clock, const QSignalSpy &spy)
{
    clock.advanceMs(200);
    return !spy.isEmpty();
}

// Shows the panel at 1024x700, refreshes it and selects Shadeform's H100 PCIe row; its row, -1 when missing.
int refreshAndSelectPcie(PricesPanel &panel)
{
    QSignalSpy refreshed(&panel, &PricesPanel::refreshed);
    panel.resize(1024, 700);
    panel.show();
    panel.refresh();
    if (!refreshed.wait(10000))
        return -1;
    const int pcie = rowOf(*panel.model(), QStringLiteral("shadeform"), QStringLiteral("H100 PCIe"), 1);
    if (pcie >= 0)
        panel.view()->setCurrentIndex(panel.proxy()->mapFromSource(panel.model()->index(pcie, 0)));
    return pcie;
}

// A Launch dialog on the Vast emulator, its provider's keys, types and images loaded.
struct VastLaunch
{
    explicit VastLaunch(test::VastEmulator &emulator, const QString &configDir)
        : ledger(cost::Ledger::defaultPath(configDir))
        , hosts(configDir)
    {
        hub.addProvider(std::make_unique<providers::VastProvider>(test::restConfigFor(emulator)));
        (void)ledger.open();
        workspace = std::make_unique<workspace::Workspace>(configDir, &hub, &ledger, &hosts);
    }
    Result<providers::SshKey> addKey(const QString &name, const QString &publicKey)
    {
        return providers::await<providers::SshKey>([&](auto done) { hub.provider(QStringLiteral("vast"))->addSshKey(name, publicKey, done); });
    }
    std::unique_ptr<LaunchDialog> open()
    {
        auto dialog = std::make_unique<LaunchDialog>(workspace.get());
        QSignalSpy loaded(dialog.get(), &LaunchDialog::loaded);
        dialog->show();
        if (loaded.isEmpty())
            (void)loaded.wait(10000);
        return dialog;
    }

    providers::ProviderHub hub;
    cost::Ledger ledger;
    HostStore hosts;
    std::unique_ptr<workspace::Workspace> workspace;
};

// $HOME (and so ~/.ssh) in a temporary folder while it lives: none of this computer's keys.
struct TemporaryHome
{
    TemporaryHome() { qputenv("HOME", dir.path().toUtf8()); }
    ~TemporaryHome() { qputenv("HOME", old); }
    QString filePath(const QString &name) const { return dir.filePath(name); }

    QTemporaryDir dir;
    QByteArray old = qgetenv("HOME");
};

void saveShot(QWidget &widget, const QString &name)
{
    const QString out = qEnvironmentVariable("GANTRY_SCREENSHOT_DIR");
    if (!out.isEmpty())
        widget.grab().save(QStringLiteral("%1/%2-%3x%4.png").arg(out, name).arg(widget.width()).arg(widget.height()));
}

} // namespace

class TestUiMarket final : public QObject
{
    Q_OBJECT

private slots:
    void pricesGroupMarketplaceOffers()
    {
        QTemporaryDir dir;
        test::VastEmulator vastEmu;
        QVERIFY(vastEmu.listen());
        test::ShadeformEmulator shadeEmu;
        QVERIFY(shadeEmu.listen());
        providers::ProviderHub hub;
        hub.addProvider(std::make_unique<providers::VastProvider>(test::restConfigFor(vastEmu)));
        hub.addProvider(std::make_unique<providers::ShadeformProvider>(test::restConfigFor(shadeEmu)));
        providers::PriceBoard panelBoard(&hub, dir.path());
        PricesPanel panel(&panelBoard);
        QSignalSpy refreshed(&panel, &PricesPanel::refreshed);
        panel.resize(1024, 700);
        panel.show();
        panel.refresh();
        QVERIFY(refreshed.wait(10000));
        // 7 rentable offers in 5 groups, plus 3 Shadeform types.
        PriceTableModel *model = panel.model();
        QCOMPARE(model->rowCount(), 8);
        const int sxm = rowOf(*model, QStringLiteral("vast"), QStringLiteral("H100 SXM"), 1);
        QVERIFY(sxm >= 0);
        QCOMPARE(model->index(sxm, PriceTableModel::PriceColumn).data().toString(), QStringLiteral("$1.95"));
        QCOMPARE(model->index(sxm, PriceTableModel::OffersColumn).data().toString(), QStringLiteral("2 · median $2.10"));
        QVERIFY(rowOf(*model, QStringLiteral("vast"), QStringLiteral("H100 PCIe"), 1) >= 0); // apart from SXM
        QVERIFY(rowOf(*model, QStringLiteral("shadeform"), QStringLiteral("RTX A6000"), 1) >= 0);
        QVERIFY(rowOf(*model, QStringLiteral("shadeform"), QStringLiteral("H100 SXM"), 8) >= 0);

        panel.findChild<QLineEdit *>(QStringLiteral("gpuFilter"))->setText(QStringLiteral("H100 SXM"));
        QCOMPARE(panel.proxy()->rowCount(), 2); // Vast's group and Shadeform's 8x
        QSignalSpy launch(&panel, &PricesPanel::launchRequested);
        const QModelIndex first = panel.proxy()->mapFromSource(model->index(sxm, 0));
        panel.view()->setCurrentIndex(first);
        emit panel.view()->doubleClicked(first);
        QCOMPARE(launch.at(0).at(1).toString(), QStringLiteral("H100 SXMx1")); // rented as the cheapest such offer
        panel.findChild<QLineEdit *>(QStringLiteral("gpuFilter"))->clear();

        for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
            panel.resize(size);
            QTest::qWait(50);
            // What a user reads in the Offers column is on screen and not cut off.
            QHeaderView *header = panel.view()->horizontalHeader();
            QVERIFY2(header->sectionViewportPosition(PriceTableModel::OffersColumn) + 60 <= panel.view()->viewport()->width(),
                     qPrintable(QStringLiteral("Offers column off screen at %1x%2").arg(size.width()).arg(size.height())));
            auto *gpu = panel.findChild<QLineEdit *>(QStringLiteral("gpuFilter"));
            QVERIFY2(gpu->width() >= gpu->fontMetrics().horizontalAdvance(gpu->placeholderText()) + 20,
                     qPrintable(QStringLiteral("the GPU filter is %1 px wide at %2 px").arg(gpu->width()).arg(size.width())));
            const int width = header->sectionSize(PriceTableModel::OffersColumn);
            const QString text = model->index(sxm, PriceTableModel::OffersColumn).data().toString();
            QVERIFY2(panel.view()->fontMetrics().horizontalAdvance(text) + 8 <= width,
                     qPrintable(QStringLiteral("%1 px for \"%2\" at %3x%4").arg(width).arg(text).arg(size.width()).arg(size.height())));
            const QString out = qEnvironmentVariable("GANTRY_SCREENSHOT_DIR");
            if (!out.isEmpty())
                panel.grab().save(QStringLiteral("%1/prices-market-%2x%3.png").arg(out).arg(size.width()).arg(size.height()));
        }

        // Every offer: the single machines, with their reliability.
        QSignalSpy reset(model, &QAbstractItemModel::modelReset);
        panel.findChild<QCheckBox *>(QStringLiteral("everyOffer"))->setChecked(true);
        QTRY_COMPARE(model->rowCount(), 10);
        const int offer = rowOf(*model, QStringLiteral("vast"), QStringLiteral("H100 SXM"), 1);
        QVERIFY(model->index(offer, PriceTableModel::OffersColumn).data().toString().contains(QStringLiteral("% reliable")));
        QVERIFY(model->index(offer, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("DLPerf")));
        panel.findChild<QCheckBox *>(QStringLiteral("everyOffer"))->setChecked(false);
        QTRY_COMPARE(model->rowCount(), 8);
    }

    // "Notify me when available" on a row without capacity: it tells the moment the GPU is free.
    void notifyWhenAvailable()
    {
        QTemporaryDir dir;
        test::ShadeformEmulator emulator;
        emulator.hiddenPolls = 2; // the refresh and the first watch poll see no H100 capacity
        QVERIFY(emulator.listen());
        providers::ProviderHub hub;
        hub.addProvider(std::make_unique<providers::ShadeformProvider>(test::restConfigFor(emulator)));
        providers::PriceBoard panelBoard(&hub, dir.path());
        PricesPanel panel(&panelBoard);
        ManualClock clock;
        panel.setWatchTiming(clock, 50);
        const int pcie = refreshAndSelectPcie(panel);
        QVERIFY(pcie >= 0);
        QVERIFY(!panel.model()->typeAt(pcie).availableNow());
        QSignalSpy available(&panel, &PricesPanel::capacityAvailable);
        auto *watch = panel.findChild<QPushButton *>(QStringLiteral("watch"));
        watch->click();
        QVERIFY(panel.isWatching());
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("watchStatus"))->text().contains(QStringLiteral("H100 PCIe")));
        QTRY_VERIFY_WITH_TIMEOUT(emulator.typePolls >= 2, 5000);
        QCOMPARE(available.size(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(advancedUntil(clock, available), 10000);
        QVERIFY2(available.first().first().toString().contains(QStringLiteral("$2.49/h")), qPrintable(available.first().first().toString()));
        QVERIFY(!panel.isWatching());
        QCOMPARE(watch->text(), QStringLiteral("Notify me"));
    }

    // "Launch when available": Gantry's key goes up, the watch finds the GPU after two empty polls,
    // rents it once and hands the machine on like a launch from the dialog would.
    void launchWhenAvailable()
    {
        QTemporaryDir dir;
        test::ShadeformEmulator emulator;
        emulator.hiddenPolls = 2;
        emulator.bootMs = 50;
        QVERIFY(emulator.listen());
        providers::ProviderHub hub;
        hub.addProvider(std::make_unique<providers::ShadeformProvider>(test::restConfigFor(emulator)));
        providers::PriceBoard panelBoard(&hub, dir.path());
        PricesPanel panel(&panelBoard);
        ManualClock clock;
        panel.setWatchTiming(clock, 50);
        QVERIFY(refreshAndSelectPcie(panel) >= 0);
        QSignalSpy launched(&panel, &PricesPanel::launchedWhenAvailable);
        QSignalSpy told(&panel, &PricesPanel::capacityAvailable);
        auto *launchWatch = panel.findChild<QPushButton *>(QStringLiteral("launchWatch"));
        launchWatch->click();
        QTRY_VERIFY_WITH_TIMEOUT(panel.isWatching(), 5000);
        QCOMPARE(launchWatch->text(), QStringLiteral("Stop watching"));
        QVERIFY(!panel.findChild<QPushButton *>(QStringLiteral("watch"))->isEnabled());
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("watchStatus"))->text().contains(QStringLiteral("to launch it")));
        // The watch row's three buttons keep their whole labels at 1024 pixels.
        for (const QPushButton *button : panel.findChildren<QPushButton *>())
            QVERIFY2(button->width() >= button->sizeHint().width(), qPrintable(button->text()));
        if (!qEnvironmentVariableIsEmpty("GANTRY_SCREENSHOT_DIR")) {
            panel.grab().save(qEnvironmentVariable("GANTRY_SCREENSHOT_DIR") + QStringLiteral("/prices-1024.png"));
            panel.resize(1440, 900);
            panel.grab().save(qEnvironmentVariable("GANTRY_SCREENSHOT_DIR") + QStringLiteral("/prices-1440.png"));
            panel.resize(1024, 700);
        }
        QTRY_VERIFY_WITH_TIMEOUT(emulator.typePolls >= 2, 5000);
        QCOMPARE(emulator.instanceCount(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(advancedUntil(clock, launched), 10000);
        QCOMPARE(emulator.instanceCount(), 1);
        QCOMPARE(launched.first().at(0).toString(), QStringLiteral("shadeform"));
        QVERIFY(!launched.first().at(1).toString().isEmpty());
        const auto request = launched.first().at(3).value<providers::LaunchRequest>();
        QCOMPARE(request.sshKeyName, providers::gantryKeyName());
        QVERIFY(told.last().first().toString().startsWith(QStringLiteral("Launched")));
        QVERIFY(!panel.isWatching());
        QCOMPARE(launchWatch->text(), QStringLiteral("Launch when available"));
        clock.advanceSeconds(60);
        QTest::qWait(100);
        QCOMPARE(emulator.instanceCount(), 1); // one launch, then it stops
    }

    // "Copy headless command": the same watch as a gantry-cli line on the clipboard, no file written.
    void handToHeadlessWatcher()
    {
        QTemporaryDir dir;
        test::ShadeformEmulator emulator;
        QVERIFY(emulator.listen());
        providers::ProviderHub hub;
        hub.addProvider(std::make_unique<providers::ShadeformProvider>(test::restConfigFor(emulator)));
        providers::PriceBoard panelBoard(&hub, dir.path());
        PricesPanel panel(&panelBoard);
        QVERIFY(refreshAndSelectPcie(panel) >= 0);
        const QStringList before = QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot);
        QGuiApplication::clipboard()->clear();
        panel.findChild<QPushButton *>(QStringLiteral("handOff"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(!QGuiApplication::clipboard()->text().isEmpty(), 5000);
        const QString command = QGuiApplication::clipboard()->text();
        QCOMPARE(command, QStringLiteral("gantry-cli watch-capacity --gpu 'H100 PCIe' --count 1 --max-price 2.49 --providers shadeform "
                                         "--launch --ssh-key %1").arg(providers::gantryKeyName()));
        QVERIFY(panel.findChild<QLabel *>(QStringLiteral("watchStatus"))->text().contains(command));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot), before);
    }

    // A stopped Vast instance costs nothing in compute but its disk still bills: Instances says what, per day.
    void stoppedInstanceShowsStorageCostPerDay()
    {
        InstancesModel model;
        providers::Instance stopped;
        stopped.provider = QStringLiteral("vast");
        stopped.id = QStringLiteral("31000001");
        stopped.state = providers::InstanceState::Stopped;
        stopped.volumeGb = 32;
        providers::Instance running = stopped;
        running.id = QStringLiteral("31000002");
        running.state = providers::InstanceState::Running;
        running.pricePerHour = 0.35;
        model.setInstances(QStringLiteral("vast"), {stopped, running});
        QStringList prices;
        for (int row = 0; row < model.rowCount(); ++row)
            prices.append(model.index(row, InstancesModel::PriceColumn).data().toString());
        QVERIFY2(prices.contains(QStringLiteral("$0.16/day storage")), qPrintable(prices.join(u',')));
        QVERIFY(prices.contains(QStringLiteral("$0.35/h")));
    }

    // The account holds only a key made in the provider's console: nothing here can log in with
    // it, so it is marked and "Generate and upload a key" is preselected. Once the user's own
    // key is there too (under another name), it is preselected.
    void launchDialogPreselectsAKeyWithItsPrivateHalfHere()
    {
        TemporaryHome home;
        QTemporaryDir config;
        QVERIFY(QDir().mkpath(home.filePath(QStringLiteral(".ssh"))));
        Result<ssh::GeneratedKey> mine = ssh::generateEd25519Key(home.filePath(QStringLiteral(".ssh/id_ed25519")), QStringLiteral("me@laptop"));
        QVERIFY(mine);
        test::VastEmulator emulator;
        QVERIFY(emulator.listen());
        VastLaunch launch(emulator, config.path());
        QVERIFY(launch.addKey(QStringLiteral("console-key"), QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConsoleConsoleConsole web")));

        std::unique_ptr<LaunchDialog> dialog = launch.open();
        auto *keys = dialog->findChild<QComboBox *>(QStringLiteral("sshKey"));
        QCOMPARE(keys->count(), 2);
        QCOMPARE(keys->itemText(0), QStringLiteral("console-key (no private key on this computer)"));
        QCOMPARE(keys->currentData().toString(), QString::fromLatin1(LaunchDialog::kGenerateKey));
        QCOMPARE(keys->currentText(), QStringLiteral("Generate and upload a key"));
        QVERIFY(dialog->keyNoteText().isEmpty());
        keys->setCurrentIndex(0);
        QVERIFY2(dialog->keyNoteText().contains(QStringLiteral("Gantry could not connect")), qPrintable(dialog->keyNoteText()));
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            dialog->resize(size);
            QTest::qWait(20);
            saveShot(*dialog, QStringLiteral("launch-keys-marked"));
        }

        QVERIFY(launch.addKey(QStringLiteral("work laptop"), mine->publicKey.section(QLatin1Char(' '), 0, 1) + QStringLiteral(" renamed")));
        dialog = launch.open();
        keys = dialog->findChild<QComboBox *>(QStringLiteral("sshKey"));
        QCOMPARE(keys->currentText(), QStringLiteral("work laptop"));
        QVERIFY(dialog->keyNoteText().isEmpty());
        QCOMPARE(dialog->request().sshKeyName, QStringLiteral("work laptop"));
        QCOMPARE(keys->itemText(keys->count() - 1), QStringLiteral("Generate and upload a key"));
    }

    // Someone rents the cheapest H100 SXM first: the dialog lists the equivalent offers (same GPU
    // and count, cheapest first, not the taken one) in place, and the pick launches.
    void launchDialogOffersEquivalentsForATakenOffer()
    {
        TemporaryHome home;
        QTemporaryDir config;
        test::VastEmulator emulator;
        emulator.bootMs = 50;
        emulator.rentRaces = 1;
        emulator.addOffer(4100305, QStringLiteral("H100 SXM"), 1, 2.10, QStringLiteral("Bavaria, DE"));
        emulator.addOffer(4100306, QStringLiteral("H100 SXM"), 2, 4.10, QStringLiteral("Texas, US"));
        QVERIFY(emulator.listen());
        VastLaunch launch(emulator, config.path());
        QVERIFY(launch.addKey(QStringLiteral("console-key"), QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConsoleConsoleConsole web")));
        std::unique_ptr<LaunchDialog> dialog = launch.open();
        dialog->preselect(QStringLiteral("vast"), QStringLiteral("H100 SXMx1"));
        QCOMPARE(dialog->request().typeName, QStringLiteral("H100 SXMx1"));
        QVERIFY(dialog->alternativeOffers().isEmpty());
        auto *list = dialog->findChild<QListWidget *>(QStringLiteral("alternatives"));
        QVERIFY(!list->isVisible());

        dialog->launch();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->alternativeOffers().isEmpty(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isBusy(), 10000);
        QCOMPARE(dialog->alternativeOffers(), (QStringList{QStringLiteral("4100305"), QStringLiteral("4100301")}));
        QVERIFY(list->isVisible());
        QVERIFY2(list->item(0)->text().contains(QStringLiteral("$2.10/h")), qPrintable(list->item(0)->text()));
        QVERIFY2(dialog->offersNoteText().contains(QStringLiteral("Someone else rented offer 4100302")), qPrintable(dialog->offersNoteText()));
        QVERIFY(dialog->errorText().isEmpty());
        QCOMPARE(dialog->request().typeName, QStringLiteral("4100305"));
        QCOMPARE(dialog->request().region, QStringLiteral("DE")); // where the picked offer is, not the taken one
        QCOMPARE(dialog->pricePerHour(), 2.10);
        QVERIFY(dialog->findChild<QPushButton *>(QStringLiteral("launchButton"))->isEnabled());
        QCOMPARE(emulator.instanceCount(), 0);
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            dialog->resize(size);
            QTest::qWait(20);
            saveShot(*dialog, QStringLiteral("launch-offer-taken"));
        }

        list->setCurrentRow(1);
        QCOMPARE(dialog->pricePerHour(), 2.25);
        QCOMPARE(dialog->request().region, QStringLiteral("US"));
        list->setCurrentRow(0);
        QSignalSpy launched(dialog.get(), &LaunchDialog::launched);
        dialog->launch();
        QVERIFY(launched.wait(10000));
        const auto instance = launched.at(0).at(0).value<workspace::LaunchedInstance>();
        QCOMPARE(instance.request.typeName, QStringLiteral("4100305"));
        QCOMPARE(launch.ledger.entry(QStringLiteral("vast"), instance.instanceId)->pricePerHour, 2.10);
        QCOMPARE(emulator.instanceCount(), 1);
    }
};

QTEST_MAIN(TestUiMarket)
#include "test_ui_market.moc"
