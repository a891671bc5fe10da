#pragma once

#include "core/util/result.h"

#include <QJsonObject>
#include <QLatin1StringView>
#include <QString>

#include <span>

// Every file Gantry keeps says which version of its format it is, so that the next release can
// read it (migrating it on load) and an older one refuses it instead of overwriting what it does
// not understand. JSON files carry a top-level "schema": N; SQLite databases PRAGMA user_version.
namespace gantry::schema {

// A file's format version: its "schema" member, else `legacyKey` (hosts.json wrote "version"),
// else 1: the files written before versions existed are version 1.
int versionOf(const QJsonObject &root, QLatin1StringView legacyKey = {});

// Turns a document of version N into version N + 1; steps[0] lifts 1 to 2, and so on.
using Migration = QJsonObject (*)(QJsonObject);

// Brings a document read from `path` to version `current` (steps.size() must be current - 1):
// refuses one written by a newer Gantry, migrates older ones. The result carries "schema": current.
Result<QJsonObject> upgrade(QJsonObject root, int current, const QString &path, std::span<const Migration> steps = {},
                            QLatin1StringView legacyKey = {});

// `root` with "schema": version, ready to be written (the legacy key, if any, is dropped).
QJsonObject stamped(QJsonObject root, int version, QLatin1StringView legacyKey = {});

// Writers call this before replacing `path`: an error when the file there was written by a newer
// Gantry. Ok when there is none or it cannot be read; a file that cannot be parsed is first
// renamed to damagedCopyPath(path), so replacing it loses nothing.
Result<void> checkReplaceable(const QString &path, int current, QLatin1StringView legacyKey = {});
// PATH.damaged-YYYYMMDD-HHMMSS (UTC, now): where checkReplaceable keeps a damaged file.
QString damagedCopyPath(const QString &path);

// The error for a file (JSON or SQLite) of format `found` when this build knows up to `known`.
Error newerFileError(const QString &path, int found, int known);

} // namespace gantry::schema
