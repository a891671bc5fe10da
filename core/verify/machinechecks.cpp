// SPDX-License-Identifier: Apache-2.0
#include "core/verify/machinechecks.h"

#include "core/ssh/connection.h"

#include <QCoreApplication>

namespace gantry::verify {

namespace {

class ChecksText
{
    Q_DECLARE_TR_FUNCTIONS(ChecksText)
};

QString kindName(CheckKind kind)
{
    switch (kind) {
    case CheckKind::Verify:
        return ChecksText::tr("Verify");
    case CheckKind::Doctor:
        return ChecksText::tr("Doctor");
    case CheckKind::Accept:
        return ChecksText::tr("the acceptance test");
    }
    return {};
}

} // namespace

MachineChecks::MachineChecks(QString configDir, QObject *parent)
    : QObject(parent)
    , m_configDir(std::move(configDir))
{
}

MachineChecks::~MachineChecks()
{
    // Closing Gantry ends every check; each operation's session stops at its closing flag.
    for (auto &[hostName, machine] : m_machines)
        machine.cancel.cancel();
}

std::optional<LiveCheck> MachineChecks::live(const QString &hostName) const
{
    const auto it = m_live.constFind(hostName);
    return it == m_live.cend() ? std::nullopt : std::optional<LiveCheck>(*it);
}

std::optional<FinishedCheck> MachineChecks::last(const QString &hostName) const
{
    const auto it = m_last.constFind(hostName);
    return it == m_last.cend() ? std::nullopt : std::optional<FinishedCheck>(*it);
}

bool MachineChecks::closed(const QString &hostName) const
{
    // Disconnected is the user's "stop working on it"; a connection that is reconnecting or failed
    // leaves the check's own session alone.
    const auto it = m_machines.find(hostName);
    return it == m_machines.end() || !it->second.connection
           || it->second.connection->state() == ssh::ConnectionState::Disconnected;
}

Result<VerifyOperation *> MachineChecks::begin(ssh::Connection *connection, const QString &hostName, CheckKind kind)
{
    if (const auto running = live(hostName)) {
        return Error{ErrorCode::Conflict, ChecksText::tr("%1 is already running on %2: wait for it or cancel it first.")
                                              .arg(kindName(running->kind), hostName)};
    }
    if (!connection || connection->state() != ssh::ConnectionState::Connected) {
        return Error{ErrorCode::Usage, ChecksText::tr("%1 is not connected: connect it in Machines, then run %2.")
                                           .arg(hostName, kindName(kind))};
    }
    Machine &machine = m_machines[hostName];
    if (!machine.operation || machine.operation->target() != connection->target()) {
        if (VerifyOperation *old = machine.operation.release())
            old->deleteLater(); // idle (nothing runs here): its session goes without the caller waiting
        machine.operation = std::make_unique<VerifyOperation>(connection->target(), connection->siblingOptions(), m_configDir);
    }
    if (machine.connection != connection) {
        if (machine.connection)
            disconnect(machine.connection, nullptr, this, nullptr);
        machine.connection = connection;
        connect(connection, &ssh::Connection::stateChanged, this, [this, hostName] {
            if (closed(hostName))
                onConnectionClosed(hostName);
        });
        connect(connection, &QObject::destroyed, this, [this, hostName] { onConnectionClosed(hostName); });
    }
    machine.cancel = CancelToken();
    m_live.insert(hostName, LiveCheck{kind, 0, ChecksText::tr("Starting…")});
    emit progressed(hostName);
    return machine.operation.get();
}

VerifyCallbacks MachineChecks::callbacksFor(const QString &hostName)
{
    // The operation relays to this object's thread, and this object outlives its operations.
    VerifyCallbacks callbacks;
    callbacks.onProgress = [this, hostName](const Progress &progress) {
        auto it = m_live.find(hostName);
        if (it == m_live.end())
            return;
        if (progress.percent >= 0)
            it->percent = progress.percent;
        it->text = progress.text;
        emit progressed(hostName);
    };
    callbacks.onStatus = [this, hostName](const QString &text) {
        auto it = m_live.find(hostName);
        if (it == m_live.end())
            return;
        it->text = text;
        emit progressed(hostName);
    };
    return callbacks;
}

Result<void> MachineChecks::verify(ssh::Connection *connection, const VerifyRequest &request)
{
    VerifyRequest withCache = request;
    if (withCache.remoteCacheDir.isEmpty())
        withCache.remoteCacheDir = m_remoteCacheDir;
    const QString hostName = request.hostName;
    auto operation = begin(connection, hostName, CheckKind::Verify);
    if (!operation)
        return operation.error();
    (*operation)->verify(withCache, m_machines[hostName].cancel, callbacksFor(hostName), [this, hostName](Result<VerifyRun> run) {
        end(hostName, FinishedCheck{CheckKind::Verify, std::move(run), std::nullopt, std::nullopt});
    });
    return {};
}

Result<void> MachineChecks::doctor(ssh::Connection *connection, const QString &hostName, const Advertised &machine)
{
    auto operation = begin(connection, hostName, CheckKind::Doctor);
    if (!operation)
        return operation.error();
    (*operation)->doctor(hostName, machine, m_machines[hostName].cancel, [this, hostName](Result<QList<DoctorCheck>> checks) {
        end(hostName, FinishedCheck{CheckKind::Doctor, std::nullopt, std::move(checks), std::nullopt});
    });
    return {};
}

Result<void> MachineChecks::accept(ssh::Connection *connection, const AcceptRequest &request)
{
    AcceptRequest withCache = request;
    if (withCache.verify.remoteCacheDir.isEmpty())
        withCache.verify.remoteCacheDir = m_remoteCacheDir;
    const QString hostName = request.verify.hostName;
    auto operation = begin(connection, hostName, CheckKind::Accept);
    if (!operation)
        return operation.error();
    (*operation)->accept(withCache, m_machines[hostName].cancel, callbacksFor(hostName), [this, hostName](Result<Acceptance> acceptance) {
        end(hostName, FinishedCheck{CheckKind::Accept, std::nullopt, std::nullopt, std::move(acceptance)});
    });
    return {};
}

void MachineChecks::cancel(const QString &hostName)
{
    const auto it = m_machines.find(hostName);
    if (it == m_machines.end() || !isRunning(hostName))
        return;
    it->second.cancel.cancel();
    m_live[hostName].text = ChecksText::tr("Cancelling…");
    emit progressed(hostName);
}

void MachineChecks::end(const QString &hostName, FinishedCheck finished)
{
    const CheckKind kind = finished.kind;
    m_live.remove(hostName);
    m_last.insert(hostName, std::move(finished));
    // A machine disconnected while its check ran keeps no session once the check has stopped.
    if (closed(hostName))
        onConnectionClosed(hostName);
    emit this->finished(hostName, kind);
}

void MachineChecks::onConnectionClosed(const QString &hostName)
{
    const auto it = m_machines.find(hostName);
    if (it == m_machines.end())
        return;
    if (isRunning(hostName)) {
        // Its end comes back through the operation, which must live until then.
        cancel(hostName);
        return;
    }
    // Called from the operation's own result at times: it goes once that call has returned. Idle,
    // its worker has nothing to wait for.
    if (it->second.connection)
        disconnect(it->second.connection, nullptr, this, nullptr);
    if (VerifyOperation *idle = it->second.operation.release())
        idle->deleteLater();
    m_machines.erase(it);
}

} // namespace gantry::verify
