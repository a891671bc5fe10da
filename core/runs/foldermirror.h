// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/canceltoken.h"
#include "core/util/result.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace gantry::ssh { class Session; }

namespace gantry::runs {

// What one mirror brought home.
struct MirrorOutcome
{
    QStringList received;   // new or changed files, now home (relative paths)
    QStringList busy;       // written while they were copied, or open for writing: the last complete copy stays
    qint64 bytes = 0;
};

// sh that prints, one a line, the paths (relative to the current folder) of the files below it
// that a process of the user holds open with write access: a file being written, whatever its
// size and time say. Both checkpoint mirrors leave such a file at its last complete copy.
QString openForWritingScript();

// Brings a folder on a machine home, only new or changed files and only complete ones: each file
// is read through one open descriptor whose size, time and inode are the same before and after
// the copy — so a file put in place by rename (the descriptor still holds the old, finished file)
// or left alone counts, and one rewritten in place while it was copied, or held open for writing
// by a process of the user, does not and keeps its last complete copy at home. Every file lands through a rename, so a reader at home never sees
// half of one. `known` maps each path to the signature of the copy at home and is updated.
// Blocking: run it on a worker with the session it owns.
Result<MirrorOutcome> mirrorFolderHome(ssh::Session &session, const QString &remoteDir, const QString &localDir,
                                       QHash<QString, QString> *known, const CancelToken &cancel = {});

// Puts the mirror at home back on a machine, into remoteDir (made when missing), in one tar
// stream over one exec: a new machine gets the last complete checkpoint before its job starts.
// Returns how many files went.
Result<int> restoreFolder(ssh::Session &session, const QString &localDir, const QString &remoteDir, const CancelToken &cancel = {});

// The known signatures kept beside a mirror (<file>, one "signature\tpath" a line).
QHash<QString, QString> loadSignatures(const QString &file);
Result<void> saveSignatures(const QString &file, const QHash<QString, QString> &known);

} // namespace gantry::runs
