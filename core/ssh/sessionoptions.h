#pragma once

#include "core/ssh/session.h"

#include <libssh/libssh.h>

namespace gantry::ssh {

// Sets host, port, user, known_hosts, timeouts, ciphers and the ProxyJump command on a fresh libssh
// session, checking each: a refused option stops the connection with the reason.
Result<void> applyOptions(ssh_session session, const Target &target, const ConnectOptions &options);

} // namespace gantry::ssh
