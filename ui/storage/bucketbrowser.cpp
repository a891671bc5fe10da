// SPDX-License-Identifier: Apache-2.0
#include "ui/storage/bucketbrowser.h"

#include "core/hosts/hoststore.h"
#include "core/storage/buckets.h"
#include "core/util/background.h"
#include "ui/common/filedialogs.h"
#include "ui/common/themecolors.h"
#include "ui/storage/copyoperations.h"
#include "ui/storage/objecttablemodel.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace gantry::ui {
namespace {

// A level of a bucket is shown whole up to this many entries (S3 pages of 1000).
constexpr int kMaxPages = 10;

struct Listing
{
    QString prefix;
    QStringList folders;
    QList<storage::ObjectInfo> objects;
    bool more = false; // past kMaxPages pages
};

Result<Listing> listLevel(storage::Buckets *buckets, const QString &bucket, const QString &prefix, const std::atomic_bool *cancel)
{
    Result<storage::S3Client> client = buckets->client(bucket);
    if (!client)
        return client.error();
    Listing listing{prefix, {}, {}, false};
    QString token;
    for (int page = 0; page < kMaxPages; ++page) {
        Result<storage::ListPage> got = client->listPage(prefix, QStringLiteral("/"), token, storage::kMaxKeysPerPage, cancel);
        if (!got)
            return got.error();
        listing.folders += got->commonPrefixes;
        listing.objects += got->objects;
        if (!got->truncated)
            return listing;
        token = got->nextToken;
    }
    listing.more = true;
    return listing;
}

// What a copy's row calls its source: the one object, or the first and how many more.
QString pickedText(const QString &bucket, const QList<storagecopies::Pick> &picks)
{
    const QString first = QStringLiteral("s3://%1/%2").arg(bucket, picks.first().key);
    return picks.size() == 1 ? first : BucketBrowser::tr("%1 and %n more", "", int(picks.size() - 1)).arg(first);
}

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

} // namespace

BucketBrowser::BucketBrowser(storage::Buckets *buckets, CopyOperations *copies, QWidget *parent)
    : QWidget(parent), m_buckets(buckets), m_copies(copies)
{
    m_model = new ObjectTableModel(this);
    m_proxy = new ObjectSortProxy(this);
    m_proxy->setSourceModel(m_model);
    m_view = new QTreeView(this);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ObjectTableModel::NameColumn, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAllColumnsShowFocus(true);
    m_view->setDragEnabled(true); // onto a machine in the Machines list
    m_view->setDragDropMode(QAbstractItemView::DragOnly);
    m_view->setDefaultDropAction(Qt::CopyAction);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(ObjectTableModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(ObjectTableModel::SizeColumn, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(ObjectTableModel::ModifiedColumn, QHeaderView::ResizeToContents);
    connect(m_view, &QTreeView::activated, this, &BucketBrowser::activated);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &BucketBrowser::updateActions);

    m_up = new QToolButton(this);
    m_up->setIcon(QIcon::fromTheme(QStringLiteral("go-up")));
    m_up->setText(tr("Up"));
    m_up->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_up->setToolTip(tr("The folder above this one"));
    connect(m_up, &QToolButton::clicked, this, [this] {
        QString up = m_prefix;
        up.chop(1);
        const qsizetype slash = up.lastIndexOf(QLatin1Char('/'));
        openPrefix(slash < 0 ? QString() : up.left(slash + 1));
    });
    m_path = new QLabel(this);
    m_path->setTextFormat(Qt::RichText);
    m_path->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_path, &QLabel::linkActivated, this, [this](const QString &link) { openPrefix(link.mid(1)); });
    m_refresh = new QPushButton(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("Refresh"), this);
    connect(m_refresh, &QPushButton::clicked, this, &BucketBrowser::refresh);
    auto *top = new QHBoxLayout;
    top->addWidget(m_up);
    top->addWidget(m_path, 1);
    top->addWidget(m_refresh);

    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    buildActions();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_download);
    actions->addWidget(m_toMachine);
    actions->addWidget(m_upload);
    actions->addStretch();
    layout->addLayout(actions);
    setBucket({});
}

void BucketBrowser::buildActions()
{
    m_download = new QPushButton(QIcon::fromTheme(QStringLiteral("document-save")), tr("Download to this computer…"), this);
    m_download->setToolTip(tr("Copy the selected objects and folders into a folder here; each is checked against the object's checksum."));
    m_toMachine = new QPushButton(QIcon::fromTheme(QStringLiteral("network-server")), tr("Copy to machine…"), this);
    m_toMachine->setToolTip(tr("The machine fetches the selected objects itself with links that live an hour; no key reaches it."));
    m_upload = new QPushButton(QIcon::fromTheme(QStringLiteral("document-send")), tr("Upload from this computer…"), this);
    m_upload->setToolTip(tr("Copy files from here into this folder of the bucket."));
    connect(m_download, &QPushButton::clicked, this, &BucketBrowser::askDownload);
    connect(m_toMachine, &QPushButton::clicked, this, [this] { askCopyToMachine(); });
    connect(m_upload, &QPushButton::clicked, this, &BucketBrowser::askUpload);
}

void BucketBrowser::setMachines(HostStore *hosts, storagecopies::SessionSource sessions)
{
    m_hosts = hosts;
    m_sessions = std::move(sessions);
    updateActions();
}

void BucketBrowser::setBucket(const QString &name)
{
    m_bucket = name;
    m_model->clear();
    m_model->setBucketName(name);
    m_prefix.clear();
    if (name.isEmpty()) {
        m_listing.cancel();
        showPath();
        showStatus(tr("Choose a bucket to see what is in it."), false);
        updateActions();
        return;
    }
    openPrefix({});
}

void BucketBrowser::openPrefix(const QString &prefix)
{
    m_prefix = prefix;
    refresh();
}

void BucketBrowser::refresh()
{
    if (m_bucket.isEmpty())
        return;
    m_listing.cancel();
    showPath();
    showStatus(tr("Listing s3://%1/%2…").arg(m_bucket, m_prefix), false);
    const QString bucket = m_bucket;
    const QString prefix = m_prefix;
    m_listing = background::run<Result<Listing>>(
        this,
        [buckets = m_buckets, bucket, prefix](const CancelToken &token) { return listLevel(buckets, bucket, prefix, token.flag()); },
        [this, bucket, prefix](Result<Listing> listing) {
            if (bucket != m_bucket || prefix != m_prefix)
                return; // the user moved on meanwhile
            if (!listing) {
                m_model->clear();
                showStatus(listing.error().message, true);
            } else {
                m_model->setListing(listing->prefix, listing->folders, listing->objects);
                if (listing->more)
                    showStatus(tr("Showing the first %1 entries of this folder.").arg(m_model->rowCount()), false);
                else if (m_model->rowCount() == 0)
                    showStatus(tr("Nothing here yet: upload files, or copy them from a machine with gantry-cli cp."), false);
                else
                    showStatus({}, false);
            }
            updateActions();
            emit listed();
        });
    updateActions();
}

QString BucketBrowser::statusText() const
{
    return m_status->text();
}

void BucketBrowser::showPath()
{
    m_up->setEnabled(!m_prefix.isEmpty());
    if (m_bucket.isEmpty()) {
        m_path->clear();
        return;
    }
    // Each part a link to its prefix ("#" keeps an empty prefix a valid link).
    QString html = QStringLiteral("<a href=\"#\">s3://%1</a>").arg(escaped(m_bucket));
    QString so_far;
    const QStringList parts = m_prefix.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        so_far += part + QLatin1Char('/');
        html += QStringLiteral(" / <a href=\"#%1\">%2</a>").arg(escaped(so_far), escaped(part));
    }
    m_path->setText(html);
}

void BucketBrowser::showStatus(const QString &text, bool error)
{
    m_status->setPalette(palette());
    if (error)
        setToneText(m_status, Tone::Error);
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

void BucketBrowser::updateActions()
{
    const bool picked = !m_view->selectionModel()->selectedRows().isEmpty();
    m_refresh->setEnabled(!m_bucket.isEmpty());
    m_download->setEnabled(picked);
    m_toMachine->setEnabled(picked && m_hosts && m_sessions);
    m_upload->setEnabled(!m_bucket.isEmpty());
}

void BucketBrowser::activated(const QModelIndex &index)
{
    const QModelIndex source = m_proxy->mapToSource(index);
    if (source.isValid() && m_model->entry(source.row()).folder)
        openPrefix(m_model->entry(source.row()).key);
}

QList<storagecopies::Pick> BucketBrowser::selectedPicks() const
{
    QList<storagecopies::Pick> picks;
    for (const QModelIndex &index : m_view->selectionModel()->selectedRows()) {
        const ObjectTableModel::Entry &e = m_model->entry(m_proxy->mapToSource(index).row());
        picks.append({e.key, e.folder});
    }
    return picks;
}

void BucketBrowser::downloadSelectedTo(const QString &folder)
{
    const QList<storagecopies::Pick> picks = selectedPicks();
    if (picks.isEmpty() || folder.isEmpty())
        return;
    m_copies->start(tr("%1 → %2").arg(pickedText(m_bucket, picks), folder), storagecopies::download(m_buckets, m_bucket, picks, folder));
}

void BucketBrowser::copySelectedToMachine(const QString &host, const QString &folder)
{
    copyToMachine(selectedPicks(), host, folder);
}

void BucketBrowser::copyToMachine(const QList<storagecopies::Pick> &picks, const QString &host, const QString &folder)
{
    if (picks.isEmpty() || host.isEmpty() || !m_sessions)
        return;
    const QString title = tr("%1 → %2:%3").arg(pickedText(m_bucket, picks), host, folder);
    m_copies->start(title, storagecopies::toMachine(m_buckets, m_bucket, picks, m_sessions, host, folder), {}, {host});
}

void BucketBrowser::uploadFiles(const QStringList &files)
{
    if (files.isEmpty() || m_bucket.isEmpty())
        return;
    const QString bucket = m_bucket;
    const QString prefix = m_prefix;
    const QString title = files.size() == 1 ? tr("%1 → s3://%2/%3").arg(files.first(), bucket, prefix)
                                            : tr("%n file(s) → s3://%1/%2", "", int(files.size())).arg(bucket, prefix);
    m_copies->start(title, storagecopies::upload(m_buckets, bucket, prefix, files), [this, bucket, prefix] {
        if (m_bucket == bucket && m_prefix == prefix)
            refresh(); // the new objects show where they were sent
    });
}

void BucketBrowser::askDownload()
{
    const QString folder = FileDialogs::downloadFolder(this, tr("Download to"));
    if (!folder.isEmpty()) {
        FileDialogs::remember(folder);
        downloadSelectedTo(folder);
    }
}

void BucketBrowser::askUpload()
{
    const QStringList files = FileDialogs::openFiles(this, tr("Upload to s3://%1/%2").arg(m_bucket, m_prefix));
    uploadFiles(files);
}

QDialog *BucketBrowser::copyDroppedToMachine(const QString &host, const QList<QUrl> &urls)
{
    QList<storagecopies::Pick> picks;
    for (const QUrl &url : urls) {
        // A URL's host is lower case; Gantry's bucket names may not be.
        if (url.scheme() != QLatin1String("s3") || url.host().compare(m_bucket, Qt::CaseInsensitive) != 0)
            continue;
        const QString key = url.path(QUrl::FullyDecoded).mid(1);
        if (!key.isEmpty())
            picks.append({key, key.endsWith(QLatin1Char('/'))});
    }
    return picks.isEmpty() ? nullptr : askCopyToMachine(host, picks);
}

void BucketBrowser::askCopyToMachine()
{
    askCopyToMachine({}, selectedPicks());
}

QDialog *BucketBrowser::askCopyToMachine(const QString &host, const QList<storagecopies::Pick> &picks)
{
    if (!m_hosts || picks.isEmpty())
        return nullptr;
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Copy to machine"));
    auto *hosts = new QComboBox(dialog);
    for (const SavedHost &saved : m_hosts->hosts())
        hosts->addItem(saved.name);
    if (!host.isEmpty())
        hosts->setCurrentText(host);
    auto *folder = new QLineEdit(QStringLiteral("~/"), dialog);
    folder->setToolTip(tr("A folder on the machine; ~/ is its home folder. It is made when missing."));
    auto *form = new QFormLayout;
    form->addRow(tr("Machine:"), hosts);
    form->addRow(tr("Folder:"), folder);
    auto *note = new QLabel(tr("The machine downloads the objects itself: no bytes pass through this computer."), dialog);
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Copy"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(hosts->count() > 0);
    auto *layout = new QVBoxLayout(dialog);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, hosts, folder, picks] {
        copyToMachine(picks, hosts->currentText(), folder->text().trimmed().isEmpty() ? QStringLiteral("~/") : folder->text().trimmed());
        dialog->accept();
    });
    dialog->open();
    return dialog;
}

} // namespace gantry::ui
