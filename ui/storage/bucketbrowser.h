// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/canceltoken.h"
#include "ui/storage/storagecopies.h"

#include <QUrl>
#include <QWidget>

class QDialog;
class QLabel;
class QPushButton;
class QToolButton;
class QTreeView;

namespace gantry {
class HostStore;
}

namespace gantry::ui {

class CopyOperations;
class ObjectSortProxy;
class ObjectTableModel;

// One bucket's objects a level at a time: a path bar (each part a link, Up), the folders and
// objects with their size and time, Refresh, and the copies: Download to this computer…, Copy to
// machine… (a saved host and folder; the machine fetches the objects itself) and Upload from this
// computer…. Listings and copies run on workers; copies show in the CopyOperations given.
class BucketBrowser final : public QWidget
{
    Q_OBJECT

public:
    BucketBrowser(storage::Buckets *buckets, CopyOperations *copies, QWidget *parent = nullptr);

    // Where Copy to machine… finds the machines and their sessions (none: the action is off).
    void setMachines(HostStore *hosts, storagecopies::SessionSource sessions);

    // Shows the bucket's top level ("" shows nothing).
    void setBucket(const QString &name);
    QString bucket() const { return m_bucket; }
    QString prefix() const { return m_prefix; }
    void openPrefix(const QString &prefix);
    void refresh();
    ObjectTableModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    QString statusText() const;

    // The copies behind the buttons, after their dialogs (tests call them directly).
    QList<storagecopies::Pick> selectedPicks() const;
    void downloadSelectedTo(const QString &folder);
    void copySelectedToMachine(const QString &host, const QString &folder);
    void copyToMachine(const QList<storagecopies::Pick> &picks, const QString &host, const QString &folder);
    void uploadFiles(const QStringList &files);
    // Copy to machine… for objects dragged from this bucket onto `host` (asks for the folder).
    // URLs of another bucket are ignored; returns the dialog (tests), or nullptr when none applied.
    QDialog *copyDroppedToMachine(const QString &host, const QList<QUrl> &urls);

signals:
    // A listing arrived (or failed: statusText() says why).
    void listed();

private:
    void buildActions();
    void showPath();
    void showStatus(const QString &text, bool error);
    void updateActions();
    void activated(const QModelIndex &index);
    void askDownload();
    void askCopyToMachine();
    QDialog *askCopyToMachine(const QString &host, const QList<storagecopies::Pick> &picks);
    void askUpload();

    storage::Buckets *m_buckets;
    CopyOperations *m_copies;
    HostStore *m_hosts = nullptr;
    storagecopies::SessionSource m_sessions;
    QString m_bucket;
    QString m_prefix;
    ObjectTableModel *m_model = nullptr;
    ObjectSortProxy *m_proxy = nullptr;
    QTreeView *m_view = nullptr;
    QToolButton *m_up = nullptr;
    QLabel *m_path = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_refresh = nullptr;
    QPushButton *m_download = nullptr;
    QPushButton *m_toMachine = nullptr;
    QPushButton *m_upload = nullptr;
    CancelToken m_listing;
};

} // namespace gantry::ui
