#pragma once

#include "core/guard/guard.h"
#include "core/util/result.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace gantry::jobs {
class SessionWorker;
}

namespace gantry::guard {

// The guard's options for a machine of this provider, or the error that says it cannot stop
// itself (and that the watcher does the job). Shared by `gantry-cli guard install` and the GUI.
Result<GuardOptions> guardOptionsFor(const QString &providerId, int idleMinutes, GuardAction action = GuardAction::Stop,
                                     const QString &endpoint = {});

// What the user asked for, per saved host: <configDir>/guards.json {"schema": 1, "guards":
// {"HOST": {"idle_minutes": 30, "method": "vast", "action": "stop"}}}, so a reconnect shows the guard at once and
// asks the machine how it is. Written atomically; a file that cannot be read is an empty map.
class GuardStore final
{
public:
    struct Entry
    {
        int idleMinutes = 30;
        QString method; // methodName()
        GuardAction action = GuardAction::Stop;
        bool operator==(const Entry &) const = default;
    };

    explicit GuardStore(QString configDir);

    QHash<QString, Entry> load() const;
    Result<void> remember(const QString &host, const Entry &entry);
    Result<void> forget(const QString &host);
    QString filePath() const;

private:
    Result<void> save(const QHash<QString, Entry> &entries) const;

    QString m_configDir;
};

// Install, status and remove for the GUI, on an SSH session of its own (its own thread), so the
// GUI thread never waits for the machine. Results come back on this object's thread; the store is
// read and written on the worker too. Destroying it waits for the command in flight and drops
// its result.
class GuardOperation final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GuardOperation)

public:
    using Done = std::function<void(Result<GuardStatus>)>;

    // options: a sibling session's (ssh::Connection::siblingOptions(): no host-key question, no
    // shared cancel flag — nobody can answer from the worker's thread). configDir: where
    // guards.json lives (empty: nothing is remembered).
    GuardOperation(ssh::Target target, ssh::ConnectOptions options, QString configDir, QObject *parent = nullptr);
    ~GuardOperation() override;

    const ssh::Target &target() const { return m_target; }

    // Each ends with the guard's status as the machine reports it.
    void install(const QString &hostName, const GuardOptions &options, Done done);
    void status(Done done);
    void remove(const QString &hostName, Done done);
    // Tests put the guard in a folder of their own (default ~/.gantry/guard).
    void setRemoteDir(const QString &dir) { m_remoteDir = dir; }

private:
    void run(std::function<Result<void>(ssh::Session &)> change, std::function<void()> remember, Done done);

    ssh::Target m_target;
    QString m_configDir;
    QString m_remoteDir;
    std::unique_ptr<jobs::SessionWorker> m_worker;
};

} // namespace gantry::guard
