// SPDX-License-Identifier: Apache-2.0
#include "ui/transfer/localfilespane.h"

#include "ui/transfer/dragout.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileSystemModel>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace gantry::ui {

LocalFilesPane::LocalFilesPane(QWidget *parent)
    : QWidget(parent), m_model(new QFileSystemModel(this)), m_view(new QTreeView(this)), m_path(new QLineEdit(this)),
      m_up(new QPushButton(tr("Up"), this))
{
    m_model->setReadOnly(true);
    m_model->setFilter(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    m_model->setRootPath(QDir::rootPath());
    m_view->setModel(m_model);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(0, Qt::AscendingOrder);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setDragEnabled(true);
    m_view->setDragDropMode(QAbstractItemView::DragDrop); // drops are the filter's: the model only reads
    m_view->setDefaultDropAction(Qt::CopyAction);
    m_view->viewport()->installEventFilter(this);
    m_view->setColumnHidden(2, true); // the type column says what the name already does
    // The name takes what is left; size and date are read in full.
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_view->header()->setSectionResizeMode(3, QHeaderView::ResizeToContents);
    m_path->setToolTip(tr("A folder on this computer"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("This computer:"), this)); // which side is which, as FileZilla's "Local site:"
    bar->addWidget(m_up);
    bar->addWidget(m_path, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(m_up, &QPushButton::clicked, this, [this] {
        QDir dir(folder());
        if (dir.cdUp()) setFolder(dir.absolutePath());
    });
    connect(m_path, &QLineEdit::returnPressed, this, [this] { setFolder(m_path->text()); });
    connect(m_view, &QTreeView::doubleClicked, this, [this](const QModelIndex &index) {
        if (m_model->isDir(index)) setFolder(m_model->filePath(index));
    });
    setFolder(QDir::homePath());
}

void LocalFilesPane::setFolder(const QString &path)
{
    const QFileInfo info(path);
    if (!info.isDir()) {
        m_path->setText(folder()); // a mistyped path: the field says where the pane still is
        return;
    }
    const QString dir = info.absoluteFilePath();
    m_view->setRootIndex(m_model->index(dir));
    m_path->setText(QDir::toNativeSeparators(dir));
    m_up->setEnabled(!QDir(dir).isRoot());
    emit folderChanged(dir);
}

QString LocalFilesPane::folder() const
{
    return m_model->filePath(m_view->rootIndex());
}

QString LocalFilesPane::dropFolderAt(const QPoint &pos) const
{
    const QModelIndex at = m_view->indexAt(pos);
    return at.isValid() && m_model->isDir(at) ? m_model->filePath(at) : folder();
}

// Only the machine's files (a drag out of its list) are taken here; local files dragged within
// the pane are not moved.
bool LocalFilesPane::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_view->viewport()) return QWidget::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::DragEnter:
    case QEvent::DragMove: {
        auto *drag = static_cast<QDragMoveEvent *>(event);
        if (qobject_cast<const DragOutMimeData *>(drag->mimeData())) drag->acceptProposedAction();
        else drag->ignore();
        return true;
    }
    case QEvent::Drop: {
        auto *drop = static_cast<QDropEvent *>(event);
        if (!qobject_cast<const DragOutMimeData *>(drop->mimeData())) return true;
        drop->setDropAction(Qt::CopyAction);
        drop->accept();
        emit downloadRequested(dropFolderAt(drop->position().toPoint()));
        return true;
    }
    default:
        return QWidget::eventFilter(watched, event);
    }
}

} // namespace gantry::ui
