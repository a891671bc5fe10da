// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/machinecopy.h"

#include <QStringList>

#include <atomic>
#include <optional>

namespace gantry::storage {

// s3://NAME/KEY: a configured bucket and a key or prefix in it (empty: the whole bucket).
struct BucketPath
{
    QString name;
    QString key;
};
std::optional<BucketPath> parseBucketPath(const QString &text);

// The last segment of a path or key, trailing slashes ignored ("a/b/" -> "b").
QString baseName(const QString &path);
// folder + '/' + name, without doubling a slash; name alone under an empty folder.
QString joinedPath(const QString &folder, const QString &name);

// What a copy will move, planned once for gantry-cli cp and the Storage panel. `onMachine`: the
// other side's paths are a machine's (machinePath()), else this computer's.

// One object to `to` (a file, or a folder when it ends in '/' or is a folder here).
Result<QList<CopyItem>> planObjectDownload(const S3Client &client, const QString &key, const QString &to, bool onMachine,
                                           const std::atomic_bool *cancel);
// Every object under `prefix` into the folder `to`, by its path below the prefix. Keys that would
// land outside the folder are left out and named in `leftOut`; console "folder" markers are skipped.
Result<QList<CopyItem>> planPrefixDownload(const S3Client &client, const BucketPath &from, const QString &to, bool onMachine,
                                           QStringList *leftOut, const std::atomic_bool *cancel);
// This computer -> bucket: one file, or (recursive) every file under the folder, by key order.
Result<QList<CopyItem>> planLocalUpload(const QString &from, const BucketPath &to, bool recursive);
// Machine -> bucket: one file, or (recursive) every file under the folder.
Result<QList<CopyItem>> planMachineUpload(MachineCopy &copy, const QString &from, const BucketPath &to, bool recursive,
                                          const std::atomic_bool *cancel);

// The key a single file lands under: `to.key` itself, or the file's name below it when it is empty
// or ends in '/'.
QString keyFor(const BucketPath &to, const QString &fileName);

} // namespace gantry::storage
