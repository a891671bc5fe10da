// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QWidget>

class QFileSystemModel;
class QLineEdit;
class QPushButton;
class QTreeView;

namespace gantry::ui {

// The Files tab's local side, as FileZilla's and WinSCP's left pane: a folder of this computer
// whose subfolders open in place (tree and list in one), a path field and Up. Files dragged from
// it onto the machine's list upload; the machine's files dragged onto it download into the
// folder it shows, or the subfolder dropped on (downloadRequested: the tab queues them). Its
// model only reads: a drop never moves or deletes a local file.
class LocalFilesPane final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LocalFilesPane)

public:
    explicit LocalFilesPane(QWidget *parent = nullptr);

    void setFolder(const QString &path);
    QString folder() const;
    QTreeView *view() const { return m_view; }
    QFileSystemModel *model() const { return m_model; }
    // The folder a drop at pos (the view's viewport coordinates) goes into.
    QString dropFolderAt(const QPoint &pos) const;

signals:
    void folderChanged(const QString &path);
    // The machine's selection was dropped here: download it into localDir.
    void downloadRequested(const QString &localDir);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QFileSystemModel *m_model;
    QTreeView *m_view;
    QLineEdit *m_path;
    QPushButton *m_up;
};

} // namespace gantry::ui
