#pragma once

#include "core/util/result.h"

#include <QString>

namespace gantry::ssh {

struct GeneratedKey
{
    QString privateKeyPath;
    QString publicKeyPath;
    QString publicKey;    // "ssh-ed25519 AAAA… comment", for copy/paste into a provider
    QString fingerprint;  // "SHA256:…"
};

// What generateEd25519Key does when PATH or PATH.pub exists: a key the user asked for by name is
// never overwritten (Refuse); a key Gantry owns and regenerates on purpose (a sandbox host key, a
// provider's throw-away pair) is replaced.
enum class ExistingKeyFile
{
    Refuse,
    Replace,
};

// The one SSH key generator (in-process, libssh; no ssh-keygen process to wait for): writes a new
// ed25519 key pair, the private key with mode 0600 (created by us, never through the umask),
// PATH.pub with 0644.
Result<GeneratedKey> generateEd25519Key(const QString &path, const QString &comment, const QString &passphrase = {},
                                        ExistingKeyFile existing = ExistingKeyFile::Refuse);

// Reads PATH.pub (or derives it from the private key) for display.
Result<QString> readPublicKey(const QString &privateKeyPath);

} // namespace gantry::ssh
