#include "core/providers/jsonfields.h"

#include <QLocale>

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

int truncatedInt(double value, int fallback)
{
    // Written so that NaN fails too; the bounds are the largest doubles whose truncation fits.
    if (!(value > -2147483649.0 && value < 2147483648.0))
        return fallback;
    return int(value);
}

qint64 truncatedInt64(double value, qint64 fallback)
{
    // ±2^63 are exact doubles; every double in [-2^63, 2^63) truncates into range.
    if (!(value >= -9223372036854775808.0 && value < 9223372036854775808.0))
        return fallback;
    return qint64(value);
}

QString string(const QJsonValue &value, const QString &fallback)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble()) {
        // Ids arrive as numbers (Vast's machine_id, offer ids): all their digits, never "1.23457e+06".
        const double number = value.toDouble();
        if (std::abs(number) < 9007199254740992.0 && number == std::trunc(number))
            return QString::number(static_cast<qint64>(number));
        return QString::number(number, 'g', QLocale::FloatingPointShortest);
    }
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
