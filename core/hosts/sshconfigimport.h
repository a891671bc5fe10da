#pragma once

#include "core/hosts/hoststore.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace gantry {

// Reads Host entries of an OpenSSH client config (HostName, User, Port, IdentityFile, ProxyJump,
// Include) as saved hosts with source "ssh-config". Wildcard patterns (Host *, Host 10.0.*) are
// defaults, not machines, and are skipped. Each file is read once (an Include loop ends at once),
// Includes nest at most 16 deep and at most 256 files are read; hosts whose values
// ssh::checkTarget refuses are left out. warnings, when given, gets one line per such cause.
QList<SavedHost> importSshConfig(const QString &configFile, QStringList *warnings = nullptr);

} // namespace gantry
