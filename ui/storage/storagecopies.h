// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/transfer/transfertypes.h"
#include "ui/storage/copyoperations.h"

#include <QStringList>

namespace gantry::storage {
class Buckets;
}

namespace gantry::ui::storagecopies {

// What the user picked in the browser: an object, or a "folder" (a prefix ending in '/').
struct Pick
{
    QString key;
    bool folder = false;
};

// The saved host's sessions, non-interactive (TransferQueue::savedHostProvider in the app).
using SessionSource = std::function<Result<transfer::SessionFactory>(const QString &host)>;

// The copies the Storage panel starts, each the work of one CopyOperations row, run on a worker:
// the same planning (core/storage/copyplan.h) and engines as gantry-cli cp. Folders keep their
// name under the destination.

// Bucket -> a folder of this computer.
CopyOperations::Work download(storage::Buckets *buckets, const QString &bucket, const QList<Pick> &picks, const QString &folder);
// Bucket -> a folder of a saved machine; the machine fetches with curl (no key reaches it).
CopyOperations::Work toMachine(storage::Buckets *buckets, const QString &bucket, const QList<Pick> &picks,
                               const SessionSource &sessions, const QString &host, const QString &folder);
// Files and folders of one saved machine -> a folder of another, straight between the two
// (storage::copyBetweenMachines: a one-time key authorised on the target), else through this
// computer, saying why; every file checked by its SHA-256 on both ends.
CopyOperations::Work betweenMachines(const SessionSource &sessions, const QString &sourceHost, const QStringList &paths,
                                     const QString &targetHost, const QString &folder);
// Files of this computer -> the prefix.
CopyOperations::Work upload(storage::Buckets *buckets, const QString &bucket, const QString &prefix, const QStringList &files);

} // namespace gantry::ui::storagecopies
