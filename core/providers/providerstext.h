// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::providers {

// The translation context of core/providers ("gantry::providers") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class ProvidersText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::providers)
};

} // namespace gantry::providers
