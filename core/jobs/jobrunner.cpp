#include "core/jobs/jobrunner.h"
#include "core/jobs/jobstext.h"

#include "core/jobs/jobscripts.h"
#include "core/ssh/session.h"

#include <QDateTime>

namespace gantry::jobs {
namespace {

bool hasMarker(const QByteArray &out, const char *marker)
{
    const QByteArray m(marker);
    return out.startsWith(m) || out.contains(QByteArray('\n' + m));
}

QString markerArgument(const QByteArray &out, const char *marker)
{
    const QByteArray m = QByteArray(marker) + ' ';
    qsizetype at = out.startsWith(m) ? 0 : out.indexOf(QByteArray('\n' + m));
    if (at < 0)
        return {};
    if (at > 0 || !out.startsWith(m))
        at += 1;
    const qsizetype end = out.indexOf('\n', at);
    return QString::fromUtf8(out.mid(at + m.size(), end < 0 ? -1 : end - at - m.size())).trimmed();
}

} // namespace

QString JobRunner::hostText() const
{
    return m_session.target().host;
}

Error JobRunner::commonError(const QString &name, int status, const QByteArray &out, const QByteArray &err) const
{
    if (status == 127 && !out.contains("@@"))
        return makeError(ErrorCode::RemoteFailed,
                         JobsText::tr("bash is not installed on %1; jobs need it (install it with the package manager).")
                             .arg(hostText()));
    if (hasMarker(out, "@@notfound"))
        return makeError(ErrorCode::NotFound,
                         JobsText::tr("There is no job named \"%1\" on %2 (see `gantry-cli job list`).").arg(name, hostText()));
    if (hasMarker(out, "@@missing"))
        return makeError(ErrorCode::RemoteFailed,
                         JobsText::tr("%1 is not installed on %2: install it (e.g. apt-get install %1) or let Gantry "
                                     "choose tmux, screen or nohup.")
                             .arg(markerArgument(out, "@@missing"), hostText()));
    if (hasMarker(out, "@@error"))
        return makeError(ErrorCode::RemoteFailed,
                         JobsText::tr("Cannot start the job on %1: %2.").arg(hostText(), markerArgument(out, "@@error")));
    QString detail = QString::fromUtf8(err.trimmed());
    if (detail.isEmpty())
        detail = JobsText::tr("exit status %1").arg(status);
    return makeError(ErrorCode::RemoteFailed, JobsText::tr("The job command failed on %1: %2").arg(hostText(), detail));
}

Result<StartedJob> JobRunner::parseStart(const QString &name, int status, const QByteArray &out, const QByteArray &err)
{
    if (hasMarker(out, "@@exists") || hasMarker(out, "@@running")) {
        const QList<JobInfo> existing = parseJobList(out);
        const QString state = existing.isEmpty() ? QString() : existing.first().statusText();
        if (hasMarker(out, "@@running"))
            return makeError(ErrorCode::Conflict,
                             JobsText::tr("The job \"%1\" is still running on %2; stop it before running it again.")
                                 .arg(name, hostText()));
        return makeError(ErrorCode::Conflict,
                         JobsText::tr("A job named \"%1\" already exists on %2 (%3). Pick another name, rerun it, or "
                                     "remove it first.")
                             .arg(name, hostText(), state));
    }
    if (status != 0)
        return commonError(name, status, out, err);
    const QList<JobInfo> jobs = parseJobList(out);
    if (jobs.isEmpty())
        return makeError(ErrorCode::Parse, JobsText::tr("The job \"%1\" started but its state could not be read.").arg(name));
    StartedJob started{jobs.first(), {}};
    const qsizetype tail = out.indexOf("@@tail\n");
    if (tail >= 0)
        started.tail = QString::fromUtf8(out.mid(tail + 7));
    return started;
}

Result<StartedJob> JobRunner::start(const JobSpec &specIn, JobMethod method)
{
    JobSpec spec = specIn;
    if (spec.name.isEmpty())
        spec.name = defaultJobName(spec.command, QDateTime::currentDateTimeUtc());
    if (auto valid = validateSpec(spec); !valid)
        return valid.error();
    auto out = runOnStdin(scripts::launch(m_root, spec, method), 30000);
    if (!out)
        return out.error();
    return parseStart(spec.name, out->exitStatus, out->out, out->err);
}

// The launch script holds the job's command and its --env values (tokens): it goes to `bash -s` on
// stdin, never into argv, where any user of the instance reads it with ps. Braced and read from
// /dev/null, bash parses it whole before running it, and nothing it starts reads the channel.
Result<ssh::ExecOutput> JobRunner::runOnStdin(const QString &script, int timeoutMs)
{
    ssh::ExecOutput collected;
    ssh::Session::ExecOptions exec;
    exec.onStdout = [&collected](const QByteArray &data) { collected.out += data; };
    exec.onStderr = [&collected](const QByteArray &data) { collected.err += data; };
    exec.stdinData = QByteArrayLiteral("{\n") + script.toUtf8() + QByteArrayLiteral("\n} </dev/null\n");
    exec.timeoutMs = timeoutMs;
    Result<int> status = m_session.exec(QStringLiteral("bash -s"), exec);
    if (!status)
        return status.error();
    collected.exitStatus = *status;
    return collected;
}

Result<StartedJob> JobRunner::rerun(const QString &name, JobMethod method)
{
    if (auto valid = validateJobName(name); !valid)
        return valid.error();
    auto out = m_session.run(scripts::bashCommand(scripts::rerun(m_root, name, method)), 30000);
    if (!out)
        return out.error();
    return parseStart(name, out->exitStatus, out->out, out->err);
}

Result<QList<JobInfo>> JobRunner::list()
{
    auto out = m_session.run(scripts::bashCommand(scripts::list(m_root, {})), 30000);
    if (!out)
        return out.error();
    if (out->exitStatus != 0)
        return commonError({}, out->exitStatus, out->out, out->err);
    return parseJobList(out->out);
}

Result<JobInfo> JobRunner::status(const QString &name)
{
    return statusThen(name, {}, nullptr);
}

Result<JobInfo> JobRunner::statusThen(const QString &name, const QString &then, QString *thenOut)
{
    if (auto valid = validateJobName(name); !valid)
        return valid.error();
    static const QByteArray kThen = "\n@@gantry-then\n";
    // Each in a subshell: an exit ends only it; the listing's status is the command's.
    const QString script = then.isEmpty() ? scripts::list(m_root, name)
                                          : QStringLiteral("( %1\n); st=$?; printf '%2'; ( %3\n) 2>/dev/null; exit $st")
                                                .arg(scripts::list(m_root, name), QString::fromLatin1(kThen).replace(QLatin1Char('\n'), QStringLiteral("\\n")), then);
    auto out = m_session.run(scripts::bashCommand(script), 30000);
    if (!out)
        return out.error();
    if (!then.isEmpty()) {
        const qsizetype at = out->out.lastIndexOf(kThen);
        if (thenOut)
            *thenOut = at < 0 ? QString() : QString::fromUtf8(out->out.mid(at + kThen.size()));
        if (at >= 0)
            out->out.truncate(at + 1);
    }
    const QList<JobInfo> jobs = parseJobList(out->out);
    if (out->exitStatus != 0 || jobs.isEmpty())
        return commonError(name, out->exitStatus, out->out, out->err);
    return jobs.first();
}

Result<JobInfo> JobRunner::stop(const QString &name, const StopOptions &options)
{
    if (auto valid = validateJobName(name); !valid)
        return valid.error();
    const int timeoutMs = options.intGraceMs + options.termGraceMs + 30000;
    auto out = m_session.run(
        scripts::bashCommand(scripts::stop(m_root, name, options.intGraceMs, options.termGraceMs, options.wait)), timeoutMs);
    if (!out)
        return out.error();
    if (hasMarker(out->out, "@@notstarted"))
        return makeError(ErrorCode::Conflict, JobsText::tr("The job \"%1\" has not started yet; try again in a moment.").arg(name));
    if (hasMarker(out->out, "@@badpid"))
        return makeError(ErrorCode::Conflict, JobsText::tr("The job \"%1\" on %2 has a process id file that names no process it started; "
                                                          "nothing was signalled. Check the job's processes with `ps` on the machine.")
                                                  .arg(name, hostText()));
    if (out->exitStatus != 0)
        return commonError(name, out->exitStatus, out->out, out->err);
    const QList<JobInfo> jobs = parseJobList(out->out);
    if (jobs.isEmpty())
        return status(name);
    if (options.wait && jobs.first().isActive())
        return makeError(ErrorCode::Timeout,
                         JobsText::tr("The job \"%1\" on %2 is still running after SIGKILL; a process may be stuck in "
                                     "the kernel (check `ps` on the instance).")
                             .arg(name, hostText()));
    return jobs.first();
}

Result<void> JobRunner::remove(const QString &name)
{
    if (auto valid = validateJobName(name); !valid)
        return valid.error();
    auto out = m_session.run(scripts::bashCommand(scripts::remove(m_root, name)), 30000);
    if (!out)
        return out.error();
    if (hasMarker(out->out, "@@running"))
        return makeError(ErrorCode::Conflict,
                         JobsText::tr("The job \"%1\" is still running on %2; stop it before removing it.").arg(name, hostText()));
    if (out->exitStatus != 0)
        return commonError(name, out->exitStatus, out->out, out->err);
    return {};
}

Result<QString> JobRunner::lastLines(const QString &name, int lines)
{
    auto out = m_session.run(scripts::bashCommand(scripts::tailLines(m_root, name, lines)), 30000);
    if (!out)
        return out.error();
    if (out->exitStatus != 0)
        return commonError(name, out->exitStatus, out->out, out->err);
    return QString::fromUtf8(out->out);
}

Result<QByteArray> JobRunner::readLog(const QString &name, qint64 offset)
{
    if (auto valid = validateJobName(name); !valid)
        return valid.error();
    auto out = m_session.run(scripts::bashCommand(scripts::readLog(m_root, name, offset, false)), 120000);
    if (!out)
        return out.error();
    if (out->exitStatus == 25)
        return commonError(name, out->exitStatus, "@@notfound", out->err);
    if (out->exitStatus != 0)
        return commonError(name, out->exitStatus, out->out, out->err);
    return out->out;
}

Result<qint64> JobRunner::followLog(const QString &name, qint64 offset,
                                    const std::function<void(const QByteArray &)> &onData,
                                    const CancelToken &cancel)
{
    if (auto valid = validateJobName(name); !valid)
        return valid.error();
    qint64 position = offset;
    QByteArray err;
    ssh::Session::ExecOptions options;
    options.onStdout = [&](const QByteArray &chunk) {
        position += chunk.size();
        if (onData)
            onData(chunk);
    };
    // A log streams to onData as long as the job writes it; only stderr is kept (for the message),
    // and only its start.
    options.onStderr = [&](const QByteArray &chunk) {
        if (err.size() < 65536)
            err += chunk.left(65536 - err.size());
    };
    options.cancel = cancel.flag();
    options.maxOutputBytes = 0;
    auto status = m_session.exec(scripts::bashCommand(scripts::readLog(m_root, name, offset, true)), options);
    if (!status) {
        if (status.error().code == ErrorCode::Cancelled)
            return position;
        return makeError(status.error().code,
                         JobsText::tr("Following the log of \"%1\" stopped at byte %2: %3 Reconnect to resume from there.")
                             .arg(name)
                             .arg(position)
                             .arg(status.error().message));
    }
    if (*status == 25)
        return commonError(name, *status, "@@notfound", err);
    if (*status != 0 && !cancel.isCancelled())
        return commonError(name, *status, {}, err);
    return position;
}

} // namespace gantry::jobs
