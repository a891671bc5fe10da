#pragma once

#include "util/result.h"

#include <QString>

namespace gantry::ssh {

struct GeneratedKey
{
    QString privateKeyPath;
    QString publicKeyPath;
    QString publicKey;    // "ssh-ed25519 AAAA… comment", for copy/paste into a provider
    QString fingerprint;  // "SHA256:…"
};

// Writes a new ed25519 key pair: the private key with mode 0600 (created by us, never through the
// umask), PATH.pub with 0644. Refuses to overwrite an existing file.
Result<GeneratedKey> generateEd25519Key(const QString &path, const QString &comment, const QString &passphrase = {});

// Reads PATH.pub (or derives it from the private key) for display.
Result<QString> readPublicKey(const QString &privateKeyPath);

} // namespace gantry::ssh
