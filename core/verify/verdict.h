#pragma once

#include <QString>

#include <optional>

namespace gantry::verify {

// Ordered by severity so the overall verdict is the maximum. Skip never makes a run worse.
enum class Verdict
{
    Pass,
    Skip,
    Warn,
    Fail,
    Error, // the check itself could not run (no driver, tool crashed)
};

QString verdictName(Verdict verdict);                       // "pass", "warn", …
std::optional<Verdict> verdictFromName(const QString &name); // nullopt on an unknown word
Verdict worst(Verdict a, Verdict b);

// The thresholds gantry-verify applies (verification.md §5, issue 6), reapplied by the app so
// a report from an older tool or the PyTorch fallback is judged the same way.
struct Thresholds
{
    double pass = 0;
    double warn = 0;
};
// nullopt for tests that are not judged by a ratio (identity, memory_integrity, burn…).
std::optional<Thresholds> thresholdsFor(const QString &testId);
Verdict verdictForRatio(double ratio, Thresholds thresholds);

} // namespace gantry::verify
