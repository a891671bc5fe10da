#include "ui/cost/costpanel.h"

#include "core/cost/budgetmonitor.h"
#include "core/cost/hostbilling.h"
#include "core/cost/money.h"
#include "core/cost/ledger.h"
#include "ui/cost/ledgermodel.h"
#include "core/cost/storagewarnings.h"
#include "core/monitor/monitorservice.h"

#include "ui/common/filedialogs.h"
#include "ui/common/tablelayout.h"
#include "ui/common/themecolors.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace gantry::ui {

CostPanel::CostPanel(cost::Ledger *ledger, QWidget *parent)
    : QWidget(parent)
    , m_ledger(ledger)
    , m_monitor(new cost::BudgetMonitor(ledger, this))
    , m_model(new LedgerModel(ledger, this))
    , m_view(new QTableView(this))
    , m_total(new QLabel(this))
    , m_storage(new QLabel(this))
    , m_underused(new QLabel(this))
    , m_hostBilling(new QPushButton(this))
    , m_budgetStatus(new QLabel(this))
    , m_warnings(new QLabel(this))
    , m_banner(new QLabel(this))
    , m_daily(new QDoubleSpinBox(this))
    , m_monthly(new QDoubleSpinBox(this))
{
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    TableLayout::fitToWidth(m_view); // the note takes the rest; type and state never elided
    setUpLabels();
    for (QDoubleSpinBox *box : {m_daily, m_monthly}) {
        box->setRange(0, 1e6);
        box->setDecimals(2);
        box->setPrefix(QStringLiteral("$"));
        box->setSpecialValueText(tr("no budget"));
        box->setToolTip(tr("Budgets are in US dollars and count only what is billed in dollars; a host billed in ¥ is not converted."));
    }
    m_daily->setObjectName(QStringLiteral("dailyBudget"));
    m_monthly->setObjectName(QStringLiteral("monthlyBudget"));
    m_daily->setValue(ledger->budget(QStringLiteral("daily")).valueOr(0));
    m_monthly->setValue(ledger->budget(QStringLiteral("monthly")).valueOr(0));

    auto *save = new QPushButton(tr("Save budgets"), this);
    auto *exportButton = new QPushButton(tr("Export CSV…"), this);
    auto *budgets = new QFormLayout;
    budgets->addRow(tr("Daily budget (USD)"), m_daily);
    budgets->addRow(tr("Monthly budget (USD)"), m_monthly);
    auto *top = new QHBoxLayout;
    top->addWidget(m_total, 1);
    top->addLayout(budgets);
    top->addWidget(save);
    top->addWidget(exportButton);
    top->addWidget(m_hostBilling);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_banner);
    layout->addLayout(top);
    layout->addWidget(m_storage);
    layout->addWidget(m_underused);
    layout->addWidget(m_budgetStatus);
    layout->addWidget(m_warnings);
    layout->addWidget(m_view, 1);

    connect(save, &QPushButton::clicked, this, &CostPanel::saveBudgets);
    connect(m_hostBilling, &QPushButton::clicked, this, &CostPanel::toggleHostBilling);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &CostPanel::updateHostBillingButton);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const QString path = FileDialogs::saveFile(this, tr("Export cost ledger"), QStringLiteral("gantry-cost.csv"), tr("CSV files (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    connect(m_monitor, &cost::BudgetMonitor::thresholdReached, this, [this](const QString &period, int threshold, double spent, double limit) {
        const QString text = cost::BudgetMonitor::alertText(period, threshold, spent, limit, m_monitor->billingNow());
        // A crossing stays on screen in Cost until the spend falls back under every threshold
        // (a new period): a notification alone is easy to miss.
        m_banner->setText(text);
        m_banner->show();
        emit budgetAlert(text);
    });
    connect(ledger, &cost::Ledger::changed, this, &CostPanel::reload);
    connect(&m_timer, &QTimer::timeout, this, &CostPanel::reload);
    m_timer.start(1000);
    reload();
}

void CostPanel::setUpLabels()
{
    m_total->setObjectName(QStringLiteral("total"));
    QFont big = m_total->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    m_total->setFont(big);
    m_storage->setObjectName(QStringLiteral("storage"));
    m_storage->setWordWrap(true);
    m_underused->setObjectName(QStringLiteral("underused"));
    m_underused->setWordWrap(true);
    m_underused->hide();
    m_hostBilling->setObjectName(QStringLiteral("hostBilling"));
    m_hostBilling->setToolTip(tr("Gantry cannot see when a saved host's machine is powered on: pause its billing when you "
                                 "shut it down in the vendor's console, resume it when you power it on."));
    m_hostBilling->hide();
    m_warnings->setObjectName(QStringLiteral("warnings"));
    m_warnings->setWordWrap(true);
    setToneText(m_warnings, Tone::Warning);
    m_banner->setObjectName(QStringLiteral("budgetBanner"));
    m_banner->setWordWrap(true);
    m_banner->setMargin(fontMetrics().height() / 2);
    setToneBackground(m_banner, Tone::Error);
    m_banner->hide();
}

QString CostPanel::totalText() const
{
    return m_total->text();
}

QString CostPanel::storageText() const
{
    return m_storage->isHidden() ? QString() : m_storage->text();
}

QString CostPanel::warningsText() const
{
    return m_warnings->text();
}

QString CostPanel::bannerText() const
{
    return m_banner->isHidden() ? QString() : m_banner->text();
}

void CostPanel::reload()
{
    m_model->reload();
    // Each currency on its own, never converted: "$3.20 + ¥30.00".
    const QList<cost::LedgerEntry> &entries = m_model->entries();
    // Volumes bill whether or not an instance uses them: in the totals, and said on their own line.
    QMap<QString, double> volumeRate, volumeSpent;
    if (const Result<QList<cost::VolumeEntry>> volumes = m_ledger->volumes(QDateTime::fromMSecsSinceEpoch(0, Qt::UTC))) {
        for (const cost::VolumeEntry &volume : *volumes) {
            volumeSpent[volume.currency] += volume.cost;
            if (volume.isOpen())
                volumeRate[volume.currency] += volume.pricePerHour;
        }
    }
    const auto plus = [](QMap<QString, double> sum, const QMap<QString, double> &more) {
        for (auto it = more.cbegin(); it != more.cend(); ++it)
            sum[it.key()] += it.value();
        return sum;
    };
    m_total->setText(tr("Running now: %1 · Total: %2")
                         .arg(cost::moneyTotalsText(plus(cost::ratesByCurrency(entries), volumeRate), QStringLiteral("/h")),
                              cost::moneyTotalsText(plus(cost::totalsByCurrency(entries), volumeSpent))));
    const QMap<QString, double> storage = cost::totalsByCurrency(entries, cost::CostPart::Storage);
    const QMap<QString, double> storageRate = cost::ratesByCurrency(entries, cost::CostPart::Storage);
    QStringList storageLines;
    if (!storage.isEmpty() || !storageRate.isEmpty())
        storageLines << tr("Disks of stopped instances: %1 now · %2 so far (in the total and the budgets)")
                            .arg(cost::moneyTotalsText(storageRate, QStringLiteral("/h")), cost::moneyTotalsText(storage));
    if (!volumeSpent.isEmpty())
        storageLines << tr("Volumes: %1 now · %2 so far (in the total and the budgets; Storage → Volumes lists them)")
                            .arg(cost::moneyTotalsText(volumeRate, QStringLiteral("/h")), cost::moneyTotalsText(volumeSpent));
    m_storage->setText(storageLines.join(QLatin1Char('\n')));
    m_storage->setVisible(!storageLines.isEmpty());
    updateHostBillingButton();
    QStringList status;
    bool anyCrossed = false;
    for (const QString &period : {QStringLiteral("daily"), QStringLiteral("monthly")}) {
        Result<cost::BudgetMonitor::Status> now = m_monitor->status(period);
        anyCrossed = anyCrossed || (now && now->limit > 0 && now->spent * 2 >= now->limit);
        if (now && now->limit > 0)
            status.append(tr("%1: %2 of %3 (%4 %), USD only").arg(period == QLatin1String("daily") ? tr("Daily budget") : tr("Monthly budget"), cost::formatUsd(now->spent), cost::formatUsd(now->limit)).arg(now->percent()));
    }
    m_budgetStatus->setText(status.join(QStringLiteral(" · ")));
    if (!anyCrossed)
        m_banner->hide();
    m_budgetStatus->setVisible(!status.isEmpty());
    // The ledger's clock: the reminder after N days stopped needs "now" (a test's ManualClock too).
    const QStringList warnings = cost::storageWarnings(m_model->entries(), m_ledger->clock().now());
    m_warnings->setText(warnings.join(QLatin1Char('\n')));
    m_warnings->setVisible(!warnings.isEmpty());
    updateUnderused();
    m_monitor->check();
}

void CostPanel::setMonitor(const monitor::MonitorService *service)
{
    m_service = service;
    updateUnderused();
}

QString CostPanel::underusedText() const
{
    return m_underused->isHidden() ? QString() : m_underused->text();
}

// What Monitor measured, beside what the ledger billed: the part of the bill the GPUs mostly
// idled through is the money a user can act on.
void CostPanel::updateUnderused()
{
    QStringList parts;
    for (const QString &name : m_service ? m_service->machines() : QStringList()) {
        const monitor::UsageMeter *usage = m_service->usage(name);
        if (!usage || usage->meteredSeconds() <= 0)
            continue;
        const QString money = usage->hasPrice() ? cost::formatUsd(usage->underusedUsd()) : tr("price unknown");
        const QString energy = usage->hasPower() ? monitor::UsageMeter::formatKwh(usage->energyKwh()) : tr("energy unknown");
        parts.append(tr("%1 %2 (%3)").arg(name, money, energy));
    }
    m_underused->setText(tr("Spent while the GPUs were under 30 % utilization (since monitoring began): %1")
                             .arg(parts.join(QStringLiteral(" · "))));
    m_underused->setVisible(!parts.isEmpty());
}

const cost::LedgerEntry *CostPanel::selectedHostRow() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.size() != 1 || rows.first().row() >= m_model->entries().size())
        return nullptr;
    const cost::LedgerEntry &entry = m_model->entries().at(rows.first().row());
    return entry.provider == cost::hostProvider() && entry.isOpen() ? &entry : nullptr;
}

void CostPanel::updateHostBillingButton()
{
    const cost::LedgerEntry *row = selectedHostRow();
    m_hostBilling->setVisible(row != nullptr);
    if (row)
        m_hostBilling->setText(row->isRunning() ? tr("Pause billing") : tr("Resume billing"));
}

void CostPanel::toggleHostBilling()
{
    const cost::LedgerEntry *row = selectedHostRow();
    if (!row)
        return;
    const QString name = row->name;
    const Result<void> done = row->isRunning() ? cost::stopHostBilling(*m_ledger, name) : cost::resumeHostBilling(*m_ledger, name);
    if (!done) {
        m_warnings->setText(done.error().message);
        m_warnings->show();
    }
    reload();
}

void CostPanel::saveBudgets()
{
    QStringList problems;
    for (const auto &[period, value] : {std::pair{QStringLiteral("daily"), m_daily->value()}, std::pair{QStringLiteral("monthly"), m_monthly->value()}}) {
        if (Result<void> saved = m_ledger->setBudget(period, value); !saved)
            problems << saved.error().message;
    }
    reload();
    if (!problems.isEmpty()) { // after reload(), which shows its own warnings
        m_warnings->setText(problems.join(QLatin1Char('\n')));
        m_warnings->show();
    }
}

bool CostPanel::exportCsv(const QString &path)
{
    Result<void> written = m_ledger->exportCsv(path);
    if (!written)
        m_warnings->setText(written.error().message);
    return written.ok();
}

} // namespace gantry::ui
