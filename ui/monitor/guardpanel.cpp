#include "ui/monitor/guardpanel.h"

#include "core/util/background.h"
#include "core/ssh/connection.h"
#include "core/util/printable.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace gantry::ui::monitor {

using guard::GuardStatus;
using providers::SelfStop;

GuardPanel::GuardPanel(QString configDir, guard::MachineGuards *guards, QWidget *parent)
    : QWidget(parent)
    , m_configDir(std::move(configDir))
    , m_guards(guards ? guards : new guard::MachineGuards(m_configDir, this))
    , m_title(new QLabel(tr("Idle guard on the instance:"), this))
    , m_status(new QLabel(this))
    , m_minutes(new QSpinBox(this))
    , m_action(new QComboBox(this))
    , m_install(new QPushButton(tr("Install"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_check(new QPushButton(tr("Check"), this))
{
    setObjectName(QStringLiteral("idleGuard"));
    m_title->setStyleSheet(QStringLiteral("font-weight: bold;"));
    m_title->setToolTip(tr("A small program on the machine that stops it after it has been idle, with credentials "
                           "that can stop only that machine, so it stops even while this computer sleeps or is "
                           "offline. Opt-in per machine."));
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("guardStatus"));
    m_minutes->setObjectName(QStringLiteral("guardMinutes"));
    m_minutes->setRange(1, 24 * 60);
    m_minutes->setValue(30);
    m_minutes->setPrefix(tr("after "));
    m_minutes->setSuffix(tr(" idle min"));
    m_minutes->setToolTip(tr("Idle means every GPU below 5% utilisation, no SSH session and no Gantry job."));
    m_action->setObjectName(QStringLiteral("guardAction"));
    m_action->addItem(tr("then stop"));
    m_action->addItem(tr("then terminate"));
    m_action->setToolTip(tr("Stop keeps the disk (which may still bill); terminate deletes the machine and its "
                            "disk, so nothing bills any more."));
    m_install->setObjectName(QStringLiteral("guardInstall"));
    m_remove->setObjectName(QStringLiteral("guardRemove"));
    m_check->setObjectName(QStringLiteral("guardCheck"));
    m_check->setToolTip(tr("Ask the machine how its guard is doing"));
    connect(m_install, &QPushButton::clicked, this, &GuardPanel::install);
    connect(m_remove, &QPushButton::clicked, this, &GuardPanel::remove);
    connect(m_check, &QPushButton::clicked, this, &GuardPanel::check);
    connect(m_guards, &guard::MachineGuards::answered, this, &GuardPanel::onAnswered);
    auto follow = [this] {
        if (!isBusy() && !(m_last && m_last->installed) && m_available)
            showStatus(m_last.value_or(GuardStatus{}));
    };
    connect(m_minutes, &QSpinBox::valueChanged, this, follow);
    connect(m_action, &QComboBox::currentIndexChanged, this, follow);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(m_title);
    layout->addWidget(m_status, 1);
    layout->addWidget(m_minutes);
    layout->addWidget(m_action);
    layout->addWidget(m_install);
    layout->addWidget(m_remove);
    layout->addWidget(m_check);
    clearMachine();
}

// A command in flight belongs to its machine (MachineGuards) and ends without the panel.
GuardPanel::~GuardPanel() = default;

bool GuardPanel::isBusy() const
{
    return !m_host.name.isEmpty() && m_guards->isBusy(m_host.name);
}

void GuardPanel::setRemoteDir(const QString &dir)
{
    m_guards->setRemoteDir(dir);
}

QString GuardPanel::statusText() const
{
    return m_status->text();
}

void GuardPanel::clearMachine()
{
    if (m_connection)
        disconnect(m_connection, nullptr, this, nullptr);
    m_connection = nullptr;
    m_host = SavedHost{};
    m_available = false;
    m_remembered = false;
    m_last.reset();
    m_status->setText(tr("Select a machine to see its idle guard."));
    updateButtons();
}

void GuardPanel::setMachine(const SavedHost &host, ssh::Connection *connection)
{
    const bool otherHost = host.name != m_host.name || host.provider != m_host.provider;
    if (m_connection != connection) {
        if (m_connection)
            disconnect(m_connection, nullptr, this, nullptr);
        m_connection = connection;
        if (connection) {
            connect(connection, &ssh::Connection::stateChanged, this, &GuardPanel::onConnectionState);
            connect(connection, &QObject::destroyed, this, &GuardPanel::onConnectionState);
        }
    }
    if (!otherHost) {
        updateButtons();
        return;
    }
    m_host = host;
    m_last.reset();
    m_remembered = false;
    m_method = guard::selfStopFor(host.provider);
    m_available = m_method != SelfStop::None;
    if (!m_available) {
        m_status->setText(tr("Not available: %1 Meanwhile, while Gantry runs, the monitor's “When idle” action stops it.")
                              .arg(guard::noSelfStopReason(host.provider)));
        updateButtons();
        return;
    }
    showStatus(GuardStatus{});
    if (isBusy())
        m_status->setText(tr("Waiting for %1's answer about its idle guard…").arg(host.name));
    else if (const auto last = m_guards->last(host.name))
        showAnswer(*last); // how its last command ended, also while another machine was shown
    // guards.json is read off the GUI thread; the answer is dropped if the user moved on.
    QPointer<GuardPanel> self(this);
    const QString configDir = m_configDir;
    const QString name = host.name;
    using Remembered = std::optional<guard::GuardStore::Entry>;
    background::run<Remembered>(
        this,
        [configDir, name]() -> Remembered {
            const auto entries = guard::GuardStore(configDir).load();
            if (!entries.contains(name))
                return std::nullopt;
            return entries.value(name);
        },
        [self, name](Remembered entry) {
            if (self)
                self->onRemembered(name, entry);
        });
    updateButtons();
}

void GuardPanel::onRemembered(const QString &host, std::optional<guard::GuardStore::Entry> entry)
{
    if (host != m_host.name || !entry || m_last || isBusy() || m_guards->last(host))
        return;
    m_remembered = true;
    m_minutes->setValue(entry->idleMinutes);
    m_action->setCurrentIndex(entry->action == guard::GuardAction::Terminate ? 1 : 0);
    const bool connected = m_connection && m_connection->state() == ssh::ConnectionState::Connected;
    if (connected) {
        check();
        return;
    }
    m_checkOnConnect = true;
    m_status->setText(tr("On (%n idle minute(s)), as installed earlier; connect to see how it is.", nullptr,
                         entry->idleMinutes));
}

void GuardPanel::onConnectionState()
{
    const bool connected = m_connection && m_connection->state() == ssh::ConnectionState::Connected;
    if (connected && m_checkOnConnect && m_available && !isBusy()) {
        m_checkOnConnect = false;
        check();
        return;
    }
    updateButtons();
}

void GuardPanel::install()
{
    if (!m_connection || isBusy() || !m_available)
        return;
    auto options = guard::guardOptionsFor(m_host.provider, m_minutes->value(), chosenAction());
    if (!options) {
        m_status->setText(options.error().message);
        return;
    }
    if (m_guards->install(m_connection, m_host.name, *options))
        setBusy(tr("Installing the idle guard on %1…").arg(m_host.name));
}

void GuardPanel::remove()
{
    if (m_connection && !isBusy() && m_guards->remove(m_connection, m_host.name))
        setBusy(tr("Removing the idle guard from %1…").arg(m_host.name));
}

void GuardPanel::check()
{
    if (m_connection && !isBusy() && m_available && m_guards->check(m_connection, m_host.name))
        setBusy(tr("Asking %1 about its idle guard…").arg(m_host.name));
}

void GuardPanel::onAnswered(const QString &hostName, const Result<GuardStatus> &status)
{
    // Another machine's answer is remembered in guards.json; that machine asks again when shown.
    if (hostName != m_host.name)
        return;
    showAnswer(status);
    updateButtons();
    emit finished();
}

void GuardPanel::showAnswer(const Result<GuardStatus> &status)
{
    if (!status) {
        m_status->setText(tr("The idle guard could not be reached: %1").arg(status.error().message));
        return;
    }
    m_last = *status;
    m_remembered = status->installed;
    showStatus(*status);
}

guard::GuardAction GuardPanel::chosenAction() const
{
    return m_action->currentIndex() == 1 ? guard::GuardAction::Terminate : guard::GuardAction::Stop;
}

QString GuardPanel::whatItDoes(int minutes, guard::GuardAction action) const
{
    const bool terminate = action == guard::GuardAction::Terminate;
    QString how;
    switch (m_method) {
    case SelfStop::RunPodPodKey:
        how = terminate ? tr("terminates the pod with its own RunPod key") : tr("stops the pod with its own RunPod key");
        break;
    case SelfStop::VastContainerKey:
        how = terminate ? tr("destroys the instance with its own Vast.ai key (CONTAINER_API_KEY)")
                        : tr("stops the instance with its own Vast.ai key (CONTAINER_API_KEY)");
        break;
    case SelfStop::Shutdown: how = tr("powers the machine off, which ends its billing"); break;
    case SelfStop::None: break;
    }
    return tr("after %n idle minute(s) it %1, never with your account key.", nullptr, minutes).arg(how);
}

void GuardPanel::showStatus(const GuardStatus &status)
{
    if (!status.installed) {
        m_status->setText(tr("Off. Once installed, %1").arg(whatItDoes(m_minutes->value(), chosenAction())));
        return;
    }
    // Right after an install the guard has not written its status yet: the threshold just sent.
    const int threshold = status.thresholdSeconds > 0 ? qMax(1, status.thresholdSeconds / 60) : m_minutes->value();
    const guard::GuardAction action = status.action.isEmpty() ? chosenAction() : guard::actionFromName(status.action);
    QString text;
    if (!status.running)
        text = tr("Installed but not running (the machine restarted?); Install starts it again.");
    else if (status.state == QLatin1StringView("stopping") || status.state == QLatin1StringView("stopped"))
        text = action == guard::GuardAction::Terminate
            ? tr("On: the machine was idle for %n minute(s) and is being terminated.", nullptr, threshold)
            : tr("On: the machine was idle for %n minute(s) and is being stopped.", nullptr, threshold);
    else if (!status.reason.isEmpty() && status.reason != QLatin1StringView("idle"))
        text = tr("On: %1 Busy now (%2).").arg(whatItDoes(threshold, action), text::printable(status.reason));
    else
        text = tr("On: %1 Idle for %2 min so far.").arg(whatItDoes(threshold, action)).arg(status.idleSeconds / 60);
    if (!status.error.isEmpty())
        text += QLatin1Char(' ') + tr("Its last stop attempt failed: %1").arg(text::printable(status.error).left(200));
    m_status->setText(text);
}

void GuardPanel::setBusy(const QString &text)
{
    m_status->setText(text);
    updateButtons();
}

void GuardPanel::updateButtons()
{
    const bool connected = m_connection && m_connection->state() == ssh::ConnectionState::Connected;
    const bool installed = (m_last && m_last->installed) || (!m_last && m_remembered);
    const bool busy = isBusy();
    const bool ready = connected && !busy && m_available;
    m_install->setText(installed ? tr("Update") : tr("Install"));
    m_install->setEnabled(ready);
    m_install->setToolTip(connected ? tr("Install (or replace) the guard on the machine with this threshold")
                                    : tr("Connect to the machine first"));
    m_remove->setEnabled(ready && installed);
    m_check->setEnabled(ready);
    m_minutes->setEnabled(m_available && !busy);
    // Powering off is all a machine of this kind can do to itself.
    m_action->setEnabled(m_available && !busy && m_method != SelfStop::Shutdown);
    for (QWidget *w : {static_cast<QWidget *>(m_minutes), static_cast<QWidget *>(m_action), static_cast<QWidget *>(m_install),
                       static_cast<QWidget *>(m_remove), static_cast<QWidget *>(m_check)})
        w->setVisible(m_available);
}

} // namespace gantry::ui::monitor
