// SPDX-License-Identifier: Apache-2.0
// The Cost panel as a Chinese-reading user sees it (and an English one, for comparison): every
// state in the ledger is read whole, not elided, and the budgets' spin boxes show their text
// inside the box, not cut off at the top. Rendered at 1024x700 and 1600x1000 under
// GANTRY_SCREENSHOT_DIR when it is set.
#include "core/cost/ledger.h"
#include "ui/cost/costpanel.h"
#include "ui/cost/ledgermodel.h"

#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QStyle>
#include <QTableView>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

using namespace gantry;

namespace {

providers::Instance instance(const QString &id, providers::InstanceState state)
{
    providers::Instance i;
    i.provider = QStringLiteral("runpod");
    i.id = id;
    i.name = QStringLiteral("box-") + id;
    i.typeName = QStringLiteral("gpu_1x_a10");
    i.state = state;
    i.pricePerHour = 1.0;
    return i;
}

// The rows of `image` between fromX and toX with ink (pixels clearly darker or lighter than the
// field's background), as [first, last]; {-1, -1} when none.
std::pair<int, int> inkRows(const QImage &image, int fromX, int toX)
{
    // The frame's own lines (the first and last two rows) are not text.
    const QColor background = image.pixelColor(fromX, 2);
    int first = -1, last = -1;
    for (int y = 2; y < image.height() - 2; ++y) {
        for (int x = fromX; x < toX; ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.lightness() - background.lightness()) > 80) {
                first = first < 0 ? y : first;
                last = y;
                break;
            }
        }
    }
    return {first, last};
}

} // namespace

class TestCostZh final : public QObject
{
    Q_OBJECT

private slots:
    void readableInBothLanguages_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("en") << QStringLiteral("en");
        QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    }

    void readableInBothLanguages()
    {
        QFETCH(QString, language);
        QTranslator translator;
        if (language != QLatin1String("en")) {
            QVERIFY(translator.load(QStringLiteral(GANTRY_QM_DIR "/gantry_zh_CN.qm")));
            QCoreApplication::installTranslator(&translator);
        }
        auto restore = qScopeGuard([&translator] { QCoreApplication::removeTranslator(&translator); });
        QTemporaryDir dir;
        ManualClock clock(QDateTime(QDate(2026, 1, 10), QTime(12, 0), Qt::LocalTime));
        cost::Ledger ledger(cost::Ledger::defaultPath(dir.path()), clock);
        QVERIFY(ledger.open());
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("a"), providers::InstanceState::Running), 1.2));
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("b"), providers::InstanceState::Running), 0.69));
        QVERIFY(ledger.recordStopped(QStringLiteral("runpod"), QStringLiteral("b")));
        QVERIFY(ledger.recordLaunch(instance(QStringLiteral("c"), providers::InstanceState::Running), 2.0));
        QVERIFY(ledger.recordTerminated(QStringLiteral("runpod"), QStringLiteral("c")));
        QVERIFY(ledger.setBudget(QStringLiteral("daily"), 25));
        clock.advanceSeconds(3600);
        ui::CostPanel panel(&ledger);
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
            panel.resize(size);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            QTest::qWait(30);
            const QString out = qEnvironmentVariable("GANTRY_SCREENSHOT_DIR");
            if (!out.isEmpty())
                panel.grab().save(QStringLiteral("%1/cost-%2-%3x%4.png").arg(out, language).arg(size.width()).arg(size.height()));
            QTableView *view = panel.findChild<QTableView *>();
            QVERIFY(view->model()->rowCount() >= 3);
            // Every state whole: its text fits the column (the cell's margins included).
            const int column = ui::LedgerModel::StateColumn;
            const QString header = view->model()->headerData(column, Qt::Horizontal).toString();
            QVERIFY2(view->horizontalHeader()->sectionSize(column) >= view->horizontalHeader()->fontMetrics().horizontalAdvance(header) + 8,
                     qPrintable(header));
            for (int row = 0; row < view->model()->rowCount(); ++row) {
                const QString state = view->model()->index(row, column).data().toString();
                // The delegate draws text inside a margin of (PM_FocusFrameHMargin + 1) on each side.
                const int margin = 2 * (view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1);
                QVERIFY2(view->columnWidth(column) >= view->fontMetrics().horizontalAdvance(state) + margin,
                         qPrintable(QStringLiteral("%1 px for \"%2\", %3 px wide").arg(view->columnWidth(column)).arg(state)
                                        .arg(view->fontMetrics().horizontalAdvance(state) + margin)));
            }
            // The budgets' text sits inside its box, as far from the top as from the bottom.
            for (QDoubleSpinBox *box : panel.findChildren<QDoubleSpinBox *>()) {
                QLineEdit *edit = box->findChild<QLineEdit *>();
                const QImage image = box->grab().toImage();
                const QRect text = edit->geometry();
                const auto [top, bottom] = inkRows(image, text.left() + 3, std::min(text.right() - 2, text.left() + 60));
                QVERIFY2(top > 2 && bottom < image.height() - 3,
                         qPrintable(QStringLiteral("%1: ink %2..%3 in a %4 px box").arg(box->text()).arg(top).arg(bottom).arg(image.height())));
                const double off = (top + bottom) / 2.0 - (image.height() - 1) / 2.0;
                QVERIFY2(std::abs(off) <= 2.5, qPrintable(QStringLiteral("%1: text centre %2 px off the box's (ink %3..%4 of %5)")
                                                               .arg(box->text()).arg(off).arg(top).arg(bottom).arg(image.height())));
            }
        }
    }
};

QTEST_MAIN(TestCostZh)
#include "test_cost_zh.moc"
