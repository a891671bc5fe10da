#include "core/util/appsettings.h"

#include "core/util/schemaversion.h"
#include "core/util/uilanguage.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QUrl>

namespace gantry::appsettings {
namespace {

class AppSettingsText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::appsettings)
};

constexpr int kSettingsSchema = 1; // as uilanguage.cpp: [General] schema=

QString iniPath(const QString &configDir)
{
    return QDir(configDir).filePath(QStringLiteral("gantry.ini"));
}

// "idle.action" -> "idle/action"; the language keeps the group uilanguage.cpp has always used.
QString iniKey(const QString &key)
{
    if (key == QLatin1String("ui.language"))
        return QStringLiteral("ui/language");
    QString copy = key;
    return copy.replace(QLatin1Char('.'), QLatin1Char('/'));
}

Result<void> check(const SettingInfo &setting, const QString &value)
{
    if (value.isEmpty())
        return {};
    if (!setting.choices.isEmpty() && !setting.choices.contains(value))
        return makeError(ErrorCode::Usage, AppSettingsText::tr("%1 must be one of: %2.").arg(setting.key, setting.choices.join(QStringLiteral(", "))));
    bool ok = true;
    if (setting.integer && (value.toInt(&ok) < 0 || !ok))
        return makeError(ErrorCode::Usage, AppSettingsText::tr("%1 must be a whole number of 0 or more.").arg(setting.key));
    if (setting.key.startsWith(QLatin1String("endpoint."))) {
        const QUrl url(value, QUrl::StrictMode);
        if (!url.isValid() || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")) || url.host().isEmpty())
            return makeError(ErrorCode::Usage, AppSettingsText::tr("%1 must be an http(s) URL such as https://api.example.com/v1.").arg(setting.key));
    }
    return {};
}

} // namespace

QList<SettingInfo> knownSettings(const QStringList &cloudProviderIds)
{
    QList<SettingInfo> all{
        {QStringLiteral("ui.language"), QStringLiteral("GUI language: empty follows the system"), QString(),
         {QString::fromLatin1(uilanguage::kEnglish), QString::fromLatin1(uilanguage::kChinese)}, false},
        {QStringLiteral("ssh.default_key"), QStringLiteral("private key file offered in Add SSH host (agent and usual keys when empty)"), QString(), {}, false},
        {QStringLiteral("idle.action"), QStringLiteral("what the idle policy does with a billing machine whose GPUs idle"),
         QStringLiteral("notify"), {QStringLiteral("notify"), QStringLiteral("stop"), QStringLiteral("terminate")}, false},
        {QStringLiteral("idle.minutes"), QStringLiteral("minutes of idle GPUs before the idle action"), QStringLiteral("15"), {}, true},
        {QStringLiteral("idle.countdown_seconds"), QStringLiteral("seconds of visible, cancellable countdown before stop/terminate"),
         QStringLiteral("60"), {}, true},
        {QStringLiteral("accept.after_launch"),
         QStringLiteral("after a launch from the window: offer the acceptance test, run it at once, or say nothing"),
         QStringLiteral("offer"), {QStringLiteral("offer"), QStringLiteral("run"), QStringLiteral("off")}, false},
    };
    for (const QString &id : cloudProviderIds)
        all.append({QStringLiteral("endpoint.") + id, QStringLiteral("API endpoint override for %1 (advanced)").arg(id), QString(), {}, false});
    return all;
}

std::optional<SettingInfo> findSetting(const QString &key, const QStringList &cloudProviderIds)
{
    for (const SettingInfo &setting : knownSettings(cloudProviderIds)) {
        if (setting.key == key)
            return setting;
    }
    return std::nullopt;
}

bool isSet(const QString &configDir, const QString &key)
{
    return QSettings(iniPath(configDir), QSettings::IniFormat).contains(iniKey(key));
}

QString value(const QString &configDir, const QString &key)
{
    const QSettings settings(iniPath(configDir), QSettings::IniFormat);
    if (settings.contains(iniKey(key)))
        return settings.value(iniKey(key)).toString();
    for (const SettingInfo &setting : knownSettings({})) {
        if (setting.key == key)
            return setting.defaultValue;
    }
    return QString();
}

Result<void> setValue(const QString &configDir, const SettingInfo &setting, const QString &value)
{
    if (Result<void> valid = check(setting, value.trimmed()); !valid)
        return valid;
    QSettings settings(iniPath(configDir), QSettings::IniFormat);
    if (const int found = settings.value(QStringLiteral("schema"), 1).toInt(); found > kSettingsSchema)
        return schema::newerFileError(settings.fileName(), found, kSettingsSchema);
    settings.setValue(QStringLiteral("schema"), kSettingsSchema);
    if (value.trimmed().isEmpty())
        settings.remove(iniKey(setting.key));
    else
        settings.setValue(iniKey(setting.key), value.trimmed());
    settings.sync();
    if (settings.status() != QSettings::NoError)
        return makeError(ErrorCode::Io, AppSettingsText::tr("Cannot save %1 in %2; check that the folder is writable.")
                                            .arg(setting.key, settings.fileName()));
    return {};
}

} // namespace gantry::appsettings
