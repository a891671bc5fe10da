// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/ssh/session.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"
#include "core/verify/passivehealth.h"
#include "core/verify/reference.h"
#include "core/verify/verifyoperation.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gantry::verify {

// Keep it or give it back (issue #34).
enum class AcceptVerdict
{
    Pass,
    Warn,
    Fail,
    Incomplete, // what decides could not run (no CUDA device, a simulated GPU, the budget ran out)
};
QString acceptVerdictName(AcceptVerdict verdict); // "pass", "warn", "fail", "incomplete"

// The machine's figure for one measure: its slowest GPU, next to what good machines achieve.
struct MachineFigure
{
    QString measure;   // "hbm_copy", "tensor_bf16", …
    int gpu = 0;       // the slowest GPU
    double value = 0;
    QString unit;
    std::optional<double> reference;
    QString source;    // of the reference
};

struct AcceptRequest
{
    VerifyRequest verify;       // host name, binary, advertised machine (provider, price, machine id)
    AcceptExpectation expect;
    int budgetSeconds = 90;     // for the whole test; the active run gets what the passive part leaves
};

struct Acceptance
{
    AcceptVerdict verdict = AcceptVerdict::Incomplete;
    QStringList reasons;        // why, one sentence each, the worst first
    QList<AcceptCheck> checks;
    QList<MachineFigure> figures;
    QString nextStep;           // "Return it.", "Ask for a refund with this report." …
    QString host;
    Advertised machine;         // provider, machine id, price
    QString driverVersion, cudaVersion, method;
    QStringList gpuNames;
    QDateTime started, finished; // UTC
};

// Judges what one Verify run found: the passive checks from its doctor output, the active
// figures from its report against the reference table. Pure.
Acceptance judgeAcceptance(const VerifyOutcome &outcome, const SpecTable &specs, const ReferenceTable &references,
                           const AcceptExpectation &expect);
// A figure against what good machines achieve: pass at 90 % of the reference or more, warn below,
// fail below 75 %; the detail says what was compared and the next step.
void judgeAgainstReference(AcceptCheck &check, const QString &measured, double value, const ReferenceFigure &ref);
// The verdict and reasons of a list of checks (and whether what decides could run).
void decide(Acceptance &acceptance, bool measured, const QString &incompleteWhy);

// The whole test over a connected session, on its thread (blocking): Verify's run within the
// budget, judged; a failing machine is recorded in its reputation (machines.json).
Result<Acceptance> runAcceptance(ssh::Session &session, const QString &configDir, const AcceptRequest &request,
                                 const CancelToken &cancel, const VerifyCallbacks &callbacks);

// {"verdict", "reasons", "checks": [{gpu, name, status, detail}], "figures", "next_step", …}
QJsonObject acceptanceToJson(const Acceptance &acceptance);
// A printable, self-contained page: what a refund request needs.
QString acceptanceHtml(const Acceptance &acceptance);
// Written atomically (QSaveFile): a half-written report is never left behind.
Result<void> writeAcceptanceReport(const QString &path, const Acceptance &acceptance);

} // namespace gantry::verify
