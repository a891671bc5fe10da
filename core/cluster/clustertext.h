// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::cluster {

// The translation context of core/cluster ("gantry::cluster") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class ClusterText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::cluster)
};

} // namespace gantry::cluster
