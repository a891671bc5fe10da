// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace gantry::verify {

// One figure a healthy machine achieves, with its source (resources/gpu-reference.json, installed
// as <share>/gantry/gpu-reference.json): the acceptance test compares with these, not the datasheet.
struct ReferenceFigure
{
    QString specId;   // a GpuSpec id ("h100-sxm"), or "*" for any GPU (host links)
    QString measure;  // "hbm_copy", "hbm_triad", "tensor_bf16", "host_to_device", "nccl_allreduce_busbw", …
    QString pcie;     // "gen5x16" for a host-link figure, else empty
    int count = 0;    // the GPUs the figure needs (8 for an 8-GPU all-reduce), 0: per GPU
    double value = 0;
    QString unit;
    std::optional<double> datasheet;
    QString kernel;   // "cublas" when only a cuBLAS-class GEMM reaches it, else empty
    QString source;
};

class ReferenceTable
{
public:
    static Result<ReferenceTable> fromJson(const QByteArray &json);
    // <share>/gantry/gpu-reference.json next to this install or build tree (paths::resourcesDir),
    // else the copy compiled in. Loaded once.
    static const ReferenceTable &installed();
    // Where installed() read its table from (a path, or ":/…" for the compiled-in copy).
    static QString installedPath();

    const QList<ReferenceFigure> &figures() const { return m_figures; }
    const ReferenceFigure *find(const QString &specId, const QString &measure, int count = 0) const;
    const ReferenceFigure *hostLink(int pcieGen, int pcieWidth) const;

private:
    QList<ReferenceFigure> m_figures;
};

// Pass at ≥ 90 % of the reference, warn below, fail below 75 % (issue #34).
inline constexpr double kReferencePass = 0.90;
inline constexpr double kReferenceFail = 0.75;

} // namespace gantry::verify
