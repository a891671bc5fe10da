#pragma once

#include "providers/providerhub.h"

#include <QDateTime>
#include <QHash>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace gantry::ui {

class PriceFilterProxy;
class PriceTableModel;

// The Prices view: every provider's instance types with price and live capacity, filterable and
// sortable. Opens from the on-disk cache at once and refreshes in the background, showing the
// age of what it shows. Double-click (or Launch…) asks to launch the selected type.
class PricesPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PricesPanel)

public:
    PricesPanel(providers::ProviderHub *hub, QString configDir, QWidget *parent = nullptr);

    PriceTableModel *model() const { return m_model; }
    PriceFilterProxy *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    QString ageText() const;
    bool isRefreshing() const { return m_pending > 0; }

public slots:
    void refresh();

signals:
    void launchRequested(const QString &provider, const QString &typeName);
    void refreshed();

private:
    void updateAge();
    void finishOne();
    // Puts a provider's types in the table: a marketplace's offers grouped by model and count
    // (off the GUI thread) unless "Every offer" is ticked; then runs next.
    void showTypes(const QString &provider, const QList<providers::InstanceType> &types, std::function<void()> next = {});
    void showAll();
    bool isMarketplace(const QString &provider) const;
    QList<providers::InstanceType> rawTypes() const;

    providers::ProviderHub *m_hub;
    QString m_configDir;
    PriceTableModel *m_model;
    PriceFilterProxy *m_proxy;
    QTableView *m_view;
    QLineEdit *m_gpu;
    QSpinBox *m_minVram;
    QDoubleSpinBox *m_maxPrice;
    QCheckBox *m_available;
    QCheckBox *m_everyOffer;
    QPushButton *m_refresh;
    QLabel *m_age;
    QLabel *m_errors;
    QDateTime m_fetchedAt;
    QStringList m_errorTexts;
    int m_pending = 0;
    QTimer m_ageTimer;
    QHash<QString, QList<providers::InstanceType>> m_raw; // per provider, as listed (offers ungrouped)
    QStringList m_rawOrder;
};

} // namespace gantry::ui
