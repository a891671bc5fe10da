// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::storage {

// The translation context of core/storage ("gantry::storage"): one context per area, so a translator
// sees the area's messages together.
class StorageText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::storage)
};

} // namespace gantry::storage
