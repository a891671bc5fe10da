// SPDX-License-Identifier: Apache-2.0
#include "core/guard/machineguards.h"

#include "core/ssh/connection.h"

namespace gantry::guard {

MachineGuards::MachineGuards(QString configDir, QObject *parent)
    : QObject(parent)
    , m_configDir(std::move(configDir))
{
}

// Each operation's session stops at its closing flag; a result in flight is dropped.
MachineGuards::~MachineGuards() = default;

GuardOperation *MachineGuards::begin(ssh::Connection *connection, const QString &hostName)
{
    if (!connection || connection->state() != ssh::ConnectionState::Connected || isBusy(hostName))
        return nullptr;
    Machine &machine = m_machines[hostName];
    if (!machine.operation || machine.operation->target() != connection->target()) {
        if (GuardOperation *old = machine.operation.release())
            old->deleteLater(); // idle (not busy): its session goes without the caller waiting
        machine.operation = std::make_unique<GuardOperation>(connection->target(), connection->siblingOptions(), m_configDir);
        machine.operation->setRemoteDir(m_remoteDir);
    }
    if (machine.connection != connection) {
        if (machine.connection)
            disconnect(machine.connection, nullptr, this, nullptr);
        machine.connection = connection;
        connect(connection, &ssh::Connection::stateChanged, this, [this, hostName] { releaseIfClosed(hostName); });
        connect(connection, &QObject::destroyed, this, [this, hostName] { releaseIfClosed(hostName); });
    }
    m_busy.insert(hostName);
    return machine.operation.get();
}

GuardOperation::Done MachineGuards::doneFor(const QString &hostName)
{
    // The operation answers on this object's thread, and this object outlives its operations.
    return [this, hostName](const Result<GuardStatus> &status) {
        m_busy.remove(hostName);
        m_last.insert_or_assign(hostName, status);
        releaseIfClosed(hostName);
        emit answered(hostName, status);
    };
}

std::optional<Result<GuardStatus>> MachineGuards::last(const QString &hostName) const
{
    const auto it = m_last.find(hostName);
    return it == m_last.end() ? std::nullopt : std::optional<Result<GuardStatus>>(it->second);
}

bool MachineGuards::install(ssh::Connection *connection, const QString &hostName, const GuardOptions &options)
{
    GuardOperation *operation = begin(connection, hostName);
    if (operation)
        operation->install(hostName, options, doneFor(hostName));
    return operation != nullptr;
}

bool MachineGuards::remove(ssh::Connection *connection, const QString &hostName)
{
    GuardOperation *operation = begin(connection, hostName);
    if (operation)
        operation->remove(hostName, doneFor(hostName));
    return operation != nullptr;
}

bool MachineGuards::check(ssh::Connection *connection, const QString &hostName)
{
    GuardOperation *operation = begin(connection, hostName);
    if (operation)
        operation->status(doneFor(hostName));
    return operation != nullptr;
}

void MachineGuards::releaseIfClosed(const QString &hostName)
{
    const auto it = m_machines.find(hostName);
    if (it == m_machines.end() || isBusy(hostName))
        return;
    const ssh::Connection *connection = it->second.connection;
    if (connection && connection->state() != ssh::ConnectionState::Disconnected)
        return;
    // Idle: its worker has nothing to wait for. Called from the operation's own answer at times,
    // so it goes once that call has returned.
    if (connection)
        disconnect(connection, nullptr, this, nullptr);
    if (GuardOperation *idle = it->second.operation.release())
        idle->deleteLater();
    m_machines.erase(it);
}

} // namespace gantry::guard
