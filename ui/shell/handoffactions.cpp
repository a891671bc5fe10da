// SPDX-License-Identifier: Apache-2.0
#include "ui/shell/handoffactions.h"

#include "core/handoff/editsession.h"
#include "core/hosts/hoststore.h"
#include "core/sshconfig/sshconfigfile.h"
#include "core/util/background.h"
#include "core/workspace/appcore.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QToolButton>
#include <QUrl>

namespace gantry::ui {

using handoff::Tool;

namespace {

QString titleOf(Tool tool)
{
    switch (tool) {
    case Tool::VsCode: return HandoffActions::tr("Open in VS Code");
    case Tool::Cursor: return HandoffActions::tr("Open in Cursor");
    case Tool::Terminal: return HandoffActions::tr("Open terminal");
    }
    return {};
}

} // namespace

HandoffActions::HandoffActions(workspace::AppCore *core, QMainWindow *window)
    : QObject(window)
    , m_core(core)
    , m_window(window)
    , m_indicator(new QToolButton(window))
{
    m_indicator->setObjectName(QStringLiteral("editSessions"));
    m_indicator->setPopupMode(QToolButton::InstantPopup);
    m_indicator->setAutoRaise(true);
    m_indicator->setMenu(new QMenu(m_indicator));
    m_indicator->hide();
    connect(m_indicator->menu(), &QMenu::aboutToShow, this, &HandoffActions::updateIndicator);
    connect(core->edits(), &handoff::EditSessions::changed, this, &HandoffActions::updateIndicator);
    connect(core->edits(), &handoff::EditSessions::sessionEnded, this, &HandoffActions::status);
}

QString HandoffActions::closeWarning() const
{
    QStringList names;
    for (const handoff::EditSession *session : m_core->edits()->sessions())
        names << QFileInfo(session->remotePath()).fileName();
    if (names.isEmpty())
        return {};
    return tr("%n file(s) open in an editor (%1): saves after quitting are not uploaded.", nullptr, int(names.size()))
        .arg(names.join(QStringLiteral(", ")));
}

QMessageBox *HandoffActions::openMessage() const
{
    return m_message;
}

void HandoffActions::open(Tool tool, const QString &hostName, const QString &path)
{
    const std::optional<SavedHost> host = m_core->hosts()->find(hostName);
    if (!host) {
        emit status(tr("Select a machine first."));
        return;
    }
    // Reads ~/.ssh/config: on a worker.
    const QList<SavedHost> all = m_core->hosts()->hosts();
    background::run<std::optional<QString>>(
        this, [host = *host, all, configDir = m_core->configDir()](const CancelToken &) {
            return handoff::sshAlias(host, all, configDir);
        },
        [this, tool, host = *host, path](std::optional<QString> alias) {
            if (!alias && tool != Tool::Terminal)
                askToWriteEntries(tool, host, path);
            else
                launch(tool, host, path, alias);
        });
}

void HandoffActions::launch(Tool tool, const SavedHost &host, const QString &path, const std::optional<QString> &alias)
{
    const Result<handoff::Launch> made = handoff::launchForHost(tool, host, alias, path, m_desktop);
    if (!made) {
        showMessage(titleOf(tool), made.error().message);
        return;
    }
    if (Result<void> started = handoff::start(*made, m_desktop); !started) {
        showNotStarted(tool, started.error(), made->commandLine);
        return;
    }
    emit status(tool == Tool::Terminal ? tr("Opened a terminal on %1: %2").arg(host.name, made->commandLine)
                                       : tr("Opened %1 in %2: %3").arg(host.name, handoff::toolTitle(tool), made->commandLine));
}

void HandoffActions::askToWriteEntries(Tool tool, const SavedHost &host, const QString &path)
{
    if (m_consent) {
        if (m_consent(tool, host.name))
            writeEntriesAndOpen(tool, host.name, path);
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, titleOf(tool),
                                tr("%1 reaches a machine by its name in ~/.ssh/config, and %2 has none there yet.")
                                    .arg(handoff::toolTitle(tool), host.name),
                                QMessageBox::Cancel, m_window);
    box->setInformativeText(tr("Gantry can keep a marked block with an entry for each of its machines in ~/.ssh/config "
                               "(a backup of the file is saved first; nothing outside the block changes). Then ssh, scp "
                               "and editors reach them by name too."));
    QPushButton *write = box->addButton(tr("Write entries and open"), QMessageBox::AcceptRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, write, tool, name = host.name, path](QAbstractButton *button) {
        if (button == write)
            writeEntriesAndOpen(tool, name, path);
    });
    m_message = box;
    box->open();
}

void HandoffActions::writeEntriesAndOpen(Tool tool, const QString &hostName, const QString &path)
{
    const QList<SavedHost> all = m_core->hosts()->hosts();
    background::run<Result<bool>>(
        this, [all, configDir = m_core->configDir()](const CancelToken &) -> Result<bool> {
            if (Result<void> on = sshconfig::setSyncEnabled(configDir, true); !on)
                return on.error();
            return sshconfig::syncIfEnabled(configDir, all);
        },
        [this, tool, hostName, path](Result<bool> written) {
            if (!written) {
                showMessage(titleOf(tool), written.error().message);
                return;
            }
            emit status(tr("Wrote entries for Gantry's machines to ~/.ssh/config."));
            const std::optional<SavedHost> host = m_core->hosts()->find(hostName);
            const QList<SavedHost> hosts = m_core->hosts()->hosts();
            const std::optional<QString> alias = host ? handoff::sshAlias(*host, hosts, m_core->configDir()) : std::nullopt;
            if (!host || !alias) {
                showMessage(titleOf(tool), host ? handoff::noAliasError(tool, *host).message : tr("Select a machine first."));
                return;
            }
            launch(tool, *host, path, alias);
        });
}

void HandoffActions::showNotStarted(Tool tool, const Error &error, const QString &command)
{
    showMessage(titleOf(tool), error.message, command);
}

void HandoffActions::showMessage(const QString &title, const QString &text, const QString &copyText, const QString &folder)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Close, m_window);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPushButton *copy = copyText.isEmpty() ? nullptr : box->addButton(tr("Copy command"), QMessageBox::ActionRole);
    QPushButton *show = folder.isEmpty() ? nullptr : box->addButton(tr("Show local copy"), QMessageBox::ActionRole);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, copy, show, copyText, folder](QAbstractButton *button) {
        if (copy && button == copy) {
            QGuiApplication::clipboard()->setText(copyText);
            emit status(tr("Copied: %1").arg(copyText));
        } else if (show && button == show) {
            QDesktopServices::openUrl(QUrl::fromLocalFile(folder));
        }
    });
    m_message = box;
    box->open();
}

void HandoffActions::edit(const QString &hostName, const QString &remotePath)
{
    handoff::EditSession::Options options;
    options.mode = handoff::EditSession::Mode::Window;
    options.desktop = m_desktop;
    options.tempRoot = m_tempRoot;
    options.openDefault = m_openDefault ? m_openDefault : [](const QString &file) {
        return QDesktopServices::openUrl(QUrl::fromLocalFile(file));
    };
    const int before = int(m_core->edits()->sessions().size());
    handoff::EditSession *session = m_core->edits()->edit(hostName, remotePath, options);
    if (int(m_core->edits()->sessions().size()) == before) {
        emit status(tr("%1 is already open for editing.").arg(session->statusText()));
        return;
    }
    follow(session);
    emit status(tr("Downloading %1 from %2 to edit it…").arg(QFileInfo(remotePath).fileName(), hostName));
}

void HandoffActions::follow(handoff::EditSession *session)
{
    const QString name = QFileInfo(session->remotePath()).fileName();
    const QString host = session->host();
    connect(session, &handoff::EditSession::opened, this, [this, name, host](const QString &editor) {
        emit status(tr("Editing %1 from %2 in %3; each save is uploaded.").arg(name, host, editor));
    });
    connect(session, &handoff::EditSession::uploaded, this, [this, name, host](int uploads) {
        emit status(tr("Uploaded %1 to %2 (save %3).").arg(name, host).arg(uploads));
    });
    connect(session, &handoff::EditSession::notice, this, &HandoffActions::status);
    connect(session, &handoff::EditSession::conflict, this, [this, session](const QString &message) {
        showMessage(tr("Not uploaded: changed on the machine"), message, {}, session->localFolder());
    });
    connect(session, &handoff::EditSession::failed, this, [this, name](const QString &message) {
        showMessage(tr("Editing %1").arg(name), message);
    });
}

void HandoffActions::updateIndicator()
{
    const QList<handoff::EditSession *> sessions = m_core->edits()->sessions();
    m_indicator->setVisible(!sessions.isEmpty());
    m_indicator->setText(sessions.size() == 1 ? tr("Editing %1").arg(QFileInfo(sessions.first()->remotePath()).fileName())
                                              : tr("Editing %n files", nullptr, int(sessions.size())));
    QMenu *menu = m_indicator->menu();
    menu->clear();
    for (handoff::EditSession *session : sessions) {
        if (!menu->isEmpty())
            menu->addSeparator();
        menu->addAction(session->statusText())->setEnabled(false); // a line of text, sized with the menu
        QAction *end = menu->addAction(tr("End editing %1").arg(QFileInfo(session->remotePath()).fileName()));
        connect(end, &QAction::triggered, session, &handoff::EditSession::end);
    }
}

} // namespace gantry::ui
