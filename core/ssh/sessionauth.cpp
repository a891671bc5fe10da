// Logging in: an unlocked identity file signed at once, then ssh-agent, identity files (public
// half first), keyboard-interactive, password.
#include "core/ssh/session.h"

#include "core/ssh/sshtext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace gantry::ssh {
namespace {

QString methodsText(int methods)
{
    QStringList names;
    if (methods & SSH_AUTH_METHOD_PUBLICKEY)
        names << QStringLiteral("publickey");
    if (methods & SSH_AUTH_METHOD_PASSWORD)
        names << QStringLiteral("password");
    if (methods & SSH_AUTH_METHOD_INTERACTIVE)
        names << QStringLiteral("keyboard-interactive");
    return names.isEmpty() ? SshText::tr("none") : names.join(QStringLiteral(", "));
}

QStringList defaultIdentityFiles()
{
    const QString dir = QDir::homePath() + QStringLiteral("/.ssh/");
    QStringList files;
    for (const char *name : {"id_ed25519", "id_ecdsa", "id_rsa"}) {
        const QString path = dir + QLatin1StringView(name);
        if (QFileInfo::exists(path))
            files << path;
    }
    return files;
}

constexpr int kMaxKbdintRounds = 8;
constexpr int kMaxKbdintPrompts = 16;

enum class KeyAttempt
{
    Accepted,
    Rejected, // try the next key
    Broken,   // the connection broke: stop trying keys
};

// One identity file. The public half is offered first so a passphrase is only asked for a key
// the server takes.
Result<KeyAttempt> tryKeyFile(ssh_session session, const QString &file, const ConnectOptions &options)
{
    const QString pubFile = file + QStringLiteral(".pub");
    if (QFileInfo::exists(pubFile)) {
        KeyGuard pub;
        if (ssh_pki_import_pubkey_file(QFile::encodeName(pubFile).constData(), &pub.key) == SSH_OK
            && ssh_userauth_try_publickey(session, nullptr, pub.key) != SSH_AUTH_SUCCESS)
            return KeyAttempt::Rejected;
    }
    KeyGuard priv;
    const QByteArray path = QFile::encodeName(file);
    if (ssh_pki_import_privkey_file(path.constData(), nullptr, nullptr, nullptr, &priv.key) != SSH_OK) {
        if (!options.passphrase)
            return KeyAttempt::Rejected;
        const std::optional<QString> pass = options.passphrase(file);
        if (!pass)
            return KeyAttempt::Rejected;
        const QByteArray passBytes = pass->toUtf8();
        if (ssh_pki_import_privkey_file(path.constData(), passBytes.constData(), nullptr, nullptr, &priv.key) != SSH_OK) {
            return makeError(ErrorCode::AuthFailed,
                             SshText::tr("cannot unlock key %1: wrong passphrase, or not a private key file").arg(file));
        }
    }
    const int rc = ssh_userauth_publickey(session, nullptr, priv.key);
    if (rc == SSH_AUTH_SUCCESS)
        return KeyAttempt::Accepted;
    return rc == SSH_AUTH_ERROR ? KeyAttempt::Broken : KeyAttempt::Rejected;
}

// true: logged in with one of files (each tried is named in tried).
Result<bool> tryKeyFiles(ssh_session session, const QStringList &files, const ConnectOptions &options, QStringList &tried)
{
    for (const QString &file : files) {
        if (!QFileInfo::exists(file)) {
            tried << SshText::tr("%1 (missing)").arg(file);
            continue;
        }
        tried << file;
        const Result<KeyAttempt> attempt = tryKeyFile(session, file, options);
        if (!attempt)
            return attempt.error();
        if (*attempt == KeyAttempt::Accepted)
            return true;
        if (*attempt == KeyAttempt::Broken)
            break;
    }
    return false;
}

// The first identity file that opens without a passphrase, offered with its signature at once:
// one round trip to log in, where "none" (for the method list), the public half and then the
// signature take three. Every session of a transfer logs in on the critical path.
KeyAttempt tryUnlockedKeyFirst(ssh_session session, const QStringList &files)
{
    for (const QString &file : files) {
        KeyGuard priv;
        if (ssh_pki_import_privkey_file(QFile::encodeName(file).constData(), nullptr, nullptr, nullptr, &priv.key) != SSH_OK)
            continue; // missing, or locked: the full login below handles it
        const int rc = ssh_userauth_publickey(session, nullptr, priv.key);
        if (rc == SSH_AUTH_SUCCESS)
            return KeyAttempt::Accepted;
        return rc == SSH_AUTH_ERROR ? KeyAttempt::Broken : KeyAttempt::Rejected;
    }
    return KeyAttempt::Rejected;
}

bool tryKeyboardInteractive(ssh_session session, const ConnectOptions &options)
{
    int rc = ssh_userauth_kbdint(session, nullptr, nullptr);
    // A hostile server could ask forever (or thousands of prompts at once): real logins
    // (password, then an OTP) take two or three rounds.
    for (int round = 0; rc == SSH_AUTH_INFO; ++round) {
        const int prompts = ssh_userauth_kbdint_getnprompts(session);
        if (round >= kMaxKbdintRounds || prompts > kMaxKbdintPrompts)
            break;
        for (int i = 0; i < prompts; ++i) {
            char echo = 0;
            const QString prompt = QString::fromUtf8(ssh_userauth_kbdint_getprompt(session, static_cast<unsigned>(i), &echo));
            const std::optional<QString> answer = options.password(prompt.trimmed().isEmpty() ? SshText::tr("Password:") : prompt);
            if (!answer)
                return false; // the user declined
            ssh_userauth_kbdint_setanswer(session, static_cast<unsigned>(i), answer->toUtf8().constData());
        }
        rc = ssh_userauth_kbdint(session, nullptr, nullptr);
    }
    return rc == SSH_AUTH_SUCCESS;
}
} // namespace

Result<void> Session::authenticate(const ConnectOptions &options)
{
    const AuthMethod method = m_target.auth;
    const auto broke = [this] {
        return makeError(ErrorCode::ConnectFailed, SshText::tr("connection to %1 broke during login: %2").arg(m_target.display(), lastLibsshError()));
    };
    // Not before the agent, which Auto tries first when one runs.
    if (method == AuthMethod::Key || (method == AuthMethod::Auto && qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK"))) {
        const KeyAttempt quick = tryUnlockedKeyFirst(m_session, m_target.identityFiles.isEmpty() ? defaultIdentityFiles()
                                                                                                 : m_target.identityFiles);
        if (quick == KeyAttempt::Accepted)
            return {};
        if (quick == KeyAttempt::Broken)
            return broke();
    }
    const int rc = ssh_userauth_none(m_session, nullptr);
    if (rc == SSH_AUTH_SUCCESS)
        return {};
    if (rc == SSH_AUTH_ERROR)
        return broke();
    const int methods = ssh_userauth_list(m_session, nullptr);
    QStringList tried;

    if ((method == AuthMethod::Auto || method == AuthMethod::Agent) && (methods & SSH_AUTH_METHOD_PUBLICKEY)
        && !qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK")) {
        tried << SshText::tr("ssh-agent");
        if (ssh_userauth_agent(m_session, nullptr) == SSH_AUTH_SUCCESS)
            return {};
    }

    if ((method == AuthMethod::Auto || method == AuthMethod::Key) && (methods & SSH_AUTH_METHOD_PUBLICKEY)) {
        const QStringList files = m_target.identityFiles.isEmpty() ? defaultIdentityFiles() : m_target.identityFiles;
        const Result<bool> loggedIn = tryKeyFiles(m_session, files, options, tried);
        if (!loggedIn)
            return loggedIn.error();
        if (*loggedIn)
            return {};
    }

    if ((method == AuthMethod::Auto || method == AuthMethod::Password) && options.password
        && (methods & (SSH_AUTH_METHOD_PASSWORD | SSH_AUTH_METHOD_INTERACTIVE))) {
        if (methods & SSH_AUTH_METHOD_INTERACTIVE) {
            tried << SshText::tr("keyboard-interactive");
            if (tryKeyboardInteractive(m_session, options))
                return {};
        }
        if ((methods & SSH_AUTH_METHOD_PASSWORD) && ssh_is_connected(m_session)) {
            tried << SshText::tr("password");
            if (const std::optional<QString> password = options.password(SshText::tr("Password for %1:").arg(m_target.display()))) {
                if (ssh_userauth_password(m_session, nullptr, password->toUtf8().constData()) == SSH_AUTH_SUCCESS)
                    return {};
            }
        }
    }

    return makeError(ErrorCode::AuthFailed,
                     SshText::tr("authentication failed for %1 (server accepts: %2; tried: %3); give the right key with -i "
                                 "KEYFILE or a password (--password-env VAR in the CLI), or add your public key to "
                                 "~/.ssh/authorized_keys on the machine")
                         .arg(m_target.display(), methodsText(methods),
                              tried.isEmpty() ? SshText::tr("nothing usable") : tried.join(QStringLiteral(", "))));
}

} // namespace gantry::ssh
