#include "core/providers/gantrykey.h"

#include "core/providers/provider.h"
#include "core/ssh/keygen.h"

#include <QDir>
#include <QFileInfo>
#include <QHostInfo>

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

QString gantryKeyName()
{
    return QStringLiteral("gantry-%1").arg(QHostInfo::localHostName().left(40));
}

void uploadGantryKey(Provider *provider, const QString &configDir, std::function<void(Result<QString>)> done)
{
    Result<QString> keyPath = ensureGantryKey(configDir);
    Result<QString> publicKey = keyPath ? readPublicKey(*keyPath) : Result<QString>(keyPath.error());
    if (!publicKey)
        return done(publicKey.error());
    const QString keyName = gantryKeyName();
    provider->addSshKey(keyName, *publicKey, [done = std::move(done), keyName](Result<SshKey> key) {
        // A second upload under the same name is refused as a duplicate; the key there is ours.
        if (!key && !key.error().message.contains(QStringLiteral("duplicate"), Qt::CaseInsensitive)
            && !key.error().message.contains(QStringLiteral("already exists"), Qt::CaseInsensitive))
            return done(key.error());
        done(keyName);
    });
}

} // namespace gantry::providers
