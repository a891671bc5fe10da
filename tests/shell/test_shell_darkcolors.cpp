// Status colours on a dark theme: the jobs list, the Run job dialog's error and the Overview's
// problem and simulated-GPU facts take their colours from the palette, so none of them is a dark
// red or amber that vanishes on a dark background (each must stand apart from the base colour).
#include "ui/common/themecolors.h"
#include "ui/jobs/joblistmodel.h"
#include "ui/jobs/runjobdialog.h"
#include "ui/shell/overviewtab.h"

#include "darkpalette.h"

#include <QApplication>
#include <QLabel>
#include <QTreeWidget>
#include <QtTest>

using namespace gantry;

namespace {

// Readable: the text's lightness is well away from the background's (0..1).
bool readableOn(const QColor &text, const QColor &background)
{
    return std::abs(text.lightnessF() - background.lightnessF()) > 0.35;
}

} // namespace

class TestShellDarkColors : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QApplication::setPalette(darkPalette()); }

    void jobStatesStayReadable()
    {
        ui::JobListModel model;
        jobs::JobInfo running;
        running.name = QStringLiteral("train");
        running.state = jobs::JobState::Running;
        jobs::JobInfo failed;
        failed.name = QStringLiteral("eval");
        failed.state = jobs::JobState::Exited;
        failed.exitCode = 2;
        model.setJobs({running, failed});
        const QColor base = QApplication::palette().color(QPalette::Base);
        for (int row = 0; row < 2; ++row) {
            const QColor color = model.index(row, ui::JobListModel::StateColumn).data(Qt::ForegroundRole).value<QBrush>().color();
            QVERIFY2(readableOn(color, base), qPrintable(color.name()));
        }
    }

    void runDialogErrorStaysReadable()
    {
        ui::RunJobDialog dialog;
        dialog.show();
        dialog.accept(); // no command: the dialog says so, in its error colour
        QLabel *error = nullptr;
        for (QLabel *label : dialog.findChildren<QLabel *>())
            error = label->isVisible() && label->wordWrap() && !label->text().isEmpty() ? label : error;
        QVERIFY(error);
        QVERIFY2(readableOn(error->palette().color(QPalette::WindowText), dialog.palette().color(QPalette::Window)),
                 qPrintable(error->palette().color(QPalette::WindowText).name()));
        QVERIFY(error->styleSheet().isEmpty()); // a style sheet colour would not follow the theme
    }

    void overviewProblemsStayReadable()
    {
        ui::OverviewTab tab;
        MachineFacts facts;
        facts.os = QStringLiteral("Ubuntu 22.04");
        facts.nvidiaSmiFound = true;
        facts.simulatedGpu = true;
        facts.gpus = {MachineFacts::Gpu{0, QStringLiteral("NVIDIA H100 80GB (simulated)"), QString(), 81920}};
        facts.problems = {MachineFacts::Problem{QStringLiteral("PyTorch cannot see the GPU."), QStringLiteral("pip install torch")}};
        tab.resize(1024, 700);
        tab.show();
        tab.showFacts(facts);
        auto *tree = tab.findChild<QTreeWidget *>();
        QVERIFY(tree);
        const QColor base = tree->palette().color(QPalette::Base);
        int coloured = 0;
        for (int i = 0; i < tree->topLevelItemCount(); ++i) {
            const QTreeWidgetItem *item = tree->topLevelItem(i);
            if (item->foreground(1).style() == Qt::NoBrush)
                continue;
            ++coloured;
            QVERIFY2(readableOn(item->foreground(1).color(), base), qPrintable(item->text(0) + QLatin1Char(' ') + item->foreground(1).color().name()));
        }
        QCOMPARE(coloured, 3); // the simulated-GPU note, the GPU, the problem
        const QString dir = QStringLiteral(GANTRY_RENDER_DIR);
        QDir().mkpath(dir);
        QVERIFY(tab.grab().save(dir + QStringLiteral("/overview-dark-1024x700.png")));
    }
};

QTEST_MAIN(TestShellDarkColors)
#include "test_shell_darkcolors.moc"
