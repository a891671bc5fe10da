#pragma once

#include "core/jobs/jobinfo.h"
#include "core/jobs/jobrunner.h"
#include "core/jobs/jobspec.h"
#include "core/ssh/session.h"
#include "core/util/canceltoken.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace gantry {
class HostStore;
class SecretStore;
} // namespace gantry

namespace gantry::jobs {

class SessionWorker;

// The app's view of jobs on its machines, GUI-thread owned. Each watched host gets background
// SSH sessions of its own (never the GUI's connection): one polls job states and runs commands,
// one follows a log. Results come back as signals; nothing here blocks the caller.
class JobService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobService)

public:
    // How a host is reached; the default resolves saved hosts with backgroundConnectOptions().
    using Resolver = std::function<bool(const QString &hostName, ssh::Target *target, ssh::ConnectOptions *options)>;

    JobService(HostStore *hosts, SecretStore *secrets, QString knownHostsFile = {}, QObject *parent = nullptr);
    explicit JobService(Resolver resolver, QObject *parent = nullptr);
    ~JobService() override;

    void setPollInterval(int ms);
    void setJobsRoot(const QString &root) { m_root = root; } // on the instances; default ~/.gantry/jobs

    void watch(const QString &hostName);   // polls now and then every interval
    void unwatch(const QString &hostName); // stops polling, closes its sessions
    bool isWatched(const QString &hostName) const { return m_hosts.contains(hostName); }

    QList<JobInfo> jobs(const QString &hostName) const;
    // For the idle policy: a machine with a running job is busy even while its GPU rests.
    bool hasRunningJobs(const QString &hostName) const;

    void refresh(const QString &hostName);
    void start(const QString &hostName, const JobSpec &spec, JobMethod method = JobMethod::Auto);
    void stop(const QString &hostName, const QString &name, const StopOptions &options = {});
    void rerun(const QString &hostName, const QString &name);
    void remove(const QString &hostName, const QString &name);
    // Streams the log from offset (0: the whole log since start); one followed log per host.
    void followLog(const QString &hostName, const QString &name, qint64 offset = 0);
    void stopFollowing(const QString &hostName);

signals:
    void jobsChanged(const QString &hostName);
    void jobStarted(const QString &hostName, const gantry::jobs::JobInfo &job, const QString &tail);
    // A job seen running ended: for the desktop notification.
    void jobExited(const QString &hostName, const gantry::jobs::JobInfo &job, const QString &lastLines);
    void operationFailed(const QString &hostName, const QString &message);
    void logData(const QString &hostName, const QString &name, const QByteArray &data, qint64 endOffset);
    void logEnded(const QString &hostName, const QString &name, const QString &error);

private:
    // start() and rerun(): begin on the host worker, then refresh the list and report.
    void launch(const QString &hostName, std::function<Result<StartedJob>(JobRunner &)> begin);
    struct Host
    {
        std::unique_ptr<SessionWorker> commands;
        std::unique_ptr<SessionWorker> logs;
        QList<JobInfo> jobs;
        bool listed = false;
        bool refreshing = false;
        int followGeneration = 0;
        CancelToken follow; // the log follow in progress (one at a time per machine)
    };

    Host *host(const QString &hostName);
    void post(const QString &hostName, std::function<void(JobRunner &)> work);
    void applyList(const QString &hostName, const QList<JobInfo> &jobs);

    Resolver m_resolver;
    QString m_root;
    QHash<QString, std::shared_ptr<Host>> m_hosts;
    QTimer m_poll;
};

} // namespace gantry::jobs
