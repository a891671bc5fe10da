// Bad machines in the GUI, from the same machines.json as `gantry-cli types --include-bad`: the
// Prices panel hides offers on a machine that failed Verify unless "Show flagged machines" is
// ticked (then each is its own marked row that says why and when), and the Verify tab lists every
// machine's record. Rendered at 1024x700 and 1440x900 (GANTRY_SCREENSHOT_DIR keeps the PNGs).
#include "restconfigfor.h"
#include "vastemulator.h"

#include "core/providers/pricecache.h"
#include "core/providers/vastprovider.h"
#include "core/verify/reputation.h"
#include "ui/providers/pricefilterproxy.h"
#include "core/providers/priceboard.h"
#include "ui/providers/pricespanel.h"
#include "ui/providers/pricetablemodel.h"
#include "ui/verify/reputationmodel.h"
#include "ui/verify/verifytab.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QTranslator>
#include <QCheckBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::ui;

namespace {

const QString kBadMachine = QStringLiteral("585757"); // the emulator's H100 machine (offer id / 7)


verify::MachineRun run(const QString &machineId, const QString &host, verify::Verdict verdict)
{
    verify::MachineRun r;
    r.provider = QStringLiteral("vast");
    r.machineId = machineId;
    r.host = host;
    r.verdict = verdict;
    r.problem = verdict == verify::Verdict::Fail ? QStringLiteral("memory bandwidth 1210 of 3350 GB/s (36%)") : QString();
    r.time = QDateTime(QDate(2026, 11, 30), QTime(9, 15), Qt::UTC);
    r.bandwidthGbs = verdict == verify::Verdict::Fail ? 1210 : 3010;
    r.specBandwidthGbs = 3350;
    r.tensorTflops = 702;
    r.specTensorTflops = 989;
    r.usdPerTflopHour = 0.0028;
    return r;
}

int flaggedRows(const QAbstractItemModel &model)
{
    int n = 0;
    for (int row = 0; row < model.rowCount(); ++row)
        n += model.index(row, 0).data(PriceTableModel::FlaggedRole).toBool() ? 1 : 0;
    return n;
}

void save(QWidget &widget, const QString &name)
{
    const QString out = qEnvironmentVariable("GANTRY_SCREENSHOT_DIR");
    if (!out.isEmpty())
        widget.grab().save(QStringLiteral("%1/%2-%3x%4.png").arg(out, name).arg(widget.width()).arg(widget.height()));
}

// Answers the next question: records what it asked and whether Cancel was the default, renders
// it, then presses Yes.
struct Answer
{
    QString text;
    bool cancelIsDefault = false;
};

void answerYes(QObject *context, Answer &answer, const QString &name)
{
    QTimer::singleShot(50, context, [&answer, name] {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box)
            return;
        answer.text = box->text();
        answer.cancelIsDefault = box->defaultButton() == box->button(QMessageBox::Cancel);
        save(*box, name);
        box->button(QMessageBox::Yes)->click();
    });
}

} // namespace

class TestUiReputation final : public QObject
{
    Q_OBJECT

private slots:
    void pricesHideAndFlagBadMachines()
    {
        QTemporaryDir dir;
        QVERIFY(verify::ReputationStore(dir.path()).record(run(kBadMachine, QStringLiteral("vast-h100"), verify::Verdict::Fail)));
        test::VastEmulator emulator;
        QVERIFY(emulator.listen());
        providers::ProviderHub hub;
        hub.addProvider(std::make_unique<providers::VastProvider>(test::restConfigFor(emulator)));
        providers::PriceBoard panelBoard(&hub, dir.path());
        PricesPanel panel(&panelBoard);
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy refreshed(&panel, &PricesPanel::refreshed);
        panel.resize(1024, 700);
        panel.show();
        panel.refresh();
        QVERIFY(refreshed.wait(10000));
        PriceTableModel *model = panel.model();
        // The four H100 offers are on the flagged machine: only the two RTX 4090 groups stay.
        QTRY_COMPARE(panel.hiddenFlaggedCount(), 4);
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(flaggedRows(*model), 0);
        auto *show = panel.findChild<QCheckBox *>(QStringLiteral("showFlagged"));
        QVERIFY2(show->text().contains(QStringLiteral("4 hidden")), qPrintable(show->text()));

        show->setChecked(true);
        QTRY_COMPARE(model->rowCount(), 6);
        QCOMPARE(flaggedRows(*model), 4);
        QCOMPARE(panel.hiddenFlaggedCount(), 0);
        int flagged = -1;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, 0).data(PriceTableModel::FlaggedRole).toBool())
                flagged = row;
        }
        const QString gpu = model->index(flagged, PriceTableModel::GpuModelColumn).data().toString();
        QVERIFY2(gpu.startsWith(QStringLiteral("⚠")) && gpu.contains(QStringLiteral("failed Verify")), qPrintable(gpu));
        const QString tip = model->index(flagged, PriceTableModel::PriceColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("1210 of 3350")) && tip.contains(QStringLiteral("2026-11-30")), qPrintable(tip));
        QVERIFY(model->index(flagged, 0).data(Qt::ForegroundRole).isValid());

        panel.view()->sortByColumn(PriceTableModel::PriceColumn, Qt::DescendingOrder);
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
            panel.resize(size);
            QTest::qWait(50);
            // The mark is read in full: the GPU column is as wide as its text.
            const int width = panel.view()->horizontalHeader()->sectionSize(PriceTableModel::GpuModelColumn);
            QVERIFY2(panel.view()->fontMetrics().horizontalAdvance(gpu) + 8 <= width,
                     qPrintable(QStringLiteral("%1 px for \"%2\"").arg(width).arg(gpu)));
            QVERIFY(show->x() + show->width() <= panel.width());
            QVERIFY2(show->width() >= show->sizeHint().width(), qPrintable(show->text()));
            auto *filter = panel.findChild<QLineEdit *>(QStringLiteral("gpuFilter"));
            QVERIFY(filter->width() >= filter->fontMetrics().horizontalAdvance(filter->placeholderText()) + 20);
            save(panel, QStringLiteral("prices-flagged"));
        }

        // The cache is written off the GUI thread, and holds every offer, flagged ones too.
        QTRY_VERIFY_WITH_TIMEOUT(!panel.isWritingCache(), 10000);
        QCOMPARE(providers::loadPriceCache(providers::priceCachePath(dir.path())).types.size(), 7);

        // A pass clears the flag; the next refresh reads machines.json again.
        QVERIFY(verify::ReputationStore(dir.path()).record(run(kBadMachine, QStringLiteral("vast-h100"), verify::Verdict::Pass)));
        show->setChecked(false);
        QSignalSpy flags(&panel, &PricesPanel::flagsLoaded);
        QVERIFY(!panel.isRefreshing());
        panel.refresh();
        QVERIFY(panel.isRefreshing());
        // The read may be done before refresh() returns (then its continuation runs at once).
        QTRY_VERIFY_WITH_TIMEOUT(!flags.isEmpty(), 5000);
        QTRY_COMPARE(model->rowCount(), 5);
        QCOMPARE(panel.hiddenFlaggedCount(), 0);
    }

    void forgetARecordFromTheGui_data();
    void forgetARecordFromTheGui();

    void verifyTabShowsEveryMachinesRecord()
    {
        QTemporaryDir dir;
        verify::ReputationStore store(dir.path());
        QVERIFY(store.record(run(kBadMachine, QStringLiteral("vast-h100"), verify::Verdict::Fail)));
        QVERIFY(store.record(run(QStringLiteral("77001"), QStringLiteral("vast-4090"), verify::Verdict::Pass)));
        QVERIFY(store.record(run(QStringLiteral("77001"), QStringLiteral("vast-4090"), verify::Verdict::Pass)));
        verify::MachineRun own = run({}, QStringLiteral("lab-box"), verify::Verdict::Pass);
        own.provider.clear();
        QVERIFY(store.record(own));

        AppContext context;
        context.configDir = dir.path();
        VerifyTab tab(context);
        QAbstractItemModelTester tester(tab.reputationModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&tab, &VerifyTab::reputationLoaded);
        SavedHost host;
        host.name = QStringLiteral("vast-4090");
        host.provider = QStringLiteral("vast");
        tab.setMachine(host, nullptr);
        QVERIFY(loaded.wait(5000));
        ReputationModel *model = tab.reputationModel();
        QCOMPARE(model->rowCount(), 3);
        // This host's machine first (bold), then the flagged one.
        QVERIFY(model->current());
        QCOMPARE(model->current()->machineId, QStringLiteral("77001"));
        QCOMPARE(model->index(0, ReputationModel::PassesColumn).data().toInt(), 2);
        QVERIFY(model->index(0, 0).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(model->index(1, 0).data(ReputationModel::BadRole).toBool());
        QCOMPARE(model->index(1, ReputationModel::FailsColumn).data().toInt(), 1);
        QCOMPARE(model->index(1, ReputationModel::BandwidthColumn).data().toString(), QStringLiteral("1210 / 3350"));
        QCOMPARE(model->index(1, ReputationModel::TensorColumn).data().toString(), QStringLiteral("702 / 989"));
        QCOMPARE(model->index(1, ReputationModel::CostColumn).data().toString(), QStringLiteral("$0.0028"));
        QVERIFY(model->index(1, ReputationModel::StatusColumn).data().toString().startsWith(QStringLiteral("Flagged")));
        QVERIFY(model->index(1, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Show flagged machines")));
        QVERIFY(model->index(2, 0).data().toString().contains(QStringLiteral("lab-box")));

        tab.show();
        for (const QSize size : {QSize(1024, 700), QSize(1440, 900)}) {
            tab.resize(size);
            QTest::qWait(50);
            QTableView *view = tab.machinesView();
            QVERIFY(view->isVisible());
            QVERIFY2(view->height() >= 3 * view->verticalHeader()->defaultSectionSize(),
                     qPrintable(QStringLiteral("the machine records are %1 px tall").arg(view->height())));
            save(tab, QStringLiteral("verify-machines"));
        }
    }
};

void TestUiReputation::forgetARecordFromTheGui_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

// "Forget this record…" in Verify's machine records and on a flagged offer in Prices: asked
// first (Cancel by default), done through ReputationStore::forget, and no tooltip sends the user
// to gantry-cli for it.
void TestUiReputation::forgetARecordFromTheGui()
{
    QFETCH(QString, language);
    QTranslator translator;
    if (language != QLatin1String("en")) {
        QVERIFY(translator.load(QStringLiteral(GANTRY_QM_DIR "/gantry_zh_CN.qm")));
        QCoreApplication::installTranslator(&translator);
    }
    auto restore = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });
    QTemporaryDir dir;
    QVERIFY(verify::ReputationStore(dir.path()).record(run(kBadMachine, QStringLiteral("vast-h100"), verify::Verdict::Fail)));
    QVERIFY(verify::ReputationStore(dir.path()).record(run(QStringLiteral("77001"), QStringLiteral("vast-4090"), verify::Verdict::Pass)));

    // Prices: the flagged offer's tooltip names the GUI action; its context menu has it.
    test::VastEmulator emulator;
    QVERIFY(emulator.listen());
    providers::ProviderHub hub;
    hub.addProvider(std::make_unique<providers::VastProvider>(test::restConfigFor(emulator)));
    providers::PriceBoard board(&hub, dir.path());
    PricesPanel panel(&board);
    QSignalSpy refreshed(&panel, &PricesPanel::refreshed);
    panel.resize(1024, 700);
    panel.show();
    panel.refresh();
    QVERIFY(refreshed.wait(10000));
    panel.findChild<QCheckBox *>(QStringLiteral("showFlagged"))->setChecked(true);
    QTRY_COMPARE(flaggedRows(*panel.view()->model()), 4);
    auto *forgetOffer = panel.view()->findChild<QAction *>(QStringLiteral("forgetRecord"));
    QVERIFY(forgetOffer && panel.view()->actions().contains(forgetOffer));
    int flagged = -1;
    for (int row = 0; row < panel.view()->model()->rowCount() && flagged < 0; ++row)
        flagged = panel.view()->model()->index(row, 0).data(PriceTableModel::FlaggedRole).toBool() ? row : -1;
    const QModelIndex offer = panel.view()->model()->index(flagged, PriceTableModel::PriceColumn);
    const QString tip = offer.data(Qt::ToolTipRole).toString();
    QVERIFY2(!tip.contains(QLatin1String("gantry-cli")) && tip.contains(forgetOffer->text().remove(u'…')), qPrintable(tip));
    panel.view()->setCurrentIndex(offer);
    QVERIFY(forgetOffer->isEnabled());
    Answer asked;
    answerYes(&panel, asked, QStringLiteral("prices-forget-question-") + language);
    QSignalSpy flags(&panel, &PricesPanel::flagsLoaded);
    forgetOffer->trigger();
    QVERIFY(asked.cancelIsDefault);
    QVERIFY2(asked.text.contains(kBadMachine), qPrintable(asked.text));
    QVERIFY(flags.wait(5000));
    QTRY_COMPARE(flaggedRows(*panel.view()->model()), 0);
    QCOMPARE(panel.hiddenFlaggedCount(), 0);
    verify::ReputationStore after(dir.path());
    QVERIFY(after.load());
    QCOMPARE(after.machines().size(), 1);

    // Verify's machine records: the button under the table, for the chosen record.
    QVERIFY(verify::ReputationStore(dir.path()).record(run(kBadMachine, QStringLiteral("vast-h100"), verify::Verdict::Fail)));
    AppContext context;
    context.configDir = dir.path();
    VerifyTab tab(context);
    QSignalSpy loaded(&tab, &VerifyTab::reputationLoaded);
    SavedHost host;
    host.name = QStringLiteral("vast-4090");
    tab.setMachine(host, nullptr);
    QVERIFY(loaded.wait(5000));
    tab.resize(1024, 700);
    tab.show();
    QPushButton *forget = tab.forgetRecordButton();
    QVERIFY(forget->isVisible());
    QVERIFY(!forget->isEnabled()); // nothing chosen yet
    QVERIFY(tab.reputationModel()->index(1, 0).data(ReputationModel::BadRole).toBool());
    const QString recordTip = tab.reputationModel()->index(1, 0).data(Qt::ToolTipRole).toString();
    QVERIFY2(!recordTip.contains(QLatin1String("gantry-cli")) && recordTip.contains(forget->text().remove(u'…')), qPrintable(recordTip));
    tab.machinesView()->setCurrentIndex(tab.reputationModel()->index(1, 0));
    QVERIFY(forget->isEnabled());
    QVERIFY(forget->width() >= forget->sizeHint().width());
    for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
        tab.resize(size);
        QTest::qWait(20);
        save(tab, QStringLiteral("verify-records-forget-") + language);
    }
    answerYes(&tab, asked, QStringLiteral("verify-forget-question-") + language);
    loaded.clear();
    forget->click();
    QVERIFY(loaded.wait(5000));
    QCOMPARE(tab.reputationModel()->rowCount(), 1);
    QVERIFY(!tab.reputationModel()->index(0, 0).data(ReputationModel::BadRole).toBool());
    QVERIFY2(tab.statusText().contains(QLatin1String("585757")), qPrintable(tab.statusText()));
    save(tab, QStringLiteral("verify-records-forgotten-") + language);
}

QTEST_MAIN(TestUiReputation)
#include "test_ui_reputation.moc"
