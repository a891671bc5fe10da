// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/handoff/handoff.h"
#include "core/transfer/remoteedit.h"
#include "core/util/canceltoken.h"
#include "core/util/clock.h"

#include <QFileSystemWatcher>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

class QTemporaryDir;

namespace gantry::transfer {
class RemoteFiles;
}

namespace gantry::handoff {

// One remote file edited in a local editor, as WinSCP does it: downloaded into a private folder
// (0700) under the temporary folder, opened in the editor, and uploaded after each save until the
// editor exits (or the user ends the edit, where the editor hands the file to a window that was
// already open and returns at once, or the desktop's default application opened it). A save is
// seen by watching the file and its folder, so editors that write a new file and rename it over
// the old one are followed too. An upload never replaces a change made on the host meanwhile: it
// is reported as a conflict and the local copy is kept. The SFTP work runs through
// transfer::RemoteFiles (a worker, a session of its own); the session itself lives on the owner
// thread (the GUI's, or the CLI's event loop).
class EditSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EditSession)

public:
    enum class Mode
    {
        Window,   // the GUI: $VISUAL/$EDITOR (a terminal editor in a terminal window), else openDefault
        Terminal, // the CLI: $VISUAL/$EDITOR, else a terminal editor, on this terminal
    };
    enum class State
    {
        Opening,   // downloading
        Editing,   // the editor has the file
        Uploading, // a save is on its way
        Ended,
    };
    struct Options
    {
        Mode mode = Mode::Window;
        Desktop desktop = {};
        // The desktop's default application for a file (QDesktopServices in the GUI); false: none.
        std::function<bool(const QString &file)> openDefault = {};
        const Clock *clock = nullptr;   // Clock::system() when null
        QString tempRoot = {};          // QDir::tempPath() when empty
        int settleMs = 250;             // how long a save's burst of file events settles
    };

    // An editor that returns sooner than this handed the file to a window already open.
    static constexpr qint64 kHandOverMs = 2000;

    EditSession(transfer::RemoteFiles *files, QString host, QString remotePath, Options options, QObject *parent = nullptr);
    ~EditSession() override;

    void start();
    // Ends the edit: the last save is uploaded first; the editor is left open.
    void end();

    QString host() const { return m_host; }
    QString remotePath() const { return m_remotePath; }
    QString localFile() const { return m_localFile; }
    QString localFolder() const;
    State state() const { return m_state; }
    int uploads() const { return m_uploads; }
    bool hasConflict() const { return !m_conflict.isEmpty(); }
    // True while the edit goes on until the user ends it (no editor process to wait for).
    bool waitsForUser() const { return m_waitsForUser; }
    // One line for a status bar or a menu.
    QString statusText() const;

signals:
    void opened(const QString &editor);      // the editor was started (its name, or the default application)
    void uploaded(int uploads);
    void conflict(const QString &message);   // the host's file changed: not overwritten, local copy kept
    void failed(const QString &message);     // a step failed (the edit goes on where it can)
    void notice(const QString &message);     // what the user should know (the editor returned at once)
    void changed();
    void ended(const QString &summary);

private:
    void fetched(Result<transfer::EditStamp> stamp);
    void launchEditor();
    void startProcess(const QString &program, const QStringList &arguments, bool sharesTerminal);
    void editorExited(int code, QProcess::ExitStatus status);
    void localEvent();
    void upload();
    void stored(Result<transfer::EditStamp> stamp);
    void finishAfterLastSave();
    void finish();
    bool localChanged() const;
    void setState(State state);

    transfer::RemoteFiles *m_files;
    QString m_host;
    QString m_remotePath;
    Options m_options;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_localFile;
    State m_state = State::Opening;
    transfer::EditStamp m_stamp;
    qint64 m_localSize = -1;     // the local file as last uploaded or downloaded
    qint64 m_localMtimeMs = -1;
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    QPointer<QProcess> m_editor;
    qint64 m_editorStartedMs = 0;
    bool m_waitsForUser = false;
    bool m_uploading = false;
    bool m_again = false;      // a save came while an upload was on its way
    bool m_ending = false;
    bool m_unsent = false;     // the last upload failed: the local copy is kept
    QString m_conflict;
    int m_uploads = 0;
    std::optional<CancelToken> m_inFlight;
};

// The edits of a run (the application core owns them for the GUI): one per file and machine.
class EditSessions final : public QObject
{
    Q_OBJECT

public:
    explicit EditSessions(transfer::RemoteFiles *files, QObject *parent = nullptr);

    // Starts editing host:path, or returns the edit of it that is still going on.
    EditSession *edit(const QString &host, const QString &remotePath, EditSession::Options options);
    QList<EditSession *> sessions() const;

signals:
    void started(gantry::handoff::EditSession *session);
    void changed(); // a session started, changed state, or ended
    void sessionEnded(const QString &summary);

private:
    transfer::RemoteFiles *m_files;
    QList<QPointer<EditSession>> m_sessions;
};

} // namespace gantry::handoff
