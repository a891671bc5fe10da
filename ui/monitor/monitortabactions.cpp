// The Monitor tab's actions: Kill over the machine's connection, CSV export, status wording.
#include "ui/monitor/monitortab.h"

#include "core/monitor/monitorservice.h"
#include "core/monitor/processkill.h"
#include "ui/monitor/alertspanel.h"
#include "ui/monitor/processpanel.h"
#include "ui/common/filedialogs.h"
#include "core/ssh/connection.h"
#include "core/ssh/session.h"
#include "core/util/background.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QSaveFile>

namespace gantry::ui::monitor {

QString MonitorTab::statusText(gantry::monitor::SamplerStatus status)
{
    using gantry::monitor::SamplerStatus;
    switch (status) {
    case SamplerStatus::Idle: return tr("not monitoring");
    case SamplerStatus::Connecting: return tr("connecting");
    case SamplerStatus::Live: return tr("live");
    case SamplerStatus::Stale: return tr("no recent sample");
    case SamplerStatus::NoDriver: return tr("host metrics only");
    case SamplerStatus::Reconnecting: return tr("reconnecting");
    case SamplerStatus::Failed: return tr("failed");
    }
    return {};
}

void MonitorTab::updateKillAvailability()
{
    const bool live = m_connection && m_connection->state() == ssh::ConnectionState::Connected;
    m_processes->setCanKill(live, live ? QString() : tr("Connect to %1 to end a process.").arg(m_machine));
}

// The signal goes over the window's connection to the machine (its worker thread), never the GUI
// thread; the answer comes back queued.
void MonitorTab::sendKill(qint64 pid, gantry::monitor::KillSignal signal)
{
    if (!m_connection || m_connection->state() != ssh::ConnectionState::Connected) {
        m_processes->showResult(tr("Connect to %1 to end a process.").arg(m_machine));
        return;
    }
    QPointer<ProcessPanel> panel = m_processes;
    const QString host = m_machine;
    m_connection->post([panel, host, pid, signal](ssh::Session &session) {
        const Result<void> sent = session.isConnected()
                                      ? gantry::monitor::killProcess(session, host, pid, signal)
                                      : Result<void>(Error{ErrorCode::ConnectFailed, tr("The connection to %1 is gone; connect again.").arg(host)});
        const QString text = sent ? tr("Sent SIG%1 to process %2; the table updates within a few seconds.")
                                        .arg(gantry::monitor::killSignalName(signal))
                                        .arg(pid)
                                  : sent.error().message;
        background::deliver(panel, [panel, text] { panel->showResult(text); });
    });
}

Result<void> MonitorTab::exportCsv(const QString &path) const
{
    const gantry::monitor::MetricStore *store = m_service->store(m_machine);
    if (!store) {
        return Error{ErrorCode::NotFound, tr("No history for this machine yet: connect and let it sample first.")};
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return Error{ErrorCode::Io, tr("Cannot write %1: %2").arg(path, file.errorString())};
    }
    qint64 span = 0;
    auto written = store->exportCsv(&file, resolutionFor(m_range, &span));
    if (!written) {
        return written;
    }
    if (!file.commit()) {
        return Error{ErrorCode::Io, tr("Cannot write %1: %2").arg(path, file.errorString())};
    }
    return {};
}

void MonitorTab::chooseExportFile()
{
    const QString path = FileDialogs::saveFile(this, tr("Export monitor history"), m_machine + QStringLiteral("-monitor.csv"),
                                              tr("CSV files (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    if (auto result = exportCsv(path); !result) {
        QMessageBox::warning(this, tr("Export failed"), result.error().message);
    }
}

// Status line, range and refresh.
QString MonitorTab::countdownText() const
{
    return m_countdown->isHidden() ? QString() : m_countdownLabel->text();
}

int MonitorTab::alertCount() const
{
    return m_alerts->count();
}

void MonitorTab::addAlert(const gantry::monitor::Alert &alert)
{
    m_alerts->addAlert(alert);
}

void MonitorTab::updateStatus()
{
    if (m_machine.isEmpty()) {
        m_status->setText(tr("Not monitoring: select and connect a machine."));
        return;
    }
    if (!m_service->isMonitoring(m_machine)) {
        m_status->setText(tr("%1: connect to start monitoring.").arg(m_machine));
        return;
    }
    const gantry::monitor::SamplerStatus status = m_service->status(m_machine);
    // Without a driver the note above the charts says it once; the status line does not repeat it.
    const QString message = status == gantry::monitor::SamplerStatus::NoDriver || status == gantry::monitor::SamplerStatus::Live
                                ? QString()
                                : m_service->statusMessage(m_machine);
    m_status->setText(QStringLiteral("<b>%1</b> · %2%3")
                          .arg(m_machine.toHtmlEscaped(), statusText(status).toHtmlEscaped(),
                               message.isEmpty() ? QString() : QStringLiteral(" · ") + message.toHtmlEscaped()));
}

void MonitorTab::setRange(Range range)
{
    m_range = range;
    if (m_rangeBox->currentIndex() != int(range)) {
        m_rangeBox->setCurrentIndex(int(range));
    }
    redraw();
}

void MonitorTab::refresh()
{
    if (!m_machine.isEmpty()) {
        m_service->refresh(m_machine);
    }
    redraw();
}

QString MonitorTab::usageText() const
{
    return m_usage->isHidden() ? QString() : m_usage->text();
}

QString MonitorTab::noGpuText() const
{
    return m_noGpu->isVisible() || (!m_noGpu->isHidden() && !isVisible()) ? m_noGpu->text() : QString();
}

gantry::monitor::Resolution MonitorTab::resolutionFor(Range range, qint64 *spanMs)
{
    switch (range) {
    case Range::Minutes10: *spanMs = 10 * 60 * 1000LL; return gantry::monitor::Resolution::Seconds1;
    case Range::Hours3: *spanMs = 3 * 3600 * 1000LL; return gantry::monitor::Resolution::Seconds10;
    case Range::Hours48: *spanMs = 48 * 3600 * 1000LL; return gantry::monitor::Resolution::Minutes2;
    }
    *spanMs = 600000;
    return gantry::monitor::Resolution::Seconds1;
}

} // namespace gantry::ui::monitor
