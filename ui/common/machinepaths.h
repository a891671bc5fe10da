// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace gantry::ui {

// Files of a saved machine carried by a drag (the Files tab's), beside the local copies the drag
// can make: a drop onto another machine takes these and copies the files between the machines,
// so nothing is downloaded here for it.
inline const QString kMachinePathsMime = QStringLiteral("application/x-gantry-machine-paths");

struct MachinePaths
{
    QString host;      // the saved host the files are on
    QStringList paths; // absolute paths on it
};

QByteArray encodeMachinePaths(const MachinePaths &paths);
// nullopt for anything but a host and at least one path.
std::optional<MachinePaths> decodeMachinePaths(const QByteArray &data);

} // namespace gantry::ui
