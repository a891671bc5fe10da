// SPDX-License-Identifier: Apache-2.0
#include "ui/common/confirm.h"

#include <QPushButton>

namespace gantry::ui {

bool askDestructive(QWidget *parent, const QString &title, const QString &text, QMessageBox::StandardButton cancel,
                    QMessageBox::Icon icon)
{
    QMessageBox box(icon, title, text, QMessageBox::Yes | cancel, parent);
    box.setDefaultButton(cancel);
    box.setEscapeButton(cancel);
    return box.exec() == QMessageBox::Yes;
}

QAbstractButton *makeCancelDefault(QMessageBox &box)
{
    auto *cancel = qobject_cast<QPushButton *>(box.button(QMessageBox::Cancel));
    if (!cancel)
        cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(cancel);
    box.setEscapeButton(cancel);
    return cancel;
}

} // namespace gantry::ui
