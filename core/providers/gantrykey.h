#pragma once

#include "util/result.h"

#include <QString>

namespace gantry::providers {

// The key pair Gantry puts on instances it launches: <configDir>/keys/gantry_ed25519 (+ .pub).
QString gantryKeyPath(const QString &configDir);
// Creates the pair when missing (private key mode 0600); returns the private key path. In-process
// (core/ssh/keygen, under a millisecond), so the launch dialog may call it on the GUI thread.
Result<QString> ensureGantryKey(const QString &configDir);
// Generates a fresh ed25519 pair at privateKeyPath (mode 0600), comment as given, replacing one
// there (ssh::generateEd25519Key with ExistingKeyFile::Replace).
Result<void> generateKeyPair(const QString &privateKeyPath, const QString &comment);
// The one-line OpenSSH public key next to a private key file.
Result<QString> readPublicKey(const QString &privateKeyPath);

} // namespace gantry::providers
