// SPDX-License-Identifier: Apache-2.0
#include "ui/runs/runspanel.h"

#include "core/monitor/usagemeter.h"
#include "core/runs/runfollower.h"
#include "core/runs/runservice.h"
#include "core/util/background.h"
#include "core/workspace/appcore.h"
#include "ui/common/confirm.h"
#include "ui/common/tablelayout.h"
#include "ui/jobs/boundedlogview.h"
#include "ui/runs/newrundialog.h"
#include "ui/runs/runattemptsmodel.h"
#include "ui/runs/runlistmodel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gantry::ui {

namespace {

constexpr qint64 kLogTailBytes = 256 * 1024;

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->setWordWrap(false);
    return view;
}

} // namespace

RunsPanel::RunsPanel(workspace::AppCore *core, QWidget *parent)
    : QWidget(parent)
    , m_core(core)
    , m_model(new RunListModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_attempts(new RunAttemptsModel(this))
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    m_newRun = new QPushButton(tr("New run…"), this);
    m_stop = new QPushButton(tr("Stop…"), this);
    m_stop->setEnabled(false);
    bar->addWidget(m_newRun);
    bar->addWidget(m_stop);
    bar->addStretch(1);
    layout->addLayout(bar);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunListModel::UnderlyingDataRole);
    m_runsView = makeTable(m_proxy, this);
    m_runsView->setSortingEnabled(true);
    m_runsView->sortByColumn(RunListModel::NameColumn, Qt::AscendingOrder);
    TableLayout::fitToWidth(m_runsView, RunListModel::NameColumn);
    m_empty = new QLabel(tr("No runs yet. New run… starts a training run from a folder; it survives losing its machine "
                            "(`gantry-cli run start SPEC.yaml` does the same from a terminal)."), this);
    m_empty->setWordWrap(true);

    m_details = new QLabel(this);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_attemptsView = makeTable(m_attempts, this);
    m_attemptsView->setSelectionMode(QAbstractItemView::NoSelection);
    TableLayout::fitToWidth(m_attemptsView, RunAttemptsModel::MachineColumn);
    m_log = new BoundedLogView(this);
    m_log->setMaxBytes(kLogTailBytes);
    m_log->setPlaceholderText(tr("The selected run's events appear here as they happen."));

    auto *detail = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_details);
    detailLayout->addWidget(new QLabel(tr("Attempts"), detail));
    detailLayout->addWidget(m_attemptsView, 2);
    detailLayout->addWidget(new QLabel(tr("Log"), detail));
    detailLayout->addWidget(m_log, 3);

    auto *split = new QSplitter(Qt::Vertical, this);
    auto *top = new QWidget(split);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_empty);
    topLayout->addWidget(m_runsView);
    split->addWidget(top);
    split->addWidget(detail);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    layout->addWidget(split, 1);

    connect(m_newRun, &QPushButton::clicked, this, [this] { openNewRun(); });
    connect(m_stop, &QPushButton::clicked, this, &RunsPanel::askStop);
    connect(m_runsView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPanel::selectionChanged);
    // A run this window drives changes at once; others are read every second.
    connect(m_core->runs(), &runs::RunService::runEvent, this, &RunsPanel::refresh);
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &RunsPanel::refresh);
    m_timer.start();
    showSelected();
    refresh();
}

RunsPanel::~RunsPanel() = default;

QString RunsPanel::selectedRun() const
{
    const QModelIndexList rows = m_runsView->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(RunListModel::NameRole).toString();
}

void RunsPanel::selectRun(const QString &name)
{
    const int row = m_model->rowOf(name);
    if (row < 0)
        return;
    m_runsView->selectRow(m_proxy->mapFromSource(m_model->index(row, 0)).row());
}

void RunsPanel::refresh()
{
    if (m_reading)
        return;
    m_reading = true;
    const runs::RunBook book = m_core->runs()->book();
    background::run<QList<runs::RunRecord>>(this, [book] { return book.list(); }, [this](QList<runs::RunRecord> records) {
        m_reading = false;
        showRecords(records);
        emit refreshed();
    });
}

void RunsPanel::showRecords(const QList<runs::RunRecord> &records)
{
    m_model->setRecords(records, QDateTime::currentDateTimeUtc());
    m_empty->setVisible(records.isEmpty());
    m_runsView->setVisible(!records.isEmpty());
    if (m_model->rowOf(m_pendingSelect) >= 0) {
        selectRun(m_pendingSelect);
        m_pendingSelect.clear();
    } else if (selectedRun().isEmpty() && !records.isEmpty()) {
        m_runsView->selectRow(0);
    }
    showSelected();
}

void RunsPanel::selectionChanged()
{
    const QString name = selectedRun();
    if (m_follower && m_follower->name() == name)
        return;
    delete m_follower;
    m_follower = nullptr;
    m_log->clearLog();
    if (!name.isEmpty()) {
        // The tail of the log as it grows, from the files whichever process drives the run.
        m_follower = new runs::RunFollower(m_core->runs()->book(), name, 500, this);
        connect(m_follower, &runs::RunFollower::lines, m_log, [this](const QList<runs::RunLogLine> &lines) {
            QByteArray data;
            for (const runs::RunLogLine &line : lines)
                data += (line.time + QLatin1Char(' ') + line.message + QLatin1Char('\n')).toUtf8();
            m_log->appendData(data);
        });
        m_follower->start();
    }
    showSelected();
}

void RunsPanel::showSelected()
{
    const runs::RunRecord *record = m_model->record(selectedRun());
    m_stop->setEnabled(record && !runs::isFinal(record->state));
    if (!record) {
        m_attempts->setAttempts({}, {});
        m_details->setText(tr("Select a run to see its attempts and log."));
        return;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    m_attempts->setAttempts(record->attempts, now);
    QString text = tr("<b>%1</b> — %2").arg(record->name.toHtmlEscaped(), record->message.toHtmlEscaped());
    if (!record->checkpointPath.isEmpty())
        text += QStringLiteral("<br>") + tr("Checkpoints: %1").arg(record->checkpointPath.toHtmlEscaped());
    if (!record->resultsDir.isEmpty())
        text += QStringLiteral("<br>") + tr("Results: %1").arg(record->resultsDir.toHtmlEscaped());
    // Unknown until a GPU reported its power: never shown as 0.
    const runs::AttemptUsage usage = record->usage();
    QStringList used;
    if (usage.meteredSeconds > 0)
        used << tr("GPU energy: %1").arg(monitor::UsageMeter::formatKwh(usage.energyKwh));
    if (usage.observedSeconds > 0)
        used << tr("spent while the GPUs were under 30 %: %1").arg(RunListModel::moneyText(usage.underusedUsd));
    if (!used.isEmpty())
        text += QStringLiteral("<br>") + used.join(QStringLiteral(" · "));
    m_details->setText(text);
}

void RunsPanel::askStop()
{
    const QString name = selectedRun();
    if (name.isEmpty())
        return;
    QMessageBox box(QMessageBox::Question, tr("Stop run"),
                    tr("Stop run %1? Its job stops, its checkpoint comes home and its machine is terminated.").arg(name),
                    QMessageBox::NoButton, this);
    QPushButton *yes = box.addButton(tr("Stop run"), QMessageBox::DestructiveRole);
    makeCancelDefault(box);
    auto *keep = new QCheckBox(tr("Keep the machine running (it keeps billing)"), &box);
    box.setCheckBox(keep);
    box.exec();
    if (box.clickedButton() == yes)
        stopSelected(keep->isChecked());
}

void RunsPanel::stopSelected(bool keepMachine)
{
    const QString name = selectedRun();
    if (name.isEmpty())
        return;
    m_stop->setEnabled(false);
    m_core->runs()->stop(name, keepMachine, [self = QPointer<RunsPanel>(this)](Result<runs::RunBook::StopOutcome> asked) {
        if (!self)
            return;
        RunsPanel *const panel = self.data();
        if (!asked)
            panel->m_details->setText(asked.error().message.toHtmlEscaped());
        panel->refresh();
    });
}

NewRunDialog *RunsPanel::openNewRun()
{
    auto *dialog = new NewRunDialog(m_core->runs(), m_core->prices(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewRunDialog::started, this, [this](const QString &name) {
        m_pendingSelect = name;
        refresh();
    });
    dialog->show();
    return dialog;
}

} // namespace gantry::ui
