#pragma once

#include <QMenu>

namespace gantry::ui {

// "Language" menu: System default / English / 简体中文. The choice is stored in the config dir and
// applies when Gantry next starts (main() installs the translators before any widget exists).
class LanguageMenu final : public QMenu
{
    Q_OBJECT

public:
    LanguageMenu(QString configDir, QWidget *parent = nullptr);

signals:
    // A sentence for the status bar: what was chosen and that it applies after a restart, or why
    // it could not be saved.
    void message(const QString &text);

private:
    void choose(const QString &language);

    QString m_configDir;
};

} // namespace gantry::ui
