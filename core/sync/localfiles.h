// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/sync/synctypes.h"
#include "core/transfer/localtree.h"

#include <QByteArray>

#include <optional>

// Local files by their raw paths (bytes, as the scan has them): a name that is not valid UTF-8 is
// still found, where a QString path would not round-trip.
namespace gantry::sync {

// Lower-case hex SHA-256 of the file; empty where it cannot be read.
QByteArray localSha256(const QByteArray &path);

// The whole file, unless it cannot be read or holds more than maxBytes.
std::optional<QByteArray> readLocalFile(const QByteArray &path, qint64 maxBytes);

// The tar tree of what a sync round sends: new folders, then files and links, sorted by path
// (folders before their content), fingerprinted by paths, sizes and times.
transfer::LocalTree tarTree(const QByteArray &root, const QList<SyncEntry> &dirs, const QList<SyncEntry> &files);

} // namespace gantry::sync
