#pragma once

#include "core/util/result.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// The user's preferences kept in <configDir>/gantry.ini, one typed list shared by the GUI's
// Settings dialog and `gantry-cli settings`, so both read, check and write the same keys. Budgets
// live in the cost ledger and API keys in the keychain; neither is here.
namespace gantry::appsettings {

struct SettingInfo
{
    QString key;          // "idle.action", "endpoint.lambda" (dots in the CLI; groups in the .ini)
    QString description;  // one English line for `settings list`
    QString defaultValue; // what an unset key means ("" = nothing)
    QStringList choices;  // allowed values when the setting is a choice; empty = free text
    bool integer = false; // a whole number >= 0
};

// The fixed keys plus one endpoint override per cloud provider id given.
QList<SettingInfo> knownSettings(const QStringList &cloudProviderIds);
std::optional<SettingInfo> findSetting(const QString &key, const QStringList &cloudProviderIds);

// The stored value, or the default when unset.
QString value(const QString &configDir, const QString &key);
bool isSet(const QString &configDir, const QString &key);
// Checks the value against the setting (choices, integer, URL) and stores it; "" removes it.
// Refuses a gantry.ini written by a newer Gantry.
Result<void> setValue(const QString &configDir, const SettingInfo &setting, const QString &value);


} // namespace gantry::appsettings
