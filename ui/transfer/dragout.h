#pragma once

#include "core/transfer/transferqueue.h"

#include <QMimeData>
#include <QPointer>
#include <QUrl>

class QWidget;

namespace gantry::ui {

// Dragging remote files out to the desktop. X11/Wayland drags carry local file URLs, and the
// drop target copies from them, so the files are downloaded (through the shared queue, so they
// show in the transfers panel) into a staging folder as soon as the drag starts; by the time the
// user lets go, small files are already there. The file URLs are handed over only when the target
// asks for them, after the downloads finished; a cancelled drag cancels the downloads.
class DragOutStaging final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DragOutStaging)

public:
    DragOutStaging(transfer::TransferQueue *queue, QString host, QStringList remotePaths, QString stagingDir,
                   QObject *parent = nullptr);

    // Staging folders live under root/<timestamp>; those older than maxAgeHours are removed.
    static QString newStagingDir(const QString &root);
    static int removeStale(const QString &root, int maxAgeHours = 24);

    void start();
    // Waits (the event loop keeps turning) until every download finished, showing a cancellable
    // progress dialog over progressParent after a moment when one is given. The local URLs of
    // the staged files, or why they are not there.
    Result<QList<QUrl>> waitForFiles(QWidget *progressParent, int timeoutMs = -1);
    void cancel();

    bool isFinished() const;
    QList<QUrl> urls() const;
    const QList<quint64> &ids() const { return m_ids; }
    const QString &stagingDir() const { return m_stagingDir; }
    const QString &host() const { return m_host; }
    const QStringList &remotePaths() const { return m_remotePaths; }

signals:
    void finished();

private:
    Result<QList<QUrl>> outcome() const;

    QPointer<transfer::TransferQueue> m_queue;
    QString m_host;
    QStringList m_remotePaths;
    QString m_stagingDir;
    QList<quint64> m_ids;
    bool m_cancelled = false;
};

// Advertises text/uri-list and produces it on request from the staging downloads.
class DragOutMimeData final : public QMimeData
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DragOutMimeData)

public:
    DragOutMimeData(DragOutStaging *staging, QWidget *progressParent);

    QStringList formats() const override;
    bool hasFormat(const QString &mimeType) const override;
    DragOutStaging *staging() const { return m_staging; }
    // A drop on another machine took the machine's paths (and so needs none of the local copies).
    // Set when that format is read: X11 targets may read the files only after exec() returned.
    bool machinePathsTaken() const { return m_machinePathsTaken; }

protected:
    QVariant retrieveData(const QString &mimeType, QMetaType type) const override;

private:
    QPointer<DragOutStaging> m_staging;
    QPointer<QWidget> m_progressParent;
    mutable bool m_failureShown = false;
    mutable bool m_machinePathsTaken = false;
};

} // namespace gantry::ui
