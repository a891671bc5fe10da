// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/verify/doctor.h"
#include "core/verify/specs.h"
#include "core/verify/verdict.h"

#include <QList>
#include <QString>

#include <optional>

namespace gantry::verify {

// One line of the acceptance test: per GPU, or for the machine (gpu empty).
struct AcceptCheck
{
    std::optional<int> gpu; // the GPU's index in nvidia-smi's order; nullopt: the machine
    QString name;           // "ecc", "remapped-rows", "pcie-link", "hbm-copy", …
    Verdict status = Verdict::Skip; // Pass, Warn, Fail or Skip (could not be checked here)
    QString detail;         // what was compared, what was found, and the next step when not a pass
};
QString acceptStatusName(Verdict status); // "pass", "warn", "fail", "skipped"

// What the machine should be: from --expect-* or what the provider advertised.
struct AcceptExpectation
{
    QString gpuModel; // "H100 SXM", "A100", "RTX 4090"; empty: not checked
    int gpuCount = 0; // 0: not checked
};

// The passive health checks, per GPU, from the doctor script's output (nvidia-smi -q text, the
// kernel log): no load needed, seconds to run. Pure: tests feed recorded outputs.
QList<AcceptCheck> passiveChecks(const DoctorOutput &output, const SpecTable &specs, const AcceptExpectation &expect,
                                 const DoctorOptions &options = {});

} // namespace gantry::verify
