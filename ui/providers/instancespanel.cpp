#include "ui/providers/instancespanel.h"

#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/providers/instancehosts.h"
#include "ui/providers/instancesmodel.h"
#include "core/providers/launchwatcher.h"
#include "core/workspace/workspace.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace gantry::ui {

QString confirmationText(const providers::ProviderInfo &info, const providers::Instance &instance, const QString &action)
{
    const QString label = instance.name.isEmpty() ? instance.id : instance.name;
    if (action == QLatin1String("terminate")) {
        QString text = QObject::tr("Terminate %1 on %2?\n\nLost for good: the instance and its local disk — everything not on a "
                                   "persistent filesystem or volume.").arg(label, info.displayName);
        if (!instance.filesystemNames.isEmpty())
            text += QObject::tr("\nKept, and still billing storage: filesystem %1.").arg(instance.filesystemNames.join(QStringLiteral(", ")));
        else if (info.capabilities.testFlag(providers::Capability::Filesystems))
            text += QObject::tr("\nPersistent volumes you created separately are kept and keep billing storage.");
        text += QObject::tr("\nBilling for the instance stops.");
        return text;
    }
    if (action == QLatin1String("stop")) {
        QString text = QObject::tr("Stop %1 on %2?\n\nCompute billing stops.").arg(label, info.displayName);
        if (info.capabilities.testFlag(providers::Capability::StorageBillsWhileStopped)) {
            text += QObject::tr("\nLost: the container disk (everything outside the volume).");
            text += instance.volumeGb > 0 ? QObject::tr("\nKept, and still billing storage while stopped: the %1 GB volume disk.").arg(instance.volumeGb)
                                          : QObject::tr("\nKept, and still billing storage while stopped: the volume disk.");
            const double perDay = providers::storageCostPerDay(info.cost, instance.volumeGb, true);
            if (perDay > 0)
                text += QObject::tr(" That is about $%1 a day until you terminate it.").arg(perDay, 0, 'f', 2);
            text += QObject::tr("\nStarting again may fail if the GPU was rented by someone else meanwhile.");
        }
        return text;
    }
    if (action == QLatin1String("restart"))
        return QObject::tr("Restart %1 on %2?\n\nRunning programs and open SSH sessions end; files on disk are kept. Billing continues.")
            .arg(label, info.displayName);
    return QObject::tr("Start %1 on %2?\n\nCompute billing resumes at %3/h.").arg(label, info.displayName)
        .arg(QStringLiteral("$%1").arg(instance.pricePerHour, 0, 'f', 2));
}

InstancesPanel::InstancesPanel(workspace::Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_hub(workspace->providers())
    , m_ledger(workspace->ledger())
    , m_hosts(workspace->hosts())
    , m_configDir(workspace->configDir())
    , m_model(new InstancesModel(this))
    , m_view(new QTableView(this))
    , m_status(new QLabel(this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_start(new QPushButton(tr("Start"), this))
    , m_restart(new QPushButton(tr("Restart"), this))
    , m_terminate(new QPushButton(tr("Terminate…"), this))
{
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("status"));
    auto *refreshButton = new QPushButton(tr("Refresh"), this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_stop);
    buttons->addWidget(m_start);
    buttons->addWidget(m_restart);
    buttons->addWidget(m_terminate);
    buttons->addStretch(1);
    buttons->addWidget(refreshButton);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    m_confirm = [this](const QString &title, const QString &text) {
        return QMessageBox::question(this, title, text, QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) == QMessageBox::Yes;
    };
    connect(refreshButton, &QPushButton::clicked, this, &InstancesPanel::refresh);
    connect(m_stop, &QPushButton::clicked, this, [this] { act(QStringLiteral("stop")); });
    connect(m_start, &QPushButton::clicked, this, [this] { act(QStringLiteral("start")); });
    connect(m_restart, &QPushButton::clicked, this, [this] { act(QStringLiteral("restart")); });
    connect(m_terminate, &QPushButton::clicked, this, [this] { act(QStringLiteral("terminate")); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &InstancesPanel::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &InstancesPanel::updateButtons);
    connect(&m_timer, &QTimer::timeout, this, &InstancesPanel::refresh);
    m_timer.start(15000);
    // The first list comes at once, not after the first 15 s period (the panel stood empty until then).
    QTimer::singleShot(0, this, &InstancesPanel::refresh);
    updateButtons();
}

void InstancesPanel::updateButtons()
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    const providers::Instance instance = current.isValid() ? m_model->instanceAt(current.row()) : providers::Instance{};
    providers::Provider *provider = m_hub && current.isValid() ? m_hub->provider(instance.provider) : nullptr;
    const bool stoppable = provider && provider->can(providers::Capability::StopStart);
    m_stop->setEnabled(stoppable && instance.state == providers::InstanceState::Running);
    m_start->setEnabled(stoppable && instance.state == providers::InstanceState::Stopped);
    m_restart->setEnabled(provider && instance.state == providers::InstanceState::Running);
    m_terminate->setEnabled(provider && !providers::isGone(instance.state));
    m_stop->setToolTip(provider && !stoppable ? tr("%1 cannot stop instances; terminate instead.").arg(provider->info().displayName) : QString());
}

void InstancesPanel::refresh()
{
    if (!m_hub)
        return;
    QPointer<InstancesPanel> self(this);
    for (const QString &id : m_hub->ids()) {
        m_hub->provider(id)->listInstances([self, id](Result<QList<providers::Instance>> list) {
            if (!self)
                return;
            if (!list) {
                self->m_status->setText(list.error().message);
                return;
            }
            self->m_model->setInstances(id, *list);
            if (self->m_ledger) {
                if (Result<void> reconciled = self->m_ledger->reconcile(id, *list); !reconciled)
                    self->m_status->setText(reconciled.error().message);
                for (const providers::Instance &instance : std::as_const(*list)) {
                    const Result<cost::LedgerEntry> entry = self->m_ledger->entry(id, instance.id);
                    if (entry)
                        self->m_model->setCost(id, instance.id, entry->costSoFar());
                    // A listing sent before a terminate (here, the CLI, the watcher) still shows the
                    // instance running: its closed ledger row keeps the forgotten host forgotten.
                    if (instance.reachable() && !(entry && !entry->isOpen()))
                        self->remember(instance);
                }
            }
        });
    }
}

void InstancesPanel::remember(const providers::Instance &instance)
{
    if (!m_hosts)
        return;
    const bool known = std::any_of(m_hosts->hosts().cbegin(), m_hosts->hosts().cend(), [&instance](const SavedHost &host) {
        return host.provider == instance.provider && host.instanceId == instance.id;
    });
    Result<QString> name = providers::rememberInstanceHost(*m_hosts, instance, m_configDir);
    if (!name)
        m_status->setText(name.error().message);
    else if (!known)
        emit hostReady(*name);
}

void InstancesPanel::trackLaunch(const QString &provider, const QString &instanceId, double pricePerHour,
                                 const providers::LaunchRequest &request)
{
    providers::Instance launched;
    launched.provider = provider;
    launched.id = instanceId;
    launched.name = request.name;
    launched.typeName = request.typeName;
    launched.region = request.region;
    launched.volumeGb = request.volumeGb;
    launched.state = providers::InstanceState::Booting;
    if (m_ledger) {
        if (Result<void> recorded = m_ledger->recordLaunch(launched, pricePerHour); !recorded)
            emit message(recorded.error().message);
    }
    refresh();
    providers::Provider *p = m_hub ? m_hub->provider(provider) : nullptr;
    if (!p)
        return;
    const int pollMs = m_launchPollMs > 0 ? m_launchPollMs : p->info().statusPollMs;
    auto *watcher = new providers::LaunchWatcher(p, instanceId, 20 * 60 * 1000, pollMs, this);
    QPointer<InstancesPanel> self(this);
    m_status->setText(tr("Waiting for %1 to boot…").arg(instanceId));
    watcher->start([self, watcher, provider, instanceId](Result<providers::Instance> up) {
        watcher->deleteLater();
        if (!self)
            return;
        if (!up) {
            if (self->m_ledger && up.error().code == ErrorCode::Timeout)
                (void)self->m_ledger->recordTerminated(provider, instanceId, tr("never became active"));
            self->m_status->setText(up.error().message);
            emit self->message(up.error().message);
        } else {
            self->m_status->setText(tr("%1 is running at %2@%3:%4.").arg(instanceId, up->sshUser, up->sshHost).arg(up->sshPort));
            self->remember(*up);
        }
        self->refresh();
    });
}

void InstancesPanel::act(const QString &action)
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    const std::optional<workspace::InstanceAction> parsed = workspace::instanceActionFromName(action);
    if (!current.isValid() || !m_hub || !parsed)
        return;
    const providers::Instance instance = m_model->instanceAt(current.row());
    providers::Provider *provider = m_hub->provider(instance.provider);
    if (!provider)
        return;
    const bool terminate = *parsed == workspace::InstanceAction::Terminate;
    if (terminate && m_terminateGuard && !m_terminateGuard(instance))
        return;
    if (!m_confirm(tr("Confirm %1").arg(action), confirmationText(provider->info(), instance, action)))
        return;
    workspace::ActionOptions options;
    options.resultsAcknowledged = terminate && m_terminateGuard; // the guard asked the user
    QPointer<InstancesPanel> self(this);
    m_workspace->act(*parsed, instance.provider, instance.id, options, [self](Result<workspace::ActionOutcome> outcome) {
        if (!self)
            return;
        if (!outcome) {
            self->m_status->setText(outcome.error().message);
            emit self->message(outcome.error().message);
            return;
        }
        self->m_status->setText((QStringList{outcome->message} + outcome->warnings).join(QLatin1Char('\n')));
        if (!outcome->warnings.isEmpty())
            emit self->message(outcome->warnings.join(QLatin1Char('\n')));
        self->refresh();
    });
}

} // namespace gantry::ui
