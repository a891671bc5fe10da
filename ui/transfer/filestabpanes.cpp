// SPDX-License-Identifier: Apache-2.0
// The Files tab's two-pane layout: this computer's files (LocalFilesPane) beside the machine's,
// drag both ways, toggled by "Local files" and kept in <configDir>/window.ini.

#include "ui/transfer/filestab.h"

#include "ui/transfer/localfilespane.h"

#include <QAction>
#include <QDir>
#include <QSettings>
#include <QSplitter>

namespace gantry::ui {
namespace {

const QString kTwoPane = QStringLiteral("files/twoPane");
const QString kLocalFolder = QStringLiteral("files/localFolder");
const QString kSplit = QStringLiteral("files/split");

} // namespace

std::unique_ptr<QSettings> FilesTab::layoutSettings() const
{
    if (m_context.configDir.isEmpty()) return nullptr;
    return std::make_unique<QSettings>(QDir(m_context.configDir).filePath(QStringLiteral("window.ini")), QSettings::IniFormat);
}

void FilesTab::setUpLocalPane()
{
    m_twoPane = new QAction(tr("Local files"), this);
    m_twoPane->setCheckable(true);
    m_twoPane->setToolTip(tr("Show this computer's files beside the machine's; drag between them to transfer"));
    m_split->setChildrenCollapsible(false);
    m_split->setStretchFactor(0, 2);
    m_split->setStretchFactor(1, 3);
    if (const auto settings = layoutSettings()) {
        m_local->setFolder(settings->value(kLocalFolder, QDir::homePath()).toString());
        m_split->restoreState(settings->value(kSplit).toByteArray());
        m_twoPane->setChecked(settings->value(kTwoPane, false).toBool());
    }
    m_local->setVisible(m_twoPane->isChecked());
    connect(m_twoPane, &QAction::toggled, this, [this](bool on) {
        m_local->setVisible(on);
        saveLayout();
    });
    connect(m_local, &LocalFilesPane::folderChanged, this, &FilesTab::saveLayout);
    connect(m_split, &QSplitter::splitterMoved, this, &FilesTab::saveLayout);
    connect(m_local, &LocalFilesPane::downloadRequested, this, [this](const QString &dir) {
        m_droppedOnLocalPane = true; // the drag's staged copies are not wanted: dragOut() cancels them
        const QList<quint64> ids = downloadSelected(dir);
        setStatus(tr("%n download(s) queued to %1.", nullptr, int(ids.size())).arg(dir));
    });
}

void FilesTab::saveLayout() const
{
    const auto settings = layoutSettings();
    if (!settings || !m_twoPane) return;
    settings->setValue(kTwoPane, m_twoPane->isChecked());
    settings->setValue(kLocalFolder, m_local->folder());
    settings->setValue(kSplit, m_split->saveState());
}

} // namespace gantry::ui
