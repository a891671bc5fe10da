// The Prices panel's watch row: "Notify me", "Launch when available" (core's CapacityWatcher with
// launch, while the app runs) and "Copy headless command" (the same watch for gantry-cli).
#include "ui/providers/pricespanel.h"

#include "core/providers/gantrykey.h"
#include "core/providers/gpumodels.h"
#include "ui/providers/pricetablemodel.h"
#include "ui/providers/pricefilterproxy.h"
#include "core/util/printable.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QTableView>

#include <algorithm>
#include <memory>

namespace gantry::ui {

void PricesPanel::setUpWatch()
{
    m_watch->setObjectName(QStringLiteral("watch"));
    m_watch->setToolTip(tr("Watch every provider for the selected GPU model and count at this price per GPU-hour or less, "
                           "and tell you the moment one is free."));
    m_launchWatch->setObjectName(QStringLiteral("launchWatch"));
    m_launchWatch->setToolTip(tr("Watch like Notify me, and rent the first match with Gantry's SSH key while Gantry runs; "
                                 "the new machine is connected as after Launch…. It stops after one launch."));
    m_handOff->setObjectName(QStringLiteral("handOff"));
    m_handOff->setToolTip(tr("Copy the gantry-cli watch-capacity command that does the same without the app, "
                             "for a server or a terminal that stays open. Nothing is written to disk."));
    m_watchStatus->setObjectName(QStringLiteral("watchStatus"));
    m_watchStatus->setWordWrap(true);
    m_watchStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_watchStatus->setText(tr("Select a row to be told when that GPU is free at that price or less."));
    connect(m_watch, &QPushButton::clicked, this, [this] { toggleWatch(false); });
    connect(m_launchWatch, &QPushButton::clicked, this, [this] { toggleWatch(true); });
    connect(m_handOff, &QPushButton::clicked, this, &PricesPanel::handToHeadless);
    connect(&m_watchTimer, &QTimer::timeout, this, [this] {
        if (m_watcher)
            m_watcher->tick();
    });
}

std::optional<providers::WatchOptions> PricesPanel::selectedWatch(bool launch) const
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid() || !m_hub)
        return std::nullopt;
    const providers::InstanceType type = m_model->typeAt(m_proxy->mapToSource(current).row());
    const providers::GpuModel model = providers::gpuModelOf(type);
    providers::WatchOptions options;
    options.query.gpu = model.isKnown() ? model.name() : type.gpuModel;
    options.query.count = type.gpuCount;
    options.query.maxPricePerGpuHour = type.pricePerGpuHour();
    options.pollMs = m_watchPollMs;
    options.launch = launch;
    if (launch)
        options.sshKey = providers::gantryKeyName();
    return options;
}

QString PricesPanel::headlessCommand() const
{
    const std::optional<providers::WatchOptions> options = selectedWatch(true);
    return options ? providers::watchCapacityCommandLine(*options, m_hub->ids()) : QString();
}

void PricesPanel::toggleWatch(bool launch)
{
    if (m_watcher) {
        stopWatching(tr("Stopped watching."));
        return;
    }
    std::optional<providers::WatchOptions> options = selectedWatch(launch);
    if (!options)
        return;
    QList<providers::Provider *> list;
    for (const QString &id : m_hub->ids())
        list.append(m_hub->provider(id));
    if (!launch)
        return startWatch(*options, list);
    m_watchStatus->setText(tr("Uploading Gantry's SSH key…"));
    m_watch->setEnabled(false);
    m_launchWatch->setEnabled(false);
    uploadKeys([this, options](const QString &keyName, const QList<providers::Provider *> &ready) mutable {
        m_watch->setEnabled(true);
        m_launchWatch->setEnabled(true);
        if (ready.isEmpty())
            return stopWatching(tr("No provider took Gantry's SSH key, so nothing can be launched: %1")
                                    .arg(m_keyErrors.join(QStringLiteral("; "))));
        options->sshKey = keyName;
        startWatch(*options, ready);
    });
}

void PricesPanel::uploadKeys(std::function<void(const QString &, const QList<providers::Provider *> &)> next)
{
    struct Round
    {
        int left = 0;
        QString keyName;
        QList<providers::Provider *> ready;
    };
    auto round = std::make_shared<Round>();
    m_keyErrors.clear();
    const QStringList ids = m_hub->ids();
    round->left = int(ids.size());
    if (ids.isEmpty())
        return next({}, {});
    QPointer<PricesPanel> self(this);
    for (const QString &id : ids) {
        providers::Provider *provider = m_hub->provider(id);
        providers::uploadGantryKey(provider, m_configDir, [self, round, provider, next](Result<QString> keyName) {
            if (!self)
                return;
            if (keyName) {
                round->keyName = *keyName;
                round->ready.append(provider);
            } else {
                self->m_keyErrors.append(keyName.error().message);
            }
            if (--round->left == 0)
                next(round->keyName, round->ready);
        });
    }
}

void PricesPanel::startWatch(providers::WatchOptions options, QList<providers::Provider *> list)
{
    m_watchKey = options.sshKey;
    m_watcher = new providers::CapacityWatcher(list, options, *m_clock, this);
    if (m_launcher)
        m_watcher->setLauncher(m_launcher);
    const QString wanted = tr("%1 ×%2 at $%3 per GPU-hour or less").arg(text::printable(options.query.gpu)).arg(options.query.count)
                               .arg(options.query.maxPricePerGpuHour, 0, 'f', 2);
    if (options.launch) {
        watchLaunches();
    } else {
        connect(m_watcher, &providers::CapacityWatcher::matchFound, this, [this](const providers::CapacityMatch &match) {
            const QString text = tr("Available now: %1 on %2 at $%3/h.").arg(text::printable(match.type.gpuModel),
                                                                              providers::providerDisplayName(match.provider))
                                     .arg(match.pricePerHour, 0, 'f', 2);
            emit capacityAvailable(text);
            stopWatching(text);
        });
    }
    m_watchStatus->setText(options.launch ? tr("Watching for %1, to launch it…").arg(wanted) : tr("Watching for %1…").arg(wanted));
    (options.launch ? m_launchWatch : m_watch)->setText(tr("Stop watching"));
    (options.launch ? m_watch : m_launchWatch)->setEnabled(false);
    m_watchTimer.start(std::clamp(m_watchPollMs > 0 ? m_watchPollMs : 1000, 20, 1000));
    m_watcher->tick();
}

// With launch the watcher rents the first match; what it says goes to the status line, the rented
// machine to the usual path, and a failure that ends the watch to the desktop like a match would.
void PricesPanel::watchLaunches()
{
    connect(m_watcher, &providers::CapacityWatcher::launching, this, [this](const providers::CapacityMatch &match) {
        m_watchStatus->setText(tr("Launching %1 on %2 at $%3/h…").arg(text::printable(match.type.name),
                                                                      providers::providerDisplayName(match.provider))
                                   .arg(match.pricePerHour, 0, 'f', 2));
    });
    connect(m_watcher, &providers::CapacityWatcher::launchFailed, this,
            [this](const providers::CapacityMatch &, const QString &, const QString &message, bool willRetry) {
                m_watchStatus->setText(willRetry ? tr("%1 Trying again.").arg(message) : message);
            });
    connect(m_watcher, &providers::CapacityWatcher::launched, this,
            [this](const providers::CapacityMatch &match, const providers::LaunchOutcome &outcome) {
                providers::LaunchRequest request;
                request.typeName = match.type.name;
                request.region = match.region;
                request.sshKeyName = m_watchKey;
                request.gpuCount = match.gpuCount;
                const QString text = tr("Launched %1 on %2 at $%3/h; connecting when it is up.")
                                         .arg(text::printable(match.type.name), providers::providerDisplayName(match.provider))
                                         .arg(match.pricePerHour, 0, 'f', 2);
                emit capacityAvailable(text);
                emit launchedWhenAvailable(match.provider, outcome.id, match.pricePerHour, request);
                stopWatching(outcome.adopted ? text + QLatin1Char(' ') + outcome.note : text);
            });
    connect(m_watcher, &providers::CapacityWatcher::finished, this, [this](bool ok, const QString &message) {
        if (ok || !m_watcher)
            return;
        emit capacityAvailable(message);
        stopWatching(message);
    });
}

void PricesPanel::handToHeadless()
{
    const QString command = headlessCommand();
    if (command.isEmpty())
        return;
    // The headless watcher launches with the same key, so it must be on the providers first.
    QPointer<PricesPanel> self(this);
    m_handOff->setEnabled(false);
    uploadKeys([self, command](const QString &, const QList<providers::Provider *> &) {
        if (!self)
            return;
        self->m_handOff->setEnabled(true);
        QGuiApplication::clipboard()->setText(command);
        const QString status = tr("Copied to the clipboard; paste it in a terminal that stays open (it keeps watching "
                                  "without Gantry): %1").arg(command);
        if (self->m_watcher)
            self->stopWatching(status); // handed over: one watcher, not two launching the same GPU
        else
            self->m_watchStatus->setText(status);
        if (!self->m_keyErrors.isEmpty())
            self->m_watchStatus->setText(status + QLatin1Char('\n') + self->m_keyErrors.join(QLatin1Char('\n')));
    });
}

void PricesPanel::stopWatching(const QString &status)
{
    m_watchTimer.stop();
    if (m_watcher)
        m_watcher->deleteLater();
    m_watcher = nullptr;
    m_watch->setText(tr("Notify me"));
    m_launchWatch->setText(tr("Launch when available"));
    m_watch->setEnabled(true);
    m_launchWatch->setEnabled(true);
    m_watchStatus->setText(status);
}

} // namespace gantry::ui
