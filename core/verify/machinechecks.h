// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/canceltoken.h"
#include "core/util/result.h"
#include "core/verify/acceptance.h"
#include "core/verify/verifyoperation.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <map>
#include <memory>
#include <optional>

namespace gantry::ssh {
class Connection;
}

namespace gantry::verify {

// What a machine's check is doing or last did.
enum class CheckKind
{
    Verify,
    Doctor,
    Accept,
};

// A check in flight: its kind and the last progress it reported.
struct LiveCheck
{
    CheckKind kind = CheckKind::Verify;
    int percent = 0;
    QString text;
};

// A finished check: exactly one of the results is set, the one of `kind`.
struct FinishedCheck
{
    CheckKind kind = CheckKind::Verify;
    std::optional<Result<VerifyRun>> verify;
    std::optional<Result<QList<DoctorCheck>>> doctor;
    std::optional<Result<Acceptance>> accept;
};

// Verify, Doctor and the acceptance test of every saved machine, owned by the application core
// (AppCore::checks()), so that a check belongs to its machine, not to the tab that started it: it
// goes on while the window shows another machine, and its progress and last result are there when
// that machine is shown again. One check at a time per machine, each on an SSH session of its own
// (VerifyOperation) opened with the options of the machine's connection. A machine whose connection
// closes has its check cancelled and its idle session released; nothing here ever waits for a
// machine on the owner's thread. Owner-thread only (the GUI thread in the app).
class MachineChecks final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MachineChecks)

public:
    explicit MachineChecks(QString configDir, QObject *parent = nullptr);
    ~MachineChecks() override;

    // Each starts the check on the machine of hostName's connection (the window's interactive one,
    // whose target and options the check's own session takes); an error says why not (not
    // connected, or a check already running there, named). Once the connection closes the check
    // is cancelled.
    Result<void> verify(ssh::Connection *connection, const VerifyRequest &request);
    Result<void> doctor(ssh::Connection *connection, const QString &hostName, const Advertised &machine);
    Result<void> accept(ssh::Connection *connection, const AcceptRequest &request);
    // Asks hostName's check to stop; finished() follows once it has.
    void cancel(const QString &hostName);

    bool isRunning(const QString &hostName) const { return m_live.contains(hostName); }
    std::optional<LiveCheck> live(const QString &hostName) const;
    // The last check that finished on hostName since Gantry started (nullopt: none).
    std::optional<FinishedCheck> last(const QString &hostName) const;
    // A remote cache folder for every check (tests use one of their own; empty: ~/.cache/gantry).
    void setRemoteCacheDir(const QString &dir) { m_remoteCacheDir = dir; }

signals:
    // live(hostName) changed: a check started or reported progress.
    void progressed(const QString &hostName);
    // A check ended, successfully or not; last(hostName) holds its result.
    void finished(const QString &hostName, gantry::verify::CheckKind kind);

private:
    struct Machine
    {
        std::unique_ptr<VerifyOperation> operation;
        CancelToken cancel;
        QPointer<ssh::Connection> connection; // whose closing ends the check and the session
    };

    // The machine's operation, made or remade for its connection's target; nullptr and why not.
    Result<VerifyOperation *> begin(ssh::Connection *connection, const QString &hostName, CheckKind kind);
    VerifyCallbacks callbacksFor(const QString &hostName);
    void end(const QString &hostName, FinishedCheck finished);
    void onConnectionClosed(const QString &hostName);

    bool closed(const QString &hostName) const;

    QString m_configDir;
    QString m_remoteCacheDir;
    std::map<QString, Machine> m_machines; // a session per machine checked, kept while it is connected
    QHash<QString, LiveCheck> m_live;
    QHash<QString, FinishedCheck> m_last;
};

} // namespace gantry::verify
