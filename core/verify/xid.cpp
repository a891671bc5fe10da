// SPDX-License-Identifier: Apache-2.0
#include "core/verify/xid.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

#include <array>

namespace gantry::verify {
namespace {

// docs.nvidia.com/deploy/xid-errors (the Xid catalog and its resolution buckets), the common ones.
const std::array kXids{
    XidInfo{8, QT_TRANSLATE_NOOP("gantry::verify", "GPU stopped processing (timeout)"),
            QT_TRANSLATE_NOOP("gantry::verify", "Restart the application; if it recurs without one, reset the GPU."), Verdict::Warn},
    XidInfo{13, QT_TRANSLATE_NOOP("gantry::verify", "Graphics engine exception (usually an application's illegal memory access)"),
            QT_TRANSLATE_NOOP("gantry::verify", "Restart the application; if different applications hit it, run the acceptance test again."),
            Verdict::Warn},
    XidInfo{31, QT_TRANSLATE_NOOP("gantry::verify", "GPU memory page fault (usually an application bug)"),
            QT_TRANSLATE_NOOP("gantry::verify", "Restart the application; if different applications hit it, run the acceptance test again."),
            Verdict::Warn},
    XidInfo{43, QT_TRANSLATE_NOOP("gantry::verify", "GPU stopped processing a channel (an application fault)"),
            QT_TRANSLATE_NOOP("gantry::verify", "Restart the application; nothing to do for the machine."), Verdict::Warn},
    XidInfo{45, QT_TRANSLATE_NOOP("gantry::verify", "Preemptive cleanup after an earlier error or a killed process"),
            QT_TRANSLATE_NOOP("gantry::verify", "Nothing by itself; look at the Xid before it."), Verdict::Pass},
    XidInfo{48, QT_TRANSLATE_NOOP("gantry::verify", "Double-bit (uncorrectable) ECC error"),
            QT_TRANSLATE_NOOP("gantry::verify", "Reset the GPU; if it recurs, return the machine."), Verdict::Fail},
    XidInfo{61, QT_TRANSLATE_NOOP("gantry::verify", "Internal micro-controller breakpoint or warning"),
            QT_TRANSLATE_NOOP("gantry::verify", "Reset the GPU; if it recurs, return the machine."), Verdict::Fail},
    XidInfo{62, QT_TRANSLATE_NOOP("gantry::verify", "Internal micro-controller halt"),
            QT_TRANSLATE_NOOP("gantry::verify", "Reset the GPU; if it recurs, return the machine."), Verdict::Fail},
    XidInfo{63, QT_TRANSLATE_NOOP("gantry::verify", "ECC page retirement or row remapping recorded"),
            QT_TRANSLATE_NOOP("gantry::verify", "Reset the GPU so the remap takes effect; watch for more."), Verdict::Warn},
    XidInfo{64, QT_TRANSLATE_NOOP("gantry::verify", "ECC page retirement or row remapping failed"),
            QT_TRANSLATE_NOOP("gantry::verify", "Return the machine: its memory cannot be repaired."), Verdict::Fail},
    XidInfo{68, QT_TRANSLATE_NOOP("gantry::verify", "Video decoder (NVDEC) exception"),
            QT_TRANSLATE_NOOP("gantry::verify", "Restart the application; if it recurs, reset the GPU."), Verdict::Warn},
    XidInfo{69, QT_TRANSLATE_NOOP("gantry::verify", "Graphics engine class error"),
            QT_TRANSLATE_NOOP("gantry::verify", "Restart the application; if it recurs, reset the GPU."), Verdict::Warn},
    XidInfo{74, QT_TRANSLATE_NOOP("gantry::verify", "NVLink error"),
            QT_TRANSLATE_NOOP("gantry::verify", "Reset the GPU; if it recurs, return the machine (a link or switch fault)."),
            Verdict::Fail},
    XidInfo{79, QT_TRANSLATE_NOOP("gantry::verify", "GPU has fallen off the bus"),
            QT_TRANSLATE_NOOP("gantry::verify", "Return the machine: a hardware, power or cooling fault."), Verdict::Fail},
    XidInfo{92, QT_TRANSLATE_NOOP("gantry::verify", "High single-bit ECC error rate"),
            QT_TRANSLATE_NOOP("gantry::verify", "Watch it; if uncorrectable errors follow, return the machine."), Verdict::Warn},
    XidInfo{94, QT_TRANSLATE_NOOP("gantry::verify", "Contained ECC error (the affected application was stopped)"),
            QT_TRANSLATE_NOOP("gantry::verify", "Restart the application; reset the GPU when convenient to remap the row."),
            Verdict::Warn},
    XidInfo{95, QT_TRANSLATE_NOOP("gantry::verify", "Uncontained ECC error"),
            QT_TRANSLATE_NOOP("gantry::verify", "Reset the GPU; if it recurs, return the machine."), Verdict::Fail},
    XidInfo{109, QT_TRANSLATE_NOOP("gantry::verify", "Context switch timeout"),
            QT_TRANSLATE_NOOP("gantry::verify", "Restart the application; if it recurs, reset the GPU."), Verdict::Warn},
    XidInfo{119, QT_TRANSLATE_NOOP("gantry::verify", "GSP firmware RPC timeout"),
            QT_TRANSLATE_NOOP("gantry::verify", "Reset the GPU or reboot; if it recurs, return the machine."), Verdict::Fail},
    XidInfo{120, QT_TRANSLATE_NOOP("gantry::verify", "GSP firmware error"),
            QT_TRANSLATE_NOOP("gantry::verify", "Reset the GPU or reboot; if it recurs, return the machine."), Verdict::Fail},
    XidInfo{140, QT_TRANSLATE_NOOP("gantry::verify", "Unrecovered ECC error"),
            QT_TRANSLATE_NOOP("gantry::verify", "Reset the GPU; if it recurs, return the machine."), Verdict::Fail},
    XidInfo{154, QT_TRANSLATE_NOOP("gantry::verify", "GPU recovery action changed (a reset or reboot is required)"),
            QT_TRANSLATE_NOOP("gantry::verify", "Do what the line asks (reset the GPU or reboot); if it recurs, return the machine."),
            Verdict::Fail},
};

// "0000:3b:00" / "00000000:3B:00.0" → (domain, bus, device) as numbers; all -1 when unreadable.
std::array<long long, 3> pciParts(QString address)
{
    if (address.contains(QLatin1Char('.')))
        address = address.section(QLatin1Char('.'), 0, 0);
    const QStringList parts = address.split(QLatin1Char(':'));
    if (parts.size() != 3)
        return {-1, -1, -1};
    std::array<long long, 3> out{};
    for (int i = 0; i < 3; ++i) {
        bool ok = false;
        out[size_t(i)] = parts.at(i).toLongLong(&ok, 16);
        if (!ok)
            return {-1, -1, -1};
    }
    return out;
}

} // namespace

const XidInfo *xidInfo(int code)
{
    for (const XidInfo &info : kXids) {
        if (info.code == code)
            return &info;
    }
    return nullptr;
}

QList<XidEvent> parseXidLines(const QString &log)
{
    // The driver's format (nvidia.ko, os-interface.c): "NVRM: Xid (PCI:0000:3b:00): 79, pid=…".
    static const QRegularExpression xid(QStringLiteral(R"(NVRM: Xid \(PCI:([0-9A-Fa-f:]+)\): (\d+),?\s*(.*)$)"));
    QList<XidEvent> events;
    for (const QString &line : log.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = xid.match(line.trimmed());
        if (m.hasMatch())
            events.append(XidEvent{m.captured(1), m.captured(2).toInt(), m.captured(3).trimmed()});
    }
    return events;
}

bool samePciDevice(const QString &xidAddress, const QString &smiBusId)
{
    const auto a = pciParts(xidAddress);
    const auto b = pciParts(smiBusId);
    return a[0] >= 0 && a == b;
}

} // namespace gantry::verify
