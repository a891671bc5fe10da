#include "ui/shell/overviewtab.h"

#include "ui/common/themecolors.h"
#include "core/ssh/connection.h"
#include "core/util/background.h"
#include "core/util/printable.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace gantry::ui {

OverviewTab::OverviewTab(QWidget *parent)
    : DetailTab(parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    m_status = new QLabel(tr("Select a machine and connect to see its facts."), this);
    m_status->setWordWrap(true);
    m_refresh = new QPushButton(tr("Refresh"), this);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_refresh->setEnabled(false);
    m_cancel->setVisible(false);
    top->addWidget(m_status, 1);
    top->addWidget(m_refresh);
    top->addWidget(m_cancel);
    layout->addLayout(top);
    m_facts = new QTreeWidget(this);
    m_facts->setColumnCount(2);
    m_facts->setHeaderLabels({tr("Fact"), tr("Value")});
    m_facts->setRootIsDecorated(false);
    m_facts->setWordWrap(true);
    m_facts->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_facts->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    // A long fix does not fit a narrow window: its row has the whole text as tooltip, and Copy
    // (context menu, Ctrl+C) takes it to a terminal.
    m_copy = new QAction(tr("Copy"), m_facts);
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetShortcut);
    m_facts->addAction(m_copy);
    m_facts->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_copy, &QAction::triggered, this, &OverviewTab::copySelected);
    layout->addWidget(m_facts, 1);
    connect(m_refresh, &QPushButton::clicked, this, &OverviewTab::refresh);
    connect(m_cancel, &QPushButton::clicked, this, [this] { m_gathering.cancel(); });
}

OverviewTab::~OverviewTab()
{
    m_gathering.cancel();
}

void OverviewTab::clearMachine()
{
    ++m_generation;
    m_gathering.cancel();
    if (m_connection)
        disconnect(m_connection, nullptr, this, nullptr);
    m_connection = nullptr;
    m_host = {};
    m_facts->clear();
    m_refresh->setEnabled(false);
    m_cancel->setVisible(false);
    showMessage(tr("Select a machine and connect to see its facts."));
}

void OverviewTab::setMachine(const SavedHost &host, ssh::Connection *connection)
{
    const bool same = host.name == m_host.name && connection == m_connection;
    if (same)
        return;
    clearMachine();
    m_host = host;
    m_connection = connection;
    if (m_connection) {
        connect(m_connection, &ssh::Connection::stateChanged, this, &OverviewTab::onStateChanged);
        // A machine that is gone takes Refresh with it (the QPointer is null by then).
        connect(m_connection, &QObject::destroyed, this, &OverviewTab::onStateChanged);
    }
    onStateChanged();
}

QString OverviewTab::copySelected() const
{
    QStringList lines;
    QList<QTreeWidgetItem *> items = m_facts->selectedItems();
    if (items.isEmpty() && m_facts->currentItem())
        items.append(m_facts->currentItem());
    for (const QTreeWidgetItem *item : std::as_const(items))
        lines.append(item->text(0) + QStringLiteral(": ") + item->text(1));
    const QString text = lines.join(QLatin1Char('\n'));
    if (!text.isEmpty())
        QApplication::clipboard()->setText(text);
    return text;
}

void OverviewTab::onStateChanged()
{
    if (!m_connection) {
        m_refresh->setEnabled(false);
        m_cancel->setVisible(false);
        if (!m_host.name.isEmpty())
            showMessage(tr("%1 (%2) is not connected. Press Connect.").arg(m_host.name, m_host.target.display()));
        return;
    }
    const ssh::ConnectionState state = m_connection->state();
    m_refresh->setEnabled(state == ssh::ConnectionState::Connected);
    switch (state) {
    case ssh::ConnectionState::Connected:
        refresh();
        break;
    case ssh::ConnectionState::Connecting:
        showMessage(tr("Connecting to %1…").arg(m_host.target.display()));
        break;
    default:
        showMessage(ssh::connectionStateName(state) + (m_connection->lastError().isEmpty() ? QString() : QStringLiteral(": ") + m_connection->lastError()));
        break;
    }
}

void OverviewTab::refresh()
{
    if (!m_connection || m_connection->state() != ssh::ConnectionState::Connected)
        return;
    showMessage(tr("Gathering facts from %1…").arg(m_host.target.display()));
    m_cancel->setVisible(true);
    m_refresh->setEnabled(false);
    const quint64 generation = ++m_generation;
    m_gathering.cancel(); // a refresh still queued is superseded by this one
    m_gathering = CancelToken();
    QPointer<OverviewTab> self(this);
    m_connection->post([self, generation, cancel = m_gathering](ssh::Session &session) {
        auto facts = gatherMachineFacts(session, cancel);
        background::deliver(self, [self, generation, facts] {
            if (self->m_generation != generation)
                return;
            self->m_cancel->setVisible(false);
            self->m_refresh->setEnabled(self->m_connection && self->m_connection->state() == ssh::ConnectionState::Connected);
            if (facts)
                self->showFacts(*facts);
            else
                self->showMessage(facts.error().message);
        });
    });
}

void OverviewTab::showMessage(const QString &text)
{
    // Messages quote host names and the host's errors: escaped, and never read as rich text.
    m_status->setTextFormat(Qt::PlainText);
    m_status->setText(text::printableLines(text));
}

void OverviewTab::showFacts(const MachineFacts &facts)
{
    m_facts->clear();
    // From the view's palette, so the colours stay readable on a dark theme.
    const QColor problemColor = toneColor(Tone::Error, m_facts->palette());
    const QColor simulatedColor = toneColor(Tone::Warning, m_facts->palette());
    // Every value is what the host reported: escaped, so a hostile host cannot hide or reorder text.
    auto add = [this](const QString &label, const QString &value, const QColor &color = {}) {
        auto *item = new QTreeWidgetItem(m_facts, {label, text::printableLines(value)});
        item->setToolTip(0, label);
        item->setToolTip(1, item->text(1));
        if (color.isValid()) {
            item->setForeground(0, color);
            item->setForeground(1, color);
        }
    };
    auto gib = [](qint64 mib) { return QString::number(double(mib) / 1024.0, 'f', 1); };
    add(tr("Operating system"), facts.os);
    add(tr("Kernel"), facts.kernel);
    add(tr("CPU"), tr("%1 cores — %2").arg(facts.cpuCores).arg(facts.cpuModel));
    if (facts.memTotalMiB)
        add(tr("Memory"), tr("%1 GiB total, %2 GiB available").arg(gib(*facts.memTotalMiB), gib(facts.memAvailableMiB.value_or(0))));
    if (facts.diskFreeMiB)
        add(tr("Disk"), tr("%1 GiB free of %2 GiB on %3").arg(gib(*facts.diskFreeMiB), gib(facts.diskTotalMiB.value_or(0)), facts.diskMount));
    if (!facts.nvidiaSmiFound)
        add(tr("GPUs"), tr("none (see the problem below)"), problemColor); // the cause is said once, with its fix
    if (facts.simulatedGpu) {
        add(tr("Simulated GPU"), tr("This nvidia-smi is the Gantry sandbox's stand-in: the GPU below is simulated, "
                                    "not real hardware. Verify and Doctor measure nothing on it."),
            simulatedColor);
    }
    for (const MachineFacts::Gpu &gpu : facts.gpus) {
        QString value = gpu.memoryTotalMiB ? tr("%1, %2 GiB").arg(gpu.name, gib(*gpu.memoryTotalMiB)) : gpu.name;
        if (facts.simulatedGpu && !gpu.name.contains(QStringLiteral("simulated"), Qt::CaseInsensitive))
            value = tr("%1 (simulated GPU)").arg(value);
        add(tr("GPU %1").arg(gpu.index), value, facts.simulatedGpu ? simulatedColor : QColor());
    }
    if (facts.nvidiaSmiFound && !facts.driverVersion.isEmpty())
        add(tr("Driver / CUDA"), tr("%1 / CUDA %2").arg(facts.driverVersion, facts.cudaVersion));
    add(tr("Python"), facts.pythonVersion.isEmpty() ? tr("not found") : facts.pythonVersion);
    if (!facts.torchVersion.isEmpty())
        add(tr("PyTorch"), tr("%1 (CUDA %2), cuda.is_available() = %3")
                               .arg(facts.torchVersion, facts.torchCudaVersion.isEmpty() ? tr("none") : facts.torchCudaVersion,
                                    facts.torchCudaAvailable.value_or(false) ? QStringLiteral("True") : QStringLiteral("False")),
            facts.torchCudaAvailable.value_or(false) ? QColor() : problemColor);
    else
        add(tr("PyTorch"), tr("not installed"));
    for (const MachineFacts::Problem &problem : facts.problems)
        add(tr("Problem"), problem.message + QStringLiteral("\n") + tr("Fix: %1").arg(problem.fix), problemColor);
    const QString name = m_host.name.isEmpty() ? tr("The machine") : m_host.name;
    if (!facts.problems.isEmpty())
        showMessage(tr("%n problem(s) found; each comes with its fix below.", nullptr, int(facts.problems.size())));
    else if (facts.simulatedGpu)
        showMessage(tr("%1 is ready, with a simulated GPU (Gantry sandbox).").arg(name));
    else
        showMessage(tr("%1 looks ready.").arg(name));
}

} // namespace gantry::ui
