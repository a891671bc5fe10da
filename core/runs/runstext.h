// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QCoreApplication>

namespace gantry::runs {

// The translation context of core/runs ("gantry::runs") for its code that is not a QObject.
class RunsText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::runs)
};

} // namespace gantry::runs
