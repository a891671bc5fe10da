#include "app/gui/translations.h"

#include "core/util/uilanguage.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

#include <cstdio>

namespace gantry::app {

QString installTranslators(const QString &configDir)
{
    const QString language = uilanguage::chooseTranslation(uilanguage::storedLanguage(configDir),
                                                           uilanguage::environmentLanguages(QProcessEnvironment::systemEnvironment()),
                                                           QLocale::system().uiLanguages());
    if (language.isEmpty())
        return language;
    // Numbers and dates follow the interface language, even where the glibc locale is "C".
    QLocale::setDefault(QLocale(language));
    auto *gantry = new QTranslator(QCoreApplication::instance());
    if (gantry->load(QStringLiteral("gantry_") + language, QStringLiteral(":/gantry/translations")))
        QCoreApplication::installTranslator(gantry);
    else
        fprintf(stderr, "gantry: the %s translation is missing from this build; the window stays in English.\n",
                qPrintable(language));
    // Qt's own dialogs and buttons (OK, Cancel, file dialogs); optional, from the qt6-translations-l10n package.
    auto *qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(QStringLiteral("qtbase_") + language, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    return language;
}

} // namespace gantry::app
