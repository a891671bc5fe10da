#pragma once

#include "core/diagnostics/redact.h"
#include "core/util/result.h"

#include <QString>
#include <QStringList>

namespace gantry {
class SecretStore;
}

namespace gantry::diagnostics {

// The secret values Gantry keeps for this config dir: provider API keys (keychain and
// GANTRY_*_API_KEY) and each saved host's password and key passphrase. Blocks on the keychain: call
// it off the GUI thread.
QStringList collectKnownSecrets(const QString &configDir, SecretStore *secrets);

// One text file for a bug report: versions, platform, the config folder's file list, settings,
// saved hosts, the transfer queue, recent logs; everything passed through redact().
// extraFacts: lines the caller adds (the GUI's screens and style).
QString buildReport(const QString &configDir, const QStringList &knownSecrets, const QStringList &extraFacts = {});
Result<void> writeReport(const QString &path, const QString &report);

} // namespace gantry::diagnostics
