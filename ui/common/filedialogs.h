// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QStringList>

class QFileDialog;
class QWidget;

namespace gantry::ui {

// Gantry's file dialogs open in the folder the user last chose in any of them (kept in
// <configDir>/window.ini), else in the home folder — never in the process's working directory,
// which for a desktop launcher is / or wherever the session started.
class FileDialogs final
{
public:
    static QStringList openFiles(QWidget *parent, const QString &caption);
    static QString existingFolder(QWidget *parent, const QString &caption);
    // `fileName` is a suggested name ("gantry-cost.csv"), placed in the start folder.
    static QString saveFile(QWidget *parent, const QString &caption, const QString &fileName, const QString &filter = {});

    // Where downloads go: a folder chooser that opens in downloadStartFolder(), an existing folder,
    // so its Choose button takes it as it is.
    static QString downloadFolder(QWidget *parent, const QString &caption);
    // The chooser itself, not yet shown (the caller owns it; tests look at it).
    static QFileDialog *downloadFolderDialog(QWidget *parent, const QString &caption);
    // The folder downloads went to last, while it exists; else the desktop's Downloads folder
    // (XDG_DOWNLOAD_DIR) when it exists; else the home folder.
    static QString downloadStartFolder();

    // The folder the next dialog opens in.
    static QString startFolder();
    // Remembers the folder of `path` (itself when it is a folder).
    static void remember(const QString &path);
    // The window's config dir (`gantry --config-dir`); paths::configDir() until it is set.
    static void setConfigDir(const QString &configDir);
};

} // namespace gantry::ui
