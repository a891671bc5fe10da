// SPDX-License-Identifier: Apache-2.0
#include "ui/verify/forgetrecord.h"

#include "ui/common/confirm.h"

#include "core/util/background.h"
#include "core/verify/reputation.h"

#include <QCoreApplication>
#include <QWidget>

namespace gantry::ui {
namespace {

class ForgetRecordText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::ui::ForgetRecord)
};

} // namespace

void forgetMachineRecord(QWidget *parent, const QString &configDir, const QString &key, const QString &label,
                         std::function<void(Result<void>)> done)
{
    const QString question = ForgetRecordText::tr("Forget the record of %1?\n\nIts passes and failures are cleared and it is no "
                                                  "longer flagged: its offers show in Prices again. Do this once the host has "
                                                  "fixed the machine; the next Verify records it anew.").arg(label);
    if (!askDestructive(parent, ForgetRecordText::tr("Forget machine record"), question))
        return;
    background::run<Result<void>>(parent, [configDir, key] {
        verify::ReputationStore store(configDir);
        return store.forget(key);
    }, std::move(done));
}

} // namespace gantry::ui
