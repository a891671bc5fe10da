#include "ui/jobs/jobstab.h"

#include "ui/common/confirm.h"
#include "ui/common/handofflaunch.h"

#include "ui/jobs/boundedlogview.h"
#include "ui/jobs/joblistmodel.h"
#include "ui/jobs/runjobdialog.h"

#include "ui/common/themecolors.h"

#include "core/hosts/connectionmanager.h"
#include "core/jobs/jobservice.h"
#include "core/jobs/results.h"
#include "core/ssh/connection.h"
#include "core/tunnel/jupyter.h"
#include "core/tunnel/presets.h"
#include "core/tunnel/tunnelmanager.h"
#include "core/util/background.h"

#include <QDesktopServices>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gantry::ui {

JobsTab::JobsTab(AppContext context, jobs::JobService *jobs, tunnel::TunnelManager *tunnels, QWidget *parent)
    : DetailTab(parent), m_context(std::move(context)), m_jobs(jobs), m_tunnels(tunnels), m_model(new JobListModel(this)),
      m_table(new QTableView(this)), m_log(new BoundedLogView(this)), m_status(new QLabel(this)),
      m_run(new QPushButton(tr("Run…"), this)), m_stop(new QPushButton(tr("Stop"), this)),
      m_rerun(new QPushButton(tr("Rerun"), this)), m_remove(new QPushButton(tr("Remove"), this)),
      m_tunnelList(new QListWidget(this)), m_closeTunnel(new QPushButton(tr("Close tunnel"), this)),
      m_results(new QPlainTextEdit(this))
{
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_status->setWordWrap(true);
    m_stop->setToolTip(tr("SIGINT, then SIGTERM and SIGKILL if the job does not end"));

    QWidget *jobsPane = buildJobsPane();
    QWidget *side = buildSidePane();
    auto *main = new QSplitter(Qt::Horizontal, this);
    main->addWidget(jobsPane);
    main->addWidget(side);
    main->setStretchFactor(0, 3);
    main->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(main);

    connect(m_run, &QPushButton::clicked, this, &JobsTab::runJob);
    connect(m_stop, &QPushButton::clicked, this, &JobsTab::stopJob);
    connect(m_rerun, &QPushButton::clicked, this, &JobsTab::rerunJob);
    connect(m_remove, &QPushButton::clicked, this, &JobsTab::removeJob);
    connect(m_closeTunnel, &QPushButton::clicked, this, [this] {
        QListWidgetItem *item = m_tunnelList->currentItem();
        if (!item || !m_tunnels || !m_hasHost)
            return;
        if (tunnel::Tunnel *t = m_tunnels->find(m_host.name, item->data(Qt::UserRole).toInt()))
            m_tunnels->close(t);
    });
    connect(m_tunnelList, &QListWidget::itemDoubleClicked, this, [this](QListWidgetItem *item) {
        QDesktopServices::openUrl(item->data(Qt::UserRole + 1).toUrl());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        updateButtons();
        followSelected();
    });

    if (m_jobs)
        connectJobService();
    if (m_tunnels)
        connect(m_tunnels, &tunnel::TunnelManager::tunnelsChanged, this, &JobsTab::refreshTunnels);
    updateButtons();
}

// The job list with its buttons, the followed job's log and the status line.
QWidget *JobsTab::buildJobsPane()
{
    auto *jobButtons = new QHBoxLayout;
    auto *refresh = new QPushButton(tr("Refresh"), this);
    for (QPushButton *b : {m_run, m_stop, m_rerun, m_remove, refresh})
        jobButtons->addWidget(b);
    jobButtons->addStretch();

    auto *jobsPane = new QWidget(this);
    auto *jobsLayout = new QVBoxLayout(jobsPane);
    jobsLayout->setContentsMargins(0, 0, 0, 0);
    jobsLayout->addLayout(jobButtons);
    auto *split = new QSplitter(Qt::Vertical, jobsPane);
    split->addWidget(m_table);
    split->addWidget(m_log);
    split->setStretchFactor(1, 2);
    jobsLayout->addWidget(split, 1);
    jobsLayout->addWidget(m_status);

    connect(refresh, &QPushButton::clicked, this, [this] {
        if (m_hasHost && m_jobs)
            m_jobs->refresh(m_host.name);
    });
    return jobsPane;
}

QGroupBox *JobsTab::buildTunnelsBox()
{
    auto *tunnelsBox = new QGroupBox(tr("Tunnels"), this);
    auto *tunnelsLayout = new QVBoxLayout(tunnelsBox);
    auto *presetRow = new QHBoxLayout;
    for (const tunnel::PresetInfo &preset : tunnel::presets()) {
        auto *button = new QPushButton(preset.label, tunnelsBox);
        button->setObjectName(QStringLiteral("tunnel-") + QString::number(preset.remotePort));
        presetRow->addWidget(button);
        connect(button, &QPushButton::clicked, this, [this, preset] {
            int port = preset.remotePort;
            if (port == 0) {
                bool ok = false;
                port = QInputDialog::getInt(this, tr("Forward a port"), tr("Port on the machine:"), 8000, 1, 65535, 1, &ok);
                if (!ok)
                    return;
            }
            openTunnel(port, preset.remotePort == 0 ? QString() : preset.label);
        });
    }
    tunnelsLayout->addLayout(presetRow);
    tunnelsLayout->addWidget(m_tunnelList);
    tunnelsLayout->addWidget(m_closeTunnel);
    m_tunnelList->setMaximumHeight(90);
    return tunnelsBox;
}

// Tunnels, terminals, results: what the machine offers besides its jobs.
QWidget *JobsTab::buildSidePane()
{
    QGroupBox *tunnelsBox = buildTunnelsBox();
    auto *openBox = new QGroupBox(tr("Open"), this);
    auto *openLayout = new QHBoxLayout(openBox);
    auto *terminal = new QPushButton(tr("Terminal"), openBox);
    auto *vscode = new QPushButton(tr("VS Code"), openBox);
    openLayout->addWidget(terminal);
    openLayout->addWidget(vscode);

    auto *resultsBox = new QGroupBox(tr("Results to bring home"), this);
    auto *resultsLayout = new QVBoxLayout(resultsBox);
    m_results->setPlaceholderText(tr("One path or pattern per line, e.g.\noutputs/\n*.pth\nruns/"));
    m_results->setToolTip(tr("Downloaded before this machine is terminated; relative to the home directory."));
    auto *saveResults = new QPushButton(tr("Save"), resultsBox);
    resultsLayout->addWidget(m_results);
    resultsLayout->addWidget(saveResults);

    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(tunnelsBox);
    sideLayout->addWidget(openBox);
    sideLayout->addWidget(resultsBox, 1);

    connect(terminal, &QPushButton::clicked, this, &JobsTab::openTerminal);
    connect(vscode, &QPushButton::clicked, this, &JobsTab::openVsCode);
    connect(saveResults, &QPushButton::clicked, this, &JobsTab::saveResultPaths);
    return side;
}

// The list, status line and log follow what the job service reports for this machine.
void JobsTab::connectJobService()
{
    connect(m_jobs, &jobs::JobService::jobsChanged, this, [this](const QString &host) {
        if (!m_hasHost || host != m_host.name)
            return;
        const QString selected = selectedJob();
        m_model->setJobs(m_jobs->jobs(host));
        // A job just started is selected (its log shown) once the list has it.
        const int started = m_model->rowOf(m_justStarted);
        const int row = started >= 0 ? started : m_model->rowOf(selected.isEmpty() ? m_followed : selected);
        if (started >= 0)
            m_justStarted.clear();
        if (row >= 0 && selectedJob() != m_model->job(row)->name)
            m_table->selectRow(row);
        // "Stopping …" must not outlive the job it announced.
        if (const auto stopped = m_model->job(m_model->rowOf(m_stopping)); !m_stopping.isEmpty() && (!stopped || !stopped->isActive())) {
            showStatus(stopped ? tr("%1 stopped: %2.").arg(m_stopping, stopped->statusText()) : tr("%1 stopped.").arg(m_stopping));
            m_stopping.clear();
        }
        updateButtons();
    });
    connect(m_jobs, &jobs::JobService::operationFailed, this, [this](const QString &host, const QString &message) {
        if (m_hasHost && host == m_host.name)
            showStatus(message, true);
    });
    connect(m_jobs, &jobs::JobService::jobStarted, this,
            [this](const QString &host, const jobs::JobInfo &job, const QString &tail) {
                if (!m_hasHost || host != m_host.name)
                    return;
                if (job.isActive())
                    showStatus(tr("Started %1 (%2).").arg(job.name, job.method));
                else
                    showStatus(tr("%1 ended at once (%2): %3").arg(job.name, job.statusText(), tail.trimmed()), true);
                const int row = m_model->rowOf(job.name);
                if (row >= 0)
                    m_table->selectRow(row);
                else
                    m_justStarted = job.name; // the list catches up with the next jobsChanged
            });
    connect(m_jobs, &jobs::JobService::logData, this,
            [this](const QString &host, const QString &name, const QByteArray &data, qint64) {
                if (m_hasHost && host == m_host.name && name == m_followed)
                    m_log->appendData(data);
            });
}

JobsTab::~JobsTab() = default;

void JobsTab::setMachine(const SavedHost &host, ssh::Connection *connection)
{
    if (m_hasHost && m_host.name != host.name)
        clearMachine();
    m_host = host;
    m_hasHost = true;
    if (m_connection)
        m_connection->disconnect(this);
    m_connection = connection;
    if (connection) {
        // Tunnels belong to a live connection: they go when it goes.
        connect(connection, &ssh::Connection::stateChanged, this, [this](ssh::ConnectionState state) {
            if (!m_hasHost)
                return;
            if ((state == ssh::ConnectionState::Disconnected || state == ssh::ConnectionState::Lost) && m_tunnels)
                m_tunnels->closeAll(m_host.name);
            // Jobs keep their own sessions; connecting is just when the tab starts looking.
            if (state == ssh::ConnectionState::Connected && m_jobs && !m_jobs->isWatched(m_host.name)) {
                m_jobs->watch(m_host.name);
                showStatus(tr("Jobs in ~/.gantry/jobs on %1.").arg(m_host.name));
                updateButtons();
            }
        });
    }
    m_stopping.clear(); // the status below replaces its "Stopping …"
    m_results->setPlainText(jobs::ResultPathStore(m_context.configDir).patterns(host.name).join(u'\n'));
    const bool connected = connection && connection->state() == ssh::ConnectionState::Connected;
    if (m_jobs && connected) {
        m_jobs->watch(host.name);
        m_model->setJobs(m_jobs->jobs(host.name));
        showStatus(tr("Jobs in ~/.gantry/jobs on %1.").arg(host.name));
    } else {
        m_model->setJobs(m_jobs ? m_jobs->jobs(host.name) : QList<jobs::JobInfo>{});
        showStatus(tr("Connect to %1 to see and run its jobs.").arg(host.name));
    }
    refreshTunnels();
    updateButtons();
}

void JobsTab::clearMachine()
{
    if (m_jobs && m_hasHost)
        m_jobs->stopFollowing(m_host.name);
    m_hasHost = false;
    m_followed.clear();
    m_stopping.clear();
    m_model->setJobs({});
    m_log->clearLog();
    m_tunnelList->clear();
    m_results->clear();
    showStatus(QString());
    updateButtons();
}

QString JobsTab::selectedJob() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const auto job = m_model->job(current.isValid() ? current.row() : -1);
    return job ? job->name : QString();
}

QString JobsTab::statusText() const
{
    return m_status->text();
}

void JobsTab::showStatus(const QString &message, bool error)
{
    m_status->setText(message);
    if (error)
        setToneText(m_status, Tone::Error);
    else
        m_status->setPalette(QPalette()); // back to the inherited colours
}

void JobsTab::updateButtons()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const auto job = m_model->job(current.isValid() ? current.row() : -1);
    const bool live = m_hasHost && m_jobs && m_jobs->isWatched(m_host.name);
    m_run->setEnabled(live);
    m_stop->setEnabled(live && job && job->isActive());
    m_rerun->setEnabled(live && job && !job->isActive());
    m_remove->setEnabled(live && job && !job->isActive());
    m_closeTunnel->setEnabled(m_tunnelList->count() > 0);
}

void JobsTab::followSelected()
{
    const QString name = selectedJob();
    if (name.isEmpty() || name == m_followed || !m_jobs || !m_hasHost)
        return;
    m_followed = name;
    m_log->clearLog();
    // From byte 0: reattaching shows the whole log since the job started.
    m_jobs->followLog(m_host.name, name, 0);
}

void JobsTab::runJob()
{
    if (!m_hasHost || !m_jobs)
        return;
    RunJobDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    auto spec = dialog.spec();
    if (!spec)
        return;
    showStatus(tr("Starting the job on %1…").arg(m_host.name));
    m_jobs->start(m_host.name, *spec);
}

void JobsTab::stopJob()
{
    const QString name = selectedJob();
    if (name.isEmpty() || !m_jobs)
        return;
    // Like Remove: a running job is not ended by a stray click.
    if (!askDestructive(this, tr("Stop job"), tr("Stop the running job %1 on %2?").arg(name, m_host.name), QMessageBox::No))
        return;
    m_stopping = name;
    showStatus(tr("Stopping %1: SIGINT, then SIGTERM and SIGKILL if it does not end…").arg(name));
    m_jobs->stop(m_host.name, name);
}

void JobsTab::rerunJob()
{
    const QString name = selectedJob();
    if (name.isEmpty() || !m_jobs)
        return;
    m_followed.clear(); // the new run has a new log
    m_jobs->rerun(m_host.name, name);
}

void JobsTab::removeJob()
{
    const QString name = selectedJob();
    if (name.isEmpty() || !m_jobs)
        return;
    if (!askDestructive(this, tr("Remove job"), tr("Remove the job %1 and its log from %2?").arg(name, m_host.name), QMessageBox::No))
        return;
    if (m_followed == name) {
        m_jobs->stopFollowing(m_host.name);
        m_followed.clear();
        m_log->clearLog();
    }
    m_jobs->remove(m_host.name, name);
}

void JobsTab::refreshTunnels()
{
    m_tunnelList->clear();
    if (!m_tunnels || !m_hasHost)
        return;
    const QList<tunnel::Tunnel *> list = m_tunnels->tunnels(m_host.name);
    for (tunnel::Tunnel *t : list) {
        const QString label = t->spec().label.isEmpty() ? tr("port %1").arg(t->spec().remotePort) : t->spec().label;
        QString text;
        if (t->state() == tunnel::TunnelState::Open)
            text = tr("%1: %2 → port %3 (%4 connections)")
                       .arg(label, t->localUrl().toString())
                       .arg(t->spec().remotePort)
                       .arg(t->connections());
        else
            text = tr("%1: opening…").arg(label);
        auto *item = new QListWidgetItem(text, m_tunnelList);
        item->setData(Qt::UserRole, t->spec().remotePort);
        item->setData(Qt::UserRole + 1, t->localUrl());
    }
    updateButtons();
}

void JobsTab::openTunnel(int remotePort, const QString &label, bool openBrowser)
{
    if (!m_hasHost || !m_tunnels)
        return;
    ssh::ConnectOptions options;
    if (m_context.connections)
        options = backgroundConnectOptions(m_host, m_context.connections->secrets(), m_context.connections->knownHostsFile());
    tunnel::Tunnel::Spec spec;
    spec.hostName = m_host.name;
    spec.remotePort = remotePort;
    spec.label = label;
    auto opened = m_tunnels->open(m_host.target, options, spec);
    if (!opened) {
        // Already forwarded: just open it again.
        if (tunnel::Tunnel *existing = m_tunnels->find(m_host.name, remotePort); existing && openBrowser)
            QDesktopServices::openUrl(existing->localUrl());
        showStatus(opened.error().message, !m_tunnels->find(m_host.name, remotePort));
        return;
    }
    tunnel::Tunnel *t = *opened;
    showStatus(tr("Opening a tunnel to port %1…").arg(remotePort));
    connect(t, &tunnel::Tunnel::failed, this, [this](const QString &message) { showStatus(message, true); });
    connect(t, &tunnel::Tunnel::connectionFailed, this, [this](const QString &message) { showStatus(message, true); });
    connect(t, &tunnel::Tunnel::opened, this, [this, t, remotePort, openBrowser](int localPort) {
        showStatus(tr("Port %1 is at %2").arg(remotePort).arg(t->localUrl().toString()));
        if (!openBrowser)
            return;
        // Jupyter wants its token: ask the server list over the GUI's connection, then open.
        if (remotePort == tunnel::presetPort(tunnel::Preset::Jupyter) && m_connection
            && m_connection->state() == ssh::ConnectionState::Connected) {
            QPointer<JobsTab> self(this);
            const QUrl fallback = t->localUrl();
            m_connection->post([self, remotePort, localPort, fallback](ssh::Session &session) {
                QUrl url = fallback;
                if (auto out = session.run(tunnel::jupyterListCommand(), 20000)) {
                    for (const tunnel::JupyterServer &server : tunnel::parseJupyterList(out->out)) {
                        if (server.port == remotePort)
                            url = server.localUrl(localPort);
                    }
                }
                background::deliver(self, [url] { QDesktopServices::openUrl(url); });
            });
            return;
        }
        QDesktopServices::openUrl(t->localUrl());
    });
    refreshTunnels();
}

void JobsTab::openTerminal()
{
    handOff(handoff::Tool::Terminal);
}

void JobsTab::openVsCode()
{
    handOff(handoff::Tool::VsCode);
}

// Through core/handoff, as the Machine menu and `gantry-cli open HOST [--editor terminal]` do: the
// machine's ~/.ssh/config name (which carries port and key), or for a terminal its whole ssh command.
void JobsTab::handOff(handoff::Tool tool)
{
    if (!m_hasHost)
        return;
    const QList<SavedHost> all = m_context.hosts ? m_context.hosts->hosts() : QList<SavedHost>{m_host};
    startHandoff(this, tool, m_host, all, m_context.configDir, {}, m_desktop,
                 [this, tool](const Result<handoff::Launch> &launch, const Result<void> &started) {
        if (!launch)
            showStatus(launch.error().message, true);
        else if (!started)
            showStatus(started.error().message, true);
        else if (tool == handoff::Tool::Terminal)
            showStatus(tr("Opened a terminal: %1").arg(launch->commandLine));
        else
            showStatus(tr("Opened %1 in VS Code: %2").arg(m_host.name, launch->commandLine));
    });
}

void JobsTab::saveResultPaths()
{
    if (!m_hasHost)
        return;
    const QStringList patterns = m_results->toPlainText().split(u'\n', Qt::SkipEmptyParts);
    if (auto saved = jobs::ResultPathStore(m_context.configDir).setPatterns(m_host.name, patterns); !saved)
        showStatus(saved.error().message, true);
    else
        showStatus(tr("Saved: these are downloaded before %1 is terminated.").arg(m_host.name));
}

} // namespace gantry::ui
