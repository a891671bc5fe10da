// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/verify/verdict.h"

#include <QList>
#include <QString>

namespace gantry::verify {

// What NVIDIA's Xid catalog says about one Xid: its meaning, the recommended action (the
// catalog's resolution bucket in words), and how much it weighs for a machine just rented.
struct XidInfo
{
    int code = 0;
    const char *meaning = "";  // translatable (VerifyText context)
    const char *action = "";   // translatable
    Verdict severity = Verdict::Warn; // Fail: the GPU lost or will lose work; Warn: usually the application's
};

// The Xids of the catalog that Gantry explains; nullptr for one it does not know.
const XidInfo *xidInfo(int code);

// One "NVRM: Xid (PCI:0000:3b:00): 79, pid=…, GPU has fallen off the bus." line of the kernel log.
struct XidEvent
{
    QString pciAddress; // "0000:3b:00", as the driver prints it
    int code = 0;
    QString text;       // what follows the code on the line
};

// Every Xid line of dmesg or `journalctl -k` output, in order; other lines are ignored.
QList<XidEvent> parseXidLines(const QString &log);

// Whether an Xid's "PCI:DDDD:BB:DD" and nvidia-smi's "DDDDDDDD:BB:DD.F" name the same device.
bool samePciDevice(const QString &xidAddress, const QString &smiBusId);

} // namespace gantry::verify
