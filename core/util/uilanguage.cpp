#include "core/util/uilanguage.h"

#include "core/util/schemaversion.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>

namespace gantry::uilanguage {
namespace {

class UiLanguageText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::uilanguage)
};

const QString kSettingKey = QStringLiteral("ui/language");
// gantry.ini's format, as [General] schema=; files without the key (all so far) are version 1.
const QString kSchemaKey = QStringLiteral("schema");
constexpr int kSettingsSchema = 1;

// "zh_CN.UTF-8@stroke" -> "zh_CN"; "zh-Hans-CN" -> "zh_Hans_CN".
QString normalized(QString name)
{
    name = name.section(QLatin1Char('.'), 0, 0).section(QLatin1Char('@'), 0, 0).trimmed();
    name.replace(QLatin1Char('-'), QLatin1Char('_'));
    return name;
}

bool asksForNothing(const QString &name)
{
    return name.isEmpty() || name == QLatin1String("C") || name == QLatin1String("POSIX");
}

// What one language name selects: kEnglish, kChinese, or nullopt for a language Gantry does not ship.
std::optional<QString> shippedFor(const QString &name)
{
    const QStringList parts = normalized(name).split(QLatin1Char('_'), Qt::SkipEmptyParts);
    if (parts.isEmpty())
        return std::nullopt;
    const QString language = parts.first().toLower();
    if (language == QLatin1String("en"))
        return QString::fromLatin1(kEnglish);
    if (language != QLatin1String("zh"))
        return std::nullopt;
    // Simplified Chinese: zh, zh_CN, zh_SG, zh_Hans…; Traditional (zh_TW, zh_HK, zh_Hant) is not shipped.
    const bool traditional = parts.contains(QLatin1String("Hant"), Qt::CaseInsensitive)
        || parts.contains(QLatin1String("TW"), Qt::CaseInsensitive) || parts.contains(QLatin1String("HK"), Qt::CaseInsensitive)
        || parts.contains(QLatin1String("MO"), Qt::CaseInsensitive);
    if (traditional && !parts.contains(QLatin1String("Hans"), Qt::CaseInsensitive))
        return std::nullopt;
    return QString::fromLatin1(kChinese);
}

std::optional<QString> firstShipped(const QStringList &names)
{
    for (const QString &name : names) {
        if (auto shipped = shippedFor(name))
            return shipped;
    }
    return std::nullopt;
}

QString asTranslation(const QString &shipped)
{
    return shipped == QLatin1String(kEnglish) ? QString() : shipped;
}

} // namespace

QStringList environmentLanguages(const QProcessEnvironment &env)
{
    QStringList languages;
    for (const QString &name : env.value(QStringLiteral("LANGUAGE")).split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        if (!asksForNothing(normalized(name)))
            languages.append(normalized(name));
    }
    for (const char *variable : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const QString value = env.value(QString::fromLatin1(variable));
        if (value.isEmpty())
            continue; // an empty variable is unset for gettext; the next one decides
        if (!asksForNothing(normalized(value)))
            languages.append(normalized(value));
        break;
    }
    return languages;
}

QString chooseTranslation(const QString &setting, const QStringList &environment, const QStringList &systemLanguages)
{
    if (!asksForNothing(setting)) {
        if (auto shipped = shippedFor(setting))
            return asTranslation(*shipped);
    }
    if (auto shipped = firstShipped(environment))
        return asTranslation(*shipped);
    if (!environment.isEmpty())
        return QString(); // asked for languages Gantry does not ship: the source language, English
    if (auto shipped = firstShipped(systemLanguages))
        return asTranslation(*shipped);
    return QString();
}

QString storedLanguage(const QString &configDir)
{
    const QSettings settings(QDir(configDir).filePath(QStringLiteral("gantry.ini")), QSettings::IniFormat);
    return settings.value(kSettingKey).toString();
}

Result<void> storeLanguage(const QString &configDir, const QString &language)
{
    QSettings settings(QDir(configDir).filePath(QStringLiteral("gantry.ini")), QSettings::IniFormat);
    // A newer Gantry's settings are read (storedLanguage) but not rewritten: this build cannot know
    // what their other keys mean.
    if (const int found = settings.value(kSchemaKey, 1).toInt(); found > kSettingsSchema)
        return schema::newerFileError(settings.fileName(), found, kSettingsSchema);
    settings.setValue(kSchemaKey, kSettingsSchema);
    if (language.isEmpty())
        settings.remove(kSettingKey);
    else
        settings.setValue(kSettingKey, language);
    settings.sync();
    if (settings.status() != QSettings::NoError)
        return makeError(ErrorCode::Io, UiLanguageText::tr("Cannot save the language setting in %1; check that the folder "
                                                           "is writable.")
                                            .arg(settings.fileName()));
    return {};
}

} // namespace gantry::uilanguage
