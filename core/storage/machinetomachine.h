// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/ssh/session.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"

#include <QMap>

#include <atomic>
#include <QString>

namespace gantry::storage {

// A file or folder copied from one machine into a folder of another (`gantry-cli cp -r A:PATH
// B:DIR/`), checked by the SHA-256 of every file on both ends.
struct MachineToMachine
{
    QString sourcePath;   // on the source: a file or a folder
    QString targetDir;    // on the target: the folder it lands in (made when missing)
};

struct MachineCopyOutcome
{
    int files = 0;
    bool direct = false;  // went straight from one machine to the other
    QString note;         // why the direct path was not taken ("" when it was)
};

// Straight from the source to the target: a key pair made for this copy alone is authorised on the
// target (one marked `restrict` line of its ~/.ssh/authorized_keys) and handed to the source on
// stdin; the source streams tar to the target over ssh, checked against the target's host key as
// this computer knows it (never trusted on first use there). The line and the key are removed
// again whatever happened. `targetAddress` is where the source reaches the target (its SSH address).
// `filesLanded`, when given, grows by each file the target's tar has unpacked (the progress).
Result<MachineCopyOutcome> copyDirect(ssh::Session &source, ssh::Session &target, const ssh::Target &targetAddress,
                                      const MachineToMachine &copy, const CancelToken &cancel, std::atomic<int> *filesLanded = nullptr);
// Through this computer: tar on the source, read here and written to tar on the target.
Result<MachineCopyOutcome> copyThroughHere(ssh::Session &source, ssh::Session &target, const MachineToMachine &copy,
                                           const CancelToken &cancel, std::atomic<int> *filesLanded = nullptr);
// The direct copy, else — saying why — the one through this computer; both checked the same way.
Result<MachineCopyOutcome> copyBetweenMachines(ssh::Session &source, ssh::Session &target, const ssh::Target &targetAddress,
                                               const MachineToMachine &copy, const CancelToken &cancel, std::atomic<int> *filesLanded = nullptr);
// How many files (not folders) `path` holds on a machine (a file: 1): a copy's plan.
Result<int> machineFileCount(ssh::Session &session, const QString &path, const CancelToken &cancel);

// Every regular file under `path` on a machine (a file: itself, as its name), relative to it,
// with its SHA-256 (names holding a line break are left out).
Result<QMap<QString, QByteArray>> machineDigests(ssh::Session &session, const QString &path, const CancelToken &cancel);

} // namespace gantry::storage
