// SPDX-License-Identifier: Apache-2.0
// The Verify tab's Machine records actions: forgetting a record (a machine the host has fixed).
#include "ui/verify/verifytab.h"

#include "ui/verify/forgetrecord.h"
#include "ui/verify/reputationmodel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QTableView>

namespace gantry::ui {

QWidget *VerifyTab::createRecordsPane()
{
    auto *pane = new QWidget(this);
    auto *row = new QHBoxLayout(pane);
    row->setContentsMargins(0, 0, 0, 0);
    m_forgetRecord = new QPushButton(tr("Forget this record…"), pane);
    m_forgetRecord->setObjectName(QStringLiteral("forgetRecord"));
    m_forgetRecord->setToolTip(tr("Clear the chosen machine's passes, failures and flag: its offers show in Prices again"));
    row->addWidget(m_machines, 1);
    row->addWidget(m_forgetRecord, 0, Qt::AlignTop);
    auto *forget = new QAction(m_forgetRecord->text(), m_machines);
    m_machines->addAction(forget);
    m_machines->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto update = [this, forget] {
        const bool chosen = m_machines->currentIndex().isValid();
        m_forgetRecord->setEnabled(chosen);
        forget->setEnabled(chosen);
    };
    connect(m_machines->selectionModel(), &QItemSelectionModel::currentRowChanged, this, update);
    connect(m_reputation, &QAbstractItemModel::modelReset, this, update);
    connect(m_forgetRecord, &QPushButton::clicked, this, &VerifyTab::forgetSelectedRecord);
    connect(forget, &QAction::triggered, this, &VerifyTab::forgetSelectedRecord);
    update();
    return pane;
}

void VerifyTab::forgetSelectedRecord()
{
    const int row = m_machines->currentIndex().row();
    if (row < 0 || row >= m_reputation->machines().size() || m_context.configDir.isEmpty())
        return;
    const QString key = m_reputation->machines().at(row).key();
    const QString label = m_reputation->index(row, ReputationModel::MachineColumn).data().toString();
    forgetMachineRecord(this, m_context.configDir, key, label, [this, label](Result<void> forgotten) {
        setStatus(forgotten ? tr("Forgot the record of %1: it is no longer flagged.").arg(label) : forgotten.error().message);
        loadReputation();
    });
}

} // namespace gantry::ui
