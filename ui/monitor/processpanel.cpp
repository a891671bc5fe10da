#include "ui/monitor/processpanel.h"

#include "ui/common/confirm.h"

#include "ui/monitor/processmodel.h"
#include "core/util/printable.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace gantry::ui::monitor {

using gantry::monitor::GpuProcess;
using gantry::monitor::KillSignal;

ProcessPanel::ProcessPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new ProcessModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_kill(new QPushButton(tr("Kill…"), this))
    , m_result(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ProcessModel::UnderlyingDataRole);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ProcessModel::ColMemory, Qt::DescendingOrder);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(ProcessModel::ColCommand, QHeaderView::Stretch);
    m_view->verticalHeader()->hide();
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(false);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTableView::customContextMenuRequested, this, &ProcessPanel::showContextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ProcessPanel::updateActions);
    auto *killShortcut = new QAction(this);
    killShortcut->setShortcut(QKeySequence::Delete);
    killShortcut->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(killShortcut, &QAction::triggered, this, &ProcessPanel::killSelected);
    m_view->addAction(killShortcut);

    m_kill->setToolTip(tr("End the selected process (asks first) (Delete)"));
    connect(m_kill, &QPushButton::clicked, this, &ProcessPanel::killSelected);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *head = new QHBoxLayout;
    auto *title = new QLabel(tr("GPU processes"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    head->addWidget(title);
    head->addWidget(m_result, 1);
    head->addWidget(m_kill);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(head);
    layout->addWidget(m_view, 1);
    updateActions();
}

void ProcessPanel::setProcesses(const QList<GpuProcess> &processes)
{
    m_model->setProcesses(processes);
    updateActions();
}

void ProcessPanel::setCanKill(bool canKill, const QString &why)
{
    m_canKill = canKill;
    m_cannotKillWhy = why;
    updateActions();
}

void ProcessPanel::showResult(const QString &text)
{
    m_result->setText(text);
}

QString ProcessPanel::resultText() const
{
    return m_result->text();
}

std::optional<GpuProcess> ProcessPanel::selectedProcess() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty()) {
        return std::nullopt;
    }
    const int row = m_proxy->mapToSource(rows.first()).row();
    return row >= 0 && row < m_model->processes().size() ? std::optional<GpuProcess>(m_model->processes().at(row)) : std::nullopt;
}

void ProcessPanel::updateActions()
{
    m_kill->setEnabled(m_canKill && selectedProcess().has_value());
    m_kill->setToolTip(m_canKill ? tr("End the selected process (asks first) (Delete)") : m_cannotKillWhy);
}

std::optional<KillSignal> ProcessPanel::askUser(const GpuProcess &p)
{
    QMessageBox box(QMessageBox::Warning, tr("End process %1?").arg(p.pid),
                    tr("End process %1 on %2?").arg(p.pid).arg(m_machine), QMessageBox::NoButton, this);
    const QString command = text::printable(p.commandLine.isEmpty() ? p.processName : p.commandLine);
    box.setInformativeText(tr("%1\nUser: %2 · GPU %3 · %4 MiB\n\nSIGTERM lets it clean up (a training loop can save a "
                              "checkpoint); SIGKILL ends it at once.")
                               .arg(command, p.user.isEmpty() ? tr("unknown") : text::printable(p.user))
                               .arg(p.gpuIndex)
                               .arg(p.usedMemoryMib ? QString::number(*p.usedMemoryMib, 'f', 0) : tr("n/a")));
    QPushButton *term = box.addButton(tr("End (SIGTERM)"), QMessageBox::AcceptRole);
    QPushButton *kill = box.addButton(tr("Kill (SIGKILL)"), QMessageBox::DestructiveRole);
    makeCancelDefault(box); // Enter must not end a training run
    box.exec();
    if (box.clickedButton() == term) {
        return KillSignal::Term;
    }
    if (box.clickedButton() == kill) {
        return KillSignal::Kill;
    }
    return std::nullopt;
}

void ProcessPanel::killSelected()
{
    const std::optional<GpuProcess> p = selectedProcess();
    if (!p) {
        showResult(tr("Select a process first."));
        return;
    }
    if (!m_canKill) {
        showResult(m_cannotKillWhy);
        return;
    }
    const std::optional<KillSignal> signal = m_confirm ? m_confirm(*p) : askUser(*p);
    if (signal) {
        showResult(tr("Sending SIG%1 to process %2…").arg(gantry::monitor::killSignalName(*signal)).arg(p->pid));
        emit killRequested(p->pid, *signal);
    }
}

void ProcessPanel::showContextMenu(const QPoint &pos)
{
    if (!m_view->indexAt(pos).isValid()) {
        return;
    }
    QMenu menu(this);
    QAction *kill = menu.addAction(tr("Kill…"), this, &ProcessPanel::killSelected);
    kill->setEnabled(m_canKill);
    menu.addAction(tr("Copy command line"), this, [this] {
        if (const auto p = selectedProcess()) {
            QApplication::clipboard()->setText(p->commandLine.isEmpty() ? p->processName : p->commandLine);
        }
    });
    menu.addAction(tr("Copy PID"), this, [this] {
        if (const auto p = selectedProcess()) {
            QApplication::clipboard()->setText(QString::number(p->pid));
        }
    });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace gantry::ui::monitor
