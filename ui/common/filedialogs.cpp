// SPDX-License-Identifier: Apache-2.0
#include "ui/common/filedialogs.h"

#include "core/util/paths.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace gantry::ui {
namespace {

QString &configDirSetting()
{
    static QString dir;
    return dir;
}

QSettings windowSettings()
{
    const QString dir = configDirSetting().isEmpty() ? paths::configDir() : configDirSetting();
    return QSettings(QDir(dir).filePath(QStringLiteral("window.ini")), QSettings::IniFormat);
}

const QString kLastFolder = QStringLiteral("dialogs/lastFolder");

} // namespace

void FileDialogs::setConfigDir(const QString &configDir)
{
    configDirSetting() = configDir;
}

QString FileDialogs::startFolder()
{
    const QString last = windowSettings().value(kLastFolder).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::homePath();
}

void FileDialogs::remember(const QString &path)
{
    if (path.isEmpty())
        return;
    const QFileInfo info(path);
    windowSettings().setValue(kLastFolder, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QStringList FileDialogs::openFiles(QWidget *parent, const QString &caption)
{
    const QStringList files = QFileDialog::getOpenFileNames(parent, caption, startFolder());
    if (!files.isEmpty())
        remember(files.first());
    return files;
}

QString FileDialogs::existingFolder(QWidget *parent, const QString &caption)
{
    const QString folder = QFileDialog::getExistingDirectory(parent, caption, startFolder());
    remember(folder);
    return folder;
}

QString FileDialogs::saveFile(QWidget *parent, const QString &caption, const QString &fileName, const QString &filter)
{
    const QString path = QFileDialog::getSaveFileName(parent, caption, QDir(startFolder()).filePath(fileName), filter);
    remember(path);
    return path;
}

} // namespace gantry::ui
