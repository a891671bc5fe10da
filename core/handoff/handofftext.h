// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::handoff {

// The translation context of core/handoff ("gantry::handoff") for its code that is not a QObject.
class HandoffText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::handoff)
};

} // namespace gantry::handoff
