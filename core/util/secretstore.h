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

// The OS keychain through qtkeychain (Secret Service on Linux). Errors name the missing service.
std::unique_ptr<SecretStore> makeKeychainSecretStore();
// For tests and for platforms without a keychain in the CLI: nothing touches the disk.
std::unique_ptr<SecretStore> makeMemorySecretStore();

} // namespace gantry
