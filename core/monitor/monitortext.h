// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::monitor {

// The translation context of core/monitor ("gantry::monitor") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class MonitorText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::monitor)
};

} // namespace gantry::monitor
