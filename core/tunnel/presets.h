#pragma once

#include <QList>
#include <QString>

namespace gantry::tunnel {

// What users forward most; Custom takes any port.
enum class Preset
{
    Jupyter,
    TensorBoard,
    Custom,
};

struct PresetInfo
{
    Preset preset;
    QString label;   // "Jupyter"
    int remotePort;  // 8888
};

QList<PresetInfo> presets();
int presetPort(Preset preset); // 0 for Custom
QString presetLabel(Preset preset);

} // namespace gantry::tunnel
