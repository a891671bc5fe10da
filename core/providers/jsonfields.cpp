#include "core/providers/jsonfields.h"

#include <cmath>

namespace gantry::providers::json {

double number(const QJsonValue &value, double fallback)
{
    if (value.isDouble())
        return value.toDouble();
    if (value.isString()) {
        bool ok = false;
        const double parsed = value.toString().trimmed().toDouble(&ok);
        return ok && std::isfinite(parsed) ? parsed : fallback;
    }
    if (value.isBool())
        return value.toBool() ? 1 : 0;
    return fallback;
}

int integer(const QJsonValue &value, int fallback)
{
    const double parsed = number(value, double(fallback));
    if (parsed > 2e9 || parsed < -2e9)
        return fallback;
    return int(std::llround(parsed));
}

QString string(const QJsonValue &value, const QString &fallback)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble());
    return fallback;
}

bool boolean(const QJsonValue &value, bool fallback)
{
    if (value.isBool())
        return value.toBool();
    if (value.isDouble())
        return value.toDouble() != 0;
    if (value.isString())
        return value.toString() == QLatin1String("true");
    return fallback;
}

} // namespace gantry::providers::json
