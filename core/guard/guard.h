#pragma once

#include "core/guard/guardscript.h"
#include "core/ssh/session.h"
#include "core/util/result.h"

#include <QString>

namespace gantry::guard {

// What `guard status` finds on the machine (the guard's own status file, key=value lines).
struct GuardStatus
{
    bool installed = false;
    bool running = false;       // its process is alive
    QString state;              // watching, stopping, stopped, failed; empty before the first look
    QString reason;             // idle, gpu, job, ssh: what kept (or did not keep) the machine busy
    int idleSeconds = 0;
    int thresholdSeconds = 0;
    QString method;             // runpod, vast, shutdown
    QString action;             // stop, terminate
    QString error;              // the last stop attempt's error
};

// The guard's way to stop a machine of this provider; None where there is none (Lambda,
// Shadeform, hand-added hosts) or where powering off would stop the wrong machine (the sandbox).
providers::SelfStop selfStopFor(const QString &providerId);

// One sentence for a provider whose machines cannot stop themselves: the watcher does it.
QString noSelfStopReason(const QString &providerId);

// Blocking, on the session's thread. Installs into remoteDir (empty: ~/.gantry/guard) on the
// machine, replacing a guard already there, and starts it detached from the SSH session.
Result<void> installGuard(ssh::Session &session, const GuardOptions &options, const QString &remoteDir = {});
Result<GuardStatus> guardStatus(ssh::Session &session, const QString &remoteDir = {});
Result<void> removeGuard(ssh::Session &session, const QString &remoteDir = {});

GuardStatus parseGuardStatus(const QByteArray &text);

} // namespace gantry::guard
