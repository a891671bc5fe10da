#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace gantry::providers::json {

// Providers document a field as an integer and send a string, or drop it entirely; these readers
// accept int, double and numeric strings and fall back quietly.
double number(const QJsonValue &value, double fallback = 0);
int integer(const QJsonValue &value, int fallback = 0);
QString string(const QJsonValue &value, const QString &fallback = {});
bool boolean(const QJsonValue &value, bool fallback = false);

// A number read with number() as the integer a cast would give (truncated toward zero), except
// that a value the type cannot hold gives fallback: casting a hostile 4e74 is undefined
// behaviour (found by the provider_json fuzz harness).
int truncatedInt(double value, int fallback = 0);
qint64 truncatedInt64(double value, qint64 fallback = 0);

} // namespace gantry::providers::json
