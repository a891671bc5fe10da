#include "core/jobs/jobinfo.h"
#include "core/jobs/jobstext.h"

#include <QObject>

namespace gantry::jobs {

QString jobStateName(JobState state)
{
    switch (state) {
    case JobState::Starting: return QStringLiteral("starting");
    case JobState::Running: return QStringLiteral("running");
    case JobState::Exited: return QStringLiteral("exited");
    case JobState::Killed: return QStringLiteral("killed");
    }
    return QStringLiteral("unknown");
}

QString JobInfo::statusText() const
{
    switch (state) {
    case JobState::Starting: return JobsText::tr("starting");
    case JobState::Running: return JobsText::tr("running");
    case JobState::Exited: return JobsText::tr("exited %1").arg(exitCode.value_or(-1));
    case JobState::Killed:
        if (!signal.isEmpty())
            return JobsText::tr("killed (SIG%1)").arg(signal);
        return JobsText::tr("killed");
    }
    return {};
}

namespace {

QDateTime fromEpoch(const QByteArray &value)
{
    bool ok = false;
    const qint64 secs = value.trimmed().toLongLong(&ok);
    return ok && secs > 0 ? QDateTime::fromSecsSinceEpoch(secs, Qt::UTC) : QDateTime();
}

// Fills state from the raw fields; see JobScripts for what each file means.
void resolveState(JobInfo &info, const QByteArray &exitField, bool alive, bool sameBoot)
{
    const QList<QByteArray> parts = exitField.simplified().split(' ');
    if (!exitField.trimmed().isEmpty()) {
        bool ok = false;
        const int code = parts.value(0).toInt(&ok);
        if (ok)
            info.exitCode = code;
        const QByteArray sig = parts.value(1);
        // The wrapper names the signal the job received, or the one that ended it (status > 128).
        info.signal = QString::fromLatin1(sig);
        const bool bySignal = !sig.isEmpty() || (ok && code > 128);
        if (info.signal.isEmpty() && ok && code > 128) {
            static const char *const names[] = {"", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL",
                                                "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM"};
            const int n = code - 128;
            if (n > 0 && n < int(std::size(names)))
                info.signal = QString::fromLatin1(names[n]);
        }
        info.state = bySignal ? JobState::Killed : JobState::Exited;
        return;
    }
    if (info.pid > 0 && alive && sameBoot) {
        info.state = JobState::Running;
        return;
    }
    if (info.pid <= 0) {
        info.state = JobState::Starting;
        return;
    }
    // No exit status and no process: it died without its wrapper (SIGKILL to everything, reboot).
    info.state = JobState::Killed;
    if (!sameBoot)
        info.signal.clear();
}

} // namespace

QList<JobInfo> parseJobList(const QByteArray &output)
{
    QList<JobInfo> jobs;
    JobInfo current;
    QByteArray exitField;
    bool alive = false;
    bool sameBoot = true;
    bool inRecord = false;
    auto finish = [&] {
        if (inRecord && !current.name.isEmpty()) {
            resolveState(current, exitField, alive, sameBoot);
            jobs.append(current);
        }
        current = JobInfo{};
        exitField.clear();
        alive = false;
        sameBoot = true;
        inRecord = false;
    };
    const QList<QByteArray> lines = output.split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("@@job ")) {
            finish();
            current.name = QString::fromUtf8(line.mid(6).trimmed());
            inRecord = true;
            continue;
        }
        if (line == "@@end") {
            finish();
            continue;
        }
        if (!inRecord)
            continue;
        const qsizetype eq = line.indexOf('=');
        if (eq <= 0)
            continue;
        const QByteArray key = line.left(eq);
        const QByteArray value = line.mid(eq + 1);
        if (key == "pid")
            current.pid = value.trimmed().toLongLong();
        else if (key == "started")
            current.started = fromEpoch(value);
        else if (key == "ended")
            current.ended = fromEpoch(value);
        else if (key == "exit")
            exitField = value;
        else if (key == "alive")
            alive = value.trimmed() == "1";
        else if (key == "sameboot")
            sameBoot = value.trimmed() != "0";
        else if (key == "method")
            current.method = QString::fromUtf8(value.trimmed());
        else if (key == "logsize")
            current.logSize = value.trimmed().toLongLong();
        else if (key == "stop")
            current.stopSignal = QString::fromUtf8(value.trimmed());
        else if (key == "cmd")
            current.command = QString::fromUtf8(QByteArray::fromBase64(value.trimmed()));
        else if (key == "cwd")
            current.workingDir = QString::fromUtf8(QByteArray::fromBase64(value.trimmed()));
    }
    finish();
    return jobs;
}

} // namespace gantry::jobs
