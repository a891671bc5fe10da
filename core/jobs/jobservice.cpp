#include "core/jobs/jobservice.h"

#include "core/hosts/connectionmanager.h"
#include "core/hosts/hoststore.h"
#include "core/jobs/sessionworker.h"


namespace gantry::jobs {

JobService::JobService(HostStore *hosts, SecretStore *secrets, QString knownHostsFile, QObject *parent)
    : JobService(
          [hosts, secrets, knownHostsFile](const QString &name, ssh::Target *target, ssh::ConnectOptions *options) {
              const std::optional<SavedHost> saved = hosts ? hosts->find(name) : std::nullopt;
              if (!saved)
                  return false;
              *target = saved->target;
              *options = backgroundConnectOptions(*saved, secrets, knownHostsFile);
              return true;
          },
          parent)
{
}

JobService::JobService(Resolver resolver, QObject *parent) : QObject(parent), m_resolver(std::move(resolver)), m_poll(this)
{
    m_poll.setInterval(10000);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        const QStringList names = m_hosts.keys();
        for (const QString &name : names)
            refresh(name);
    });
}

JobService::~JobService()
{
    m_hosts.clear(); // the workers' threads are retired, not joined
}

void JobService::setPollInterval(int ms)
{
    m_poll.setInterval(ms);
}

JobService::Host *JobService::host(const QString &hostName)
{
    auto it = m_hosts.find(hostName);
    return it == m_hosts.end() ? nullptr : it->get();
}

void JobService::watch(const QString &hostName)
{
    if (!m_hosts.contains(hostName)) {
        ssh::Target target;
        ssh::ConnectOptions options;
        if (!m_resolver || !m_resolver(hostName, &target, &options)) {
            emit operationFailed(hostName, tr("%1 is not a saved host; add it first.").arg(hostName));
            return;
        }
        auto h = std::make_shared<Host>();
        h->commands = std::make_unique<SessionWorker>(target, options);
        h->logs = std::make_unique<SessionWorker>(target, options);
        m_hosts.insert(hostName, h);
    }
    if (!m_poll.isActive())
        m_poll.start();
    refresh(hostName);
}

void JobService::unwatch(const QString &hostName)
{
    if (Host *h = host(hostName))
        h->follow.cancel();
    m_hosts.remove(hostName); // the workers end the command in flight (their closing flag), off this thread
    if (m_hosts.isEmpty())
        m_poll.stop();
}

QList<JobInfo> JobService::jobs(const QString &hostName) const
{
    const auto it = m_hosts.constFind(hostName);
    return it == m_hosts.constEnd() ? QList<JobInfo>() : (*it)->jobs;
}

bool JobService::hasRunningJobs(const QString &hostName) const
{
    const QList<JobInfo> list = jobs(hostName);
    return std::any_of(list.cbegin(), list.cend(), [](const JobInfo &j) { return j.isActive(); });
}

void JobService::post(const QString &hostName, std::function<void(JobRunner &)> work)
{
    Host *h = host(hostName);
    if (!h) {
        emit operationFailed(hostName, tr("Jobs on %1 are not watched; select the machine first.").arg(hostName));
        return;
    }
    const QString root = m_root;
    const QPointer<JobService> self(this); // tasks may outlive it: results reach it only while it lives
    h->commands->post([self, hostName, root, work = std::move(work)](ssh::Session *session, const Error *error) {
        if (!session) {
            const QString message = error->message;
            background::deliver(self, [self, hostName, message] {
                if (Host *h = self->host(hostName))
                    h->refreshing = false;
                emit self->operationFailed(hostName, message);
            });
            return;
        }
        JobRunner runner(*session, root);
        work(runner);
    });
}

void JobService::refresh(const QString &hostName)
{
    Host *h = host(hostName);
    if (!h || h->refreshing)
        return;
    h->refreshing = true;
    const QPointer<JobService> self(this); // tasks may outlive it: results reach it only while it lives
    post(hostName, [self, hostName](JobRunner &runner) {
        auto list = runner.list();
        background::deliver(self, [self, hostName, list] {
            if (Host *h = self->host(hostName))
                h->refreshing = false;
            if (!list)
                emit self->operationFailed(hostName, list.error().message);
            else
                self->applyList(hostName, *list);
        });
    });
}

void JobService::applyList(const QString &hostName, const QList<JobInfo> &jobs)
{
    Host *h = host(hostName);
    if (!h)
        return;
    const QList<JobInfo> before = h->jobs;
    const bool firstList = !h->listed;
    h->jobs = jobs;
    h->listed = true;
    if (before != jobs)
        emit jobsChanged(hostName);
    if (firstList)
        return; // jobs that ended while Gantry was closed are shown, not announced
    const QPointer<JobService> self(this); // tasks may outlive it: results reach it only while it lives
    for (const JobInfo &job : jobs) {
        if (job.isActive())
            continue;
        const auto was = std::find_if(before.cbegin(), before.cend(), [&](const JobInfo &b) { return b.name == job.name; });
        if (was == before.cend() || !was->isActive())
            continue;
        post(hostName, [self, hostName, job](JobRunner &runner) {
            const QString lines = runner.lastLines(job.name, 10).valueOr(QString());
            background::deliver(self, [self, hostName, job, lines] {
                emit self->jobExited(hostName, job, lines);
            });
        });
    }
}

void JobService::start(const QString &hostName, const JobSpec &spec, JobMethod method)
{
    launch(hostName, [spec, method](JobRunner &runner) { return runner.start(spec, method); });
}

void JobService::rerun(const QString &hostName, const QString &name)
{
    launch(hostName, [name](JobRunner &runner) { return runner.rerun(name); });
}

void JobService::launch(const QString &hostName, std::function<Result<StartedJob>(JobRunner &)> begin)
{
    const QPointer<JobService> self(this); // tasks may outlive it: results reach it only while it lives
    post(hostName, [self, hostName, begin = std::move(begin)](JobRunner &runner) {
        auto started = begin(runner);
        auto list = runner.list();
        background::deliver(self, [self, hostName, started, list] {
            if (list)
                self->applyList(hostName, *list);
            if (!started)
                emit self->operationFailed(hostName, started.error().message);
            else
                emit self->jobStarted(hostName, started->info, started->tail);
        });
    });
}

void JobService::stop(const QString &hostName, const QString &name, const StopOptions &options)
{
    const QPointer<JobService> self(this); // tasks may outlive it: results reach it only while it lives
    StopOptions detached = options;
    detached.wait = false; // the escalation runs on the instance; polling shows the end
    post(hostName, [self, hostName, name, detached](JobRunner &runner) {
        auto stopped = runner.stop(name, detached);
        auto list = runner.list();
        background::deliver(self, [self, hostName, stopped, list] {
            if (list)
                self->applyList(hostName, *list);
            if (!stopped)
                emit self->operationFailed(hostName, stopped.error().message);
        });
    });
}

void JobService::remove(const QString &hostName, const QString &name)
{
    const QPointer<JobService> self(this); // tasks may outlive it: results reach it only while it lives
    post(hostName, [self, hostName, name](JobRunner &runner) {
        auto removed = runner.remove(name);
        auto list = runner.list();
        background::deliver(self, [self, hostName, removed, list] {
            if (list)
                self->applyList(hostName, *list);
            if (!removed)
                emit self->operationFailed(hostName, removed.error().message);
        });
    });
}

void JobService::followLog(const QString &hostName, const QString &name, qint64 offset)
{
    Host *h = host(hostName);
    if (!h)
        return;
    // A follow in progress ends first (its own token), then this one starts on the same worker.
    h->follow.cancel();
    h->follow = CancelToken();
    const CancelToken cancel = h->follow;
    const int generation = ++h->followGeneration;
    const QString root = m_root;
    const QPointer<JobService> self(this); // tasks may outlive it: results reach it only while it lives
    SessionWorker *worker = h->logs.get();
    worker->post([self, cancel, hostName, name, offset, root, generation](ssh::Session *session, const Error *error) {
        auto deliverEnd = [self, hostName, name](const QString &message) {
            background::deliver(self, [self, hostName, name, message] {
                emit self->logEnded(hostName, name, message);
            });
        };
        if (!session) {
            deliverEnd(error->message);
            return;
        }
        JobRunner runner(*session, root);
        qint64 position = offset;
        auto end = runner.followLog(
            name, offset,
            [&](const QByteArray &chunk) {
                position += chunk.size();
                const qint64 at = position;
                background::deliver(self, [self, hostName, name, chunk, at, generation] {
                    Host *h = self->host(hostName);
                    if (h && h->followGeneration == generation)
                        emit self->logData(hostName, name, chunk, at);
                });
            },
            cancel);
        deliverEnd(end ? QString() : end.error().message);
    });
}

void JobService::stopFollowing(const QString &hostName)
{
    if (Host *h = host(hostName)) {
        ++h->followGeneration;
        h->follow.cancel();
    }
}

} // namespace gantry::jobs
