#include "ui/verify/verifytab.h"

#include "core/verify/acceptance.h"

#include "core/util/background.h"
#include "core/ssh/connection.h"
#include "ui/verify/acceptancepanel.h"
#include "ui/verify/doctormodel.h"
#include "ui/verify/reputationmodel.h"
#include "ui/verify/verdictstyle.h"
#include "ui/verify/verifyresultsmodel.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QAction>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace gantry::ui {

using namespace gantry::verify;

namespace {

QTableView *makeTable(QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(true);
    return view;
}

} // namespace

VerifyTab::VerifyTab(const AppContext &context, verify::MachineChecks *checks, QWidget *parent)
    : DetailTab(parent)
    , m_context(context)
    , m_binaryPath(defaultVerifyBinary())
    , m_checks(checks ? checks : new MachineChecks(context.configDir, this))
    , m_results(new VerifyResultsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_doctor(new DoctorModel(this))
    , m_reputation(new ReputationModel(this))
{
    m_proxy->setSourceModel(m_results);
    m_proxy->setSortRole(VerifyResultsModel::SortRole);
    createWidgets();
    layOut();
    connect(m_run, &QPushButton::clicked, this, [this] { start(false); });
    connect(m_quick, &QPushButton::clicked, this, [this] { start(true); });
    connect(m_doctorButton, &QPushButton::clicked, this, &VerifyTab::startDoctor);
    connect(m_acceptButton, &QPushButton::clicked, this, &VerifyTab::startAcceptance);
    connect(m_cancel, &QPushButton::clicked, this, &VerifyTab::cancel);
    connect(m_checks, &MachineChecks::progressed, this, &VerifyTab::onCheckProgress);
    connect(m_checks, &MachineChecks::finished, this, &VerifyTab::onCheckFinished);
    // The Machine menu's Verify GPU and Doctor (MainWindow::triggerTabCommand) press these buttons.
    for (const auto &[name, button] : {std::pair{"verifyAction", m_run}, std::pair{"doctorAction", m_doctorButton}}) {
        auto *command = new QAction(button->text(), this);
        command->setObjectName(QString::fromLatin1(name));
        connect(command, &QAction::triggered, button, &QPushButton::click);
        addAction(command);
    }
    showHint();
    updateButtons();
}

void VerifyTab::createWidgets()
{
    m_run = new QPushButton(tr("Run verification"), this);
    m_run->setToolTip(tr("Upload Gantry's GPU test program and run it for about a minute"));
    m_quick = new QPushButton(tr("Quick"), this);
    m_quick->setToolTip(tr("A shorter run (about 15 s): identity, bandwidth and compute rates"));
    m_doctorButton = new QPushButton(tr("Doctor"), this);
    m_doctorButton->setToolTip(tr("Check the driver, PyTorch, disk, ECC, clocks and PCIe, with fixes"));
    m_acceptButton = new QPushButton(tr("Acceptance test"), this);
    m_acceptButton->setToolTip(tr("Keep it or give it back: GPU health and measured figures against what good machines "
                                  "achieve, in about 90 s"));
    m_acceptance = new AcceptancePanel(this);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_banner = new QLabel(this);
    m_banner->setWordWrap(true);
    m_banner->setMargin(8);
    m_banner->hide();
    m_method = new QLabel(this);
    m_method->setWordWrap(true);
    m_method->hide();

    m_table = makeTable(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->horizontalHeader()->setSectionResizeMode(VerifyResultsModel::TestColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setStretchLastSection(false);

    m_findings = new QPlainTextEdit(this);
    m_findings->setReadOnly(true);
    m_findings->setPlaceholderText(tr("Spec comparison and findings appear here after a run."));
    m_findings->setMaximumHeight(110);

    m_doctorView = makeTable(this);
    m_doctorView->setModel(m_doctor);
    m_doctorView->horizontalHeader()->setSectionResizeMode(DoctorModel::MessageColumn, QHeaderView::Stretch);
    m_doctorView->horizontalHeader()->setSectionResizeMode(DoctorModel::FixColumn, QHeaderView::Stretch);
    // Wrapped rows re-fit when the window (and so the columns) change width, instead of keeping
    // the height they had at the first, narrower layout.
    m_doctorView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Room for about four checks of two lines each before it scrolls (it showed a row and a half).
    m_doctorView->setMinimumHeight(m_doctorView->horizontalHeader()->sizeHint().height()
                                   + 4 * (2 * fontMetrics().lineSpacing() + 8));

    m_history = new QListWidget(this);
    m_history->setToolTip(tr("This host's latest runs, newest first"));

    m_machines = makeTable(this);
    m_machines->setObjectName(QStringLiteral("machines"));
    m_machines->setModel(m_reputation);
    m_machines->setWordWrap(false);
    m_machines->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_machines->horizontalHeader()->setStretchLastSection(true);
    m_machines->setToolTip(tr("Every machine Verify or Doctor has run on: a failed one is flagged and its offers "
                              "are hidden from Prices"));
}

void VerifyTab::layOut()
{
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_quick);
    buttons->addWidget(m_doctorButton);
    buttons->addWidget(m_acceptButton);
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_progress, 1);

    auto box = [this](const QString &title, QWidget *first, QWidget *second = nullptr) {
        auto *group = new QGroupBox(title, this);
        auto *layout = new QVBoxLayout(group);
        layout->addWidget(first, 1);
        if (second)
            layout->addWidget(second);
        return group;
    };
    auto *lower = new QSplitter(Qt::Horizontal, this);
    m_lowerTabs = new QTabWidget(this);
    m_lowerTabs->addTab(m_doctorView, tr("Doctor"));
    m_lowerTabs->addTab(m_acceptance, tr("Acceptance test"));
    lower->addWidget(m_lowerTabs);
    lower->addWidget(box(tr("History"), m_history));
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 1);

    // Full width, so every figure of a machine's record is read without scrolling sideways.
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->addWidget(box(tr("Results"), m_table, m_findings));
    m_split->addWidget(lower);
    m_split->addWidget(box(tr("Machine records"), createRecordsPane()));
    m_split->setStretchFactor(0, 3);
    m_split->setStretchFactor(1, 2);
    m_split->setStretchFactor(2, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_banner);
    layout->addWidget(m_method);
    layout->addWidget(m_split, 1);
}

// A check in flight belongs to its machine (MachineChecks) and goes on without the tab.
VerifyTab::~VerifyTab() = default;

QString VerifyTab::title() const
{
    return tr("Verify");
}

void VerifyTab::setMachine(const SavedHost &host, ssh::Connection *connection)
{
    const bool otherHost = host.name != m_host.name;
    m_host = host;
    if (otherHost) {
        m_advertised = Advertised{};
        m_results->clear();
        m_doctor->setChecks({});
        m_acceptance->clear();
        m_findings->clear();
        m_banner->hide();
        m_method->hide();
        m_progress->setValue(0);
    }
    if (m_connection != connection) {
        if (m_connection)
            disconnect(m_connection, nullptr, this, nullptr);
        m_connection = connection;
        if (connection) {
            connect(connection, &ssh::Connection::stateChanged, this, &VerifyTab::onConnectionState);
            // A machine that is gone takes its buttons with it (the QPointer is null by then).
            connect(connection, &QObject::destroyed, this, &VerifyTab::onConnectionState);
        }
    }
    if (!isRunning() && (otherHost || m_statusIsHint))
        showHint();
    if (otherHost)
        showChecksOf(host.name); // a check still running there, or the last one that finished (its words, not the hint)
    updateButtons();
    loadHistory();
}

void VerifyTab::clearMachine()
{
    if (m_connection)
        disconnect(m_connection, nullptr, this, nullptr);
    m_connection = nullptr;
    m_host = SavedHost{};
    m_results->clear();
    m_doctor->setChecks({});
    m_acceptance->clear();
    m_history->clear();
    m_reputation->setMachines(m_reputation->machines(), {});
    m_findings->clear();
    m_banner->hide();
    m_method->hide();
    showHint();
    updateButtons();
}

void VerifyTab::showHint()
{
    if (isRunning())
        return;
    const ssh::ConnectionState state = m_connection ? m_connection->state() : ssh::ConnectionState::Disconnected;
    if (m_host.name.isEmpty())
        m_status->setText(tr("Select a machine and connect to verify its GPUs."));
    else if (state == ssh::ConnectionState::Connected)
        m_status->setText(tr("Ready to verify %1.").arg(m_host.name));
    else if (state == ssh::ConnectionState::Connecting)
        m_status->setText(tr("Connecting to %1…").arg(m_host.name));
    else
        m_status->setText(tr("Connect to %1 to verify its GPUs.").arg(m_host.name));
    m_statusIsHint = true;
}

void VerifyTab::setStatus(const QString &text)
{
    m_status->setText(text);
    m_statusIsHint = false;
}

void VerifyTab::setAdvertised(const Advertised &advertised)
{
    m_advertised = advertised;
}

Advertised VerifyTab::advertised() const
{
    return advertisedFor(m_host, m_advertised);
}

void VerifyTab::onConnectionState()
{
    // Disconnecting the machine ends its check (MachineChecks listens to the connection too).
    // The hint follows the connection: "Connect to …" must not stay once connected.
    if (m_statusIsHint)
        showHint();
    updateButtons();
}

void VerifyTab::updateButtons()
{
    const bool connected = m_connection && m_connection->state() == ssh::ConnectionState::Connected;
    const bool running = isRunning();
    m_run->setEnabled(connected && !running);
    m_quick->setEnabled(connected && !running);
    m_doctorButton->setEnabled(connected && !running);
    m_acceptButton->setEnabled(connected && !running);
    m_cancel->setEnabled(running);
}

bool VerifyTab::isRunning() const
{
    return !m_host.name.isEmpty() && m_checks->isRunning(m_host.name);
}

void VerifyTab::setBanner(Verdict verdict, const QString &text)
{
    const QColor fg = verdictColor(verdict);
    const QColor bg = verdictBackground(verdict);
    m_banner->setStyleSheet(QStringLiteral("QLabel { color: %1; background: %2; border: 1px solid %1; "
                                           "border-radius: 4px; font-weight: bold; }")
                                .arg(fg.name(), bg.name()));
    m_banner->setText(text);
    m_banner->show();
}

QString VerifyTab::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_banner->text();
}

QString VerifyTab::statusText() const
{
    return m_status->text();
}

void VerifyTab::showOutcome(const VerifyOutcome &outcome)
{
    showAssessed(outcome, assessOutcome(outcome, SpecTable::builtIn(), advertised()));
}

void VerifyTab::showAssessed(const VerifyOutcome &outcome, const Assessment &assessment)
{
    const Report &report = outcome.report;
    m_results->setReport(report);
    m_table->resizeColumnsToContents();
    showDoctor(outcome.doctor);
    // Nothing measured: the cause is in Doctor's rows, said once there rather than again in the
    // banner, the method line and the findings (a simulated GPU keeps its own headline).
    const bool nothingTested = report.gpus.isEmpty();
    const bool doctorSaysWhy = nothingTested && !outcome.doctor.isEmpty();
    setBanner(assessment.verdict, doctorSaysWhy && !outcome.probe.simulatedGpu ? tr("ERROR: no GPU was tested") : assessment.headline);
    m_method->setText(tr("How: %1 — %2").arg(methodName(report.method), report.methodReason));
    m_method->setVisible(!nothingTested);
    m_progress->setValue(100);

    QStringList lines;
    for (const SpecComparison &c : assessment.comparisons) {
        if (c.specId.isEmpty())
            continue;
        auto pct = [](std::optional<double> m, std::optional<double> s) {
            const auto r = SpecComparison::ratio(m, s);
            return r ? QStringLiteral("%1%").arg(qRound(*r * 100)) : QStringLiteral("—");
        };
        lines.append(tr("GPU %1 vs %2 spec: memory bandwidth %3, FP32 %4, tensor %5 of the datasheet")
                         .arg(c.gpuIndex)
                         .arg(c.specModel, pct(c.bandwidthGbs, c.specBandwidthGbs), pct(c.fp32Tflops, c.specFp32Tflops),
                              pct(c.tensorTflops, c.specTensorTflops)));
    }
    for (const Finding &f : assessment.findings) {
        if (f.status != Verdict::Pass)
            lines.append(verdictLabel(f.status) + QStringLiteral(": ") + f.message);
    }
    if (nothingTested && !doctorSaysWhy)
        lines.append(report.errors);
    if (assessment.usdPerTflopHour)
        lines.append(tr("Cost: $%1 per measured tensor TFLOPS-hour").arg(*assessment.usdPerTflopHour, 0, 'f', 4));
    m_findings->setPlainText(lines.join(QLatin1Char('\n')));
    // "…appear here after a run" would be stale once a run has measured nothing.
    m_findings->setPlaceholderText(nothingTested ? tr("Nothing was measured, so there is nothing to compare.")
                                                 : tr("Spec comparison and findings appear here after a run."));
    setStatus(!nothingTested ? tr("Finished in %1 s.").arg(report.durationS.value_or(0), 0, 'f', 1)
              : doctorSaysWhy ? tr("See Doctor below for the cause and the fix.")
                              : tr("No GPU could be tested."));
}

void VerifyTab::showDoctor(const QList<DoctorCheck> &checks)
{
    m_doctor->setChecks(checks);
}

QString VerifyTab::historyHeadline(const HistoryEntry &e)
{
    const QString when = e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    // "Error 0× no GPU" read as a count; say what happened.
    if (e.gpuCount == 0 || e.gpuName.isEmpty())
        return e.verdict == Verdict::Error ? tr("%1  Error: no GPU could be tested").arg(when)
                                           : tr("%1  %2: no GPU was tested").arg(when, verdictLabel(e.verdict));
    return tr("%1  %2: %n× %3", nullptr, e.gpuCount).arg(when, verdictLabel(e.verdict), e.gpuName);
}

void VerifyTab::showHistory(const QList<HistoryEntry> &entries)
{
    m_history->clear();
    for (const HistoryEntry &e : entries) {
        QString text = historyHeadline(e);
        if (e.bandwidthGbs)
            text += tr(", %1 GB/s").arg(*e.bandwidthGbs, 0, 'f', 0);
        if (e.tensorTflops)
            text += tr(", %1 TFLOPS").arg(*e.tensorTflops, 0, 'f', 0);
        if (e.usdPerTflopHour)
            text += tr(", $%1/TFLOPS-h").arg(*e.usdPerTflopHour, 0, 'f', 4);
        auto *item = new QListWidgetItem(text, m_history);
        item->setForeground(verdictColor(e.verdict));
        item->setToolTip(tr("%1 via %2").arg(e.host, e.method));
    }
}

void VerifyTab::loadReputation()
{
    if (m_context.configDir.isEmpty())
        return;
    background::run<QList<MachineRecord>>(this, [configDir = m_context.configDir](const CancelToken &) {
        ReputationStore store(configDir);
        (void)store.load(); // a damaged file shows no records; the next run's record keeps it aside
        return store.machines();
    }, [this](QList<MachineRecord> machines) {
        m_reputation->setMachines(machines, m_host.name);
        emit reputationLoaded();
    });
}

void VerifyTab::loadHistory()
{
    loadReputation();
    m_history->clear();
    if (m_context.configDir.isEmpty() || m_host.name.isEmpty())
        return;
    // SQLite is local but still disk work: read it off the GUI thread.
    const QString host = m_host.name;
    background::run<QList<HistoryEntry>>(this, [configDir = m_context.configDir, host](const CancelToken &) {
        HistoryStore store(configDir);
        if (!store.open())
            return QList<HistoryEntry>{};
        auto entries = store.list({}, {}, host, 50);
        return entries ? std::move(entries).value() : QList<HistoryEntry>{};
    }, [this, host](QList<HistoryEntry> list) {
        if (m_host.name == host)
            showHistory(list);
    });
}

} // namespace gantry::ui
