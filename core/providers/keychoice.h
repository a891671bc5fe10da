// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/providertypes.h"

#include <QList>
#include <QString>

namespace gantry::providers {

// A key pair on this computer: a public half (PATH.pub) whose private half (PATH) exists.
struct LocalKeyPair
{
    QString privateKeyPath;
    QString material;     // "ssh-ed25519 AAAA…": the key type and blob, without the comment
    bool gantry = false;  // Gantry's own pair (<configDir>/keys)
};

// One of the provider's account keys as a launch offers it. A machine rented with a key whose
// private half is elsewhere cannot be logged into from here: that is what the marker warns about.
struct KeyOption
{
    SshKey key;
    QString privateKeyPath; // empty: no private half on this computer
    bool usable() const { return !privateKeyPath.isEmpty(); }
};

struct KeyChoice
{
    QList<KeyOption> options; // the account's keys, in the provider's order
    int preferred = -1;       // index of the key to preselect; -1 when no key has its private half here
};

// "TYPE BLOB" of an OpenSSH public key line ("ssh-ed25519 AAAA… comment"); empty when it is not one.
QString keyMaterial(const QString &publicKeyLine);
// The pairs in Gantry's keys folder and in sshDir (normally ~/.ssh), in the order a launch prefers
// them: Gantry's own (made for this, never asks a passphrase), then the user's default keys
// (id_ed25519, id_ecdsa, id_rsa), then the rest by name. Reads small files: run it off the GUI thread.
QList<LocalKeyPair> localKeyPairs(const QString &configDir, const QString &sshDir);
// Matches the account's keys to the local pairs by key material (names and comments differ
// between a provider's console and the .pub file) and picks the most preferred usable one.
KeyChoice chooseKey(const QList<SshKey> &accountKeys, const QList<LocalKeyPair> &local);
// The account key named (or with the id) `name` in a choice; nullptr when there is none.
const KeyOption *findKeyOption(const KeyChoice &choice, const QString &name);

} // namespace gantry::providers
