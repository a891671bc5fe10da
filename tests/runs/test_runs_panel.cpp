// SPDX-License-Identifier: Apache-2.0
// The Runs panel driving a real managed run on the local sandbox's spot machines (real sshd, jobs
// in tmux, the ledger): New run… from a folder, the spec checked as typed with the offer it would
// pick and its price, Start, and what the user then sees — the state turning to succeeded, the
// cost, the attempt and why it ended, the log lines. Renders the panel and the dialog to
// $GANTRY_SCREENSHOT_DIR at 1024x700 and 1600x1000, in English and (LANGUAGE=zh_CN) Chinese.
#include "core/providers/providerhub.h"
#include "core/providers/priceboard.h"
#include "core/providers/sandboxprovider.h"
#include "core/runs/runservice.h"
#include "core/runs/runstext.h"
#include "core/util/secretstore.h"
#include "core/workspace/appcore.h"
#include "core/workspace/workspace.h"
#include "sshdfixture.h"
#include "ui/jobs/boundedlogview.h"
#include "ui/runs/newrundialog.h"
#include "ui/runs/runattemptsmodel.h"
#include "ui/runs/runlistmodel.h"
#include "ui/runs/runspanel.h"

#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

using namespace gantry;

class TestRunsPanel final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<SecretStore> m_secrets = makeMemorySecretStore();
    std::unique_ptr<workspace::AppCore> m_core;
    QTranslator m_translator;

    QString configDir() const { return m_dir.filePath(QStringLiteral("config")); }

    // The log's last line, in the language the test runs in.
    QString succeededLine() const
    {
        return runs::RunsText::tr("Run %1 succeeded; results in %2.").arg(QStringLiteral("tiny"), m_dir.filePath(QStringLiteral("Gantry runs/tiny")));
    }

    void render(QWidget *widget, const QString &name, QSize size)
    {
        const QString out = qEnvironmentVariable("GANTRY_SCREENSHOT_DIR");
        widget->resize(size);
        widget->show();
        QCoreApplication::processEvents();
        if (!out.isEmpty())
            widget->grab().save(QStringLiteral("%1/%2-%3x%4.png").arg(out, name).arg(size.width()).arg(size.height()));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        if (!QFile::exists(QStringLiteral("/usr/sbin/sshd")) || QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
            GANTRY_REQUIRE_SSHD(QStringLiteral("openssh-server or python3 is not installed"));
        if (qEnvironmentVariable("LANGUAGE").startsWith(QLatin1String("zh")) && m_translator.load(QStringLiteral(GANTRY_QM_DIR "/gantry_zh_CN.qm")))
            QCoreApplication::installTranslator(&m_translator);
        workspace::AppCore::Options o;
        providers::ProviderSettings accounts;
        accounts.configDir = configDir();
        accounts.sandbox.bootDelayMs = 50;
        o.accounts = accounts;
        o.providerIds = QStringList{QStringLiteral("sandbox")};
        o.resumeWork = false;
        m_core = std::make_unique<workspace::AppCore>(configDir(), m_secrets.get(), o);
        m_core->open();
        m_core->workspace()->setLaunchTiming(100, 2, 100);
        runs::ManagedRun::Options run;
        run.tickMs = 100;
        run.launchPollMs = 100;
        run.homeRoot = m_dir.filePath(QStringLiteral("Gantry runs"));
        m_core->runs()->setRunOptions(run);
        QSignalSpy priced(m_core->prices(), &providers::PriceBoard::refreshed);
        m_core->prices()->refresh();
        QVERIFY(priced.wait(10000));
    }

    void cleanupTestCase()
    {
        if (!m_core)
            return;
        auto *sandbox = qobject_cast<providers::SandboxProvider *>(m_core->providers()->provider(QStringLiteral("sandbox")));
        QSignalSpy listed(this, &QObject::objectNameChanged);
        sandbox->listInstances([this, sandbox](Result<QList<providers::Instance>> left) {
            for (const providers::Instance &instance : left.valueOr({}))
                sandbox->terminate(instance.id, [](Result<void>) {});
            setObjectName(QStringLiteral("listed"));
        });
        listed.wait(5000);
    }

    void newRunFromAFolderSucceedsInThePanel()
    {
        const QString folder = m_dir.filePath(QStringLiteral("tiny"));
        QVERIFY(QDir().mkpath(folder));
        ui::RunsPanel panel(m_core.get());
        QSignalSpy refreshed(&panel, &ui::RunsPanel::refreshed);
        QVERIFY(refreshed.wait(5000));
        QCOMPARE(panel.model()->rowCount(), 0);
        render(&panel, QStringLiteral("runs-empty"), {1024, 700});

        ui::NewRunDialog *dialog = panel.openNewRun();
        QSignalSpy loaded(dialog, &ui::NewRunDialog::folderLoaded);
        dialog->setFolder(folder);
        QVERIFY(loaded.wait(5000));
        // The starting spec names the folder; a mistake shows the parser's one line and disables Start.
        QVERIFY(dialog->editor()->toPlainText().startsWith(QLatin1String("name: tiny")));
        dialog->editor()->setPlainText(QStringLiteral("name: tiny\nresources: {gpu: H1000}\nrun: x\n"));
        dialog->validateNow();
        QVERIFY2(dialog->verdict()->text().contains(QLatin1String("gpu")), qPrintable(dialog->verdict()->text()));
        QVERIFY(!dialog->verdict()->text().contains(QLatin1Char('\n')));
        QVERIFY(!dialog->startButton()->isEnabled());
        // A tiny job that writes a few lines: valid, with the spot offer it would pick and its price.
        dialog->editor()->setPlainText(QStringLiteral("name: tiny\nresources: {providers: [sandbox], gpu: any, spot: true}\n"
                                                      "run: for i in 1 2 3; do echo step $i; done; mkdir -p outputs; echo 42 > outputs/answer.txt\n"
                                                      "results: [outputs]\n"));
        dialog->validateNow();
        QVERIFY2(dialog->startButton()->isEnabled(), qPrintable(dialog->verdict()->text()));
        QVERIFY(dialog->offers()->rowCount() > 0);
        QCOMPARE(dialog->offers()->item(0, 0)->text(), QStringLiteral("sandbox"));
        QVERIFY(dialog->offers()->item(0, 1)->text().contains(QLatin1String("gpu_1x_sandbox_spot")));
        QVERIFY2(dialog->verdict()->text().contains(QLatin1String("$0.175")), qPrintable(dialog->verdict()->text()));
        render(dialog, QStringLiteral("runs-newrun"), {1024, 700});

        QSignalSpy started(dialog, &ui::NewRunDialog::started);
        dialog->startButton()->click();
        QVERIFY(started.wait(5000));
        QVERIFY(QFile::exists(folder + QStringLiteral("/run.yaml")));

        // What the user sees: the run listed and selected, its state reaching succeeded, its cost, the attempt, the log.
        auto stateOf = [&] {
            const int row = panel.model()->rowOf(QStringLiteral("tiny"));
            return row < 0 ? QString() : panel.model()->index(row, ui::RunListModel::StateColumn).data().toString();
        };
        QTRY_COMPARE_WITH_TIMEOUT(panel.selectedRun(), QStringLiteral("tiny"), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(), ui::RunListModel::stateText(runs::RunState::Succeeded), 60000);
        const int row = panel.model()->rowOf(QStringLiteral("tiny"));
        QVERIFY(panel.model()->index(row, ui::RunListModel::CostColumn).data().toString().startsWith(QLatin1Char('$')));
        QVERIFY(panel.model()->index(row, ui::RunListModel::CostColumn).data(ui::RunListModel::UnderlyingDataRole).toDouble() > 0);
        QCOMPARE(panel.model()->index(row, ui::RunListModel::AttemptsColumn).data().toInt(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(panel.attempts()->rowCount(), 1, 5000);
        QCOMPARE(panel.attempts()->index(0, ui::RunAttemptsModel::ReasonColumn).data().toString(), ui::RunAttemptsModel::reasonText(QStringLiteral("succeeded")));
        QCOMPARE(panel.attempts()->index(0, ui::RunAttemptsModel::ProviderColumn).data().toString(), QStringLiteral("sandbox"));
        QTRY_VERIFY_WITH_TIMEOUT(panel.log()->toPlainText().contains(succeededLine()), 5000);
        QVERIFY(panel.log()->toPlainText().contains(runs::RunsText::tr("Run %1 started.").arg(QStringLiteral("tiny"))));
        QVERIFY(!panel.stopButton()->isEnabled());
        QFile answer(m_dir.filePath(QStringLiteral("Gantry runs/tiny/outputs/answer.txt")));
        QVERIFY(answer.open(QIODevice::ReadOnly));
        QCOMPARE(answer.readAll(), QByteArray("42\n"));

        render(&panel, QStringLiteral("runs"), {1024, 700});
        render(&panel, QStringLiteral("runs"), {1600, 1000});
    }

    // The run outlives the panel: it lives on the core, and a new panel shows it from its files.
    void aNewPanelShowsTheSameRuns()
    {
        ui::RunsPanel panel(m_core.get());
        QSignalSpy refreshed(&panel, &ui::RunsPanel::refreshed);
        QVERIFY(refreshed.wait(5000));
        QVERIFY(panel.model()->rowOf(QStringLiteral("tiny")) >= 0);
        QTRY_VERIFY_WITH_TIMEOUT(panel.log()->toPlainText().contains(succeededLine()), 5000);
    }

    // A two-node run that lost node 1 once: each machine is a row of the timeline with its node,
    // the lost one with why it ended; nothing is clipped at 1024×700.
    void multiNodeRunShowsItsNodes()
    {
        runs::RunRecord record;
        record.name = QStringLiteral("duo");
        record.state = runs::RunState::Succeeded;
        record.message = QStringLiteral("Run duo succeeded.");
        const QDateTime t0 = QDateTime::currentDateTimeUtc().addSecs(-3600);
        auto machine = [&](const QString &id, int rank, int from, int to, const QString &reason) {
            runs::RunAttempt a;
            a.provider = QStringLiteral("sandbox");
            a.instance = id;
            a.type = QStringLiteral("gpu_1x_sandbox_spot");
            a.pricePerHour = 0.175;
            a.started = t0.addSecs(from);
            a.ended = t0.addSecs(to);
            a.endReason = reason;
            a.spot = true;
            a.rank = rank;
            return a;
        };
        record.attempts = {machine(QStringLiteral("node0-a"), 0, 0, 3000, QStringLiteral("succeeded")),
                           machine(QStringLiteral("node1-a"), 1, 0, 1200, QStringLiteral("preempted")),
                           machine(QStringLiteral("node1-b"), 1, 1260, 3000, QStringLiteral("succeeded"))};
        record.preemptions = 1;
        record.starts = 2;
        record.attempts[0].usage = runs::AttemptUsage{0.35, 0.0125, 3000, 3000};
        record.attempts[2].usage = runs::AttemptUsage{0.2, 0.05, 1740, 1740};
        QVERIFY(runs::RunStore(configDir()).save(record));
        ui::RunsPanel panel(m_core.get());
        QSignalSpy refreshed(&panel, &ui::RunsPanel::refreshed);
        QVERIFY(refreshed.wait(5000));
        panel.selectRun(QStringLiteral("duo"));
        QTRY_COMPARE_WITH_TIMEOUT(panel.attempts()->rowCount(), 3, 5000);
        const QString lost = panel.attempts()->index(1, ui::RunAttemptsModel::MachineColumn).data().toString();
        QVERIFY2(lost.startsWith(ui::RunAttemptsModel::tr("node %1 · %2").arg(1).arg(QString())), qPrintable(lost));
        QCOMPARE(panel.attempts()->index(1, ui::RunAttemptsModel::ReasonColumn).data().toString(), ui::RunAttemptsModel::reasonText(QStringLiteral("preempted")));
        // The run's GPU energy and its money spent on idle GPUs: both machines' added up.
        QVERIFY2(panel.details()->text().contains(QStringLiteral("GPU energy: 0.550 kWh")), qPrintable(panel.details()->text()));
        QVERIFY2(panel.details()->text().contains(QStringLiteral("$0.0625")), qPrintable(panel.details()->text()));
        render(&panel, QStringLiteral("runs-nodes"), {1024, 700});
        render(&panel, QStringLiteral("runs-nodes"), {1600, 1000});
    }
};

QTEST_MAIN(TestRunsPanel)
#include "test_runs_panel.moc"
