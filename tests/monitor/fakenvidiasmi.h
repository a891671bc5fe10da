#pragma once

// A fake `nvidia-smi` for the end-to-end tests: a shell script on the test sshd's PATH that answers
// the probe with a recorded --help-query-gpu, plays a recorded H100 capture in a loop at the -lms
// rate (two GPUs), answers --query-compute-apps with its parent shell's pid, and logs every call.
#include "core/monitor/nvidiasmiparser.h"
#include "core/monitor/remotescript.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QString>
#include <QStringList>

namespace gantry::test::monitor {
using namespace gantry::monitor;

inline constexpr char kHelpFixture[] = "help-query-gpu-h100-80gb-hbm3-driver590.48.01-linux-nvgpuexp.txt";
inline constexpr char kCaptureFixture[] = "csv-query-gpu-allfields-h100-80gb-hbm3-driver590.48.01-linux-load-nvgpuexp.txt";

inline QString fixturePath(const char *name)
{
    return QStringLiteral(GANTRY_FIXTURES_DIR "/nvidia-smi/") + QString::fromLatin1(name);
}

inline QString readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

// The recorded capture's values, in the field order the stream will request (nounits: the unit
// suffixes of the --format=csv capture are dropped), one row per GPU.
inline QString rowsFromCapture(const QStringList &requested, int gpus)
{
    const QStringList lines = readFile(fixturePath(kCaptureFixture)).split(QLatin1Char('\n'));
    const QStringList header = lines.at(0).split(QStringLiteral(", "));
    const QStringList values = lines.at(1).split(QStringLiteral(", "));
    QHash<QString, QString> byField;
    for (int i = 0; i < header.size() && i < values.size(); ++i) {
        QString v = values.at(i);
        if (header.at(i).contains(QLatin1StringView(" [")) && !nvsmi::isPlaceholder(v)) {
            v = v.section(QLatin1Char(' '), 0, 0);
        }
        byField.insert(nvsmi::canonicalField(header.at(i)), v);
    }
    QString out;
    for (int g = 0; g < gpus; ++g) {
        QStringList row;
        for (const QString &f : requested) {
            const QString c = nvsmi::canonicalField(f);
            if (c == QLatin1StringView("index")) {
                row.append(QString::number(g));
            } else if (c == QLatin1StringView("count")) {
                row.append(QString::number(gpus));
            } else if (c == QLatin1StringView("uuid")) {
                row.append(QStringLiteral("GPU-00000000-0000-0000-0000-00000000000%1").arg(g));
            } else {
                row.append(byField.value(c, QStringLiteral("[N/A]")));
            }
        }
        out += row.join(QStringLiteral(", ")) + QLatin1Char('\n');
    }
    return out;
}

// Writes bin/nvidia-smi into dir. rejectField: a field this fake "driver" does not know although
// its help lists it (exercises the invalid-field fallback).
inline QString writeFakeNvidiaSmi(const QString &dir, const QString &rejectField = {})
{
    QDir().mkpath(dir + QStringLiteral("/bin"));
    const QStringList fields = selectGpuFields(nvsmi::parseHelpQueryGpu(readFile(fixturePath(kHelpFixture))));
    QStringList served = fields;
    served.removeAll(rejectField);
    QFile rows(dir + QStringLiteral("/rows.csv"));
    rows.open(QIODevice::WriteOnly);
    rows.write(rowsFromCapture(fields, 2).toUtf8());
    rows.close();
    QFile rowsWithout(dir + QStringLiteral("/rows-served.csv"));
    rowsWithout.open(QIODevice::WriteOnly);
    rowsWithout.write(rowsFromCapture(served, 2).toUtf8());
    rowsWithout.close();

    QString script = QStringLiteral(
        "#!/bin/sh\n"
        "printf '%s\\n' \"$*\" >> '@DIR@/invocations.log'\n"
        "case \"$*\" in\n"
        "*--help-query-gpu*) cat '@HELP@'; exit 0 ;;\n"
        "*--query-compute-apps*) echo \"$PPID, GPU-00000000-0000-0000-0000-000000000001, 15690, ./gpu_burn\"; exit 0 ;;\n"
        "esac\n"
        "ms=1000; q=; prev=\n"
        "for a in \"$@\"; do\n"
        "  [ \"$prev\" = -lms ] && ms=$a\n"
        "  case $a in --query-gpu=*) q=${a#--query-gpu=} ;; esac\n"
        "  prev=$a\n"
        "done\n"
        "rows='@DIR@/rows.csv'\n");
    if (!rejectField.isEmpty()) {
        script += QStringLiteral(
            "case \",$q,\" in *,@REJECT@,*) echo 'Field \"@REJECT@\" is not a valid field to query.'; echo; exit 2 ;; esac\n"
            "rows='@DIR@/rows-served.csv'\n");
    }
    script += QStringLiteral(
        "s=$(awk \"BEGIN{printf \\\"%.3f\\\", $ms/1000}\")\n"
        "while :; do cat \"$rows\" || exit 1; sleep \"$s\"; done\n");
    script.replace(QLatin1StringView("@DIR@"), dir);
    script.replace(QLatin1StringView("@HELP@"), fixturePath(kHelpFixture));
    script.replace(QLatin1StringView("@REJECT@"), rejectField);
    const QString path = dir + QStringLiteral("/bin/nvidia-smi");
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(script.toUtf8());
    f.close();
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup
                     | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::ExeOther);
    return dir + QStringLiteral("/bin");
}

inline QStringList invocations(const QString &dir)
{
    return readFile(dir + QStringLiteral("/invocations.log")).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

inline int countContaining(const QStringList &lines, QLatin1StringView needle)
{
    int n = 0;
    for (const QString &l : lines) {
        n += l.contains(needle) ? 1 : 0;
    }
    return n;
}


} // namespace gantry::test::monitor
