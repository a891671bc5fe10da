#include "ui/shell/languagemenu.h"

#include "core/util/uilanguage.h"

#include <QActionGroup>

namespace gantry::ui {

LanguageMenu::LanguageMenu(QString configDir, QWidget *parent)
    : QMenu(tr("Language"), parent)
    , m_configDir(std::move(configDir))
{
    setObjectName(QStringLiteral("languageMenu"));
    auto *group = new QActionGroup(this);
    const QString stored = uilanguage::storedLanguage(m_configDir);
    // Language names are written in their own language, so whoever cannot read the current one
    // still finds theirs.
    const QList<std::pair<QString, QString>> choices = {
        {QString::fromLatin1(uilanguage::kSystem), tr("System default")},
        {QString::fromLatin1(uilanguage::kEnglish), QStringLiteral("English")},
        {QString::fromLatin1(uilanguage::kChinese), QStringLiteral("简体中文")},
    };
    for (const auto &[language, label] : choices) {
        QAction *action = addAction(label);
        action->setCheckable(true);
        action->setChecked(language == stored);
        action->setData(language);
        action->setObjectName(QStringLiteral("language_") + (language.isEmpty() ? QStringLiteral("system") : language));
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, language] { choose(language); });
    }
}

void LanguageMenu::choose(const QString &language)
{
    if (auto stored = uilanguage::storeLanguage(m_configDir, language); !stored) {
        emit message(stored.error().message);
        return;
    }
    emit message(tr("The language changes when Gantry next starts."));
}

} // namespace gantry::ui
