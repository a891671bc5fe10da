#pragma once

#include <QList>
#include <QPair>
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

} // namespace gantry::verify
