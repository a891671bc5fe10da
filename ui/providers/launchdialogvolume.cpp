// SPDX-License-Identifier: Apache-2.0
// The Launch dialog's persistent storage: the provider's volumes in the chosen region, and a new
// one made there without leaving the dialog (through the workspace, so its ledger row opens at once).
#include "ui/providers/launchdialog.h"

#include "core/providers/providerdescriptor.h"
#include "core/providers/providerregistry.h"
#include "core/workspace/volumeops.h"
#include "core/workspace/workspace.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gantry::ui {

QWidget *LaunchDialog::storageRow()
{
    // The button under the choice, not beside it: the choice is read whole ("None (the local disk
    // is lost on terminate)") at the dialog's width.
    m_storageRow = new QWidget(this);
    auto *column = new QVBoxLayout(m_storageRow);
    column->setContentsMargins(0, 0, 0, 0);
    m_newVolume = new QPushButton(tr("New volume…"), m_storageRow);
    m_newVolume->setObjectName(QStringLiteral("newVolume"));
    m_newVolume->setToolTip(tr("Make a volume in the chosen region: its files outlive the instance"));
    column->addWidget(m_storage);
    column->addWidget(m_newVolume, 0, Qt::AlignLeft);
    connect(m_newVolume, &QPushButton::clicked, this, &LaunchDialog::askNewVolume);
    return m_storageRow;
}

void LaunchDialog::askNewVolume()
{
    const QString provider = providerId();
    const QString region = m_region->currentData().toString();
    const providers::ProviderDescriptor *descriptor = providers::providerDescriptor(provider);
    if (!descriptor || !descriptor->volumes.api)
        return;
    if (region.isEmpty()) {
        showError(tr("Choose a type that can launch now first: a volume lives in one region."));
        return;
    }
    const providers::VolumeTerms &terms = descriptor->volumes;
    auto *dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("newVolumeDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("New volume"));
    auto *name = new QLineEdit(QStringLiteral("gantry-data"), dialog);
    name->setObjectName(QStringLiteral("volumeName"));
    auto *size = new QSpinBox(dialog);
    size->setObjectName(QStringLiteral("volumeSize"));
    size->setRange(terms.minGb, terms.maxGb > 0 ? terms.maxGb : 100000);
    size->setValue(std::max(terms.minGb, 100));
    size->setSuffix(tr(" GB"));
    auto *form = new QFormLayout;
    form->addRow(tr("Name:"), name);
    form->addRow(tr("Size:"), size);
    form->setRowVisible(size, terms.sizeAtCreate);
    const QString price = terms.perGbMonth > 0 ? tr("$%1 per GB-month").arg(terms.perGbMonth, 0, 'f', 2) : tr("the provider's storage price");
    auto *note = new QLabel(tr("In %1 at %2. It bills %3 for as long as it exists, attached or not; delete it on the Storage "
                               "panel's Volumes page.").arg(region, providers::providerDisplayName(provider), price), dialog);
    note->setWordWrap(true);
    auto *error = new QLabel(dialog);
    error->setObjectName(QStringLiteral("volumeError"));
    error->setWordWrap(true);
    error->setTextFormat(Qt::PlainText); // the provider's words
    error->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    QPushButton *create = buttons->button(QDialogButtonBox::Ok);
    create->setText(tr("Create"));
    auto *layout = new QVBoxLayout(dialog);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(error);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    QPointer<LaunchDialog> self(this);
    QPointer<QDialog> asking(dialog);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, self, asking, create, error, name, size, terms, region, provider] {
        create->setEnabled(false);
        error->setText(tr("Creating…"));
        error->show();
        const providers::VolumeSpec spec{name->text().trimmed(), terms.sizeAtCreate ? size->value() : 0, region};
        workspace::createVolumeRecorded(m_hub, m_workspace->ledger(), provider, spec,
                                        [self, asking, create, error](Result<workspace::CreatedVolume> made) {
                                            if (made && self)
                                                self->volumeCreated(made->volume);
                                            if (!asking)
                                                return;
                                            if (made) {
                                                asking->accept();
                                                return;
                                            }
                                            error->setText(made.error().message);
                                            create->setEnabled(true);
                                        });
    });
    dialog->setMinimumWidth(440); // the note in a few lines, not a column
    dialog->open();
}

void LaunchDialog::volumeCreated(const providers::Filesystem &volume)
{
    m_filesystems.append(volume);
    typeChanged(); // the list for the region, the new volume in it
    const int made = m_storage->findData(volume.name);
    if (made >= 0)
        m_storage->setCurrentIndex(made);
}

} // namespace gantry::ui
