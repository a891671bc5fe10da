#include "core/util/paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace gantry::paths {

QString configDir(const QString &explicitDir)
{
    QString dir = explicitDir;
    if (dir.isEmpty())
        dir = qEnvironmentVariable("GANTRY_CONFIG_DIR");
    if (dir.isEmpty()) {
        const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
        dir = (base.isEmpty() ? QDir::homePath() + QStringLiteral("/.config") : base) + QStringLiteral("/gantry");
    }
    dir = QDir(dir).absolutePath();
    makePrivateDir(dir);
    return dir;
}

QString cacheDir(const QString &configDir)
{
    const QString dir = configDir + QStringLiteral("/cache");
    QDir().mkpath(dir);
    return dir;
}

QString resourcesDir()
{
    if (!QCoreApplication::instance())
        return {};
    const QString candidate = QCoreApplication::applicationDirPath() + QStringLiteral("/" GANTRY_BIN_TO_DATA);
    // The directory alone is not enough: /usr/local/share/gantry may be left over from another install.
    if (!QFileInfo::exists(candidate + QStringLiteral("/gpu-specs.json")))
        return {};
    return QDir(candidate).absolutePath();
}

QString libexecDir()
{
    if (!QCoreApplication::instance())
        return {};
    return QDir(QCoreApplication::applicationDirPath() + QStringLiteral("/" GANTRY_BIN_TO_LIBEXEC)).absolutePath();
}

QString translationsDir()
{
    const QString data = resourcesDir();
    return data.isEmpty() ? QString() : data + QStringLiteral("/translations");
}

QString userSshDir()
{
    return QDir::homePath() + QStringLiteral("/.ssh");
}

bool makePrivateDir(const QString &dir)
{
    if (QFileInfo(dir).isDir())
        return true;
    if (!QDir().mkpath(dir))
        return false;
    return QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

} // namespace gantry::paths
