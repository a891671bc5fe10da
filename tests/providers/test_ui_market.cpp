// Offscreen: the Prices panel with Vast.ai offers grouped by GPU model and count (and every offer
// on request) next to Shadeform's types, rendered at 1024x700 and 1440x900.
#include "shadeformemulator.h"
#include "vastemulator.h"

#include "providers/pricefilterproxy.h"
#include "providers/pricespanel.h"
#include "providers/pricetablemodel.h"
#include "providers/shadeformprovider.h"
#include "providers/vastprovider.h"

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

providers::RestConfig configFor(const test::EmulatorServer &server)
{
    providers::RestConfig config;
    config.baseUrl = QUrl(server.baseUrl());
    config.apiKey = QStringLiteral("test-key");
    config.retry.baseDelayMs = 20;
    return config;
}

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
        hub.addProvider(std::make_unique<providers::VastProvider>(configFor(vastEmu)));
        hub.addProvider(std::make_unique<providers::ShadeformProvider>(configFor(shadeEmu)));
        PricesPanel panel(&hub, dir.path());
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
};

QTEST_MAIN(TestUiMarket)
#include "test_ui_market.moc"
