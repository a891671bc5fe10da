// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMessageBox>
#include <QString>

class QWidget;

namespace gantry::ui {

// A question whose Yes cannot be undone (terminate, delete, kill, remove, stop a job): Enter and
// Esc both answer `cancel` (No or Cancel), so only a deliberate click on Yes goes ahead. Every
// such question in the GUI goes through here (packaging/check-shape.py refuses
// QMessageBox::question elsewhere in ui/ and app/).
bool askDestructive(QWidget *parent, const QString &title, const QString &text,
                    QMessageBox::StandardButton cancel = QMessageBox::Cancel, QMessageBox::Icon icon = QMessageBox::Question);

// For a QMessageBox built by hand (custom buttons): Cancel is added when missing and made the
// default and escape button. Returns it.
QAbstractButton *makeCancelDefault(QMessageBox &box);

} // namespace gantry::ui
