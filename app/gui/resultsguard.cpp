#include "app/gui/resultsguard.h"

#include "ui/common/confirm.h"

#include "core/providers/providertypes.h"
#include "core/workspace/resultshome.h"
#include "core/workspace/workspace.h"

#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QWidget>

namespace gantry::app {

using Verdict = workspace::ResultsHome::Verdict;

ResultsGuard::ResultsGuard(workspace::Workspace *workspace, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_results(workspace->resultsHome())
    , m_parent(dialogParent)
{
}

bool ResultsGuard::allowTerminate(const providers::Instance &instance)
{
    const workspace::ResultsHome::Check check = m_results->check(instance.provider, instance.id);
    switch (check.verdict) {
    case Verdict::Allow:
        return true;
    case Verdict::TransfersPending:
        return ui::askDestructive(m_parent, tr("Transfers pending"), check.detail + QStringLiteral("\n\n") + tr("Terminate anyway?"),
                                  QMessageBox::No);
    case Verdict::Downloading:
        QMessageBox::information(m_parent, tr("Results still downloading"), check.detail);
        return false;
    case Verdict::Failed:
        if (!ui::askDestructive(m_parent, tr("Results not home"), check.detail + QStringLiteral("\n\n") + tr("Terminate anyway?"),
                                QMessageBox::No, QMessageBox::Warning))
            return false;
        m_results->acknowledgeFailure(check.hostName);
        return true;
    case Verdict::OfferDownload:
        break;
    }
    QMessageBox box(QMessageBox::Question, tr("Bring results home first?"),
                    tr("%1 has result paths (%2). Download them to %3 before terminating?")
                        .arg(check.hostName, check.patterns.join(QStringLiteral(", ")), m_results->resultsDir(check.hostName)),
                    QMessageBox::NoButton, m_parent);
    QPushButton *download = box.addButton(tr("Download first"), QMessageBox::AcceptRole);
    QPushButton *without = box.addButton(tr("Terminate without"), QMessageBox::DestructiveRole);
    ui::makeCancelDefault(box);
    box.exec();
    if (box.clickedButton() == without)
        return true;
    if (box.clickedButton() == download) {
        // Not acknowledged: the workspace downloads first and terminates once the results are home.
        QPointer<ResultsGuard> self(this);
        m_workspace->terminate(instance.provider, instance.id, workspace::ActionOptions{},
                               [self](Result<workspace::ActionOutcome> outcome) {
                                   if (self)
                                       emit self->message(outcome ? outcome->message : outcome.error().message);
                               });
    }
    return false;
}

} // namespace gantry::app
