#pragma once

#include "core/verify/doctor.h"
#include "core/verify/report.h"

#include <QString>
#include <QStringList>

namespace gantry::verify {

// What the doctor script found that decides how to verify.
struct Probe
{
    QString arch;              // `uname -m`
    bool smiPresent = false;
    bool smiWorks = false;
    QString smiError;          // first line of nvidia-smi's complaint
    bool simulatedGpu = false; // the sandbox's stand-in nvidia-smi: nothing real to verify
    QString driverVersion;     // "580.95.05"
    int driverMajor = 0;
    QString driverCuda;        // highest CUDA the driver supports, "13.0"
    int gpuCount = 0;
    QStringList gpuNames;
    bool nvccPresent = false;
    QString nvccVersion;       // "12.4"
    bool pythonPresent = false;
    bool torchPresent = false;
    bool torchCuda = false;    // torch.cuda.is_available()
    QString torchVersion;
    QString torchCudaVersion;  // torch.version.cuda ("None" → empty)
    QString torchError;
};
Probe probeFromDoctor(const DoctorOutput &output);

// What the app can bring.
struct PlanInputs
{
    bool binaryAvailable = false;        // a built gantry-verify was found locally
    QString binaryArch = QStringLiteral("x86_64");
    int binaryMinDriverMajor = 450;      // gantry-verify's low-ISA PTX fallback loads on CUDA 11.0+ drivers
    bool sourcesAvailable = false;       // kernels/ sources to build on the instance
};

struct Plan
{
    Method method = Method::DiagnosisOnly;
    QString reason; // one sentence, shown with the result
};

// The fallback chain: bundled binary → build on the instance with its nvcc → PyTorch → diagnosis.
Plan choosePlan(const Probe &probe, const PlanInputs &inputs);
// After the bundled binary said the driver is too old (exit 4): the next method, skipping it.
Plan fallbackAfterBundled(const Probe &probe, const PlanInputs &inputs, const QString &why);

// "12.4" → {12, 4}; {0, 0} when not a version.
QPair<int, int> majorMinor(const QString &version);

} // namespace gantry::verify
