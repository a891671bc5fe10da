// SPDX-License-Identifier: Apache-2.0
// The Verify tab's checks: started through the core's MachineChecks, which keeps each machine's
// check and last result, so the tab shows whichever machine is selected, running or finished.
#include "ui/verify/verifytab.h"

#include "core/ssh/connection.h"
#include "core/verify/acceptance.h"
#include "core/verify/machinechecks.h"
#include "ui/verify/acceptancepanel.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>

#include <algorithm>
#include <numeric>

namespace gantry::ui {

using namespace gantry::verify;

bool VerifyTab::beginRun(const QString &status)
{
    if (!m_connection || isRunning())
        return false;
    m_progress->setValue(0);
    setStatus(status);
    return true;
}

// A check that could not start says why where the user looks, and ends there.
void VerifyTab::started(const Result<void> &started)
{
    updateButtons();
    if (!started) {
        onFailed(started.error().message);
        emit runFinished();
    }
}

void VerifyTab::start(bool quick)
{
    if (!beginRun(tr("Starting…")))
        return;
    m_banner->hide();
    m_method->hide();
    VerifyRequest request;
    request.hostName = m_host.name;
    request.quick = quick;
    request.binaryPath = m_binaryPath;
    request.sourcesDir = defaultKernelSources();
    request.advertised = advertised();
    request.remoteCacheDir = m_remoteCacheDir;
    started(m_checks->verify(m_connection, request));
}

void VerifyTab::startDoctor()
{
    if (!beginRun(tr("Running Doctor…")))
        return;
    started(m_checks->doctor(m_connection, m_host.name, advertised()));
}

void VerifyTab::startAcceptance()
{
    if (!beginRun(tr("Running the acceptance test…")))
        return;
    AcceptRequest request;
    request.verify.hostName = m_host.name;
    request.verify.binaryPath = m_binaryPath;
    request.verify.sourcesDir = defaultKernelSources();
    request.verify.advertised = advertised();
    request.verify.remoteCacheDir = m_remoteCacheDir;
    request.expect = AcceptExpectation{request.verify.advertised.gpuModel, request.verify.advertised.gpuCount};
    started(m_checks->accept(m_connection, request));
}

void VerifyTab::cancel()
{
    if (isRunning())
        m_checks->cancel(m_host.name);
}

void VerifyTab::onCheckProgress(const QString &hostName)
{
    if (hostName != m_host.name)
        return;
    if (const auto live = m_checks->live(hostName)) {
        m_progress->setValue(live->percent);
        setStatus(live->text);
    }
    updateButtons();
}

void VerifyTab::onCheckFinished(const QString &hostName)
{
    // Another machine's check has been recorded in its history; its result waits for that machine.
    if (hostName != m_host.name)
        return;
    if (const auto last = m_checks->last(hostName))
        showFinished(*last);
    updateButtons();
    emit runFinished();
}

void VerifyTab::showChecksOf(const QString &hostName)
{
    if (const auto live = m_checks->live(hostName)) {
        m_progress->setValue(live->percent);
        setStatus(live->text);
    } else if (const auto last = m_checks->last(hostName)) {
        showFinished(*last);
    }
}

void VerifyTab::showFinished(const FinishedCheck &check)
{
    if (check.verify)
        onVerified(*check.verify);
    else if (check.doctor)
        onDoctorDone(*check.doctor);
    else if (check.accept)
        onAccepted(*check.accept);
}

void VerifyTab::onVerified(const Result<VerifyRun> &run)
{
    if (!run) {
        onFailed(run.error().message);
        return;
    }
    showAssessed(run->outcome, run->assessment);
    showHistory(run->history);
    loadReputation();
    if (!run->warnings.isEmpty())
        setStatus(m_status->text() + QLatin1Char(' ') + run->warnings.join(QLatin1Char(' ')));
}

void VerifyTab::onDoctorDone(const Result<QList<DoctorCheck>> &checks)
{
    if (!checks) {
        onFailed(checks.error().message);
        return;
    }
    showDoctor(*checks);
    const qsizetype failures = std::count_if(checks->cbegin(), checks->cend(),
                                             [](const DoctorCheck &c) { return c.status == CheckStatus::Fail; });
    setStatus(failures == 0 ? tr("Doctor found no blocking problem.")
                            : tr("Doctor found %n problem(s); each row says how to fix it.", nullptr, int(failures)));
    m_progress->setValue(100);
    loadReputation();
}

void VerifyTab::onAccepted(const Result<Acceptance> &acceptance)
{
    if (!acceptance) {
        onFailed(acceptance.error().message);
        return;
    }
    showAcceptance(*acceptance);
    setStatus(tr("Acceptance test finished."));
    m_progress->setValue(100);
    loadHistory();
}

void VerifyTab::showAcceptance(const Acceptance &acceptance)
{
    m_acceptance->setAcceptance(acceptance);
    m_lowerTabs->setCurrentWidget(m_acceptance);
    // Its checks are what to read now: most of the height goes to them.
    const QList<int> sizes = m_split->sizes();
    const int total = std::accumulate(sizes.cbegin(), sizes.cend(), 0);
    if (total > 0)
        m_split->setSizes({total / 5, total * 3 / 5, total / 5});
}

void VerifyTab::onFailed(const QString &message)
{
    setStatus(message);
    setBanner(Verdict::Error, message);
}

} // namespace gantry::ui
