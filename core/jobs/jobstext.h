// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::jobs {

// The translation context of core/jobs ("gantry::jobs") for its code that is not a QObject:
// one context per area, so a translator sees an area's messages together.
class JobsText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::jobs)
};

} // namespace gantry::jobs
