#pragma once

#include "core/cost/ledger.h"
#include "core/providers/providertypes.h"

#include <QStringList>

namespace gantry::cost {

// One sentence per thing that keeps billing without running: stopped instances whose disks are
// still charged, and persistent volumes/filesystems.
// With now given, an instance stopped for more than remindAfterDays days becomes a reminder that
// says how long and what its disk has cost since (costModelFor() of its provider).
QStringList storageWarnings(const QList<LedgerEntry> &entries, const QDateTime &now = {}, int remindAfterDays = 3);
QStringList storageWarnings(const QString &providerName, const QList<providers::Filesystem> &filesystems);

} // namespace gantry::cost
