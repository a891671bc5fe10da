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

} // namespace gantry::providers::json
