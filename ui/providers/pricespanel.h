#pragma once

#include "core/providers/capacitywatch.h"
#include "core/providers/providerhub.h"
#include "core/util/clock.h"
#include "ui/providers/pricetablemodel.h"

#include <QDateTime>
#include <QHash>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace gantry::providers {
class PriceBoard;
}

namespace gantry::ui {

class PriceFilterProxy;

// The Prices view: every provider's instance types with price and live capacity, filterable and
// sortable. Opens from the on-disk cache at once and refreshes in the background, showing the
// age of what it shows. Double-click (or Launch…) asks to launch the selected type.
class PricesPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PricesPanel)

public:
    // A view of the application core's price table (PriceBoard: the cache, refreshes, the write
    // back); the watch and "Launch when available" use the board's hub.
    explicit PricesPanel(providers::PriceBoard *board, QWidget *parent = nullptr);

    PriceTableModel *model() const { return m_model; }
    PriceFilterProxy *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    QString ageText() const;
    bool isRefreshing() const;
    // Offers on machines that failed Verify or Doctor, left out of the table (none while
    // "Show flagged machines" is ticked).
    int hiddenFlaggedCount() const;
    // Whether a price cache write is still running (the cache is written off the GUI thread).
    bool isWritingCache() const;

public slots:
    void refresh();
    // A flagged offer's "Forget this machine's record…" (its context menu), asked first: the
    // machine's offers are no longer hidden. The same core call as the Verify tab's.
    void forgetSelectedRecord();

    // Tests drive the watch faster (and on a ManualClock); the app uses the system clock.
    void setWatchTiming(Clock &clock, int pollMs) { m_clock = &clock; m_watchPollMs = pollMs; }
    bool isWatching() const { return m_watcher != nullptr; }
    // "Launch when available" rents through this (the workspace's launch: ledger row, host saved
    // once up); without one, a bare launch that still adopts a lost answer.
    void setLauncher(providers::CapacityWatcher::Launcher launcher) { m_launcher = std::move(launcher); }

    // The selected row's watch as a `gantry-cli watch-capacity --launch …` line (empty without a selection).
    QString headlessCommand() const;

signals:
    void launchRequested(const QString &provider, const QString &typeName);
    // "Launch when available" rented a machine (the launcher records and follows it).
    void launchedWhenAvailable(const QString &provider, const QString &instanceId, double pricePerHour,
                               const gantry::providers::LaunchRequest &request);
    // A watched GPU became available: a sentence for a desktop notification.
    void capacityAvailable(const QString &message);
    void refreshed();
    // machines.json was read again and the table follows it.
    void flagsLoaded();

private:
    void updateAge();
    void showListed(const QString &provider);
    void finishRefresh();
    // Puts a provider's types in the table: a marketplace's offers grouped by model and count
    // (off the GUI thread) unless "Every offer" is ticked; then runs next.
    void showTypes(const QString &provider, const QList<providers::InstanceType> &types, std::function<void()> next = {});
    void showAll();
    void setUpFilters();
    void setUpOffers();
    void setUpView();
    void layOut(QPushButton *launch);
    // Reads machines.json off the GUI thread, then shows every provider again with its flags.
    void loadFlags();
    void updateFlaggedText();
    void setUpWatch();
    std::optional<providers::WatchOptions> selectedWatch(bool launch) const;
    void toggleWatch(bool launch);
    // Uploads the Gantry key to every provider, then runs next with the key name and the providers that took it.
    void uploadKeys(std::function<void(const QString &keyName, const QList<providers::Provider *> &ready)> next);
    void startWatch(providers::WatchOptions options, QList<providers::Provider *> list);
    void watchLaunches();
    void handToHeadless();
    void stopWatching(const QString &status);
    bool isMarketplace(const QString &provider) const;

    providers::PriceBoard *m_board;
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
    QCheckBox *m_showFlagged;
    PriceTableModel::Flags m_flags;
    QHash<QString, int> m_hiddenFlagged; // per provider
    QPushButton *m_refresh;
    QLabel *m_age;
    QLabel *m_errors;
    int m_showing = 0;              // provider lists being grouped for the table
    bool m_awaitingRefresh = false; // a refresh started and refreshed() is not emitted yet
    QTimer m_ageTimer;
    QPushButton *m_watch;
    QPushButton *m_launchWatch;
    QPushButton *m_handOff;
    QStringList m_keyErrors;
    QString m_watchKey; // the account key a launching watch rents with
    QLabel *m_watchStatus;
    providers::CapacityWatcher *m_watcher = nullptr;
    providers::CapacityWatcher::Launcher m_launcher;
    QTimer m_watchTimer;
    Clock *m_clock = &Clock::system();
    int m_watchPollMs = 0;
};

} // namespace gantry::ui
