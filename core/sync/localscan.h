#pragma once

#include "core/sync/ignorerules.h"
#include "core/sync/synctypes.h"
#include "core/util/result.h"

#include <QString>

namespace gantry::sync {

struct ScanOptions
{
    IgnoreRules excludes;     // --exclude patterns: checked before the ignore files, so they win
    bool skipGit = true;      // leave .git out (a folder, or the file of a worktree)
    bool ignoreFiles = true;  // honour .gitignore and .gantryignore
};

// Lists folder (its native path bytes) without following any symlink: a link is an entry of its
// own, so nothing outside the folder is ever read. Ignore files are read as the walk enters each
// folder, and ignored folders are not entered. An unreadable file or folder is an error naming
// it, up front rather than half-way through a sync.
Result<LocalScan> scanLocal(const QByteArray &folder, const ScanOptions &options);

// The native bytes of a local path given on the command line or in the GUI.
QByteArray nativePath(const QString &path);
// A path for messages: the bytes as UTF-8, invalid bytes shown as \xNN.
QString displayPath(const QByteArray &path);

} // namespace gantry::sync
