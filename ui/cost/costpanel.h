#pragma once

#include <QTimer>
#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableView;

namespace gantry::cost {
class BudgetMonitor;
struct LedgerEntry;
class Ledger;
} // namespace gantry::cost

namespace gantry::monitor {
class MonitorService;
}

namespace gantry::ui {

class LedgerModel;

// The Cost view: live meters (the ledger re-read every second), total $/h now, budgets with
// 50/80/100 % alerts (budgetAlert(), for a desktop notification), storage that keeps billing
// (its own column and line, counted in the total and the budgets), pausing and resuming a
// saved host's billing, and CSV export.
class CostPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CostPanel)

public:
    explicit CostPanel(cost::Ledger *ledger, QWidget *parent = nullptr);

    LedgerModel *model() const { return m_model; }
    QString totalText() const;
    // What the disks of stopped instances bill now and have billed ("" when none ever did).
    QString storageText() const;
    QString warningsText() const;
    // The coloured strip of the last budget crossing ("" when hidden).
    QString bannerText() const;
    // Monitored machines: the money spent while their GPUs were under 30 % utilization, and their
    // energy, on a line of its own (hidden until a machine has been monitored).
    void setMonitor(const monitor::MonitorService *service);
    QString underusedText() const;

public slots:
    void reload();
    bool exportCsv(const QString &path);

signals:
    void budgetAlert(const QString &message);

private:
    void setUpLabels();
    void saveBudgets();
    // The selected row when it is a saved host's billing that is still open.
    const cost::LedgerEntry *selectedHostRow() const;
    void updateHostBillingButton();
    void toggleHostBilling();
    void updateUnderused();

    cost::Ledger *m_ledger;
    cost::BudgetMonitor *m_monitor;
    LedgerModel *m_model;
    QTableView *m_view;
    QLabel *m_total;
    QLabel *m_storage;
    QLabel *m_underused;
    const monitor::MonitorService *m_service = nullptr;
    QPushButton *m_hostBilling;
    QLabel *m_budgetStatus;
    QLabel *m_warnings;
    QLabel *m_banner;
    QDoubleSpinBox *m_daily;
    QDoubleSpinBox *m_monthly;
    QTimer m_timer;
};

} // namespace gantry::ui
