#pragma once

#include "core/hosts/machinefacts.h"
#include "core/verify/specs.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace gantry::verify {

// The output of resources/gpu-doctor.sh, split at its "@@gantry NAME@@" headers.
struct DoctorSection
{
    QString text;
    std::optional<int> exitStatus; // from the "@@rc N@@" trailer
};

struct DoctorOutput
{
    QMap<QString, DoctorSection> sections;
    bool complete = false; // the script reached its end marker

    bool has(const QString &name) const { return sections.contains(name); }
    QString text(const QString &name) const { return sections.value(name).text; }
    std::optional<int> exitStatus(const QString &name) const { return sections.value(name).exitStatus; }
};

// The remote script (one exec, POSIX sh on stdin: `sh -s`).
QByteArray doctorScript();
DoctorOutput parseDoctorOutput(const QByteArray &output);

enum class CheckStatus
{
    Ok,
    Warn,
    Fail,
};
QString checkStatusName(CheckStatus status); // "ok", "warn", "fail"

struct DoctorCheck
{
    QString id;      // "simulated-gpu", "nvidia-smi", "driver-version", "gpu-in-use", "mig", "fabric-manager", …
    CheckStatus status = CheckStatus::Ok;
    QString message; // what was found
    QString fix;     // the next step; empty when nothing is to be done
};

struct DoctorOptions
{
    int requiredDriverMajor = kRecommendedDriverMajor; // CUDA 13: what gantry-verify's fatbin (and cu130 wheels) need
    int minimumDriverMajor = 450;  // CUDA 11.0: below it not even gantry-verify's PTX fallback loads
};

// Turns the sections into checks, in a stable order. Pure: tests feed recorded outputs.
QList<DoctorCheck> evaluateDoctor(const DoctorOutput &output, const SpecTable &specs,
                                  const DoctorOptions &options = {});
bool anyFailed(const QList<DoctorCheck> &checks);

QJsonObject doctorToJson(const QList<DoctorCheck> &checks); // {"checks": [{id, status, message, fix}]}

// What nvidia-smi printed instead of working, classified: the cause and the fix. Empty message
// when the text is not a known failure.
struct SmiFailure
{
    QString message;
    QString fix;
};
SmiFailure classifySmiFailure(const QString &text);

} // namespace gantry::verify
