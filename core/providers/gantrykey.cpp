#include "providers/gantrykey.h"

#include "util/paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

namespace gantry::providers {

QString gantryKeyPath(const QString &configDir)
{
    return QDir(configDir).absoluteFilePath(QStringLiteral("keys/gantry_ed25519"));
}

Result<void> generateKeyPair(const QString &privateKeyPath, const QString &comment)
{
    const QFileInfo info(privateKeyPath);
    if (!paths::makePrivateDir(info.absolutePath())) {
        return Error{ErrorCode::Io, QCoreApplication::translate("gantry::providers", "Cannot create %1.")
                                        .arg(info.absolutePath())};
    }
    QFile::remove(privateKeyPath);
    QFile::remove(privateKeyPath + QStringLiteral(".pub"));
    QProcess keygen;
    keygen.start(QStringLiteral("ssh-keygen"),
                 {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                  QString(), QStringLiteral("-C"), comment, QStringLiteral("-f"), privateKeyPath});
    if (!keygen.waitForFinished(30000) || keygen.exitStatus() != QProcess::NormalExit || keygen.exitCode() != 0) {
        return Error{ErrorCode::Io,
                     QCoreApplication::translate("gantry::providers", "ssh-keygen could not create %1: %2 "
                                                                      "(is openssh-client installed?)")
                         .arg(privateKeyPath, QString::fromLocal8Bit(keygen.readAllStandardError()).trimmed()
                                                  + keygen.errorString())};
    }
    QFile::setPermissions(privateKeyPath, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
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
    QFile file(privateKeyPath + QStringLiteral(".pub"));
    if (!file.open(QIODevice::ReadOnly)) {
        return Error{ErrorCode::NotFound, QCoreApplication::translate("gantry::providers", "Cannot read %1: %2")
                                              .arg(file.fileName(), file.errorString())};
    }
    return QString::fromUtf8(file.readAll()).trimmed();
}

} // namespace gantry::providers
