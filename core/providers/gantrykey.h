#pragma once

#include "core/util/result.h"

#include <QString>

#include <functional>

namespace gantry::providers {

class Provider;

// The key pair Gantry puts on instances it launches: <configDir>/keys/gantry_ed25519 (+ .pub).
QString gantryKeyPath(const QString &configDir);
// Creates the pair when missing (private key mode 0600); returns the private key path. In-process
// (core/ssh/keygen: 3-26 ms with the files written, test_ssh_session keygenRefusesOrReplaces on a
// loaded 2-core machine; no ssh-keygen process to wait up to 30 s for), so the launch dialog may
// call it on the GUI thread.
Result<QString> ensureGantryKey(const QString &configDir);
// Generates a fresh ed25519 pair at privateKeyPath (mode 0600), comment as given, replacing one
// there (ssh::generateEd25519Key with ExistingKeyFile::Replace).
Result<void> generateKeyPair(const QString &privateKeyPath, const QString &comment);
// The one-line OpenSSH public key next to a private key file.
Result<QString> readPublicKey(const QString &privateKeyPath);
// The account key name the Gantry pair is uploaded under: "gantry-<this computer's name>".
QString gantryKeyName();
// Makes the Gantry pair if missing and uploads its public half to the provider (one already
// there under that name is fine); answers the key name to launch with.
void uploadGantryKey(Provider *provider, const QString &configDir, std::function<void(Result<QString>)> done);

} // namespace gantry::providers
