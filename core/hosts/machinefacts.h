#pragma once

#include "core/ssh/session.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace gantry {

// The NVIDIA driver branch Gantry recommends installing (CUDA 13: what gantry-verify's fatbin and
// PyTorch cu130 wheels need). The one place it is written: Overview, Doctor and Verify all say it.
constexpr int kRecommendedDriverMajor = 580;

// The file the sandbox's simulated nvidia-smi keeps next to itself, and the text it prints in its
// table and -q outputs. Either one marks the GPU as simulated: a real host that shows the marker
// is treated as simulated too, the safe direction (Verify and Doctor then never pass).
inline constexpr char kSimulatedGpuMarkerFile[] = "gantry-simulated-gpu";
inline constexpr char kSimulatedGpuMarkerText[] = "Gantry simulated GPU";

// What every user checks by hand after renting a GPU, gathered in one remote command.
struct MachineFacts
{
    struct Gpu
    {
        int index = 0;
        QString name;
        QString uuid;
        std::optional<int> memoryTotalMiB;
    };
    struct Problem
    {
        QString message;
        QString fix;
    };

    QString os;
    QString kernel;
    QString cpuModel;
    int cpuCores = 0;
    std::optional<qint64> memTotalMiB;
    std::optional<qint64> memAvailableMiB;
    std::optional<qint64> diskFreeMiB;   // of the home directory's filesystem
    std::optional<qint64> diskTotalMiB;
    QString diskMount;
    bool nvidiaSmiFound = false;
    QString nvidiaSmiError;              // nvidia-smi exists but failed (driver/library mismatch…)
    bool simulatedGpu = false;           // the sandbox's stand-in nvidia-smi (see kSimulatedGpuMarker*)
    QList<Gpu> gpus;
    QString driverVersion;
    QString cudaVersion;                 // the driver's highest supported CUDA version
    QString pythonVersion;
    QString torchVersion;
    QString torchCudaVersion;
    std::optional<bool> torchCudaAvailable;
    int torchDeviceCount = 0;
    QList<Problem> problems;             // derived: each with its fix

    QJsonObject toJson() const;
};

// The script run remotely (POSIX sh; prints "@@section" headers).
QString machineFactsScript();
// Parses the script's output; pure, so it is tested with recorded outputs.
MachineFacts parseMachineFacts(const QByteArray &output);
// Runs the script over an open session (blocking; call off the GUI thread).
Result<MachineFacts> gatherMachineFacts(ssh::Session &session, const CancelToken &cancel = {});

} // namespace gantry
