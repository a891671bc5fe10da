#include "core/ssh/keygen.h"

#include "core/ssh/knownhosts.h"
#include "core/ssh/sshtext.h"
#include "core/util/paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <libssh/libssh.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gantry::ssh {
namespace {

Result<void> writeNewFile(const QString &path, const QByteArray &data, mode_t mode)
{
    const QByteArray native = QFile::encodeName(path);
    // O_EXCL + explicit mode: the key is never readable by others, whatever the umask says.
    const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0)
        return makeError(errno == EEXIST ? ErrorCode::Conflict : ErrorCode::Io,
                         errno == EEXIST ? SshText::tr("%1 exists already; choose another path or remove it first").arg(path)
                                         : SshText::tr("cannot create %1: %2").arg(path, QString::fromLocal8Bit(strerror(errno))));
    ::fchmod(fd, mode);
    qsizetype written = 0;
    while (written < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + written, static_cast<size_t>(data.size() - written));
        if (n <= 0) {
            ::close(fd);
            ::unlink(native.constData());
            return makeError(ErrorCode::Io, SshText::tr("cannot write %1").arg(path));
        }
        written += n;
    }
    ::close(fd);
    return {};
}

} // namespace

Result<GeneratedKey> generateEd25519Key(const QString &path, const QString &comment, const QString &passphrase,
                                        ExistingKeyFile existing)
{
    const QString pubPath = path + QStringLiteral(".pub");
    if (existing == ExistingKeyFile::Replace) {
        QFile::remove(path);
        QFile::remove(pubPath);
    }
    if (QFileInfo::exists(path) || QFileInfo::exists(pubPath))
        return makeError(ErrorCode::Conflict, SshText::tr("%1 exists already; choose another path or remove it first").arg(path));
    paths::makePrivateDir(QFileInfo(path).absolutePath());
    ssh_key key = nullptr;
    if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key) != SSH_OK)
        return makeError(ErrorCode::Generic, SshText::tr("could not generate an ed25519 key"));
    char *b64priv = nullptr;
    char *b64pub = nullptr;
    const QByteArray pass = passphrase.toUtf8();
    const int rcPriv = ssh_pki_export_privkey_base64(key, passphrase.isEmpty() ? nullptr : pass.constData(), nullptr, nullptr, &b64priv);
    const int rcPub = ssh_pki_export_pubkey_base64(key, &b64pub);
    ssh_key_free(key);
    if (rcPriv != SSH_OK || rcPub != SSH_OK) {
        ssh_string_free_char(b64priv);
        ssh_string_free_char(b64pub);
        return makeError(ErrorCode::Generic, SshText::tr("could not export the new key"));
    }
    QByteArray privData(b64priv);
    if (!privData.endsWith('\n'))
        privData += '\n';
    const QByteArray pubBlob = QByteArray::fromBase64(QByteArray(b64pub));
    const QString publicKey = QStringLiteral("ssh-ed25519 ") + QString::fromLatin1(b64pub)
                              + (comment.isEmpty() ? QString() : QLatin1Char(' ') + comment);
    ssh_string_free_char(b64priv);
    ssh_string_free_char(b64pub);

    if (auto written = writeNewFile(path, privData, 0600); !written)
        return written.error();
    if (auto written = writeNewFile(pubPath, publicKey.toUtf8() + '\n', 0644); !written) {
        QFile::remove(path);
        return written.error();
    }
    return GeneratedKey{path, pubPath, publicKey, sha256Fingerprint(pubBlob)};
}

Result<QString> readPublicKey(const QString &privateKeyPath)
{
    QFile pub(privateKeyPath + QStringLiteral(".pub"));
    if (pub.open(QIODevice::ReadOnly))
        return QString::fromUtf8(pub.readAll()).trimmed();
    ssh_key key = nullptr;
    if (ssh_pki_import_privkey_file(QFile::encodeName(privateKeyPath).constData(), nullptr, nullptr, nullptr, &key) != SSH_OK)
        return makeError(ErrorCode::NotFound, SshText::tr("cannot read the key %1 (missing, encrypted or not a key)").arg(privateKeyPath));
    char *b64 = nullptr;
    ssh_pki_export_pubkey_base64(key, &b64);
    const QString text = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key))) + QLatin1Char(' ') + QString::fromLatin1(b64);
    ssh_string_free_char(b64);
    ssh_key_free(key);
    return text;
}

} // namespace gantry::ssh
