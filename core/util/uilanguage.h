#pragma once

#include "core/util/result.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// Which translation the GUI loads. Kept free of widgets so it is unit tested; gantry-cli never
// calls it (its output stays English for scripts).
namespace gantry::uilanguage {

// Values of the language setting.
inline constexpr const char *kSystem = "";         // follow the environment / system locale
inline constexpr const char *kEnglish = "en";
inline constexpr const char *kChinese = "zh_CN";

// Languages asked for by the environment, most preferred first, as gettext reads them: LANGUAGE
// (a colon-separated list), then the first set of LC_ALL, LC_MESSAGES, LANG. Encodings and
// modifiers are dropped ("zh_CN.UTF-8@x" -> "zh_CN"); "C" and "POSIX" ask for nothing.
// LANGUAGE counts even when the locale is "C", because the glibc locale is often not generated.
QStringList environmentLanguages(const QProcessEnvironment &env);

// The translation to load: "zh_CN", or "" for English (the source language). An explicit setting
// wins; otherwise the first environment language that names English or a shipped translation,
// then the system's UI languages (QLocale::system().uiLanguages(), e.g. "zh-Hans-CN").
QString chooseTranslation(const QString &setting, const QStringList &environment, const QStringList &systemLanguages);

// The language setting, kept in <configDir>/gantry.ini ([ui] language=); kSystem when unset.
// storeLanguage() refuses a gantry.ini written by a newer Gantry ([General] schema= above 1).
QString storedLanguage(const QString &configDir);
Result<void> storeLanguage(const QString &configDir, const QString &language);

} // namespace gantry::uilanguage
