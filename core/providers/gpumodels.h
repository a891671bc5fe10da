#pragma once

#include <QString>

namespace gantry::providers {

struct InstanceType;

// One name per GPU model across providers. Lambda says "H100 (80 GB SXM5)", RunPod "NVIDIA H100
// 80GB HBM3", Vast "H100 SXM", Shadeform "H100" + interconnect "sxm5": all are "H100 SXM", while
// "H100 PCIe" and "H100 NVL" stay distinct because they differ in memory bandwidth and price.
struct GpuModel
{
    QString family;   // "H100", "A100", "RTX 4090"; empty when the text names no known GPU
    QString form;     // "SXM", "PCIe", "NVL" for families sold in several; else empty

    bool isKnown() const { return !family.isEmpty(); }
    QString name() const { return form.isEmpty() ? family : family + QLatin1Char(' ') + form; }
    bool operator==(const GpuModel &) const = default;
};

// Reads any provider's wording ("NVIDIA GeForce RTX 4090", "H100_sxm5x8", "A100-SXM4-80GB").
GpuModel parseGpuModel(const QString &text);
// The model an instance type carries: its GPU name first, then its description and id.
GpuModel gpuModelOf(const InstanceType &type);
// What a user asks for matches: "H100" every H100, "H100 SXM" only the SXM one; case and
// punctuation do not matter. A query naming no known family matches the raw text instead.
bool gpuModelMatches(const QString &query, const GpuModel &model, const QString &rawText = {});

} // namespace gantry::providers
