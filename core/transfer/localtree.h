#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace gantry::transfer {

struct LocalEntry
{
    QString relative;   // '/'-separated, relative to the folder's parent (starts with the folder name)
    QString absolute;   // what is read (a symlink's target when followed)
    quint64 size = 0;
    qint64 mtimeMs = 0;
    quint32 mode = 0644;
    bool isDir = false;
    // Set by a sync, which lists folders itself: the name's and the path's own bytes (a name that
    // is not valid UTF-8 is sent byte for byte; relative is then only for messages), and a symlink
    // sent as a link (never followed) with its target.
    QByteArray nativeRelative{};
    QByteArray nativeAbsolute{};
    bool isLink = false;
    QByteArray linkTarget{};

    QByteArray tarName() const { return nativeRelative.isEmpty() ? relative.toUtf8() : nativeRelative; }
};

struct LocalTree
{
    QList<LocalEntry> entries; // sorted by relative path; directories before their content
    quint64 totalBytes = 0;
    int fileCount = 0;
    QStringList notes;         // skipped symlinks and the like
    QByteArray fingerprint;    // changes when any name, size or mtime changes
};

// Lists a local folder for upload. Symlinks to files are followed when followSymlinks is set;
// symlinks to directories (loops) and broken symlinks are skipped and named in notes. An
// unreadable file is an error up front rather than a failure half-way.
Result<LocalTree> scanLocalTree(const QString &folder, bool followSymlinks);

// Splits entries into batches of at most maxFiles files and maxBytes bytes: [begin, end) pairs.
QList<QPair<int, int>> planBatches(const LocalTree &tree, int maxFiles, quint64 maxBytes);

} // namespace gantry::transfer
