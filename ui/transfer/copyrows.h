// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/copyjobs.h"

#include <QVariant>

namespace gantry::ui::copyrows {

// A copy through a bucket or between machines as a row of the Transfers queue: its title, the
// machines, progress by bytes once planned, its average speed, and how it ended.
QVariant data(const storage::CopyJob &job, int column, int role);

} // namespace gantry::ui::copyrows
