// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::guard {

// The translation context of core/guard ("gantry::guard") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class GuardText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::guard)
};

} // namespace gantry::guard
