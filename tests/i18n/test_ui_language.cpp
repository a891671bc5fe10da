// Which translation the GUI loads: setting, then LANGUAGE/LC_ALL/LC_MESSAGES/LANG (parsed by hand,
// because the glibc locale is often not generated), then the system locale; and the stored setting.
#include "core/util/uilanguage.h"

#include <QTemporaryDir>
#include <QTest>

using namespace gantry;

namespace {

QProcessEnvironment environment(std::initializer_list<std::pair<const char *, const char *>> variables)
{
    QProcessEnvironment env;
    for (const auto &[name, value] : variables)
        env.insert(QString::fromLatin1(name), QString::fromLatin1(value));
    return env;
}

QString chosen(const QProcessEnvironment &env, const QStringList &system = {}, const QString &setting = {})
{
    return uilanguage::chooseTranslation(setting, uilanguage::environmentLanguages(env), system);
}

} // namespace

class TestUiLanguage final : public QObject
{
    Q_OBJECT

private slots:
    void environmentOrder()
    {
        QCOMPARE(uilanguage::environmentLanguages(environment({{"LANGUAGE", "zh_CN:en_US"}, {"LANG", "C"}})),
                 QStringList({QStringLiteral("zh_CN"), QStringLiteral("en_US")}));
        QCOMPARE(uilanguage::environmentLanguages(environment({{"LC_ALL", "zh_CN.UTF-8"}, {"LANG", "en_US.UTF-8"}})),
                 QStringList({QStringLiteral("zh_CN")}));
        QCOMPARE(uilanguage::environmentLanguages(environment({{"LC_ALL", ""}, {"LC_MESSAGES", "de_DE@euro"}})),
                 QStringList({QStringLiteral("de_DE")}));
        QCOMPARE(uilanguage::environmentLanguages(environment({{"LANG", "C.UTF-8"}})), QStringList());
        QCOMPARE(uilanguage::environmentLanguages(environment({{"LANGUAGE", "POSIX"}, {"LANG", "POSIX"}})), QStringList());
    }

    void languageWinsOverACLocale()
    {
        QCOMPARE(chosen(environment({{"LANGUAGE", "zh_CN"}, {"LANG", "C"}})), QStringLiteral("zh_CN"));
        QCOMPARE(chosen(environment({{"LANGUAGE", "zh_CN"}})), QStringLiteral("zh_CN"));
        QCOMPARE(chosen(environment({{"LANGUAGE", "zh"}, {"LANG", "en_US.UTF-8"}})), QStringLiteral("zh_CN"));
    }

    void englishAsked()
    {
        QCOMPARE(chosen(environment({{"LANGUAGE", "en"}, {"LANG", "zh_CN.UTF-8"}}), {QStringLiteral("zh-CN")}), QString());
        QCOMPARE(chosen(environment({{"LANG", "en_GB.UTF-8"}}), {QStringLiteral("zh-CN")}), QString());
    }

    void unshippedLanguagesFallThrough()
    {
        // gettext semantics: the first listed language Gantry ships decides.
        QCOMPARE(chosen(environment({{"LANGUAGE", "de:zh_CN"}})), QStringLiteral("zh_CN"));
        QCOMPARE(chosen(environment({{"LANG", "zh_TW.UTF-8"}})), QString()); // Traditional is not shipped
        QCOMPARE(chosen(environment({{"LANG", "de_DE.UTF-8"}}), {QStringLiteral("zh-CN")}), QString());
    }

    void systemLocaleWhenEnvironmentIsSilent()
    {
        QCOMPARE(chosen(environment({}), {QStringLiteral("zh-Hans-CN"), QStringLiteral("zh")}), QStringLiteral("zh_CN"));
        QCOMPARE(chosen(environment({{"LANG", "C"}}), {QStringLiteral("zh-Hant-TW")}), QString());
        QCOMPARE(chosen(environment({}), {QStringLiteral("en-US")}), QString());
        QCOMPARE(chosen(environment({})), QString());
    }

    void settingWins()
    {
        const auto env = environment({{"LANGUAGE", "zh_CN"}});
        QCOMPARE(chosen(env, {}, QString::fromLatin1(uilanguage::kEnglish)), QString());
        QCOMPARE(chosen(environment({{"LANG", "en_US.UTF-8"}}), {}, QString::fromLatin1(uilanguage::kChinese)),
                 QStringLiteral("zh_CN"));
        QCOMPARE(chosen(env, {}, QString::fromLatin1(uilanguage::kSystem)), QStringLiteral("zh_CN"));
    }

    void settingRoundTrip()
    {
        QTemporaryDir dir;
        QVERIFY2(dir.isValid(), "cannot create a temporary directory; check TMPDIR");
        QCOMPARE(uilanguage::storedLanguage(dir.path()), QString());
        QVERIFY(uilanguage::storeLanguage(dir.path(), QString::fromLatin1(uilanguage::kChinese)).ok());
        QCOMPARE(uilanguage::storedLanguage(dir.path()), QStringLiteral("zh_CN"));
        QVERIFY(uilanguage::storeLanguage(dir.path(), QString::fromLatin1(uilanguage::kSystem)).ok());
        QCOMPARE(uilanguage::storedLanguage(dir.path()), QString());
    }
};

QTEST_GUILESS_MAIN(TestUiLanguage)
#include "test_ui_language.moc"
