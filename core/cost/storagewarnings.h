#pragma once

#include "cost/ledger.h"
#include "providers/providertypes.h"

#include <QStringList>

namespace gantry::cost {

// One sentence per thing that keeps billing without running: stopped instances whose disks are
// still charged, and persistent volumes/filesystems.
QStringList storageWarnings(const QList<LedgerEntry> &entries);
QStringList storageWarnings(const QString &providerName, const QList<providers::Filesystem> &filesystems);

} // namespace gantry::cost
