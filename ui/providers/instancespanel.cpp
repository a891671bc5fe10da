#include "ui/providers/instancespanel.h"

#include "ui/common/confirm.h"

#include "core/cost/ledger.h"
#include "core/util/printable.h"
#include "core/workspace/workspace.h"
#include "ui/common/selectionkeeper.h"
#include "ui/providers/instancesmodel.h"

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

namespace {

// What a stop loses, keeps and still bills, in the provider's own terms (its descriptor's StopTerms).
QString stopText(const providers::ProviderInfo &info, const providers::Instance &instance, const QString &label)
{
    const providers::StopTerms &terms = info.cost.stop;
    QString text = InstancesPanel::tr("Stop %1 on %2?\n\nCompute billing stops.").arg(label, info.displayName);
    if (!terms.lost.isEmpty())
        text += InstancesPanel::tr("\nLost: %1.").arg(terms.lost);
    const QString kept = instance.volumeGb > 0 && !terms.kept.isEmpty() ? terms.kept.arg(instance.volumeGb) : terms.keptUnsized;
    const bool bills = info.capabilities.testFlag(providers::Capability::StorageBillsWhileStopped);
    if (!kept.isEmpty())
        text += bills ? InstancesPanel::tr("\nKept, and still billing storage while stopped: %1.").arg(kept)
                      : InstancesPanel::tr("\nKept: %1.").arg(kept);
    const double perDay = providers::stoppedStorageCostPerDay(info.cost, instance.volumeGb, instance.storagePerGbMonth);
    if (bills && perDay > 0)
        text += InstancesPanel::tr(" That is about $%1 a day until you terminate it.").arg(perDay, 0, 'f', 2);
    if (terms.mayNotRestart)
        text += InstancesPanel::tr("\nStarting again may fail if the GPU was rented by someone else meanwhile.");
    return text;
}

} // namespace

QString confirmationText(const providers::ProviderInfo &info, const providers::Instance &instance, const QString &action)
{
    const QString label = instance.name.isEmpty() ? instance.id : instance.name;
    if (action == QLatin1String("terminate")) {
        QString text = InstancesPanel::tr("Terminate %1 on %2?\n\nLost for good: the instance and its local disk — everything not on a "
                                   "persistent filesystem or volume.").arg(label, info.displayName);
        if (!instance.filesystemNames.isEmpty())
            text += InstancesPanel::tr("\nKept, and still billing storage: filesystem %1.").arg(instance.filesystemNames.join(QStringLiteral(", ")));
        else if (info.capabilities.testFlag(providers::Capability::Filesystems))
            text += InstancesPanel::tr("\nPersistent volumes you created separately are kept and keep billing storage.");
        text += InstancesPanel::tr("\nBilling for the instance stops.");
        return text;
    }
    if (action == QLatin1String("stop"))
        return stopText(info, instance, label);
    if (action == QLatin1String("restart"))
        return InstancesPanel::tr("Restart %1 on %2?\n\nRunning programs and open SSH sessions end; files on disk are kept. Billing continues.")
            .arg(label, info.displayName);
    return InstancesPanel::tr("Start %1 on %2?\n\nCompute billing resumes at %3/h.").arg(label, info.displayName)
        .arg(QStringLiteral("$%1").arg(instance.pricePerHour, 0, 'f', 2));
}

InstancesPanel::InstancesPanel(workspace::Workspace *workspace, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_hub(workspace->providers())
    , m_ledger(workspace->ledger())
    , m_model(new InstancesModel(this))
    , m_view(new QTableView(this))
    , m_status(new QLabel(this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_start(new QPushButton(tr("Start"), this))
    , m_restart(new QPushButton(tr("Restart"), this))
    , m_terminate(new QPushButton(tr("Terminate…"), this))
{
    // A refresh keeps the selected instance; one that is gone leaves nothing selected, never the
    // next row (Terminate twice must not reach another billed instance).
    SelectionKeeper::setModel(m_view, m_model, [](const QModelIndex &index) -> QString {
        return index.data(InstancesModel::ProviderIdRole).toString() + QLatin1Char('/') + index.data(InstancesModel::InstanceIdRole).toString();
    });
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
        return askDestructive(this, title, text);
    };
    connect(refreshButton, &QPushButton::clicked, this, &InstancesPanel::refresh);
    connect(m_stop, &QPushButton::clicked, this, [this] { act(QStringLiteral("stop")); });
    connect(m_start, &QPushButton::clicked, this, [this] { act(QStringLiteral("start")); });
    connect(m_restart, &QPushButton::clicked, this, [this] { act(QStringLiteral("restart")); });
    connect(m_terminate, &QPushButton::clicked, this, [this] { act(QStringLiteral("terminate")); });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &InstancesPanel::updateButtons);
    // A refresh changes rows in place (a stop lands as Stopped): the buttons follow the row's new state.
    connect(m_model, &QAbstractItemModel::modelReset, this, &InstancesPanel::updateButtons);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &InstancesPanel::updateButtons);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &InstancesPanel::updateButtons);
    connect(&m_timer, &QTimer::timeout, this, &InstancesPanel::refresh);
    m_timer.start(15000);
    // The first list comes at once, not after the first 15 s period (the panel stood empty until then).
    QTimer::singleShot(0, this, &InstancesPanel::refresh);
    followLaunches();
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
    const QDateTime listedAt = m_workspace->listingTime();
    for (const QString &id : m_hub->ids()) {
        m_hub->provider(id)->listInstances([self, id, listedAt](Result<QList<providers::Instance>> list) {
            if (!self)
                return;
            if (!list) {
                self->m_status->setText(list.error().message);
                return;
            }
            self->m_model->setInstances(id, *list);
            const workspace::ReconcileOutcome outcome = self->m_workspace->reconcile(id, *list, listedAt);
            if (!outcome.problems.isEmpty())
                self->m_status->setText(outcome.problems.join(QLatin1Char('\n')));
            if (self->m_ledger) {
                for (const providers::Instance &instance : std::as_const(*list)) {
                    if (const Result<cost::LedgerEntry> entry = self->m_ledger->entry(id, instance.id))
                        self->m_model->setCost(id, instance.id, entry->costSoFar());
                }
            }
            for (const QString &host : outcome.newHosts)
                self->announce(host);
        });
    }
}

// A host is handed to the Machines view once, whichever comes first: the launch's own follow-up
// or a refresh that sees the instance up.
void InstancesPanel::announce(const QString &hostName)
{
    if (hostName.isEmpty() || m_announced.contains(hostName))
        return;
    m_announced.insert(hostName);
    emit hostReady(hostName);
}

// Any launch, from any view: the workspace follows it, this panel says where it stands.
void InstancesPanel::followLaunches()
{
    connect(m_workspace, &workspace::Workspace::instanceLaunched, this, [this](const workspace::LaunchedInstance &launched) {
        // The machine's name, as the user gave it or the launch made it up, not the provider's id.
        const QString name = launched.request.name.isEmpty() ? launched.instanceId : launched.request.name;
        QStringList lines{tr("Waiting for %1 to boot…").arg(text::printable(name))};
        if (launched.adopted)
            lines.prepend(launched.note);
        m_status->setText(lines.join(QLatin1Char('\n')));
        if (launched.adopted || !launched.warnings.isEmpty())
            emit message((QStringList{launched.note} + launched.warnings).join(QLatin1Char('\n')).trimmed());
        refresh();
    });
    connect(m_workspace, &workspace::Workspace::instanceReady, this, [this](const workspace::ReadyInstance &ready) {
        const providers::Instance &up = ready.instance;
        const QString name = !ready.hostName.isEmpty() ? ready.hostName : !up.name.isEmpty() ? up.name : up.id;
        m_status->setText((QStringList{tr("%1 is running at %2@%3:%4.").arg(text::printable(name), text::printable(up.sshUser),
                                                                              text::printable(up.sshHost)).arg(up.sshPort)}
                           + ready.warnings).join(QLatin1Char('\n')));
        announce(ready.hostName);
        refresh();
    });
    connect(m_workspace, &workspace::Workspace::followFailed, this, [this](const QString &, const QString &, const QString &why) {
        m_status->setText(why);
        emit message(why);
        refresh();
    });
}

bool InstancesPanel::selectInstance(const QString &provider, const QString &id)
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const providers::Instance instance = m_model->instanceAt(row);
        if (instance.provider == provider && instance.id == id) {
            m_view->selectRow(row);
            m_view->setCurrentIndex(m_model->index(row, 0));
            return true;
        }
    }
    return false;
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
    QString question = confirmationText(provider->info(), instance, action);
    if (terminate && m_terminateNotes) {
        const QStringList notes = m_terminateNotes(instance);
        if (!notes.isEmpty())
            question += QStringLiteral("\n\n") + notes.join(QLatin1Char('\n'));
    }
    if (!m_confirm(tr("Confirm %1").arg(action), question))
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
