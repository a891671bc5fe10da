// SPDX-License-Identifier: Apache-2.0
#include "ui/storage/storagepanel.h"

#include "core/storage/buckets.h"
#include "core/util/background.h"
#include "ui/common/confirm.h"
#include "ui/common/themecolors.h"
#include "ui/storage/addbucketdialog.h"
#include "ui/storage/bucketbrowser.h"
#include "ui/storage/buckettablemodel.h"
#include "ui/storage/copyoperations.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gantry::ui {

StoragePanel::StoragePanel(storage::Buckets *buckets, storage::CopyJobs *copies, QWidget *parent) : QTabWidget(parent), m_buckets(buckets)
{
    setDocumentMode(true);
    addTab(buildBucketsPage(copies), tr("Buckets"));
    reload();
}

QWidget *StoragePanel::buildBucketsPage(storage::CopyJobs *copies)
{
    auto *page = new QWidget(this);
    m_model = new BucketTableModel(this);
    m_view = new QTableView(page);
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setSectionResizeMode(BucketTableModel::EndpointColumn, QHeaderView::Stretch);
    m_view->setWordWrap(false);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &StoragePanel::selectionChanged);

    m_add = new QPushButton(QIcon::fromTheme(QStringLiteral("list-add")), tr("Add bucket…"), page);
    m_remove = new QPushButton(QIcon::fromTheme(QStringLiteral("list-remove")), tr("Remove"), page);
    m_remove->setToolTip(tr("Gantry forgets the bucket and its stored keys; the bucket and its objects stay where they are."));
    m_remove->setEnabled(false);
    connect(m_add, &QPushButton::clicked, this, [this] { openAddBucket(); });
    connect(m_remove, &QPushButton::clicked, this, &StoragePanel::removeSelected);
    m_status = new QLabel(page);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_status, 1);

    auto *list = new QWidget(page);
    auto *listLayout = new QVBoxLayout(list);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(m_view);
    listLayout->addLayout(buttons);

    m_copies = new CopyOperations(copies, page);
    m_browser = new BucketBrowser(m_buckets, m_copies, page);
    auto *split = new QSplitter(Qt::Vertical, page);
    split->addWidget(list);
    split->addWidget(m_browser);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(split, 1);
    layout->addWidget(m_copies);
    return page;
}

int StoragePanel::addSection(const QString &title, QWidget *widget)
{
    return addTab(widget, title);
}

void StoragePanel::setMachines(HostStore *hosts, storagecopies::SessionSource sessions)
{
    m_sessions = sessions;
    m_browser->setMachines(hosts, std::move(sessions));
}

void StoragePanel::reload()
{
    m_loading.cancel();
    m_loading = background::run<Result<QList<storage::StoredBucket>>>(
        this, [buckets = m_buckets] { return buckets->list(); },
        [this](Result<QList<storage::StoredBucket>> list) {
            const QString current = m_wanted.isEmpty() ? m_browser->bucket() : m_wanted;
            m_wanted.clear();
            if (!list) {
                showStatus(list.error().message, true);
                return;
            }
            m_model->setBuckets(*list);
            m_view->resizeColumnsToContents();
            showStatus(list->isEmpty() ? tr("No buckets yet: Add bucket… connects one (AWS S3, R2, B2, MinIO, Wasabi, OSS, COS).") : QString(), false);
            const int row = m_model->rowOf(current);
            if (row >= 0)
                m_view->selectRow(row);
            else if (m_model->rowCount() > 0)
                m_view->selectRow(0);
            else
                m_browser->setBucket({});
            emit bucketsLoaded();
        });
}

AddBucketDialog *StoragePanel::openAddBucket()
{
    auto *dialog = new AddBucketDialog(m_buckets, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AddBucketDialog::added, this, [this](const storage::StoredBucket &bucket) {
        m_wanted = bucket.config.name;
        reload();
    });
    dialog->open();
    return dialog;
}

void StoragePanel::removeSelected()
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    const QString name = m_model->bucket(rows.first().row()).config.name;
    if (!askDestructive(this, tr("Remove bucket"),
                        tr("Forget the bucket \"%1\" and its stored keys? The bucket and its objects stay at the provider; "
                           "add it again to use it.").arg(name)))
        return;
    m_remove->setEnabled(false);
    background::run<Result<void>>(
        this, [buckets = m_buckets, name] { return buckets->remove(name); },
        [this](Result<void> removed) {
            if (!removed)
                showStatus(removed.error().message, true);
            reload();
        });
}

void StoragePanel::selectBucket(const QString &name)
{
    const int row = m_model->rowOf(name);
    if (row >= 0)
        m_view->selectRow(row);
}

void StoragePanel::copyDroppedObjects(const QString &host, const QList<QUrl> &urls)
{
    m_browser->copyDroppedToMachine(host, urls);
}

QString StoragePanel::statusText() const
{
    return m_status->text();
}

void StoragePanel::showStatus(const QString &text, bool error)
{
    m_status->setPalette(palette());
    if (error)
        setToneText(m_status, Tone::Error);
    m_status->setText(text);
}

void StoragePanel::selectionChanged()
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    m_remove->setEnabled(!rows.isEmpty());
    const QString name = rows.isEmpty() ? QString() : m_model->bucket(rows.first().row()).config.name;
    if (name != m_browser->bucket())
        m_browser->setBucket(name);
}

} // namespace gantry::ui
