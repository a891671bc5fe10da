#pragma once

#include "core/util/result.h"

#include <QString>

#include <optional>

namespace gantry::ssh {
class Session;
}

namespace gantry::monitor {

// Ending a GPU process from the Monitor tab's Kill and `gantry-cli kill`: one implementation.
// The remote command is built from a parsed number and a fixed signal name only, never from text
// the host sent (a process name or command line), so nothing remote can reach a shell.
enum class KillSignal
{
    Term,
    Kill,
};
QString killSignalName(KillSignal signal); // "TERM", "KILL"
// "TERM", "sigterm", "15", "KILL", "9"… nullopt for anything else.
std::optional<KillSignal> parseKillSignal(const QString &text);

// Digits only, at least 2 (1 is init; 0 and negatives would signal process groups).
Result<qint64> parsePid(const QString &text);
// "kill -s TERM -- 4242"; pid must come from parsePid() or a parsed sample.
QString killCommand(qint64 pid, KillSignal signal);

struct RemoteProcess
{
    qint64 pid = 0;
    QString user;
    QString commandLine;
};
// What `ps` says about pid on the host (for the confirmation); NotFound when it is not running.
Result<RemoteProcess> describeProcess(ssh::Session &session, const QString &host, qint64 pid);

// Sends the signal over the session's exec path; the error names the cause (no such process,
// another user's process) and the next step.
Result<void> killProcess(ssh::Session &session, const QString &host, qint64 pid, KillSignal signal);

} // namespace gantry::monitor
