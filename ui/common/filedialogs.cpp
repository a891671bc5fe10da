// SPDX-License-Identifier: Apache-2.0
#include "ui/common/filedialogs.h"

#include "core/util/paths.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

#include <memory>

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
const QString kLastDownloadFolder = QStringLiteral("dialogs/lastDownloadFolder");

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

QString FileDialogs::downloadStartFolder()
{
    const QString last = windowSettings().value(kLastDownloadFolder).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
    const QString downloads = QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
    if (!downloads.isEmpty() && QFileInfo(downloads).isDir()) return downloads;
    return QDir::homePath();
}

QFileDialog *FileDialogs::downloadFolderDialog(QWidget *parent, const QString &caption)
{
    auto *dialog = new QFileDialog(parent, caption, downloadStartFolder());
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    return dialog;
}

QString FileDialogs::downloadFolder(QWidget *parent, const QString &caption)
{
    std::unique_ptr<QFileDialog> dialog(downloadFolderDialog(parent, caption));
    if (dialog->exec() != QDialog::Accepted || dialog->selectedFiles().isEmpty()) return {};
    const QString folder = dialog->selectedFiles().constFirst();
    remember(folder);
    windowSettings().setValue(kLastDownloadFolder, folder);
    return folder;
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
