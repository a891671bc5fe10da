#include "core/tunnel/presets.h"
#include "core/tunnel/tunneltext.h"

#include <QObject>

namespace gantry::tunnel {

QList<PresetInfo> presets()
{
    return {
        {Preset::Jupyter, TunnelText::tr("Jupyter"), 8888},
        {Preset::TensorBoard, TunnelText::tr("TensorBoard"), 6006},
        {Preset::Custom, TunnelText::tr("Other port"), 0},
    };
}

int presetPort(Preset preset)
{
    for (const PresetInfo &info : presets()) {
        if (info.preset == preset)
            return info.remotePort;
    }
    return 0;
}

QString presetLabel(Preset preset)
{
    for (const PresetInfo &info : presets()) {
        if (info.preset == preset)
            return info.label;
    }
    return {};
}

} // namespace gantry::tunnel
