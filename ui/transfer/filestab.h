#pragma once

#include "common/detailtab.h"
#include "remotefilesview.h"
#include "transfer/sftpclient.h"
#include "transfer/transferqueue.h"

#include <QPointer>

#include <functional>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTreeView;

namespace gantry::ui {

class DragOutStaging;
class RemoteDirModel;

// The Files tab: browse the machine's files over SFTP (on the machine's own connection thread),
// create folders, rename, delete (after confirmation), download the selection, and upload what
// is dropped from the desktop (files or folders) into the folder shown; files and folders dragged
// out to the desktop are downloaded through a staging folder (DragOutStaging). Uploads and
// downloads go through the shared TransferQueue, so they show in the transfers panel and survive
// restarts.
class FilesTab final : public DetailTab
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FilesTab)

public:
    FilesTab(const AppContext &context, transfer::TransferQueue *queue, QWidget *parent = nullptr);

    QString title() const override { return tr("Files"); }
    void setMachine(const SavedHost &host, ssh::Connection *connection) override;
    void clearMachine() override;

    QString currentPath() const;
    RemoteDirModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    QString statusText() const;

    // What a drop does; returns the queue ids.
    QList<quint64> uploadLocalPaths(const QStringList &localPaths);
    QList<quint64> downloadSelected(const QString &localDir);
    // What a drag out of the list starts: the selection downloading into a new staging folder
    // under dragStagingRoot(). The caller (the drag) owns the result.
    DragOutStaging *stageSelectionForDrag();
    QString dragStagingRoot() const { return m_dragStagingRoot; }
    void setDragStagingRoot(const QString &root) { m_dragStagingRoot = root; }

    // Seams for tests (and scripted use): the questions the tab would otherwise ask in dialogs.
    void setConfirmer(std::function<bool(const QString &question)> confirm) { m_confirm = std::move(confirm); }
    void setTextAsker(std::function<QString(const QString &label, const QString &initial)> ask) { m_ask = std::move(ask); }

public slots:
    void navigate(const QString &path);
    void refresh();
    void goUp();
    void makeFolder();
    void renameSelected();
    void deleteSelected();
    void downloadSelectedInteractive();

signals:
    void listed(const QString &path);
    void operationFailed(const QString &message);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    using Job = std::function<Result<QList<transfer::SftpEntry>>(transfer::SftpClient &, ssh::Session &)>;
    void runJob(const QString &path, Job job);
    QStringList selectedNames() const;
    void setStatus(const QString &text);
    void dragOut();

    AppContext m_context;
    transfer::TransferQueue *m_queue;
    SavedHost m_host;
    QPointer<ssh::Connection> m_connection;
    RemoteDirModel *m_model;
    QSortFilterProxyModel *m_proxy;
    RemoteFilesView *m_view;
    QLineEdit *m_pathEdit;
    QLabel *m_status;
    QList<QPushButton *> m_buttons;
    std::function<bool(const QString &)> m_confirm;
    std::function<QString(const QString &, const QString &)> m_ask;
    quint64 m_generation = 0; // drops stale listings
    QString m_dragStagingRoot;
};

} // namespace gantry::ui
