// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/result.h"

#include <functional>

class QWidget;

namespace gantry::ui {

// "Forget this record…" of a machine Verify or Doctor flagged (Verify's Machine records, a flagged
// offer in Prices): asks first, Cancel being the default, then removes the record from
// machines.json off the GUI thread with ReputationStore::forget, what `gantry-cli verify-history
// --forget KEY` runs. `done` gets the outcome on the GUI thread, and is not called when the user
// keeps the record. `label` names the machine in the question.
void forgetMachineRecord(QWidget *parent, const QString &configDir, const QString &key, const QString &label,
                         std::function<void(Result<void>)> done);

} // namespace gantry::ui
