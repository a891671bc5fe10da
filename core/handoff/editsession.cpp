// SPDX-License-Identifier: Apache-2.0
#include "core/handoff/editsession.h"
#include "core/handoff/editor.h"
#include "core/handoff/handofftext.h"

#include "core/transfer/remotefiles.h"
#include "core/util/printable.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

namespace gantry::handoff {

namespace {

// A local name for the remote file: its own name (editors pick the syntax by it), never a path.
QString localName(const QString &remotePath)
{
    QString name = remotePath.section(u'/', -1);
    if (name.isEmpty() || name == u"." || name == u"..")
        name = QStringLiteral("file");
    return name;
}

} // namespace

EditSession::EditSession(transfer::RemoteFiles *files, QString host, QString remotePath, Options options, QObject *parent)
    : QObject(parent)
    , m_files(files)
    , m_host(std::move(host))
    , m_remotePath(std::move(remotePath))
    , m_options(std::move(options))
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(m_options.settleMs);
    connect(&m_settle, &QTimer::timeout, this, &EditSession::upload);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &EditSession::localEvent);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &EditSession::localEvent);
}

EditSession::~EditSession()
{
    if (m_inFlight)
        m_inFlight->cancel();
    // ~QProcess would kill the editor, and with it unsaved work: it is let go instead (the object is
    // left behind on purpose; the session, and usually the application, is ending).
    if (m_editor && m_editor->state() != QProcess::NotRunning) {
        m_editor->disconnect(this);
        m_editor->setParent(nullptr);
    }
}

QString EditSession::localFolder() const
{
    return m_dir ? m_dir->path() : QString();
}

void EditSession::start()
{
    const QString root = m_options.tempRoot.isEmpty() ? QDir::tempPath() : m_options.tempRoot;
    // mkdtemp: a folder only this user can enter, whatever the umask.
    m_dir = std::make_unique<QTemporaryDir>(QDir(root).filePath(QStringLiteral("gantry-edit-XXXXXX")));
    m_dir->setAutoRemove(false);
    if (!m_dir->isValid()) {
        emit failed(HandoffText::tr("Cannot create a private folder in %1: %2.").arg(root, m_dir->errorString()));
        finish();
        return;
    }
    QFile::setPermissions(m_dir->path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    m_localFile = QDir(m_dir->path()).filePath(localName(m_remotePath));
    m_inFlight = m_files->fetchForEdit(m_host, m_remotePath, m_localFile, this,
                                       [this](Result<transfer::EditStamp> stamp) { fetched(std::move(stamp)); });
}

void EditSession::fetched(Result<transfer::EditStamp> stamp)
{
    m_inFlight.reset();
    if (!stamp) {
        emit failed(stamp.error().message);
        finish();
        return;
    }
    m_stamp = *stamp;
    const QFileInfo info(m_localFile);
    m_localSize = info.size();
    m_localMtimeMs = info.lastModified().toMSecsSinceEpoch();
    m_watcher.addPath(m_localFile);
    m_watcher.addPath(m_dir->path());
    setState(State::Editing);
    launchEditor();
}

void EditSession::startProcess(const QString &program, const QStringList &arguments, bool sharesTerminal)
{
    auto *editor = new QProcess(this);
    if (sharesTerminal) {
        // The editor reads the keyboard and draws on this terminal, as `git commit` runs it.
        editor->setInputChannelMode(QProcess::ForwardedInputChannel);
        editor->setProcessChannelMode(QProcess::ForwardedChannels);
    } else {
        editor->setStandardInputFile(QProcess::nullDevice());
        editor->setStandardOutputFile(QProcess::nullDevice());
        editor->setStandardErrorFile(QProcess::nullDevice());
    }
    editor->setProcessEnvironment(m_options.desktop.env);
    connect(editor, &QProcess::started, this, [this, program] {
        m_editorStartedMs = (m_options.clock ? *m_options.clock : Clock::system()).monotonicMs();
        emit opened(QFileInfo(program).fileName());
    });
    connect(editor, &QProcess::errorOccurred, this, [this, editor, program](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        emit failed(HandoffText::tr("Could not start the editor %1: %2. Set $VISUAL or $EDITOR to an editor that is "
                                    "installed.").arg(program, editor->errorString()));
        editor->deleteLater();
        finish();
    });
    connect(editor, &QProcess::finished, this, &EditSession::editorExited);
    m_editor = editor;
    editor->start(program, arguments); // answers through the signals above: nothing waits here
}

void EditSession::launchEditor()
{
    const Desktop &desktop = m_options.desktop;
    std::optional<EditorCommand> editor = editorFromEnvironment(desktop);
    if (m_options.mode == Mode::Terminal) {
        if (!editor)
            editor = fallbackTerminalEditor(desktop);
        if (!editor) {
            emit failed(HandoffText::tr("No editor found: set $VISUAL or $EDITOR (nano, vi and editor are not "
                                        "installed either)."));
            finish();
        } else {
            startProcess(editor->program, editor->arguments + QStringList{m_localFile}, true);
        }
        return;
    }
    if (editor) {
        if (const auto windowed = windowedEditor(*editor, m_localFile, desktop)) {
            startProcess(windowed->program, windowed->arguments, false);
            return;
        }
    }
    // The desktop's default application: no process to follow, so the user ends the edit.
    if (m_options.openDefault && m_options.openDefault(m_localFile)) {
        m_waitsForUser = true;
        emit opened(HandoffText::tr("the default application"));
        emit changed();
        return;
    }
    emit failed(HandoffText::tr("No application opens %1: set $VISUAL or $EDITOR, or choose a default application for "
                                "text files.").arg(localName(m_remotePath)));
    finish();
}

void EditSession::editorExited(int code, QProcess::ExitStatus status)
{
    if (m_editor)
        m_editor->deleteLater();
    m_editor = nullptr;
    if (m_state == State::Ended || m_ending)
        return;
    const qint64 ran = (m_options.clock ? *m_options.clock : Clock::system()).monotonicMs() - m_editorStartedMs;
    if (status == QProcess::NormalExit && code == 0 && ran < kHandOverMs && m_options.mode == Mode::Window) {
        // It handed the file to a window that was already open: watch until the user ends the edit.
        m_waitsForUser = true;
        emit notice(HandoffText::tr("The editor returned at once (it opened %1 in a window that was already open). Each "
                                    "save is uploaded until you end the edit.").arg(localName(m_remotePath)));
        emit changed();
        return;
    }
    if (status != QProcess::NormalExit || code != 0)
        emit notice(HandoffText::tr("The editor ended with status %1.").arg(status == QProcess::NormalExit ? code : -1));
    finishAfterLastSave();
}

void EditSession::localEvent()
{
    if (m_state == State::Ended)
        return;
    // An editor that wrote a new file and renamed it over the old one: the watch follows the new one.
    if (!m_watcher.files().contains(m_localFile) && QFileInfo::exists(m_localFile))
        m_watcher.addPath(m_localFile);
    m_settle.start();
}

bool EditSession::localChanged() const
{
    const QFileInfo info(m_localFile);
    return info.exists() && (info.size() != m_localSize || info.lastModified().toMSecsSinceEpoch() != m_localMtimeMs);
}

void EditSession::upload()
{
    if (m_uploading) {
        m_again = true;
        return;
    }
    if (!localChanged()) {
        if (m_ending)
            finish();
        return;
    }
    const QFileInfo info(m_localFile);
    m_localSize = info.size();
    m_localMtimeMs = info.lastModified().toMSecsSinceEpoch();
    m_uploading = true;
    m_again = false;
    setState(State::Uploading);
    m_inFlight = m_files->storeEdited(m_host, m_stamp, m_localFile, this,
                                      [this](Result<transfer::EditStamp> stamp) { stored(std::move(stamp)); });
}

void EditSession::stored(Result<transfer::EditStamp> stamp)
{
    m_inFlight.reset();
    m_uploading = false;
    if (stamp) {
        const bool sent = stamp->sha256 != m_stamp.sha256;
        m_stamp = *stamp;
        m_unsent = false;
        if (sent) {
            ++m_uploads;
            emit uploaded(m_uploads);
        }
    } else if (stamp.error().code == ErrorCode::Conflict && hasConflict()) {
        // Said once at length; each later save only gets a line, not another dialog.
        emit notice(HandoffText::tr("Not uploaded: %1 changed on %2; your copy is kept in %3.")
                        .arg(localName(m_remotePath), m_host, m_localFile));
    } else if (stamp.error().code == ErrorCode::Conflict) {
        m_conflict = HandoffText::tr("%1 Your edit was not uploaded, so nothing of theirs was overwritten; it is kept in %2. "
                                     "Open the file again to see their version, then copy your change into it.")
                         .arg(stamp.error().message, m_localFile);
        emit conflict(m_conflict);
    } else {
        m_unsent = true;
        emit failed(HandoffText::tr("Uploading %1 failed: %2 Save again to retry; the local copy is kept in %3.")
                        .arg(localName(m_remotePath), stamp.error().message, m_localFile));
    }
    setState(m_ending ? State::Uploading : State::Editing);
    if (m_again || m_ending)
        upload();
}

void EditSession::end()
{
    if (m_state == State::Ended || m_ending)
        return;
    if (m_state == State::Opening) {
        if (m_inFlight)
            m_inFlight->cancel();
        m_inFlight.reset();
        finish();
        return;
    }
    finishAfterLastSave();
}

void EditSession::finishAfterLastSave()
{
    m_ending = true;
    m_settle.stop();
    m_watcher.disconnect(this);
    if (!m_uploading)
        upload(); // the save just before the editor closed, if its events have not settled yet
}

void EditSession::finish()
{
    if (m_state == State::Ended)
        return;
    m_settle.stop();
    m_watcher.disconnect(this);
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    const bool opened = !m_stamp.path.isEmpty();
    const bool keep = opened && (hasConflict() || m_unsent || localChanged());
    const QString name = localName(m_remotePath);
    QString summary;
    if (!opened) {
        if (m_dir)
            m_dir->remove();
        summary = HandoffText::tr("Could not edit %1 on %2.").arg(name, m_host);
    } else if (keep) {
        summary = HandoffText::tr("Stopped editing %1 on %2; the last changes were not uploaded and are kept in %3.")
                      .arg(name, m_host, m_localFile);
    } else {
        if (m_dir)
            m_dir->remove();
        summary = HandoffText::tr("Finished editing %1 on %2: %n save(s) uploaded.", nullptr, m_uploads).arg(name, m_host);
    }
    setState(State::Ended);
    emit ended(summary);
}

void EditSession::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit changed();
}

QString EditSession::statusText() const
{
    const QString name = localName(m_remotePath);
    if (hasConflict())
        return HandoffText::tr("%1 on %2: changed on the machine; your edit is not uploaded").arg(name, m_host);
    switch (m_state) {
    case State::Opening: return HandoffText::tr("%1 on %2: downloading…").arg(name, m_host);
    case State::Uploading: return HandoffText::tr("%1 on %2: uploading…").arg(name, m_host);
    case State::Ended: return HandoffText::tr("%1 on %2: done").arg(name, m_host);
    case State::Editing: break;
    }
    return HandoffText::tr("%1 on %2: editing, %n save(s) uploaded", nullptr, m_uploads).arg(name, m_host);
}

EditSessions::EditSessions(transfer::RemoteFiles *files, QObject *parent) : QObject(parent), m_files(files) {}

EditSession *EditSessions::edit(const QString &host, const QString &remotePath, EditSession::Options options)
{
    m_sessions.removeAll(nullptr);
    for (EditSession *session : sessions()) {
        if (session->host() == host && session->remotePath() == remotePath && session->state() != EditSession::State::Ended)
            return session;
    }
    auto *session = new EditSession(m_files, host, remotePath, std::move(options), this);
    m_sessions.append(session);
    connect(session, &EditSession::changed, this, &EditSessions::changed);
    connect(session, &EditSession::ended, this, [this, session](const QString &summary) {
        m_sessions.removeAll(session);
        session->deleteLater();
        emit sessionEnded(summary);
        emit changed();
    });
    emit started(session);
    session->start();
    emit changed();
    return session;
}

QList<EditSession *> EditSessions::sessions() const
{
    QList<EditSession *> live;
    for (const QPointer<EditSession> &session : m_sessions) {
        if (session)
            live.append(session);
    }
    return live;
}

} // namespace gantry::handoff
