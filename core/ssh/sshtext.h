#pragma once

// What session.cpp and sessionauth.cpp share; not part of the ssh module's interface.

#include <QCoreApplication>

#include <libssh/libssh.h>

namespace gantry::ssh {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class SshText
{
    Q_DECLARE_TR_FUNCTIONS(ssh)
};

struct KeyGuard
{
    ssh_key key = nullptr;
    KeyGuard() = default;
    KeyGuard(const KeyGuard &) = delete;
    KeyGuard &operator=(const KeyGuard &) = delete;
    ~KeyGuard() { ssh_key_free(key); }
};

} // namespace gantry::ssh
