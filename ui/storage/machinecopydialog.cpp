// SPDX-License-Identifier: Apache-2.0
// Files of one machine dropped on another: the question before the copy, and the copy's row.
#include "ui/storage/storagepanel.h"

#include "core/transfer/remoteops.h"
#include "core/util/printable.h"
#include "ui/storage/copyoperations.h"
#include "ui/storage/storagecopies.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gantry::ui {

QDialog *StoragePanel::copyBetweenMachines(const QString &targetHost, const QString &sourceHost, const QStringList &paths)
{
    if (!m_sessions || paths.isEmpty() || targetHost == sourceHost)
        return nullptr;
    const QString what = paths.size() == 1 ? QStringLiteral("“%1”").arg(text::printable(transfer::remoteBaseName(paths.first())))
                                           : tr("%n item(s)", "", int(paths.size()));
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Copy between machines"));
    auto *heading = new QLabel(tr("Copy %1 from %2 to %3.").arg(what, sourceHost, targetHost), dialog);
    heading->setWordWrap(true);
    heading->setTextFormat(Qt::PlainText); // a remote file's name
    auto *folder = new QLineEdit(QStringLiteral("~/"), dialog);
    folder->setObjectName(QStringLiteral("targetFolder"));
    folder->setToolTip(tr("A folder on %1; ~/ is its home folder. It is made when missing.").arg(targetHost));
    auto *form = new QFormLayout;
    form->addRow(tr("Into folder:"), folder);
    auto *note = new QLabel(tr("%1 sends the files straight to %2 over SSH, with a key made for this copy alone and "
                               "removed afterwards; where it cannot reach %2 they pass through this computer. Every "
                               "file is checked on both machines.")
                                .arg(sourceHost, targetHost),
                            dialog);
    note->setWordWrap(true);
    note->setTextFormat(Qt::PlainText);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Copy"));
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(heading);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, folder, targetHost, sourceHost, paths, what] {
        const QString into = folder->text().trimmed().isEmpty() ? QStringLiteral("~/") : folder->text().trimmed();
        m_copies->start(tr("%1:%2 → %3:%4").arg(sourceHost, what, targetHost, text::printable(into)),
                        storagecopies::betweenMachines(m_sessions, sourceHost, paths, targetHost, into), {}, {sourceHost, targetHost});
        setCurrentIndex(0); // the copies are under the Buckets page
        dialog->accept();
    });
    dialog->resize(qMax(dialog->sizeHint().width(), 480), dialog->sizeHint().height());
    dialog->open();
    return dialog;
}

} // namespace gantry::ui
