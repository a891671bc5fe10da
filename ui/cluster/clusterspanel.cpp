#include "ui/cluster/clusterspanel.h"

#include "ui/common/confirm.h"

#include "ui/cluster/clusterdialogs.h"

#include "core/util/background.h"
#include "core/cluster/connector.h"
#include "core/cluster/lifecycle.h"
#include "core/jobs/jobrunner.h"
#include "core/providers/providerhub.h"
#include "core/hosts/hoststore.h"
#include "core/ssh/knownhosts.h"
#include "core/util/printable.h"
#include "core/workspace/workspace.h"

#include <QCollator>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace gantry::ui {
namespace {

QString verdictLabel(verify::CheckStatus status)
{
    switch (status) {
    case verify::CheckStatus::Ok: return ClustersPanel::tr("OK");
    case verify::CheckStatus::Warn: return ClustersPanel::tr("Warning");
    case verify::CheckStatus::Fail: break;
    }
    return ClustersPanel::tr("Failed");
}

} // namespace

ClustersPanel::ClustersPanel(workspace::Workspace *workspace, QWidget *parent)
    : QWidget(parent), m_workspace(workspace), m_lifecycle(new cluster::ClusterLifecycle(workspace, this)),
      m_knownHosts(ssh::defaultKnownHostsFile()), m_list(new QTreeWidget(this)), m_nodes(new QTreeWidget(this)),
      m_rank(new QComboBox(this)), m_log(new QPlainTextEdit(this)), m_status(new QLabel(this)),
      m_check(new QPushButton(tr("Check"), this)), m_torchrun(new QPushButton(tr("torchrun…"), this)),
      m_terminate(new QPushButton(tr("Terminate…"), this)), m_jobStatus(new QPushButton(tr("Job status"), this)),
      m_stopOthers(new QPushButton(tr("Stop the other ranks…"), this))
{
    auto *refresh = new QPushButton(tr("Refresh"), this);
    auto *launch = new QPushButton(tr("Launch cluster…"), this);
    auto *fromHosts = new QPushButton(tr("New cluster from saved hosts…"), this);
    fromHosts->setObjectName(QStringLiteral("fromHosts"));
    auto *buttons = new QHBoxLayout;
    for (QPushButton *button : {refresh, launch, fromHosts, m_check, m_torchrun, m_jobStatus, m_stopOthers, m_terminate})
        buttons->addWidget(button);
    buttons->addStretch();
    m_list->setHeaderLabels({tr("Cluster"), tr("Nodes"), tr("Type"), tr("$/h"), tr("Rendezvous"), tr("Last job")});
    m_list->setRootIsDecorated(false);
    m_nodes->setHeaderLabels({tr("Rank"), tr("Host"), tr("State"), tr("Address"), tr("Verdict"), tr("Bus GB/s"), tr("Job")});
    m_nodes->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_log->setReadOnly(true);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("The last job's log of the chosen rank appears here."));
    m_status->setWordWrap(true);
    auto *logBar = new QHBoxLayout;
    auto *showLogButton = new QPushButton(tr("Show log"), this);
    logBar->addWidget(new QLabel(tr("Log of"), this));
    logBar->addWidget(m_rank);
    logBar->addWidget(showLogButton);
    logBar->addStretch();
    auto *logBox = new QWidget(this);
    auto *logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(0, 0, 0, 0);
    logLayout->addLayout(logBar);
    logLayout->addWidget(m_log);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_list);
    split->addWidget(m_nodes);
    split->addWidget(logBox);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);
    connect(refresh, &QPushButton::clicked, this, &ClustersPanel::reload);
    connect(launch, &QPushButton::clicked, this, &ClustersPanel::launchCluster);
    connect(fromHosts, &QPushButton::clicked, this, &ClustersPanel::newClusterFromHosts);
    connect(m_check, &QPushButton::clicked, this, &ClustersPanel::checkSelected);
    connect(m_torchrun, &QPushButton::clicked, this, &ClustersPanel::torchrunSelected);
    connect(m_terminate, &QPushButton::clicked, this, &ClustersPanel::terminateSelected);
    connect(showLogButton, &QPushButton::clicked, this, &ClustersPanel::showLog);
    connect(m_jobStatus, &QPushButton::clicked, this, &ClustersPanel::refreshJobStatus);
    connect(m_stopOthers, &QPushButton::clicked, this, &ClustersPanel::stopOtherRanks);
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this] {
        showNodes();
        if (std::optional<cluster::Cluster> c = current())
            refreshStates(*c);
    });
    m_confirm = [this](const QString &question) {
        return askDestructive(this, tr("Clusters"), question);
    };
    reload();
}

cluster::NodeConnector ClustersPanel::connector(const QSet<QString> &trustedKeys) const
{
    ssh::ConnectOptions options;
    options.knownHostsFile = m_knownHosts;
    return cluster::savedHostConnector(m_workspace->configDir(), options, trustedKeys);
}

void ClustersPanel::setStatus(const QString &text)
{
    m_status->setText(text);
    fitStatus();
}

// A wrapped label's height follows its width, which a layout squeezed by the splitter above does
// not ask for: the label claims the lines it needs, so no message is cut off.
void ClustersPanel::fitStatus()
{
    const int width = m_status->width() > 50 ? m_status->width() : std::max(this->width() - 24, 200);
    m_status->setMinimumHeight(m_status->heightForWidth(width));
}

void ClustersPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitStatus();
}

QString ClustersPanel::statusText() const
{
    return m_status->text();
}

QString ClustersPanel::logText() const
{
    return m_log->toPlainText();
}

QString ClustersPanel::selectedCluster() const
{
    return m_list->currentItem() ? m_list->currentItem()->data(0, Qt::UserRole).toString() : QString();
}

void ClustersPanel::selectCluster(const QString &name)
{
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->data(0, Qt::UserRole).toString() == name)
            m_list->setCurrentItem(m_list->topLevelItem(i));
    }
}

std::optional<cluster::Cluster> ClustersPanel::current() const
{
    const QString name = selectedCluster();
    for (const cluster::Cluster &c : m_clusters) {
        if (c.name == name)
            return c;
    }
    return std::nullopt;
}

void ClustersPanel::reload()
{
    const QString selected = selectedCluster();
    cluster::ClusterStore store(m_workspace->configDir());
    if (Result<void> loaded = store.load(); !loaded)
        setStatus(loaded.error().message);
    m_clusters = store.clusters();
    m_list->clear();
    for (const cluster::Cluster &c : std::as_const(m_clusters)) {
        auto *item = new QTreeWidgetItem(m_list, {c.name, QString::number(c.nodes.size()),
                                                  c.provider.isEmpty() ? tr("saved hosts") : c.provider + QLatin1Char(' ') + c.typeName,
                                                  QStringLiteral("$%1").arg(c.pricePerHour(), 0, 'f', 2),
                                                  text::printable(cluster::masterAddress(c)), c.lastJob ? c.lastJob->name : QString()});
        item->setData(0, Qt::UserRole, c.name);
    }
    if (m_clusters.isEmpty())
        setStatus(tr("No clusters yet. Launch one, or group machines you already have with “New cluster from saved hosts…”."));
    selectCluster(selected.isEmpty() && !m_clusters.isEmpty() ? m_clusters.first().name : selected);
    showNodes();
}

void ClustersPanel::showNodes()
{
    m_nodes->clear();
    m_rank->clear();
    const std::optional<cluster::Cluster> c = current();
    const bool any = c.has_value();
    for (QPushButton *button : {m_check, m_torchrun, m_terminate})
        button->setEnabled(any);
    m_jobStatus->setEnabled(any && c->lastJob.has_value());
    updateStopOthers();
    if (!c)
        return;
    const auto job = m_jobs.constFind(c->name);
    const auto check = m_checks.constFind(c->name);
    for (int rank = 0; rank < c->nodes.size(); ++rank) {
        const cluster::ClusterNode &node = c->nodes[rank];
        const auto state = m_states.constFind(node.instanceId);
        const QString stateText = node.provider.isEmpty() ? tr("saved host")
            : state == m_states.cend()                    ? tr("unknown")
                                                          : providers::instanceStateLabel(state->state);
        auto *item = new QTreeWidgetItem(m_nodes, {QString::number(rank), text::printable(node.hostName), stateText, text::printable(node.address)});
        if (check != m_checks.cend() && rank < check->nodes.size()) {
            const cluster::NodeCheck &result = check->nodes[rank];
            item->setText(4, verdictLabel(result.verdict()));
            if (result.busBandwidthGBps > 0)
                item->setText(5, QString::number(result.busBandwidthGBps, 'f', 2));
            for (const verify::DoctorCheck &entry : result.checks) {
                auto *child = new QTreeWidgetItem(item, {QString(), entry.id, verdictLabel(entry.status), text::printable(entry.message)});
                child->setFirstColumnSpanned(false);
                child->setToolTip(3, text::printableLines(entry.message + QStringLiteral("\n\n") + entry.fix).trimmed());
            }
            item->setExpanded(result.verdict() != verify::CheckStatus::Ok);
        }
        if (job != m_jobs.cend() && rank < job->size()) {
            const cluster::RankStatus &status = job->at(rank);
            item->setText(6, status.job ? text::printable(status.job->statusText()) : text::printable(status.error));
        }
        m_rank->addItem(tr("rank %1").arg(rank), rank);
    }
}

void ClustersPanel::refreshStates(const cluster::Cluster &c)
{
    if (c.provider.isEmpty())
        return;
    QPointer<ClustersPanel> self(this);
    m_lifecycle->launcher()->refresh(c, [self](Result<cluster::Cluster> updated, QHash<QString, providers::Instance> states) {
        if (!self)
            return;
        for (auto it = states.cbegin(); it != states.cend(); ++it)
            self->m_states.insert(it.key(), it.value());
        if (!updated)
            self->setStatus(updated.error().message);
        self->showNodes();
    });
}

void ClustersPanel::launchCluster()
{
    auto *dialog = new ClusterLaunchDialog(m_workspace->providers(), m_workspace->configDir(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const cluster::ClusterLaunchRequest request = dialog->request();
        setStatus(tr("Launching %n node(s) of %1…", nullptr, request.nodes).arg(request.base.typeName));
        QPointer<ClustersPanel> self(this);
        m_lifecycle->launch(request, [self, name = request.name](Result<cluster::ClusterLaunchOutcome> outcome) {
            if (self)
                self->finishLaunch(outcome, name);
        });
    });
    dialog->open();
}

void ClustersPanel::newClusterFromHosts()
{
    QStringList names;
    for (const SavedHost &host : m_workspace->hosts()->hosts())
        names << host.name;
    QCollator natural; // gpu-box-2 before gpu-box-10, as the Machines list sorts them
    if (natural.locale().language() == QLocale::C) // the C locale compares code points, never numbers
        natural.setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    natural.setNumericMode(true);
    natural.setCaseSensitivity(Qt::CaseInsensitive);
    std::sort(names.begin(), names.end(), natural);
    auto *dialog = new ClusterFromHostsDialog(names, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { createFromHosts(dialog->name(), dialog->hosts()); });
    dialog->open();
}

// The same core call as `gantry-cli cluster add`; it reads and writes clusters.json, so off the GUI thread.
void ClustersPanel::createFromHosts(const QString &name, const QStringList &hosts)
{
    setStatus(tr("Creating cluster %1…").arg(name));
    background::run<Result<cluster::Cluster>>(this, [configDir = m_workspace->configDir(), name, hosts] {
        return cluster::addClusterOfSavedHosts(configDir, name, hosts);
    }, [this, name](Result<cluster::Cluster> added) {
        if (!added) {
            setStatus(tr("Could not create cluster %1: %2").arg(name, text::printable(added.error().message)));
        } else {
            reload();
            selectCluster(name);
            setStatus(tr("Cluster %1: %n node(s), head %2. Check it to see the nodes reach each other.", nullptr,
                         int(added->nodes.size())).arg(name, added->nodes.first().hostName));
        }
        emit clusterCreated(name);
    });
}

void ClustersPanel::finishLaunch(const Result<cluster::ClusterLaunchOutcome> &outcome, const QString &name)
{
    if (!outcome) {
        setStatus(outcome.error().message);
    } else {
        QStringList lines;
        if (outcome->partial() && !outcome->terminated.isEmpty())
            lines << tr("Only some nodes came up (%1); the %n that did were terminated so they do not bill.", nullptr,
                        int(outcome->terminated.size())).arg(outcome->failures.join(QStringLiteral("; ")));
        else if (outcome->partial())
            lines << tr("Only some nodes came up: %1").arg(outcome->failures.join(QStringLiteral("; ")));
        else
            lines << tr("Cluster %1 is up: %n node(s). Check it before training.", nullptr, int(outcome->cluster.nodes.size())).arg(name);
        setStatus((lines + outcome->warnings).join(QLatin1Char('\n')));
    }
    reload();
    selectCluster(name);
    emit launchFinished(name);
}

void ClustersPanel::checkSelected()
{
    const std::optional<cluster::Cluster> c = current();
    if (!c)
        return;
    setStatus(tr("Checking %1: SSH, versions, the rendezvous port and an all-reduce…").arg(c->name));
    m_check->setEnabled(false);
    ssh::ConnectOptions options;
    options.knownHostsFile = m_knownHosts;
    // Freshly launched nodes have keys nobody has seen yet: one question for all of them rather
    // than a failed check (the sandbox's own keys are trusted without one).
    background::run<QList<cluster::NodeHostKey>>(this, [target = *c, configDir = m_workspace->configDir(), options] {
        return cluster::unknownHostKeys(target, configDir, options);
    }, [this, target = *c](const QList<cluster::NodeHostKey> &unknown) {
        QSet<QString> trusted;
        if (!unknown.isEmpty()) {
            if (!m_confirm(cluster::trustQuestion(unknown))) {
                setStatus(tr("Check of %1 not run: the new nodes' host keys were not trusted.").arg(target.name));
                showNodes();
                return;
            }
            for (const cluster::NodeHostKey &node : unknown)
                trusted.insert(cluster::hostKeyId(node.key));
        }
        runCheck(target, trusted);
    });
}

void ClustersPanel::runCheck(const cluster::Cluster &target, const QSet<QString> &trustedKeys)
{
    const cluster::NodeConnector connect = connector(trustedKeys);
    background::run<cluster::ClusterCheck>(this, [target, connect] { return cluster::checkCluster(target, connect, {}); },
                                                    [this, name = target.name](cluster::ClusterCheck result) {
        m_checks.insert(name, result);
        // Every failure in full below the verdict: the table's cells cut long messages off.
        setStatus((QStringList{tr("Check of %1: %2").arg(name, verdictLabel(result.verdict()))} + cluster::failureLines(result))
                      .join(QLatin1Char('\n')));
        showNodes();
        emit checked(name);
    });
}

void ClustersPanel::torchrunSelected()
{
    const std::optional<cluster::Cluster> c = current();
    if (!c)
        return;
    auto *dialog = new TorchrunDialog(*c, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog, cluster = *c] {
        Result<cluster::TorchrunSpec> spec = dialog->spec();
        if (!spec)
            return setStatus(spec.error().message);
        startTorchrun(cluster, *spec);
    });
    dialog->open();
}

void ClustersPanel::startTorchrun(const cluster::Cluster &c, const cluster::TorchrunSpec &spec)
{
    setStatus(tr("Starting %1 on %n node(s)…", nullptr, int(c.nodes.size()))
                  .arg(spec.run.jobName.isEmpty() ? cluster::commandLine(spec.run.command) : spec.run.jobName));
    const cluster::NodeConnector connect = connector();
    background::run<cluster::ClusterJobStart>(this, [configDir = m_workspace->configDir(), c, spec, connect] {
        return cluster::startClusterJob(configDir, c, spec.run, QStringLiteral("torchrun"), connect,
                                        [&](int rank, int gpus) { return cluster::torchrunLine(spec, c, rank, gpus); });
    }, [this, c](const cluster::ClusterJobStart &started) {
        for (const cluster::StartedRank &rank : started.ranks) {
            if (!rank.started)
                return setStatus(tr("Not started everywhere (the ranks that started were stopped): %1").arg(rank.started.error().message));
        }
        m_jobs.remove(c.name); // the ranks of the job before
        // Started all the same; without the record, Job status cannot find the ranks: say why.
        setStatus((QStringList{tr("Started %1 on every node.").arg(started.jobName)} + started.warnings).join(QLatin1Char('\n')));
        reload();
        emit jobStarted(c.name);
    });
}

void ClustersPanel::showLog()
{
    const std::optional<cluster::Cluster> c = current();
    if (!c || !c->lastJob || m_rank->currentIndex() < 0) {
        setStatus(tr("This cluster has run no job yet."));
        return;
    }
    const int rank = m_rank->currentData().toInt();
    const cluster::NodeConnector connect = connector();
    const cluster::ClusterNode node = c->nodes.at(rank);
    const QString job = cluster::rankJobName(c->lastJob->name, rank);
    background::run<Result<QByteArray>>(this, [connect, node, rank, job]() -> Result<QByteArray> {
        Result<std::unique_ptr<ssh::Session>> session = connect(node, rank);
        if (!session)
            return session.error();
        return jobs::JobRunner(**session).readLog(job);
    }, [this](Result<QByteArray> log) {
        m_log->setPlainText(log ? text::printableLines(QString::fromUtf8(*log)) : log.error().message);
        emit logShown();
    });
}

void ClustersPanel::terminateSelected()
{
    const std::optional<cluster::Cluster> c = current();
    if (!c || !m_confirm(tr("Terminate the %n node(s) of %1? Their local disks are lost for good.", nullptr, int(c->nodes.size())).arg(c->name)))
        return;
    setStatus(tr("Terminating the %n node(s) of %1…", nullptr, int(c->nodes.size())).arg(c->name));
    QPointer<ClustersPanel> self(this);
    m_lifecycle->act(workspace::InstanceAction::Terminate, c->name, {}, [self, name = c->name](Result<cluster::ClusterActionOutcome> outcome) {
        if (self)
            self->finishTerminate(outcome, name);
    });
}

// The lifecycle's rule: a node whose terminate failed stays in the cluster (it may still bill), so
// the status names it and the cluster stays selected where the user can try again.
void ClustersPanel::finishTerminate(const Result<cluster::ClusterActionOutcome> &outcome, const QString &name)
{
    if (!outcome) {
        setStatus(outcome.error().message);
    } else {
        QStringList lines = outcome->failures.isEmpty()
            ? QStringList{outcome->forgotten ? tr("Cluster %1 is terminated.").arg(name)
                                             : tr("Cluster %1: the rented nodes are terminated.").arg(name)}
            : QStringList{tr("%n node(s) of %1 could not be terminated and may still bill; they stay in the cluster:", nullptr,
                             int(outcome->failures.size())).arg(name)} + outcome->failures;
        setStatus((lines + outcome->warnings).join(QLatin1Char('\n')));
    }
    reload();
    if (outcome && !outcome->forgotten)
        selectCluster(name);
    emit terminated(name);
}

} // namespace gantry::ui
