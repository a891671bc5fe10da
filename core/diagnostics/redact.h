// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

namespace gantry::diagnostics {

// Removes secrets from text meant for a bug report, replacing each with "[redacted]":
// - every known secret value (the keychain's API keys, passwords and passphrases, read by the
//   caller);
// - private key blocks and "Bearer …"/"Basic …" credentials;
// - the password of a URL's user-info (https://user:PASS@host keeps the user and the host);
// - URL query values whose name holds key, sig(nature), auth, token, credential, session, pass or
//   secret (?key=…, &X-Amz-Signature=…);
// - values after key/token/password/passphrase/secret/authorization names: a quoted value up to its
//   closing quote, an unquoted password, passphrase or secret to the end of its line (one may hold
//   spaces), other unquoted values to the next space;
// - long unbroken token-like strings (letters and digits mixed, 32 characters or more).
// Errs towards removing too much: a report is read by people, a secret must not reach them.
QString redact(QString text, const QStringList &knownSecrets);

} // namespace gantry::diagnostics
