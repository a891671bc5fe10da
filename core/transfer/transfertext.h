// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::transfer {

// The translation context of core/transfer ("gantry::transfer") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class TransferText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::transfer)
};

} // namespace gantry::transfer
