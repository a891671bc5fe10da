// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/ssh/session.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"
#include "core/verify/acceptance.h"
#include "core/verify/reference.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

// The acceptance test's figures of the machine rather than of one GPU (issue #34): the data disk's
// write and read speed, and on a machine with two or more GPUs the GPU-to-GPU copy bandwidth and
// the NCCL all-reduce bus bandwidth, measured through PyTorch where it is installed. Each runs on
// the machine from a script Gantry ships (resources/data-disk-speed.sh, gpu-multi-check.py) sent
// over the session, never left behind.
namespace gantry::verify {

// Below these a data disk earns a warning: a loader reading training data at under 200 MB/s keeps
// fast GPUs waiting, and a checkpoint written at under 100 MB/s stalls a run for minutes.
inline constexpr double kDiskReadWarnMBps = 200;
inline constexpr double kDiskWriteWarnMBps = 100;
// What the acceptance test keeps of its budget for these figures.
inline constexpr int kMachineFiguresSeconds = 25;

struct DiskSpeed
{
    QString folder;
    double writeMBps = 0;
    double readMBps = 0;
    bool directWrite = false; // else written through with fsync
    bool directRead = false;  // else read back from the page cache: no verdict on it
    qint64 bytes = 0;
};

// data-disk-speed.sh's output; its "error" line, or no figure, is the error.
Result<DiskSpeed> parseDiskSpeed(const QByteArray &output);
// "disk": the figures against the two floors above (a cached read is shown, not judged).
AcceptCheck judgeDisk(const Result<DiskSpeed> &disk);
// "gpu-to-gpu" and "nccl-all-reduce" from gpu-multi-check.py's JSON, against the reference table
// (the slowest pair is the machine's copy figure); what could not run is a skipped check that
// says why. The figures that were measured are appended to `figures`.
QList<AcceptCheck> judgeMultiGpu(const QJsonObject &doc, const QString &specId, int gpuCount,
                                 const ReferenceTable &references, QList<MachineFigure> *figures);

// The shell commands that run the shipped scripts (each reads its script on stdin).
QString diskSpeedCommand(int sizeMiB, int seconds, const QString &folder = {});
QString multiGpuCommand(const QString &backend, const QString &device, int sizeMiB, int seconds, int processes = 0);
QByteArray diskSpeedScript();
QByteArray multiGpuScript();

struct MachineFiguresRequest
{
    int gpuCount = 0;
    bool torchCuda = false; // the doctor found PyTorch with CUDA
    QString specId;         // the first GPU's spec, for the reference figures
    QString diskFolder;     // empty: the script picks the data folder
    int diskMiB = 1024;
    int diskSeconds = 3;    // per direction
    int multiGpuSeconds = 8;
};

// Runs what applies over a connected session (blocking, on its thread) and judges it. Never an
// error: what could not run is a skipped check naming why.
QList<AcceptCheck> measureMachineFigures(ssh::Session &session, const MachineFiguresRequest &request,
                                         const ReferenceTable &references, const CancelToken &cancel,
                                         QList<MachineFigure> *figures);

// Replaces the checks of the same names in `acceptance` (gantry-verify's "not measured" ones).
void mergeChecks(Acceptance &acceptance, const QList<AcceptCheck> &checks);

} // namespace gantry::verify
