// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/guard/guardoperation.h"

#include <QObject>
#include <QPointer>
#include <QSet>

#include <map>
#include <memory>
#include <optional>

namespace gantry::ssh {
class Connection;
}

namespace gantry::guard {

// The idle guards' Install, Remove and Check of every saved machine, owned by the application
// core (AppCore::guards()): a command belongs to its machine, so it ends and is remembered even
// when the window shows another machine meanwhile, and no panel ever waits for one to stop. Each
// machine gets a GuardOperation (an SSH session of its own, opened with the options of the
// machine's connection), released once that connection closes and no command is in flight.
// Owner-thread only (the GUI thread in the app).
class MachineGuards final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MachineGuards)

public:
    explicit MachineGuards(QString configDir, QObject *parent = nullptr);
    ~MachineGuards() override;

    // Each answers through answered(hostName, …); false when the machine is not connected or a
    // command already runs there (nothing is sent then).
    bool install(ssh::Connection *connection, const QString &hostName, const GuardOptions &options);
    bool remove(ssh::Connection *connection, const QString &hostName);
    bool check(ssh::Connection *connection, const QString &hostName);

    bool isBusy(const QString &hostName) const { return m_busy.contains(hostName); }
    // The last answer about hostName's guard since Gantry started (nullopt: none), so a machine
    // shown again says how its last command ended, also one that failed while another was shown.
    std::optional<Result<GuardStatus>> last(const QString &hostName) const;
    // Tests put the guard in a folder of their own (default ~/.gantry/guard).
    void setRemoteDir(const QString &dir) { m_remoteDir = dir; }

signals:
    // A command on hostName ended: the guard's status as the machine reports it, or why not.
    void answered(const QString &hostName, const gantry::Result<gantry::guard::GuardStatus> &status);

private:
    struct Machine
    {
        std::unique_ptr<GuardOperation> operation;
        QPointer<ssh::Connection> connection;
    };

    GuardOperation *begin(ssh::Connection *connection, const QString &hostName);
    GuardOperation::Done doneFor(const QString &hostName);
    void releaseIfClosed(const QString &hostName);

    QString m_configDir;
    QString m_remoteDir;
    std::map<QString, Machine> m_machines;
    QSet<QString> m_busy;
    std::map<QString, Result<GuardStatus>> m_last;
};

} // namespace gantry::guard
