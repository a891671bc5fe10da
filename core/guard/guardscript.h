#pragma once

#include "core/providers/providertypes.h"

#include <QString>

namespace gantry::guard {

// What the guard does once the machine has been idle: stop it (its disk stays, and may keep billing)
// or terminate it (gone, disk and all; nothing bills any more).
enum class GuardAction
{
    Stop,
    Terminate,
};

// What the on-instance idle guard is told. Seconds rather than minutes so a test can run the
// real script with a threshold of one second.
struct GuardOptions
{
    providers::SelfStop method = providers::SelfStop::None;
    GuardAction action = GuardAction::Stop;
    int idleSeconds = 30 * 60;   // idle this long: stop
    int pollSeconds = 60;        // how often the guard looks
    int gpuBusyPercent = 5;      // any GPU above this utilisation is busy
    QString endpoint;            // the stop API's base URL; empty: the vendor's
    QString envFile;             // a KEY=value file with the machine's scoped key; empty: the default
};

QString defaultEndpoint(providers::SelfStop method);
QString defaultEnvFile(providers::SelfStop method);
QString methodName(providers::SelfStop method); // "runpod", "vast", "shutdown", "none"
QString actionName(GuardAction action);          // "stop", "terminate"
GuardAction actionFromName(const QString &name); // anything but "terminate" is Stop

// The POSIX sh program, with the options written in as quoted assignments. It never holds the
// user's account key: it reads the machine-scoped key from its environment, the env file or
// PID 1's environment when it stops the machine.
QString guardScript(const GuardOptions &options);

} // namespace gantry::guard
