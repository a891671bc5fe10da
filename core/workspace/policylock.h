#pragma once

#include "core/util/result.h"

#include <QCoreApplication>
#include <QLockFile>
#include <QString>
#include <QStringList>

namespace gantry::workspace {

// Only one policy owner acts at a time: the GUI or a `gantry-cli watch`, whichever holds
// <configDir>/policy.lock. The other one defers (notifies, never stops or terminates). The lock
// dies with its process, so a crashed owner frees it.
class PolicyLock final
{
    Q_DECLARE_TR_FUNCTIONS(gantry::workspace::PolicyLock)
    Q_DISABLE_COPY_MOVE(PolicyLock)

public:
    explicit PolicyLock(const QString &configDir);
    ~PolicyLock();

    static QString path(const QString &configDir);
    // The live process that holds the policy of `configDir` (0: none, or one that is gone).
    static qint64 livePid(const QString &configDir);
    // A policy owner for `configDir` that outlives this process: unless another live process holds
    // the policy already, `cliProgram watch` is started detached (its output in <configDir>/watch.log);
    // it takes the policy — and the managed runs nobody drives — once this process has gone.
    // Returns its pid, or 0 when another owner runs (that one takes over instead).
    // Where the user's systemd runs, the watcher starts in a scope of it (watcherCommand()).
    static Result<qint64> ensureWatcher(const QString &configDir, const QString &cliProgram);
    // The command that starts the watcher: `cliProgram --config-dir D watch`, inside
    // `systemd-run --user --scope --unit=gantry-watch-<hash of D>` when `userManager`.
    static QStringList watcherCommand(const QString &configDir, const QString &cliProgram, bool userManager);
    // The user's systemd manager answers (a desktop session, or a login with lingering).
    static bool userManagerRuns();
    // True when this process owns the policy now (already, or taken just now).
    bool tryAcquire();
    bool owned() const { return m_owned; }
    // Who holds it, for the user: "gantry-cli (pid 4242 on nas)"; "" when nobody does.
    QString holder() const;
    void release();

private:
    QString m_path;
    QLockFile m_file;
    bool m_owned = false;
};

} // namespace gantry::workspace
