// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace gantry::testsupport {

// The staging file a single-file transfer to finalPath keeps beside it (".NAME.gantry-HASH.partial",
// core/transfer/journal.h), whatever host the transfer named; empty when there is none.
inline QString stagingFileOf(const QString &finalPath)
{
    const QFileInfo info(finalPath);
    const QDir dir(info.absolutePath());
    const QStringList found = dir.entryList({QLatin1Char('.') + info.fileName() + QStringLiteral(".gantry-*.partial")},
                                            QDir::Files | QDir::Hidden | QDir::System);
    return found.size() == 1 ? dir.filePath(found.first()) : QString();
}

} // namespace gantry::testsupport
