// SPDX-License-Identifier: Apache-2.0
#include "core/diagnostics/redact.h"

#include <QRegularExpression>

namespace gantry::diagnostics {
namespace {

const QString kRedacted = QStringLiteral("[redacted]");

// Names whose values are secrets; a suffix (api_key_id, password2, token-file) counts too.
const QString kSecretName = QStringLiteral("(?:api[_-]?key|apikey|access[_-]?key|token|password|passwd|passphrase|secret|"
                                           "authorization|credentials?)[A-Za-z0-9_-]*");
// The names whose unquoted values run to the end of the line: a passphrase is often words.
const QString kPhraseName = QStringLiteral("(?:password|passwd|passphrase|secret)[A-Za-z0-9_-]*");

// https://user:PASS@host — the password goes, the user and the host stay.
void redactUrlUserInfo(QString &text)
{
    static const QRegularExpression userInfo(QStringLiteral("\\b([A-Za-z][A-Za-z0-9+.-]*://[^\\s/@:]*:)[^\\s@]+@"));
    text.replace(userInfo, QStringLiteral("\\1") + kRedacted + QLatin1Char('@'));
}

// ?key=…&sig=…: the value up to the next parameter, fragment, space or quote.
void redactQueryValues(QString &text)
{
    static const QRegularExpression query(
        QStringLiteral("([?&;][A-Za-z0-9_.-]*(?:key|sig|auth|token|credential|session|pass|secret)[A-Za-z0-9_.-]*=)(?!\\[redacted\\])[^&#\\s\"'<>]+"),
        QRegularExpression::CaseInsensitiveOption);
    text.replace(query, QStringLiteral("\\1") + kRedacted);
}

// name = "value with spaces", "name": "value", name='value': up to the closing quote (escaped
// quotes included), or the end of the line when it never closes.
void redactQuotedValues(QString &text)
{
    static const QRegularExpression doubleQuoted(
        QStringLiteral("(%1\"?\\s*[:=]\\s*\")(?:[^\"\\\\\\n]|\\\\.)*\"?").arg(kSecretName), QRegularExpression::CaseInsensitiveOption);
    text.replace(doubleQuoted, QStringLiteral("\\1") + kRedacted + QLatin1Char('"'));
    static const QRegularExpression singleQuoted(
        QStringLiteral("(%1'?\\s*[:=]\\s*')[^'\\n]*'?").arg(kSecretName), QRegularExpression::CaseInsensitiveOption);
    text.replace(singleQuoted, QStringLiteral("\\1") + kRedacted + QLatin1Char('\''));
}

void redactUnquotedValues(QString &text)
{
    // A password or passphrase may hold spaces: everything to the end of the line.
    static const QRegularExpression phrase(QStringLiteral("(%1\\s*[:=]\\s*)(?![\"'\\s]|\\[redacted\\])[^\\n]+").arg(kPhraseName),
                                           QRegularExpression::CaseInsensitiveOption);
    text.replace(phrase, QStringLiteral("\\1") + kRedacted);
    // Keys and tokens are one word.
    static const QRegularExpression word(QStringLiteral("(%1\\s*[:=]\\s*)(?![\"'\\s]|\\[redacted\\])[^\\s\",;&]+").arg(kSecretName),
                                         QRegularExpression::CaseInsensitiveOption);
    text.replace(word, QStringLiteral("\\1") + kRedacted);
}

} // namespace

QString redact(QString text, const QStringList &knownSecrets)
{
    for (const QString &secret : knownSecrets) {
        if (secret.size() >= 4) // shorter "secrets" would blank ordinary words
            text.replace(secret, kRedacted);
    }
    static const QRegularExpression privateKey(QStringLiteral("-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$(?![\\s\\S]))"),
                                               QRegularExpression::DotMatchesEverythingOption | QRegularExpression::MultilineOption);
    text.replace(privateKey, kRedacted);
    static const QRegularExpression bearer(QStringLiteral("\\b(Bearer|Basic)\\s+[A-Za-z0-9._~+/=-]+"), QRegularExpression::CaseInsensitiveOption);
    text.replace(bearer, QStringLiteral("\\1 ") + kRedacted);
    redactUrlUserInfo(text);
    redactQueryValues(text);
    redactQuotedValues(text);
    redactUnquotedValues(text);
    // Long unbroken runs of key alphabet with digits and letters mixed (API keys, JWTs).
    static const QRegularExpression tokenLike(QStringLiteral("\\b(?=[A-Za-z0-9_.-]*[0-9])(?=[A-Za-z0-9_.-]*[A-Za-z])[A-Za-z0-9_.-]{32,}\\b"));
    text.replace(tokenLike, kRedacted);
    return text;
}

} // namespace gantry::diagnostics
