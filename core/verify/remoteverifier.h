#pragma once

#include "core/ssh/session.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"
#include "core/verify/assessment.h"
#include "core/verify/doctor.h"
#include "core/verify/probe.h"
#include "core/verify/report.h"

#include <QString>

#include <atomic>
#include <functional>

namespace gantry::verify {

struct VerifyOptions
{
    bool quick = false;
    QString binaryPath;      // local gantry-verify; empty or missing: fall back (see Plan)
    QString sourcesDir;      // local kernels/ sources for building on the instance; empty: none
    int minDriverMajor = 450; // below it gantry-verify exits 4 anyway (see kernels/README.md)
    int timeoutMs = 15 * 60 * 1000;
    CancelToken cancel;
    // Called on the session's thread: progress lines of the program, and what the run does now.
    std::function<void(const Progress &)> onProgress;
    std::function<void(const QString &)> onStatus;
};

// Everything one Verify run learned: the diagnosis that came first, the path taken, the report.
struct VerifyOutcome
{
    QList<DoctorCheck> doctor;
    DoctorOutput doctorOutput; // what the doctor script printed (the acceptance test reads it again)
    Probe probe;
    Plan plan;
    Report report;
    QString remoteBinary;    // where the program ran from
    bool uploaded = false;   // false: the cached copy was reused
};

// Runs Gantry's remote work over one connected Session, on the session's thread (blocking).
class RemoteVerifier final
{
public:
    explicit RemoteVerifier(ssh::Session &session);
    Q_DISABLE_COPY_MOVE(RemoteVerifier)

    // Where uploads are cached on the instance, as a shell word inside double quotes
    // ("$HOME/.cache/gantry" by default; tests point it at a temporary directory).
    void setRemoteCacheDir(const QString &dir) { m_cacheDir = dir; }
    QString remoteCacheDir() const { return m_cacheDir; }

    // The doctor script in one exec.
    Result<DoctorOutput> runDoctorScript(const CancelToken &cancel = {});

    // Puts a local file at ~/.cache/gantry/<prefix>-<sha256[:16]> unless an identical copy is
    // there. Returns the remote path ("$HOME/…" form, for the shell) and whether it was sent.
    struct Upload
    {
        QString remotePath;
        bool uploaded = false;
    };
    Result<Upload> uploadCached(const QString &localPath, const QString &prefix, const CancelToken &cancel = {});

    // Runs an uploaded gantry-verify (or the PyTorch fallback) and parses its result.
    Result<Report> runProgram(const QString &command, const VerifyOptions &options);

    // Uploads the kernels/ sources and builds them with the instance's nvcc; the binary's remote path.
    Result<QString> buildOnInstance(const VerifyOptions &options);

    // The whole flow: doctor → plan → run (with the fallback chain) → report.
    Result<VerifyOutcome> verify(const VerifyOptions &options);

    static QString sha256Hex(const QByteArray &data);

private:
    Result<Report> runPlan(const Plan &plan, const VerifyOptions &options, VerifyOutcome &outcome);
    Report diagnosisReport(const Plan &plan, const QList<DoctorCheck> &doctor) const;

    ssh::Session &m_session;
    QString m_cacheDir;
};

// Where the app finds gantry-verify: <libexec>/gantry (installed), then <build>/kernels/ (the
// binary lives in <build>/app/), then next to the executable. Empty when none exists.
QString defaultVerifyBinary();
// The kernels/ sources for building on an instance (<share>/gantry/kernels, see paths.h); empty
// when this install has none.
QString defaultKernelSources();

} // namespace gantry::verify
