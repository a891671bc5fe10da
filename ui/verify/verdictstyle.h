#pragma once

#include "core/verify/doctor.h"
#include "core/verify/verdict.h"

#include <QColor>
#include <QString>

namespace gantry::ui {

// One palette for verdicts everywhere in the Verify tab (table cells, banner, doctor list).
QColor verdictColor(verify::Verdict verdict);      // text colour
QColor verdictBackground(verify::Verdict verdict); // light tint for cells and the banner
verify::Verdict verdictOf(verify::CheckStatus status);
QString verdictLabel(verify::Verdict verdict);     // translated "Pass", "Warn", …

} // namespace gantry::ui
