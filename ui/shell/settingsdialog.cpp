#include "ui/shell/settingsdialog.h"

#include "ui/shell/accountspage.h"

#include "ui/common/themecolors.h"

#include "core/cost/ledger.h"
#include "core/diagnostics/cloudproviders.h"
#include "core/util/appsettings.h"
#include "core/util/paths.h"
#include "core/util/uilanguage.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace gantry::ui {

SettingsDialog::SettingsDialog(QString configDir, SecretStore *secrets, cost::Ledger *ledger, QWidget *parent)
    : QDialog(parent)
    , m_configDir(std::move(configDir))
    , m_ledger(ledger)
    , m_tabs(new QTabWidget(this))
    , m_accounts(new AccountsPage(m_configDir, secrets, m_tabs))
{
    setWindowTitle(tr("Settings"));
    setObjectName(QStringLiteral("settingsDialog"));
    m_tabs->addTab(m_accounts, tr("Accounts"));
    m_tabs->addTab(buildGeneral(), tr("General"));
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    setToneText(m_error, Tone::Error);
    m_error->hide();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    connect(m_accounts, &AccountsPage::accountsChanged, this, &SettingsDialog::accountsChanged);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        const QString error = save();
        m_error->setText(error);
        m_error->setVisible(!error.isEmpty());
        if (error.isEmpty())
            accept();
    });
    resize(sizeHint().expandedTo(QSize(fontMetrics().averageCharWidth() * 90, 0)));
}

QWidget *SettingsDialog::buildGeneral()
{
    auto *page = new QWidget(m_tabs);
    auto *form = new QFormLayout(page);
    m_sshKey = new QLineEdit(appsettings::value(m_configDir, QStringLiteral("ssh.default_key")), page);
    m_sshKey->setPlaceholderText(tr("~/.ssh/id_ed25519 (agent and usual keys when empty)"));
    auto *browse = new QPushButton(tr("Browse…"), page);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_sshKey, 1);
    keyRow->addWidget(browse);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Default SSH key"), paths::userSshDir());
        if (!file.isEmpty())
            m_sshKey->setText(file);
    });

    m_idleAction = new QComboBox(page);
    m_idleAction->setObjectName(QStringLiteral("idleAction"));
    m_idleAction->addItem(tr("Notify me"), QStringLiteral("notify"));
    m_idleAction->addItem(tr("Stop the instance"), QStringLiteral("stop"));
    m_idleAction->addItem(tr("Terminate the instance"), QStringLiteral("terminate"));
    m_idleAction->setCurrentIndex(std::max(0, m_idleAction->findData(appsettings::value(m_configDir, QStringLiteral("idle.action")))));
    m_idleMinutes = new QSpinBox(page);
    m_idleMinutes->setRange(1, 24 * 60);
    m_idleMinutes->setSuffix(tr(" min"));
    m_idleMinutes->setValue(appsettings::value(m_configDir, QStringLiteral("idle.minutes")).toInt());
    m_countdown = new QSpinBox(page);
    m_countdown->setRange(5, 3600);
    m_countdown->setSuffix(tr(" s"));
    m_countdown->setValue(appsettings::value(m_configDir, QStringLiteral("idle.countdown_seconds")).toInt());

    m_daily = new QDoubleSpinBox(page);
    m_monthly = new QDoubleSpinBox(page);
    m_daily->setObjectName(QStringLiteral("dailyBudget"));
    m_monthly->setObjectName(QStringLiteral("monthlyBudget"));
    for (QDoubleSpinBox *box : {m_daily, m_monthly}) {
        box->setRange(0, 1e6);
        box->setDecimals(2);
        box->setPrefix(QStringLiteral("$"));
        box->setSpecialValueText(tr("no budget"));
        box->setEnabled(m_ledger != nullptr);
    }
    if (m_ledger) {
        m_daily->setValue(m_ledger->budget(QStringLiteral("daily")).valueOr(0));
        m_monthly->setValue(m_ledger->budget(QStringLiteral("monthly")).valueOr(0));
    }

    m_afterLaunch = new QComboBox(page);
    m_afterLaunch->setObjectName(QStringLiteral("afterLaunch"));
    m_afterLaunch->addItem(tr("Offer the acceptance test"), QStringLiteral("offer"));
    m_afterLaunch->addItem(tr("Run the acceptance test at once"), QStringLiteral("run"));
    m_afterLaunch->addItem(tr("Nothing"), QStringLiteral("off"));
    m_afterLaunch->setCurrentIndex(std::max(0, m_afterLaunch->findData(appsettings::value(m_configDir, QStringLiteral("accept.after_launch")))));

    m_language = new QComboBox(page);
    m_language->addItem(tr("System default"), QString::fromLatin1(uilanguage::kSystem));
    m_language->addItem(QStringLiteral("English"), QString::fromLatin1(uilanguage::kEnglish));
    m_language->addItem(QStringLiteral("简体中文"), QString::fromLatin1(uilanguage::kChinese));
    m_language->setCurrentIndex(std::max(0, m_language->findData(uilanguage::storedLanguage(m_configDir))));

    form->addRow(tr("Default SSH key"), keyRow);
    form->addRow(tr("When GPUs are idle"), m_idleAction);
    form->addRow(tr("Idle for"), m_idleMinutes);
    form->addRow(tr("Countdown before acting"), m_countdown);
    form->addRow(tr("After a launch"), m_afterLaunch);
    form->addRow(tr("Daily budget"), m_daily);
    form->addRow(tr("Monthly budget"), m_monthly);
    form->addRow(tr("Language (after a restart)"), m_language);
    return page;
}

void SettingsDialog::showPage(const QString &page)
{
    m_tabs->setCurrentIndex(page == QLatin1String("general") ? 1 : 0);
}

QString SettingsDialog::save()
{
    const QStringList clouds = providers::cloudProviderIds();
    const QList<QPair<QString, QString>> values{
        {QStringLiteral("ssh.default_key"), m_sshKey->text().trimmed()},
        {QStringLiteral("idle.action"), m_idleAction->currentData().toString()},
        {QStringLiteral("idle.minutes"), QString::number(m_idleMinutes->value())},
        {QStringLiteral("idle.countdown_seconds"), QString::number(m_countdown->value())},
        {QStringLiteral("accept.after_launch"), m_afterLaunch->currentData().toString()},
        {QStringLiteral("ui.language"), m_language->currentData().toString()},
    };
    for (const auto &[key, value] : values) {
        const auto setting = appsettings::findSetting(key, clouds);
        // A default is stored as "unset", so a later Gantry with better defaults still applies them.
        const QString stored = setting && value == setting->defaultValue ? QString() : value;
        if (Result<void> written = appsettings::setValue(m_configDir, *setting, stored); !written)
            return written.error().message;
    }
    if (const QString error = m_accounts->saveEndpoints(); !error.isEmpty())
        return error;
    if (m_ledger) {
        for (const auto &[period, box] : {std::pair{QStringLiteral("daily"), m_daily}, std::pair{QStringLiteral("monthly"), m_monthly}}) {
            if (Result<void> written = m_ledger->setBudget(period, box->value()); !written)
                return written.error().message;
        }
    }
    emit settingsSaved();
    return QString();
}

} // namespace gantry::ui
