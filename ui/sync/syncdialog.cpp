#include "ui/sync/syncdialog.h"

#include "core/sync/syncservice.h"
#include "ui/common/filedialogs.h"

#include "core/sync/localscan.h"
#include "core/util/background.h"
#include "core/transfer/remoteops.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QPointer>
#include <QVBoxLayout>

namespace gantry::ui {

using sync::SyncEvent;
using sync::SyncPair;

SyncDialog::SyncDialog(sync::SyncService *service, QString host, QString baseRemoteDir, QWidget *parent)
    : QDialog(parent)
    , m_service(service)
    , m_host(std::move(host))
    , m_baseRemote(std::move(baseRemoteDir))
    , m_local(new QLineEdit(this))
    , m_remote(new QLineEdit(m_baseRemote, this))
    , m_delete(new QCheckBox(tr("Delete files on the machine that were deleted here (only files an earlier sync sent)"), this))
    , m_keep(new QCheckBox(tr("Keep in sync while Gantry runs"), this))
    , m_summary(new QLabel(this))
    , m_list(new QTreeWidget(this))
    , m_progress(new QProgressBar(this))
    , m_previewButton(new QPushButton(tr("Preview"), this))
    , m_start(new QPushButton(tr("Start sync"), this))
    , m_close(new QPushButton(tr("Close"), this))
{
    setWindowTitle(tr("Sync a local folder to %1").arg(m_host));
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *localRow = new QHBoxLayout;
    localRow->addWidget(m_local, 1);
    localRow->addWidget(browse);
    m_local->setPlaceholderText(tr("The folder on this computer to send"));
    auto *form = new QFormLayout;
    form->addRow(tr("Local folder:"), localRow);
    form->addRow(tr("Folder on %1:").arg(m_host), m_remote);
    m_keep->setToolTip(tr("Sends each change within a second of saving it, until you turn this off. "
                          "Resumes when Gantry starts again."));
    m_list->setColumnCount(3);
    m_list->setHeaderLabels({tr("Change"), tr("Path"), tr("Size")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_summary->setWordWrap(true);
    m_summary->setText(tr("Choose a folder, then Preview to see what would be sent. Files ignored by .gitignore, "
                          ".gantryignore and the .git folder are left out."));
    m_progress->setVisible(false);
    m_progress->setFormat(tr("%v of %m files"));
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_previewButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_start, QDialogButtonBox::AcceptRole);
    buttons->addButton(m_close, QDialogButtonBox::RejectRole);
    m_start->setDefault(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_delete);
    layout->addWidget(m_keep);
    layout->addWidget(m_summary);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_progress);
    layout->addWidget(buttons);

    connect(browse, &QPushButton::clicked, this, &SyncDialog::chooseFolder);
    connect(m_previewButton, &QPushButton::clicked, this, &SyncDialog::preview);
    connect(m_start, &QPushButton::clicked, this, &SyncDialog::start);
    connect(m_close, &QPushButton::clicked, this, &SyncDialog::reject);
    connect(m_remote, &QLineEdit::textEdited, this, [this] { m_remoteEdited = true; });
    // A changed choice makes the shown preview stale.
    for (QLineEdit *edit : {m_local, m_remote}) connect(edit, &QLineEdit::textEdited, m_list, &QTreeWidget::clear);
    connect(m_delete, &QCheckBox::toggled, m_list, &QTreeWidget::clear);
    m_choose = [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder to sync to %1").arg(m_host),
                                                                 m_local->text().isEmpty() ? FileDialogs::startFolder() : m_local->text());
        FileDialogs::remember(folder);
        return folder;
    };
    resize(760, 520);
}

// Nothing waits here: a run still going is cancelled and ends on its own thread; its events are dropped.
SyncDialog::~SyncDialog()
{
    m_cancel.cancel();
}

SyncDialog *SyncDialog::open(sync::SyncService *service, const QString &host, const QString &baseRemoteDir, QWidget *parent,
                             const QString &localDir, const QString &remoteDir)
{
    auto *dialog = new SyncDialog(service, host, baseRemoteDir, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    for (const sync::SyncPair &p : service->pairs(host)) {
        if (p.localDir == localDir && p.remoteDir == remoteDir) {
            dialog->setDeleteGone(p.deleteGone);
            dialog->setKeepInSync(p.keepInSync);
        }
    }
    if (!localDir.isEmpty()) dialog->setLocalDir(localDir);
    if (!remoteDir.isEmpty()) dialog->setRemoteDir(remoteDir);
    dialog->show();
    return dialog;
}

QString SyncDialog::remoteDir() const
{
    return sync::normalRemoteDir(m_remote->text().trimmed());
}

void SyncDialog::reject()
{
    if (isRunning()) {
        cancelRun();
        return;
    }
    QDialog::reject();
}

void SyncDialog::setLocalDir(const QString &dir)
{
    m_local->setText(dir);
    if (!m_remoteEdited) {
        const QString name = QFileInfo(QDir::fromNativeSeparators(dir)).fileName();
        if (!name.isEmpty()) m_remote->setText(transfer::remoteJoin(m_baseRemote, name));
    }
    m_list->clear();
}

void SyncDialog::setRemoteDir(const QString &dir)
{
    m_remote->setText(dir);
    m_remoteEdited = true;
    m_list->clear();
}

void SyncDialog::setDeleteGone(bool on)
{
    m_delete->setChecked(on);
}

void SyncDialog::setKeepInSync(bool on)
{
    m_keep->setChecked(on);
}

QString SyncDialog::summaryText() const
{
    return m_summary->text();
}

void SyncDialog::chooseFolder()
{
    const QString dir = m_choose ? m_choose() : QString();
    if (!dir.isEmpty()) setLocalDir(QDir::toNativeSeparators(dir));
}

std::optional<SyncPair> SyncDialog::pairFromFields()
{
    const QFileInfo local(QDir::fromNativeSeparators(m_local->text().trimmed()));
    if (m_local->text().trimmed().isEmpty() || !local.isDir()) {
        m_summary->setText(m_local->text().trimmed().isEmpty()
                               ? tr("Choose the local folder to sync first.")
                               : tr("%1 is not a folder on this computer. Choose an existing folder.").arg(m_local->text()));
        return std::nullopt;
    }
    if (m_remote->text().trimmed().isEmpty()) {
        m_summary->setText(tr("Give the folder on %1 to sync into.").arg(m_host));
        return std::nullopt;
    }
    return SyncPair{m_host, QDir(local.absoluteFilePath()).canonicalPath(), sync::normalRemoteDir(m_remote->text().trimmed()),
                    m_delete->isChecked(), m_keep->isChecked()};
}

void SyncDialog::preview()
{
    if (isRunning()) return;
    if (auto pair = pairFromFields()) run(*pair, true);
}

void SyncDialog::start()
{
    if (isRunning()) return;
    if (auto pair = pairFromFields()) run(*pair, false);
}

void SyncDialog::cancelRun()
{
    if (!isRunning()) return;
    m_cancel.cancel();
    m_summary->setText(tr("Stopping…"));
}

void SyncDialog::run(const SyncPair &pair, bool dryRun)
{
    auto factory = m_service->factoryFor(pair.host);
    if (!factory) {
        m_summary->setText(factory.error().message);
        return;
    }
    m_list->clear();
    m_planned = 0;
    m_doneFiles = 0;
    m_sentFiles = 0;
    m_sentBytes = 0;
    m_progress->setVisible(!dryRun);
    m_progress->setRange(0, 0); // busy until the plan says how many
    m_summary->setText(dryRun ? tr("Comparing %1 with the machine…").arg(pair.localDir) : tr("Syncing %1…").arg(pair.localDir));
    sync::SyncOptions options;
    options.deleteGone = pair.deleteGone;
    options.dryRun = dryRun;
    setRunning(true);
    m_running = true;
    // The engine and its session live on a pool thread; events come back queued through the
    // application object and are dropped once the dialog is gone (it cancels the run then).
    QPointer<SyncDialog> self(this);
    m_cancel = background::run<Result<void>>(this, [self, factory = *factory, target = m_service->targetFor(pair), options](const CancelToken &cancel) {
        const sync::SyncEventSink sink = [self](const SyncEvent &e) {
            QMetaObject::invokeMethod(qApp, [self, e] {
                if (self)
                    self->onEvent(e);
            }, Qt::QueuedConnection);
        };
        sync::SyncEngine engine(factory, target, options, sink, cancel);
        return engine.run();
    }, [this, dryRun, pair](Result<void> result) { onEnded(result, dryRun, pair); });
}

void SyncDialog::onEvent(const SyncEvent &e)
{
    switch (e.kind) {
    case SyncEvent::Plan:
        m_planned = e.newFiles + e.changedFiles + e.toDelete;
        m_summary->setText(tr("%1 new, %2 changed, %3 to delete; %4 to send (%5 unchanged).")
                               .arg(e.newFiles).arg(e.changedFiles).arg(e.toDelete)
                               .arg(transfer::formatBytes(e.bytes)).arg(e.unchanged));
        m_progress->setRange(0, std::max(m_planned, 1));
        m_progress->setValue(0);
        break;
    case SyncEvent::Sent:
        addRow(e.changed ? ChangedFile : NewFile, e.path, e.bytes);
        m_sentBytes += e.bytes;
        ++m_sentFiles;
        m_progress->setValue(std::min(++m_doneFiles, m_progress->maximum()));
        break;
    case SyncEvent::Deleted:
        addRow(DeletedFile, e.path, 0);
        m_progress->setValue(std::min(++m_doneFiles, m_progress->maximum()));
        break;
    case SyncEvent::Note:
    case SyncEvent::Reconnecting:
        m_summary->setText(e.message);
        break;
    case SyncEvent::Scan:
    case SyncEvent::Done:
        break;
    }
}

void SyncDialog::addRow(Change change, const QByteArray &path, quint64 bytes)
{
    static const char *const names[] = {QT_TR_NOOP("New"), QT_TR_NOOP("Changed"), QT_TR_NOOP("Delete")};
    auto *item = new QTreeWidgetItem(m_list, {tr(names[change]), sync::displayPath(path),
                                              change == DeletedFile ? QString() : transfer::formatBytes(bytes)});
    item->setData(0, Qt::UserRole, int(change));
    item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
}

void SyncDialog::onEnded(const Result<void> &result, bool dryRun, const SyncPair &pair)
{
    m_running = false;
    setRunning(false);
    const bool cancelled = m_cancel.isCancelled();
    if (!result) {
        if (!cancelled) m_summary->setText(result.error().message);
        else if (dryRun) m_summary->setText(tr("Preview stopped."));
        else m_summary->setText(tr("Stopped. What was sent is complete on the machine; the rest is sent next time."));
        if (!dryRun) emit finished(false);
        return;
    }
    if (dryRun) {
        if (m_list->topLevelItemCount() == 0) m_summary->setText(tr("Nothing to send: the machine has this folder as it is here."));
        emit previewReady();
        return;
    }
    m_progress->setRange(0, std::max(m_planned, 1));
    m_progress->setValue(m_progress->maximum());
    QString text = tr("Synced: %n file(s) sent (%1).", nullptr, m_sentFiles).arg(transfer::formatBytes(m_sentBytes));
    // Remember the pair for the machine (and start its watch) only once a sync of it worked.
    const auto saved = m_service->setKeepInSync(pair, pair.keepInSync);
    if (!saved) text += QLatin1Char(' ') + saved.error().message;
    else if (pair.keepInSync) text += QLatin1Char(' ') + tr("Keeping it in sync while Gantry runs.");
    m_summary->setText(text);
    emit finished(true);
}

void SyncDialog::setRunning(bool running)
{
    m_previewButton->setEnabled(!running);
    m_start->setEnabled(!running);
    m_local->setEnabled(!running);
    m_remote->setEnabled(!running);
    m_close->setText(running ? tr("Cancel") : tr("Close"));
}

} // namespace gantry::ui
