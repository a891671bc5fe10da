#include "util/paths.h"

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
    if (QCoreApplication::instance()) {
        const QString appDir = QCoreApplication::applicationDirPath();
        const QStringList candidates{appDir + QStringLiteral("/../share/gantry"), appDir + QStringLiteral("/resources")};
        for (const QString &candidate : candidates) {
            if (QFileInfo::exists(candidate + QStringLiteral("/gpu-specs.json")))
                return QDir(candidate).absolutePath();
        }
    }
    return QStringLiteral(GANTRY_RESOURCES_DIR);
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
