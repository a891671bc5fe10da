#pragma once

#include "core/util/result.h"

#include <QString>

#include <memory>
#include <optional>

namespace gantry {

// Passwords, key passphrases and provider API keys live only here: the OS keychain in the app,
// an in-memory stand-in in tests. Keys are like "host/<name>/password", "provider/lambda/api-key".
// Calls block the calling thread until the keychain answers (they spin a local event loop only
// inside the keychain job), so call them off the GUI thread or at user-action time.
class SecretStore
{
public:
    virtual ~SecretStore() = default;
    virtual Result<std::optional<QString>> read(const QString &key) = 0;
    virtual Result<void> write(const QString &key, const QString &secret) = 0;
    virtual Result<void> remove(const QString &key) = 0;
};

// Where the desktop keeps secrets: the OS keychain (qtkeychain: Secret Service or KWallet on
// Linux) when one answers within 2 s; where none does (i3, WSL, a server with X forwarding, KDE
// without kwallet) every call fails at once with noKeyringMessage() instead of waiting for D-Bus
// timeouts — unless the user chose a file (enableSecretsFile): then secrets go to
// <configDir>/secrets.json, readable only by them, as gh and docker do. Never chosen silently.
std::unique_ptr<SecretStore> makeDesktopSecretStore(const QString &configDir);
// The same without the file (tests of the keychain path).
std::unique_ptr<SecretStore> makeKeychainSecretStore();
// For tests and for platforms without a keychain in the CLI: nothing touches the disk.
std::unique_ptr<SecretStore> makeMemorySecretStore();

// Whether a keychain answers on this desktop (probed once per process, at most 2 s).
bool keychainAvailable();
// The error of every keychain call where none answers: says what to do instead.
QString noKeyringMessage();

// The user's choice of a private file for secrets (Settings → Accounts, provider-key set --store
// file). enable creates <configDir>/secrets.json (mode 0600) when missing; disable deletes it and
// the secrets in it.
bool secretsFileEnabled(const QString &configDir);
Result<void> enableSecretsFile(const QString &configDir);
Result<void> disableSecretsFile(const QString &configDir);
QString secretsFilePath(const QString &configDir);

} // namespace gantry
