#pragma once

#include <QList>
#include <QPair>
#include <QStringList>
#include <QString>

namespace gantry::verify {

// `nvidia-smi -q` text as data: the header fields and, per GPU, every "Key : Value" line under
// its section path ("PCI/GPU Link Info/Link Width/Max" → "16x"). Order and repeats are kept
// (the Processes section repeats its keys once per process).
struct SmiGpu
{
    QString busId;                         // from the "GPU 00000000:19:00.0" line
    QList<QPair<QString, QString>> fields; // path → value, in file order

    QString value(const QString &path) const; // first match; empty when absent
    // Every value whose path starts with prefix, e.g. the ECC counters under "ECC Errors/Volatile".
    QList<QPair<QString, QString>> under(const QString &prefix) const;
    QString name() const { return value(QStringLiteral("Product Name")); }
};

struct SmiQuery
{
    QString driverVersion; // "Driver Version" or, from 610 on, "KMD Version"
    QString cudaVersion;   // "CUDA Version" / "CUDA UMD Version"
    int attachedGpus = 0;
    QList<SmiGpu> gpus;
};

SmiQuery parseSmiQuery(const QString &text);

// Leading integer of a value ("16x" → 16, "81559 MiB" → 81559); -1 when there is none ("N/A").
long long leadingInt(const QString &value);

// Readings Doctor and the acceptance test both judge, read one way.
bool smiActive(const QString &value); // "Active" (a clock event reason)
bool smiYes(const QString &value);    // "Yes" (pending remaps, retirements)
// A clock event reason by its leaf name ("HW Slowdown", "HW Thermal Slowdown"), under either
// name the section has had ("Clocks Throttle Reasons" before 535, "Clocks Event Reasons" after).
QString clockEventReason(const SmiGpu &gpu, const QString &leaf);
// The hardware's clock cuts that are active: "HW Thermal Slowdown", "HW Power Brake Slowdown", or
// "HW Slowdown" alone when neither cause is named. Empty: none.
QStringList hardwareSlowdowns(const SmiGpu &gpu);
// P0–P2: the GPU is working, so its PCIe link runs at the generation it trained to (it drops
// to Gen1 at idle to save power).
bool smiBusy(const SmiGpu &gpu);
struct PcieLink
{
    long long genCurrent = -1, genMax = -1, widthCurrent = -1, widthMax = -1; // -1: not shown
};
PcieLink pcieLink(const SmiGpu &gpu);
// Uncorrectable ECC errors counted under "ECC Errors/Volatile" (since boot) or ".../Aggregate"
// (lifetime), in every layout the drivers have used (DRAM/SRAM Uncorrectable, Double Bit/Total).
long long uncorrectableEcc(const SmiGpu &gpu, const QString &scope);

} // namespace gantry::verify
