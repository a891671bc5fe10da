// SPDX-License-Identifier: Apache-2.0
#pragma once

// The acceptance suites' inputs: real nvidia-smi -q captures (tests/fixtures/nvidia-smi, sources
// in its INDEX.md) and hand-made variants derived from them, one field of one GPU at a time.
#include "core/verify/doctor.h"

#include <QFile>
#include <QRegularExpression>
#include <QString>

namespace gantry::test {

inline QString capture(const char *name)
{
    QFile file(QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/") + QLatin1StringView(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing capture %s", name);
    return QString::fromUtf8(file.readAll());
}

// 8x H100 SXM, driver 565.57.01 (gls): every GPU healthy, all in P0.
inline const char *const kH100x8 = "q-h100-80gb-hbm3x8-driver565.57.01-gls.txt";

// Replaces `key : old` by `key : value` inside the GPU section `gpu` (0-based) of a -q text.
inline QString onGpu(const QString &text, int gpu, const QString &key, const QString &value, int occurrence = 0)
{
    QStringList sections = text.split(QRegularExpression(QStringLiteral("\n(?=GPU [0-9A-F]{8}:)")));
    QString &section = sections[gpu + 1];
    const QRegularExpression line(QStringLiteral("(\n\\s+%1\\s+: )[^\n]*").arg(QRegularExpression::escape(key)));
    qsizetype at = 0;
    QRegularExpressionMatch m;
    for (int i = 0; i <= occurrence; ++i) {
        m = line.match(section, at);
        if (!m.hasMatch())
            qFatal("no %s on GPU %d", qPrintable(key), gpu);
        at = m.capturedEnd();
    }
    section.replace(m.capturedStart(), m.capturedLength(), m.captured(1) + value);
    return sections.join(QLatin1Char('\n'));
}

inline QString withoutGpu(const QString &text, int gpu)
{
    QStringList sections = text.split(QRegularExpression(QStringLiteral("\n(?=GPU [0-9A-F]{8}:)")));
    sections.removeAt(gpu + 1);
    return sections.join(QLatin1Char('\n'));
}

// The doctor script's output around a -q text (and a kernel log, rc 1: unreadable).
inline verify::DoctorOutput doctorWith(const QString &smiQ, const QString &kernelLog = {}, int kernelRc = 1, bool simulated = false)
{
    QByteArray out = "\n@@gantry nvidia-smi-path@@\n/usr/bin/nvidia-smi\n@@rc 0@@\n";
    if (simulated)
        out += "\n@@gantry simulated@@\nmarker-file\n@@rc 0@@\n";
    out += "\n@@gantry smi-q@@\n" + smiQ.toUtf8() + "\n@@rc 0@@\n";
    out += "\n@@gantry kernel-log@@\n" + kernelLog.toUtf8() + QStringLiteral("\n@@rc %1@@\n").arg(kernelRc).toUtf8();
    out += "\n@@gantry end@@\n";
    return verify::parseDoctorOutput(out);
}

} // namespace gantry::test
