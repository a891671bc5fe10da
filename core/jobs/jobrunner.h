#pragma once

#include "core/jobs/jobinfo.h"
#include "core/util/canceltoken.h"
#include "core/jobs/jobspec.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>

namespace gantry::ssh { class Session; struct ExecOutput; }

namespace gantry::jobs {

struct StartedJob
{
    JobInfo info;
    QString tail; // the log's last lines when the command ended at once
};

struct StopOptions
{
    int intGraceMs = 10000;  // SIGINT, then this long before SIGTERM
    int termGraceMs = 5000;  // SIGTERM, then this long before SIGKILL
    bool wait = true;        // block until the job is gone (else return once signalled)
};

// Job operations over one connected Session, blocking; use on the session's thread.
class JobRunner final
{
public:
    explicit JobRunner(ssh::Session &session, QString jobsRoot = {}) : m_session(session), m_root(std::move(jobsRoot)) {}

    // Creates ~/.gantry/jobs/<name> and starts it; a name in use is a Conflict error.
    Result<StartedJob> start(const JobSpec &spec, JobMethod method = JobMethod::Auto);
    // Starts an ended job again with the same command; its previous log becomes log.1.
    Result<StartedJob> rerun(const QString &name, JobMethod method = JobMethod::Auto);
    Result<QList<JobInfo>> list();
    Result<JobInfo> status(const QString &name);
    // status() and, in the same remote command, what `then` prints, so a poll that also asks the
    // machine something else pays one shell start-up, not two. `then` runs whatever the job's
    // state; its exit status is ignored and its output is *thenOut.
    Result<JobInfo> statusThen(const QString &name, const QString &then, QString *thenOut);
    Result<JobInfo> stop(const QString &name, const StopOptions &options = {});
    Result<void> remove(const QString &name);
    Result<QString> lastLines(const QString &name, int lines = 20);
    Result<QByteArray> readLog(const QString &name, qint64 offset = 0);
    // Streams the log from offset until the job ends (then returns) or *cancel is set. onData gets
    // each chunk; the value is the offset after the last byte received. On a dropped connection
    // the error says where to resume.
    Result<qint64> followLog(const QString &name, qint64 offset, const std::function<void(const QByteArray &)> &onData,
                             const CancelToken &cancel = {});

private:
    Result<ssh::ExecOutput> runOnStdin(const QString &script, int timeoutMs);
    Result<StartedJob> parseStart(const QString &name, int status, const QByteArray &out, const QByteArray &err);
    Error commonError(const QString &name, int status, const QByteArray &out, const QByteArray &err) const;
    QString hostText() const;

    ssh::Session &m_session;
    QString m_root; // on the instance; empty: ~/.gantry/jobs
};

} // namespace gantry::jobs
