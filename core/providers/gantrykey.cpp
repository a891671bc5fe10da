#include "providers/gantrykey.h"

#include "ssh/keygen.h"

#include <QDir>
#include <QFileInfo>

namespace gantry::providers {

QString gantryKeyPath(const QString &configDir)
{
    return QDir(configDir).absoluteFilePath(QStringLiteral("keys/gantry_ed25519"));
}

Result<void> generateKeyPair(const QString &privateKeyPath, const QString &comment)
{
    // The one generator (core/ssh/keygen), replacing on purpose: these pairs are Gantry's own.
    Result<ssh::GeneratedKey> made =
        ssh::generateEd25519Key(privateKeyPath, comment, QString(), ssh::ExistingKeyFile::Replace);
    if (!made)
        return made.error();
    return {};
}

Result<QString> ensureGantryKey(const QString &configDir)
{
    const QString path = gantryKeyPath(configDir);
    if (QFileInfo::exists(path) && QFileInfo::exists(path + QStringLiteral(".pub")))
        return path;
    Result<void> made = generateKeyPair(path, QStringLiteral("gantry"));
    if (!made)
        return made.error();
    return path;
}

Result<QString> readPublicKey(const QString &privateKeyPath)
{
    return ssh::readPublicKey(privateKeyPath);
}

} // namespace gantry::providers
