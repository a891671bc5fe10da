#include "core/verify/remoteverifier.h"
#include "core/verify/verifytext.h"

#include "core/util/paths.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>

namespace gantry::verify {
namespace {

// Splits a byte stream into lines across chunk boundaries.
class LineSplitter
{
public:
    template<typename F>
    void feed(const QByteArray &chunk, F &&onLine)
    {
        m_pending += chunk;
        qsizetype newline;
        while ((newline = m_pending.indexOf('\n')) >= 0) {
            onLine(QString::fromUtf8(m_pending.left(newline)).trimmed());
            m_pending.remove(0, newline + 1);
        }
    }
    template<typename F>
    void finish(F &&onLine)
    {
        if (!m_pending.trimmed().isEmpty())
            onLine(QString::fromUtf8(m_pending).trimmed());
        m_pending.clear();
    }

private:
    QByteArray m_pending;
};

bool cancelled(const CancelToken &cancel)
{
    return cancel.isCancelled();
}

Error cancelledError()
{
    return Error::make(ErrorCode::Cancelled, VerifyText::tr("Verification cancelled."));
}

QStringList kernelSourceFiles(const QString &dir)
{
    QStringList files;
    if (dir.isEmpty())
        return files;
    if (!QFileInfo::exists(QDir(dir).filePath(QStringLiteral("CMakeLists.txt"))))
        return files;
    QDirIterator it(dir, {QStringLiteral("*.cu"), QStringLiteral("*.cuh"), QStringLiteral("*.h"),
                          QStringLiteral("*.hpp"), QStringLiteral("*.cpp"), QStringLiteral("*.cmake"),
                          QStringLiteral("CMakeLists.txt")},
                    QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(QDir(dir).relativeFilePath(it.next()));
    files.sort();
    return files;
}

} // namespace

RemoteVerifier::RemoteVerifier(ssh::Session &session)
    : m_session(session)
    , m_cacheDir(QStringLiteral("$HOME/.cache/gantry"))
{
}

QString RemoteVerifier::sha256Hex(const QByteArray &data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

Result<DoctorOutput> RemoteVerifier::runDoctorScript(const CancelToken &cancel)
{
    QByteArray out;
    ssh::Session::ExecOptions options;
    options.stdinData = doctorScript();
    options.onStdout = [&out](const QByteArray &chunk) { out += chunk; };
    options.cancel = cancel.flag();
    options.timeoutMs = 5 * 60 * 1000;
    auto status = m_session.exec(QStringLiteral("sh -s"), options);
    if (!status)
        return status.error();
    DoctorOutput output = parseDoctorOutput(out);
    if (output.sections.isEmpty()) {
        return Error::make(ErrorCode::RemoteFailed,
                           VerifyText::tr("The instance did not run Gantry's check script (exit %1); make sure the login shell "
                                                  "can run `sh`.")
                               .arg(*status));
    }
    return output;
}

Result<RemoteVerifier::Upload> RemoteVerifier::uploadCached(const QString &localPath, const QString &prefix,
                                                            const CancelToken &cancel)
{
    QFile file(localPath);
    if (!file.open(QIODevice::ReadOnly)) {
        return Error::make(ErrorCode::NotFound, VerifyText::tr("Cannot read %1 (%2); rebuild Gantry or pass --binary PATH.")
                                                    .arg(localPath, file.errorString()));
    }
    const QByteArray data = file.readAll();
    const QString hash = sha256Hex(data);
    const QString remote = QStringLiteral("%1/%2-%3").arg(m_cacheDir, prefix, hash.left(16));
    const QString quoted = QLatin1Char('"') + remote + QLatin1Char('"');
    // sha256sum is in coreutils; without it the file is simply sent again.
    auto present = m_session.run(
        QStringLiteral("f=%1; if [ -x \"$f\" ] && [ \"$(sha256sum \"$f\" 2>/dev/null | cut -d' ' -f1)\" = %2 ]; "
                       "then echo cached; else echo missing; fi")
            .arg(quoted, hash));
    if (!present)
        return present.error();
    if (present->out.trimmed() == "cached")
        return Upload{remote, false};
    if (cancelled(cancel))
        return cancelledError();

    QByteArray err;
    ssh::Session::ExecOptions options;
    options.stdinData = data;
    options.cancel = cancel.flag();
    options.timeoutMs = 10 * 60 * 1000;
    options.onStderr = [&err](const QByteArray &chunk) { err += chunk; };
    QByteArray out;
    options.onStdout = [&out](const QByteArray &chunk) { out += chunk; };
    auto status = m_session.exec(
        QStringLiteral("mkdir -p \"%1\" && f=%2 && t=\"$f.tmp.$$\" && cat > \"$t\" && chmod 755 \"$t\" && "
                       "mv -f \"$t\" \"$f\" && (sha256sum \"$f\" 2>/dev/null || echo %3) | cut -d' ' -f1")
            .arg(m_cacheDir, quoted, hash),
        options);
    if (!status)
        return status.error();
    if (*status != 0) {
        const QString why = QString::fromUtf8(err).trimmed();
        const bool full = why.contains(QLatin1StringView("No space left"));
        return Error::make(full ? ErrorCode::DiskFull : ErrorCode::RemoteFailed,
                           full ? VerifyText::tr("Cannot upload %1: the instance's home disk is full; free space and retry.")
                                      .arg(QFileInfo(localPath).fileName())
                                : VerifyText::tr("Cannot upload %1 to ~/.cache/gantry (%2); check the home directory is writable.")
                                      .arg(QFileInfo(localPath).fileName(), why));
    }
    if (QString::fromUtf8(out).trimmed() != hash) {
        return Error::make(ErrorCode::RemoteFailed,
                           VerifyText::tr("The uploaded %1 arrived damaged (checksum differs); retry the upload.")
                               .arg(QFileInfo(localPath).fileName()));
    }
    return Upload{remote, true};
}

Result<Report> RemoteVerifier::runProgram(const QString &command, const VerifyOptions &options)
{
    QByteArray out;
    QStringList otherErr;
    LineSplitter lines;
    auto onLine = [&](const QString &line) {
        if (line.isEmpty())
            return;
        if (const auto progress = parseProgressLine(line)) {
            if (options.onProgress)
                options.onProgress(*progress);
            return;
        }
        otherErr.append(line);
        if (otherErr.size() > 20)
            otherErr.removeFirst();
    };
    ssh::Session::ExecOptions exec;
    exec.onStdout = [&out](const QByteArray &chunk) { out += chunk; };
    exec.onStderr = [&](const QByteArray &chunk) { lines.feed(chunk, onLine); };
    exec.cancel = options.cancel.flag();
    exec.timeoutMs = options.timeoutMs;
    auto status = m_session.exec(command, exec);
    lines.finish(onLine);
    if (!status) {
        if (status.error().code == ErrorCode::Cancelled)
            return cancelledError();
        return status.error();
    }
    if (*status == 2) {
        return Error::make(ErrorCode::RemoteFailed,
                           VerifyText::tr("gantry-verify rejected its arguments (%1); this Gantry and its verification program "
                                                  "do not match, rebuild both.")
                               .arg(otherErr.isEmpty() ? QString() : otherErr.constLast()));
    }
    auto report = parseReport(out);
    if (!report) {
        if (*status == 126 || *status == 127) {
            return Error::make(ErrorCode::RemoteFailed,
                               VerifyText::tr("The instance cannot execute the verification program (exit %1: %2); it may be "
                                                      "mounted noexec or need another architecture.")
                                   .arg(*status)
                                   .arg(otherErr.isEmpty() ? QString() : otherErr.constLast()));
        }
        if (*status != 0) {
            return Error::make(ErrorCode::RemoteFailed,
                               VerifyText::tr("The verification program failed (exit %1)%2; rerun Verify, and if it repeats, "
                                                      "run Doctor.")
                                   .arg(*status)
                                   .arg(otherErr.isEmpty() ? QString() : QStringLiteral(": ") + otherErr.constLast()));
        }
        return report.error();
    }
    report->exitCode = *status;
    return report;
}

Result<QString> RemoteVerifier::buildOnInstance(const VerifyOptions &options)
{
    const QStringList files = kernelSourceFiles(options.sourcesDir);
    if (files.isEmpty()) {
        return Error::make(ErrorCode::NotFound,
                           VerifyText::tr("This Gantry has no kernels/ sources to build on the instance."));
    }
    // One here-document per file, so the whole tree travels in one exec without tar on either side.
    QByteArray script = "set -e\n";
    QCryptographicHash tree(QCryptographicHash::Sha256);
    QList<QPair<QString, QByteArray>> contents;
    for (const QString &relative : files) {
        QFile file(QDir(options.sourcesDir).filePath(relative));
        if (!file.open(QIODevice::ReadOnly))
            return Error::make(ErrorCode::Io, VerifyText::tr("Cannot read %1: %2").arg(file.fileName(), file.errorString()));
        const QByteArray data = file.readAll();
        tree.addData(relative.toUtf8());
        tree.addData(data);
        contents.append({relative, data});
    }
    const QString hash = QString::fromLatin1(tree.result().toHex().left(16));
    const QString dir = QStringLiteral("%1/src-%2").arg(m_cacheDir, hash);
    const QString binary = QStringLiteral("%1/gantry-verify-built-%2").arg(m_cacheDir, hash);
    script += QStringLiteral("b=\"%1\"\nif [ -x \"$b\" ]; then echo \"$b\"; exit 0; fi\nd=\"%2\"\nmkdir -p \"$d\"\ncd \"$d\"\n")
                  .arg(binary, dir)
                  .toUtf8();
    for (const auto &[relative, data] : std::as_const(contents)) {
        const QByteArray marker = "GANTRY_EOF_" + QCryptographicHash::hash(data, QCryptographicHash::Md5).toHex();
        script += "mkdir -p -- \"$(dirname -- " + ssh::shellQuote(relative).toUtf8() + ")\"\n";
        script += "cat > " + ssh::shellQuote(relative).toUtf8() + " <<'" + marker + "'\n" + data;
        if (!data.endsWith('\n'))
            script += '\n';
        script += marker + "\n";
    }
    // kernels/ is a standalone CMake project (see kernels/CMakeLists.txt); build it for the GPU
    // that is present only, which also keeps an older nvcc away from architectures it lacks.
    script += "NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)\n"
              "command -v cmake >/dev/null 2>&1 || { echo 'cmake is not installed on the instance "
              "(apt install cmake)' >&2; exit 3; }\n"
              "CAP=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n1 | tr -d '. ')\n"
              "ARCHS=${CAP:+-DGANTRY_KERNEL_ARCHS=$CAP}\n"
              "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=\"$NVCC\" $ARCHS >build.log 2>&1 "
              "|| { tail -n 5 build.log >&2; exit 4; }\n"
              "cmake --build build >>build.log 2>&1 || { tail -n 5 build.log >&2; exit 4; }\n"
              "out=$(find build -name gantry-verify -type f | head -n1)\n"
              "[ -n \"$out\" ] || { echo 'the build produced no gantry-verify' >&2; exit 4; }\n"
              "cp \"$out\" \"$b.tmp\" && chmod 755 \"$b.tmp\" && mv -f \"$b.tmp\" \"$b\" && echo \"$b\"\n";
    if (options.onStatus)
        options.onStatus(VerifyText::tr("Building the verification program on the instance with its nvcc…"));
    QByteArray out;
    QByteArray err;
    ssh::Session::ExecOptions exec;
    exec.stdinData = script;
    exec.onStdout = [&out](const QByteArray &chunk) { out += chunk; };
    exec.onStderr = [&err](const QByteArray &chunk) { err += chunk; };
    exec.cancel = options.cancel.flag();
    exec.timeoutMs = 10 * 60 * 1000;
    auto status = m_session.exec(QStringLiteral("PATH=\"$PATH:/usr/local/cuda/bin\" sh -s"), exec);
    if (!status)
        return status.error();
    if (*status != 0) {
        const QStringList errLines = QString::fromUtf8(err).trimmed().split(QLatin1Char('\n'));
        return Error::make(ErrorCode::RemoteFailed,
                           VerifyText::tr("Building the verification program on the instance failed: %1")
                               .arg(errLines.isEmpty() ? VerifyText::tr("no output") : errLines.constLast()));
    }
    return binary;
}

Report RemoteVerifier::diagnosisReport(const Plan &plan, const QList<DoctorCheck> &doctor) const
{
    Report report;
    report.schema = QString(kReportSchema);
    report.verdict = Verdict::Error;
    report.exitCode = 3;
    report.method = Method::DiagnosisOnly;
    report.methodReason = plan.reason;
    for (const DoctorCheck &check : doctor) {
        if (check.status == CheckStatus::Fail)
            report.errors.append(check.fix.isEmpty() ? check.message : check.message + QLatin1Char(' ') + check.fix);
    }
    if (report.errors.isEmpty())
        report.errors.append(plan.reason);
    return report;
}

Result<Report> RemoteVerifier::runPlan(const Plan &plan, const VerifyOptions &options, VerifyOutcome &outcome)
{
    outcome.plan = plan;
    const QString quick = options.quick ? QStringLiteral(" --quick") : QString();
    switch (plan.method) {
    case Method::DiagnosisOnly:
        return diagnosisReport(plan, outcome.doctor);
    case Method::BundledBinary: {
        if (options.onStatus)
            options.onStatus(VerifyText::tr("Uploading the verification program…"));
        auto upload = uploadCached(options.binaryPath, QStringLiteral("gantry-verify"), options.cancel);
        if (!upload)
            return upload.error();
        outcome.remoteBinary = upload->remotePath;
        outcome.uploaded = upload->uploaded;
        if (options.onStatus)
            options.onStatus(VerifyText::tr("Running the verification program…"));
        auto report = runProgram(QLatin1Char('"') + upload->remotePath + QLatin1Char('"') + quick, options);
        if (report && report->exitCode == 4) {
            const PlanInputs inputs{true, QStringLiteral("x86_64"), options.minDriverMajor,
                                    !kernelSourceFiles(options.sourcesDir).isEmpty()};
            const QString why = report->errors.isEmpty() ? VerifyText::tr("The bundled gantry-verify says the driver is too old")
                                                         : report->errors.constFirst();
            return runPlan(fallbackAfterBundled(outcome.probe, inputs, why), options, outcome);
        }
        if (report)
            report->method = Method::BundledBinary;
        return report;
    }
    case Method::BuiltOnInstance: {
        auto binary = buildOnInstance(options);
        if (!binary) {
            if (binary.error().code == ErrorCode::Cancelled)
                return binary.error();
            if (outcome.probe.torchCuda) {
                return runPlan({Method::Torch, VerifyText::tr("%1; Gantry measures with PyTorch instead.").arg(binary.error().message)},
                               options, outcome);
            }
            return diagnosisReport({Method::DiagnosisOnly, binary.error().message}, outcome.doctor);
        }
        outcome.remoteBinary = *binary;
        if (options.onStatus)
            options.onStatus(VerifyText::tr("Running the verification program built on the instance…"));
        auto report = runProgram(QLatin1Char('"') + *binary + QLatin1Char('"') + quick, options);
        if (report)
            report->method = Method::BuiltOnInstance;
        return report;
    }
    case Method::Torch: {
        const QString local = QStringLiteral(":/gantry/verify/gpu-torch-check.py");
        auto upload = uploadCached(local, QStringLiteral("torch-check"), options.cancel);
        if (!upload)
            return upload.error();
        outcome.remoteBinary = upload->remotePath;
        outcome.uploaded = upload->uploaded;
        if (options.onStatus)
            options.onStatus(VerifyText::tr("Measuring with PyTorch…"));
        auto report = runProgram(QStringLiteral("PY=$(command -v python3 || command -v python); \"$PY\" \"%1\"%2")
                                     .arg(upload->remotePath, quick),
                                 options);
        if (report)
            report->method = Method::Torch;
        return report;
    }
    }
    return diagnosisReport(plan, outcome.doctor);
}

Result<VerifyOutcome> RemoteVerifier::verify(const VerifyOptions &options)
{
    VerifyOutcome outcome;
    if (options.onStatus)
        options.onStatus(VerifyText::tr("Checking the instance (driver, GPUs, tools)…"));
    auto doctor = runDoctorScript(options.cancel);
    if (!doctor)
        return doctor.error();
    if (cancelled(options.cancel))
        return cancelledError();
    outcome.doctor = evaluateDoctor(*doctor, SpecTable::builtIn());
    outcome.probe = probeFromDoctor(*doctor);
    outcome.doctorOutput = *doctor;
    PlanInputs inputs;
    inputs.binaryAvailable = !options.binaryPath.isEmpty() && QFileInfo(options.binaryPath).isFile();
    inputs.binaryMinDriverMajor = options.minDriverMajor;
    inputs.sourcesAvailable = !kernelSourceFiles(options.sourcesDir).isEmpty();
    const Plan plan = choosePlan(outcome.probe, inputs);
    auto report = runPlan(plan, options, outcome);
    if (!report)
        return report.error();
    outcome.report = std::move(report).value();
    if (outcome.report.methodReason.isEmpty())
        outcome.report.methodReason = outcome.plan.reason;
    outcome.report.method = outcome.plan.method;
    return outcome;
}

QString defaultVerifyBinary()
{
    // Installed: <libexec>/gantry/gantry-verify; build tree: <build>/kernels/gantry-verify next to
    // <build>/app; a tarball may also put it next to the executable.
    const QString appDir = QCoreApplication::applicationDirPath();
    const QStringList candidates{paths::libexecDir() + QStringLiteral("/gantry-verify"),
                                 appDir + QStringLiteral("/../kernels/gantry-verify"),
                                 appDir + QStringLiteral("/gantry-verify")};
    for (const QString &candidate : candidates) {
        if (QFileInfo(candidate).isFile())
            return QFileInfo(candidate).canonicalFilePath();
    }
    return {};
}

QString defaultKernelSources()
{
    // <share>/gantry/kernels when installed; in the build tree a link to the source kernels/.
    const QString data = paths::resourcesDir();
    const QString candidate = data.isEmpty() ? QString() : data + QStringLiteral("/kernels");
    if (kernelSourceFiles(candidate).isEmpty())
        return {};
    return QFileInfo(candidate).canonicalFilePath();
}

} // namespace gantry::verify
