#include "ui/providers/pricespanel.h"

#include "core/util/background.h"
#include "core/providers/priceboard.h"
#include "ui/providers/pricefilterproxy.h"
#include "ui/providers/pricetablemodel.h"
#include "core/providers/pricegroups.h"
#include "core/verify/reputation.h"
#include "ui/verify/forgetrecord.h"

#include <QAction>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace gantry::ui {

PricesPanel::PricesPanel(providers::PriceBoard *board, QWidget *parent)
    : QWidget(parent)
    , m_board(board)
    , m_hub(board->hub())
    , m_configDir(board->configDir())
    , m_model(new PriceTableModel(this))
    , m_proxy(new PriceFilterProxy(this))
    , m_view(new QTableView(this))
    , m_gpu(new QLineEdit(this))
    , m_minVram(new QSpinBox(this))
    , m_maxPrice(new QDoubleSpinBox(this))
    , m_available(new QCheckBox(tr("Available now"), this))
    , m_everyOffer(new QCheckBox(tr("Every offer"), this))
    , m_showFlagged(new QCheckBox(tr("Show flagged machines"), this))
    , m_refresh(new QPushButton(tr("Refresh"), this))
    , m_age(new QLabel(this))
    , m_errors(new QLabel(this))
    , m_watch(new QPushButton(tr("Notify me"), this))
    , m_launchWatch(new QPushButton(tr("Launch when available"), this))
    , m_handOff(new QPushButton(tr("Copy headless command"), this))
    , m_watchStatus(new QLabel(this))
{
    setUpFilters();
    setUpView();
    setUpOffers();
    setUpWatch();
    auto *launch = new QPushButton(tr("Launch…"), this);
    launch->setObjectName(QStringLiteral("launch"));
    layOut(launch);

    connect(m_gpu, &QLineEdit::textChanged, m_proxy, &PriceFilterProxy::setGpuText);
    connect(m_minVram, &QSpinBox::valueChanged, m_proxy, &PriceFilterProxy::setMinVramGb);
    connect(m_maxPrice, &QDoubleSpinBox::valueChanged, m_proxy, &PriceFilterProxy::setMaxPricePerHour);
    connect(m_available, &QCheckBox::toggled, m_proxy, &PriceFilterProxy::setAvailableOnly);
    connect(m_refresh, &QPushButton::clicked, this, &PricesPanel::refresh);
    auto requestLaunch = [this] {
        const QModelIndex current = m_view->currentIndex();
        if (!current.isValid())
            return;
        emit launchRequested(current.data(PriceTableModel::ProviderIdRole).toString(),
                             current.data(PriceTableModel::TypeNameRole).toString());
    };
    connect(m_view, &QTableView::doubleClicked, this, requestLaunch);
    connect(launch, &QPushButton::clicked, this, requestLaunch);
    connect(&m_ageTimer, &QTimer::timeout, this, &PricesPanel::updateAge);
    m_ageTimer.start(30000);
    connect(m_board, &providers::PriceBoard::typesListed, this, &PricesPanel::showListed);
    connect(m_board, &providers::PriceBoard::refreshStarted, this, [this] {
        m_awaitingRefresh = true;
        updateAge();
    });
    connect(m_board, &providers::PriceBoard::refreshed, this, &PricesPanel::finishRefresh);
    connect(m_board, &providers::PriceBoard::cacheWriteFailed, this, [this](const QString &message) {
        m_errors->setText((m_board->errors() + QStringList{message}).join(QLatin1Char('\n')));
        m_errors->setVisible(true);
    });
    // The core's table shows at once: the cache at the first start, else what the board holds.
    if (!m_board->fetchedAt().isValid())
        m_board->loadCache();
    else
        showAll();
    loadFlags();
    updateAge();
    if (m_hub)
        connect(m_hub, &providers::ProviderHub::providersChanged, this, &PricesPanel::refresh);
}

void PricesPanel::setUpView()
{
    m_available->setObjectName(QStringLiteral("availableOnly"));
    m_refresh->setObjectName(QStringLiteral("refresh"));
    m_age->setObjectName(QStringLiteral("age"));
    // Its longest texts ("Refreshing… (showing prices from …)") would widen the window past
    // 1024 px (to 1253): it wraps into the room the filters leave instead.
    m_age->setWordWrap(true);
    m_age->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_errors->setObjectName(QStringLiteral("errors"));
    m_errors->setWordWrap(true);
    m_errors->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_errors->hide();
    m_proxy->setSourceModel(m_model);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(PriceTableModel::PriceColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    auto *forget = new QAction(tr("Forget this machine's record…"), m_view);
    forget->setObjectName(QStringLiteral("forgetRecord"));
    m_view->addAction(forget);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(forget, &QAction::triggered, this, &PricesPanel::forgetSelectedRecord);
    // Only a flagged offer has a record to forget: the menu shows the action greyed out elsewhere.
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, forget, [forget](const QModelIndex &current) {
        forget->setEnabled(!current.data(PriceTableModel::RecordKeyRole).toString().isEmpty());
    });
    forget->setEnabled(false);
}

void PricesPanel::forgetSelectedRecord()
{
    const QModelIndex current = m_view->currentIndex();
    const QString key = current.data(PriceTableModel::RecordKeyRole).toString();
    if (key.isEmpty() || m_configDir.isEmpty())
        return;
    const QString label = tr("the %1 machine %2 of %3").arg(current.siblingAtColumn(PriceTableModel::GpuModelColumn).data(PriceTableModel::RawValueRole).toString(),
                                                           key.section(u':', 1),
                                                           current.siblingAtColumn(PriceTableModel::ProviderColumn).data().toString());
    forgetMachineRecord(this, m_configDir, key, label, [self = QPointer<PricesPanel>(this)](Result<void> forgotten) {
        if (!self)
            return;
        if (!forgotten) {
            self->m_errors->setText(forgotten.error().message);
            self->m_errors->setVisible(true);
        }
        self->loadFlags();
    });
}

void PricesPanel::layOut(QPushButton *launch)
{
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_gpu, 2);
    filters->addWidget(m_minVram);
    filters->addWidget(m_maxPrice);
    filters->addWidget(m_available);
    filters->addWidget(m_everyOffer);
    filters->addStretch(1);
    filters->addWidget(m_age);
    filters->addWidget(m_refresh);
    filters->addWidget(launch);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(filters);
    layout->addWidget(m_errors);
    auto *watchRow = new QHBoxLayout; // below the filters, so they keep their room at 1024 pixels
    watchRow->addWidget(m_watch);
    watchRow->addWidget(m_launchWatch);
    watchRow->addWidget(m_handOff);
    watchRow->addWidget(m_watchStatus, 1);
    watchRow->addWidget(m_showFlagged); // here, not among the filters: they keep their room at 1024 pixels
    layout->addLayout(watchRow);
    layout->addWidget(m_view, 1);
}

QString PricesPanel::ageText() const
{
    const QDateTime fetchedAt = m_board->fetchedAt();
    if (isRefreshing())
        return fetchedAt.isValid() ? tr("Refreshing… (showing prices from %1)").arg(QLocale().toString(fetchedAt.toLocalTime(), QLocale::ShortFormat))
                                   : tr("Loading prices…");
    if (!fetchedAt.isValid())
        return tr("Never refreshed");
    const qint64 seconds = fetchedAt.secsTo(QDateTime::currentDateTimeUtc());
    if (seconds < 60)
        return tr("Updated just now");
    if (seconds < 3600)
        return tr("Updated %n min ago", nullptr, int(seconds / 60));
    if (seconds < 86400)
        return tr("Updated %n h ago", nullptr, int(seconds / 3600));
    return tr("Updated %n days ago — refresh for current prices", nullptr, int(seconds / 86400));
}

void PricesPanel::updateAge()
{
    m_age->setText(ageText());
    m_refresh->setEnabled(!isRefreshing());
}

void PricesPanel::refresh()
{
    if (!m_hub || isRefreshing())
        return;
    loadFlags(); // a Verify may have failed since the last look
    m_board->refresh();
}

bool PricesPanel::isRefreshing() const
{
    return m_board->isRefreshing() || m_showing > 0;
}

bool PricesPanel::isWritingCache() const
{
    return m_board->isWritingCache();
}

// A provider's list arrived (from the cache or a refresh): its rows replace the old ones once
// grouped (off the GUI thread for a marketplace).
void PricesPanel::showListed(const QString &provider)
{
    ++m_showing;
    QPointer<PricesPanel> self(this);
    showTypes(provider, m_board->types(provider), [self] {
        if (!self)
            return;
        --self->m_showing;
        self->finishRefresh();
    });
}

// The refresh ends for the user when the board has every answer and the table shows them all.
void PricesPanel::finishRefresh()
{
    if (!m_awaitingRefresh || isRefreshing())
        return;
    m_awaitingRefresh = false;
    const QStringList errors = m_board->errors();
    m_errors->setText(errors.join(QLatin1Char('\n')));
    m_errors->setVisible(!errors.isEmpty());
    updateAge();
    emit refreshed();
}

void PricesPanel::setUpFilters()
{
    m_gpu->setObjectName(QStringLiteral("gpuFilter"));
    m_gpu->setPlaceholderText(tr("GPU model, e.g. H100"));
    m_gpu->setClearButtonEnabled(true);
    m_minVram->setObjectName(QStringLiteral("minVram"));
    m_minVram->setRange(0, 1024);
    m_minVram->setSuffix(tr(" GB"));
    m_minVram->setPrefix(tr("VRAM ≥ "));
    m_maxPrice->setObjectName(QStringLiteral("maxPrice"));
    m_maxPrice->setRange(0, 1000);
    m_maxPrice->setDecimals(2);
    m_maxPrice->setPrefix(tr("≤ $"));
    m_maxPrice->setSuffix(tr("/h"));
    m_maxPrice->setSpecialValueText(tr("any price"));
}

void PricesPanel::setUpOffers()
{
    m_everyOffer->setObjectName(QStringLiteral("everyOffer"));
    m_everyOffer->setToolTip(tr("Marketplaces such as Vast.ai list single machines. Grouped, each row is one GPU model and "
                                "count with its cheapest and median price; tick to see every machine with its reliability."));
    connect(m_everyOffer, &QCheckBox::toggled, this, &PricesPanel::showAll);
    m_showFlagged->setObjectName(QStringLiteral("showFlagged"));
    m_showFlagged->setToolTip(tr("Offers on machines that failed Verify or Doctor (see the Verify tab's machine "
                                 "records) are hidden; tick to show them, marked, one row each."));
    connect(m_showFlagged, &QCheckBox::toggled, this, &PricesPanel::showAll);
    // Columns as wide as what they hold, so all of them (group rows' "12 · median $2.10" last)
    // fit a 1024-pixel window without scrolling sideways.
    m_view->horizontalHeader()->setResizeContentsPrecision(200);
    connect(m_model, &QAbstractItemModel::modelReset, m_view, &QTableView::resizeColumnsToContents);
}

bool PricesPanel::isMarketplace(const QString &provider) const
{
    const providers::Provider *p = m_hub ? m_hub->provider(provider) : nullptr;
    return p && p->can(providers::Capability::Marketplace);
}

void PricesPanel::showTypes(const QString &provider, const QList<providers::InstanceType> &types, std::function<void()> next)
{
    const bool group = isMarketplace(provider) && !m_everyOffer->isChecked();
    QPointer<PricesPanel> self(this);
    // Flagged offers stay out of groups: shown, each is its own marked row; else hidden.
    auto rowsFor = [types, group, flags = m_flags, showFlagged = m_showFlagged->isChecked()] {
        QList<providers::InstanceType> kept, flagged;
        for (const providers::InstanceType &type : types) {
            const bool bad = !type.machineId.isEmpty() && flags.contains(PriceTableModel::flagKey(type.provider, type.machineId));
            (bad ? flagged : kept).append(type);
        }
        QList<providers::InstanceType> rows = group ? providers::groupRows(kept) : kept;
        if (showFlagged)
            rows.append(flagged);
        return std::pair{rows, showFlagged ? 0 : int(flagged.size())};
    };
    auto show = [self, provider, next](const std::pair<QList<providers::InstanceType>, int> &result) {
        if (!self)
            return;
        self->m_hiddenFlagged.insert(provider, result.second);
        self->updateFlaggedText();
        self->m_model->setTypes(provider, result.first);
        if (next)
            next();
    };
    if (!group && m_flags.isEmpty()) {
        show(rowsFor());
        return;
    }
    background::run<std::pair<QList<providers::InstanceType>, int>>(this, rowsFor, show);
}

int PricesPanel::hiddenFlaggedCount() const
{
    int hidden = 0;
    for (int n : m_hiddenFlagged)
        hidden += n;
    return hidden;
}

void PricesPanel::updateFlaggedText()
{
    const int hidden = hiddenFlaggedCount();
    m_showFlagged->setText(hidden > 0 ? tr("Show flagged machines (%n hidden)", nullptr, hidden) : tr("Show flagged machines"));
}

void PricesPanel::loadFlags()
{
    if (m_configDir.isEmpty())
        return;
    QPointer<PricesPanel> self(this);
    background::run<PriceTableModel::Flags>(this, [configDir = m_configDir] {
        verify::ReputationStore store(configDir);
        (void)store.load(); // a damaged file flags nothing; Verify's next record keeps it aside
        PriceTableModel::Flags flags;
        for (const verify::MachineRecord &m : store.machines()) {
            if (m.bad() && !m.machineId.isEmpty())
                flags.insert(PriceTableModel::flagKey(m.provider, m.machineId), {m.lastProblem, m.lastTime, m.fails});
        }
        return flags;
    }, [self](const PriceTableModel::Flags &flags) {
        if (!self)
            return;
        auto keys = [](const PriceTableModel::Flags &f) {
            QStringList k = f.keys();
            k.sort();
            return k;
        };
        const bool changed = keys(flags) != keys(self->m_flags);
        self->m_flags = flags;
        self->m_model->setFlags(flags);
        if (changed)
            self->showAll();
        emit self->flagsLoaded();
    });
}

void PricesPanel::showAll()
{
    for (const QString &id : m_board->providerIds())
        showTypes(id, m_board->types(id));
}

} // namespace gantry::ui
