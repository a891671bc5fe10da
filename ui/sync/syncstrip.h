#pragma once

#include <QWidget>

class QVBoxLayout;

namespace gantry::sync {
class SyncService;
}

namespace gantry::ui {


// The Files tab's line per remembered folder pair of the shown machine: where it syncs, the
// "Keep in sync" toggle with the watch's state (syncing, in sync at hh:mm, failed: why), and
// "Sync now…" to open the dialog for it. Hidden when the machine has no pairs.
class SyncStrip final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SyncStrip)

public:
    explicit SyncStrip(sync::SyncService *service, QWidget *parent = nullptr);

    void setHost(const QString &host);
    // What each row's state says, top to bottom (tests and accessibility).
    QStringList stateTexts() const;

signals:
    // "Sync now…" on a row: the dialog for that pair.
    void openRequested(const QString &localDir, const QString &remoteDir);

private:
    void rebuild();
    void refreshStates();

    sync::SyncService *m_service;
    QString m_host;
    QVBoxLayout *m_rows;
};

} // namespace gantry::ui
