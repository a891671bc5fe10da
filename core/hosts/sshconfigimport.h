#pragma once

#include "hosts/hoststore.h"

#include <QList>
#include <QString>

namespace gantry {

// Reads Host entries of an OpenSSH client config (HostName, User, Port, IdentityFile, ProxyJump,
// Include) as saved hosts with source "ssh-config". Wildcard patterns (Host *, Host 10.0.*) are
// defaults, not machines, and are skipped.
QList<SavedHost> importSshConfig(const QString &configFile);

} // namespace gantry
