// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/handoff/handoff.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QMainWindow;
class QMessageBox;
class QToolButton;

namespace gantry::workspace {
class AppCore;
}
namespace gantry::handoff {
class EditSession;
}

namespace gantry::ui {

// The window's hand-offs to the desktop (core/handoff does the work): a machine in VS Code, Cursor
// or a terminal (Machine menu, the machines' context menu), and a remote file in the local editor
// (the Files tab's Edit), uploaded after each save. What happens is said in the status bar; what
// needs the user (a program that is not installed, a conflict, no ~/.ssh/config entry yet) in a
// window-modal message that names the cause and the next step. The ssh config is read and written
// on a worker.
class HandoffActions final : public QObject
{
    Q_OBJECT

public:
    HandoffActions(workspace::AppCore *core, QMainWindow *window);

    // Opens hostName (a saved host) in tool; path: an absolute folder on it, or its home folder.
    void open(handoff::Tool tool, const QString &hostName, const QString &path = {});
    // Edits hostName:remotePath in the local editor until the editor closes or the user ends it.
    void edit(const QString &hostName, const QString &remotePath);

    // The status bar's "Editing 1 file" button: its menu ends each edit (hidden while there is none).
    QToolButton *indicator() const { return m_indicator; }
    // For the question before quitting: the edits whose later saves would not be uploaded ("" when none).
    QString closeWarning() const;
    // The question, the program-not-found and the conflict messages, while one is open (tests).
    QMessageBox *openMessage() const;

    // Seams for tests: where programs are found and how they start; the answer to "write ssh
    // config entries?"; the desktop's default application for a file.
    void setDesktop(handoff::Desktop desktop) { m_desktop = std::move(desktop); }
    void setSshConfigConsent(std::function<bool(handoff::Tool tool, const QString &host)> ask) { m_consent = std::move(ask); }
    void setDefaultOpener(std::function<bool(const QString &file)> open) { m_openDefault = std::move(open); }
    void setEditTempRoot(const QString &root) { m_tempRoot = root; }

signals:
    void status(const QString &text); // for the status bar

private:
    void launch(handoff::Tool tool, const SavedHost &host, const QString &path, const std::optional<QString> &alias);
    void askToWriteEntries(handoff::Tool tool, const SavedHost &host, const QString &path);
    void writeEntriesAndOpen(handoff::Tool tool, const QString &hostName, const QString &path);
    void showNotStarted(handoff::Tool tool, const Error &error, const QString &command);
    void showMessage(const QString &title, const QString &text, const QString &copyText = {}, const QString &folder = {});
    void follow(handoff::EditSession *session);
    void updateIndicator();

    workspace::AppCore *m_core;
    QMainWindow *m_window;
    handoff::Desktop m_desktop;
    std::function<bool(handoff::Tool, const QString &)> m_consent;
    std::function<bool(const QString &)> m_openDefault;
    QString m_tempRoot;
    QToolButton *m_indicator;
    QPointer<QMessageBox> m_message;
};

} // namespace gantry::ui
