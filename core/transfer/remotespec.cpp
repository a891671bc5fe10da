#include "core/transfer/remotespec.h"

namespace gantry::transfer {

std::optional<RemoteSpec> parseRemoteSpec(const QString &text)
{
    qsizetype hostEnd = 0;
    if (text.contains(QLatin1Char('@')) && text.indexOf(QLatin1Char('@')) < text.indexOf(QLatin1Char(':'))) {
        hostEnd = text.indexOf(QLatin1Char('@')) + 1;
    }
    if (hostEnd < text.size() && text.at(hostEnd) == QLatin1Char('[')) {
        const qsizetype close = text.indexOf(QLatin1Char(']'), hostEnd);
        if (close < 0) return std::nullopt;
        hostEnd = close + 1;
    }
    qsizetype colon = text.indexOf(QLatin1Char(':'), hostEnd);
    if (colon <= 0) return std::nullopt;
    // host:PORT:path — the port belongs to the host.
    qsizetype second = text.indexOf(QLatin1Char(':'), colon + 1);
    if (second > colon + 1) {
        bool isPort = false;
        text.mid(colon + 1, second - colon - 1).toInt(&isPort);
        if (isPort) colon = second;
    }
    RemoteSpec spec{text.left(colon), text.mid(colon + 1)};
    if (spec.host.isEmpty()) return std::nullopt;
    return spec;
}

} // namespace gantry::transfer
