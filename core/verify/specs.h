#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>

namespace gantry::verify {

// One row of resources/gpu-specs.json. Unknown numbers are nullopt.
struct GpuSpec
{
    QString id;       // "h200-sxm"
    QString model;    // "H200 SXM"
    QString family;   // "H200": variants of one chip share it
    QStringList pciDeviceIds; // "0x2335" (device part only, upper-case hex)
    QList<QRegularExpression> namePatterns;
    std::optional<double> memoryGb;
    std::optional<double> memoryMib; // as nvidia-smi reports it
    QString memoryType;
    std::optional<double> busWidthBits;
    std::optional<double> memoryBandwidthTbs;
    std::optional<double> fp32Tflops;
    std::optional<double> tf32Tflops;
    std::optional<double> bf16Tflops;
    std::optional<double> fp16Tflops;
    std::optional<double> tdpW;
    std::optional<double> pcieGen;
    std::optional<double> pcieWidth;
    std::optional<double> smCount;
    QString computeCapability;
    QString formFactor; // "SXM", "PCIe", "Superchip"
    bool nvswitch = false; // sold in NVSwitch (HGX) baseboards: Fabric Manager matters
    QString source;

    // Memory nvidia-smi should show: the recorded MiB, else the nominal size.
    std::optional<double> expectedMemoryMib() const;
};

class SpecTable
{
public:
    static Result<SpecTable> fromJson(const QByteArray &json);
    // The table compiled into the app (resources/gpu-specs.json).
    static const SpecTable &builtIn();

    const QList<GpuSpec> &specs() const { return m_specs; }
    const GpuSpec *byId(const QString &id) const;

    // For what the GPU reports: the PCI device id ("0x233510DE", "0x2335") wins over the name.
    const GpuSpec *match(const QString &nvmlName, const QString &pciDeviceId = {}) const;
    // For what a provider advertises ("H100 SXM", "a100_80gb", "RTX 4090"): a spec when the text
    // names one variant; otherwise the family it names, if any ("A100" → "A100").
    const GpuSpec *matchAdvertised(const QString &text) const;
    QString familyOf(const QString &text) const;

    // "0x233510DE" / "233510de" / "0x2335" → "0x2335"; empty when not a hex id.
    static QString normalizePciDeviceId(const QString &id);

private:
    QList<GpuSpec> m_specs;
};

} // namespace gantry::verify
