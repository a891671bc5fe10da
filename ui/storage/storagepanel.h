// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/canceltoken.h"
#include "ui/storage/storagecopies.h"

#include <QTabWidget>
#include <QUrl>

class QLabel;
class QPushButton;
class QDialog;
class QTableView;

namespace gantry {
class HostStore;
}

namespace gantry::ui {

class AddBucketDialog;
class BucketBrowser;
class BucketTableModel;
class CopyOperations;

// The Storage panel: a tab per kind of storage. Its "Buckets" page lists the configured S3
// buckets (Add bucket…, Remove) over a browser of the selected one and the copies started from it.
// More pages come with addSection(). Views over workspace::AppCore::buckets(): every read and
// write of storage.json and the keychain runs on a worker.
class StoragePanel final : public QTabWidget
{
    Q_OBJECT

public:
    // `copies`: the application's copies (the Transfers queue shows them too); none: the panel's own.
    explicit StoragePanel(storage::Buckets *buckets, storage::CopyJobs *copies = nullptr, QWidget *parent = nullptr);

    // Another page after Buckets (the panel takes the widget).
    int addSection(const QString &title, QWidget *widget);
    // Copy to machine…'s machines and their sessions.
    void setMachines(HostStore *hosts, storagecopies::SessionSource sessions);

    void reload();
    // Opens Add bucket (window-modal, not blocking); the dialog is returned for tests.
    AddBucketDialog *openAddBucket();
    void removeSelected();
    void selectBucket(const QString &name);
    // Objects dragged from the browser and dropped on a machine (the Machines list): Copy to machine…
    // for that machine.
    void copyDroppedObjects(const QString &host, const QList<QUrl> &urls);
    // Files of one machine dropped on another (the Files tab's drag onto the Machines list): asks
    // for the folder on the target, then copies straight between the machines under a row of
    // copies(). The dialog is returned for tests (nullptr: nothing to copy).
    QDialog *copyBetweenMachines(const QString &targetHost, const QString &sourceHost, const QStringList &paths);

    BucketTableModel *bucketModel() const { return m_model; }
    QTableView *bucketView() const { return m_view; }
    BucketBrowser *browser() const { return m_browser; }
    CopyOperations *copies() const { return m_copies; }
    QString statusText() const;

signals:
    // The list was read (after reload(), an add or a remove).
    void bucketsLoaded();

private:
    QWidget *buildBucketsPage(storage::CopyJobs *copies);
    void showStatus(const QString &text, bool error);
    void selectionChanged();

    storage::Buckets *m_buckets;
    BucketTableModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    BucketBrowser *m_browser = nullptr;
    CopyOperations *m_copies = nullptr;
    storagecopies::SessionSource m_sessions;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_status = nullptr;
    QString m_wanted; // the bucket to select once the list is in
    CancelToken m_loading;
};

} // namespace gantry::ui
