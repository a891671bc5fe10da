// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::verify {

// The translation context of core/verify ("gantry::verify") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class VerifyText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::verify)
};

} // namespace gantry::verify
