// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::sync {

// The translation context of core/sync ("gantry::sync") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class SyncText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::sync)
};

} // namespace gantry::sync
