#pragma once

#include "core/sync/syncengine.h"
#include "core/sync/syncpairs.h"

#include <QDialog>

#include "core/util/canceltoken.h"

#include <memory>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace gantry::sync {
class SyncService;
}

namespace gantry::ui {


// "Sync a local folder here…": the user picks a local folder, sees what a sync would do (new,
// changed and to-delete files with sizes: the plan of `gantry-cli sync --dry-run`, computed by
// SyncEngine on a worker thread), and starts it with progress and Cancel. The pair is then
// remembered for the machine, and "Keep in sync" hands it to SyncService's watch.
class SyncDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SyncDialog)

public:
    // Preview rows: what the Change column says, by kind.
    enum Change
    {
        NewFile,
        ChangedFile,
        DeletedFile,
    };

    // baseRemoteDir: the folder shown in the Files tab; a chosen local folder goes into a folder of
    // its name there (as "Upload folder…" does) unless the user edits the remote folder.
    SyncDialog(sync::SyncService *service, QString host, QString baseRemoteDir, QWidget *parent = nullptr);
    ~SyncDialog() override; // cancels a running sync and waits for its thread

    // Seam for tests: the folder chooser (empty: nothing chosen).
    void setFolderChooser(std::function<QString()> choose) { m_choose = std::move(choose); }
    void setLocalDir(const QString &dir);
    void setRemoteDir(const QString &dir);
    void setDeleteGone(bool on);
    void setKeepInSync(bool on);

    QTreeWidget *previewList() const { return m_list; }
    QString summaryText() const;
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *startButton() const { return m_start; }
    bool isRunning() const { return m_running; }
    QString remoteDir() const;

    // Opens a dialog (deleted when closed) for the machine; localDir/remoteDir preset a pair.
    static SyncDialog *open(sync::SyncService *service, const QString &host, const QString &baseRemoteDir, QWidget *parent,
                            const QString &localDir = {}, const QString &remoteDir = {});

public slots:
    void preview();
    void start();
    void cancelRun();
    void reject() override; // while a sync runs: stops it first (Close, Escape, the title bar's ×)

signals:
    void previewReady();
    void finished(bool ok); // a real (not dry) run ended

private:
    std::optional<sync::SyncPair> pairFromFields();
    void run(const sync::SyncPair &pair, bool dryRun);
    void onEvent(const sync::SyncEvent &e);
    void onEnded(const Result<void> &result, bool dryRun, const sync::SyncPair &pair);
    void addRow(Change change, const QByteArray &path, quint64 bytes);
    void setRunning(bool running);
    void chooseFolder();

    sync::SyncService *m_service;
    QString m_host;
    QString m_baseRemote;
    bool m_remoteEdited = false;
    QLineEdit *m_local;
    QLineEdit *m_remote;
    QCheckBox *m_delete;
    QCheckBox *m_keep;
    QLabel *m_summary;
    QTreeWidget *m_list;
    QProgressBar *m_progress;
    QPushButton *m_previewButton;
    QPushButton *m_start;
    QPushButton *m_close;
    std::function<QString()> m_choose;
    bool m_running = false;
    CancelToken m_cancel;
    int m_planned = 0;
    int m_doneFiles = 0; // sent and deleted
    int m_sentFiles = 0;
    quint64 m_sentBytes = 0;
};

} // namespace gantry::ui
