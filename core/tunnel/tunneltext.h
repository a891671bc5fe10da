// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::tunnel {

// The translation context of core/tunnel ("gantry::tunnel") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class TunnelText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::tunnel)
};

} // namespace gantry::tunnel
