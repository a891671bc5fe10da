#include "ui/shell/addhostdialog.h"

#include "ui/common/themecolors.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gantry::ui {

AddHostDialog::AddHostDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Add SSH host"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_paste = new QLineEdit(this);
    m_paste->setPlaceholderText(tr("Paste the login command, e.g. ssh -p 23456 root@connect.example.com"));
    m_name = new QLineEdit(this);
    m_address = new QLineEdit(this);
    m_port = new QSpinBox(this);
    m_port->setRange(1, 65535);
    m_port->setValue(22);
    m_user = new QLineEdit(this);
    m_user->setPlaceholderText(tr("root, ubuntu, …"));
    m_auth = new QComboBox(this);
    m_auth->addItem(tr("Automatic (agent, keys, then password)"), int(ssh::AuthMethod::Auto));
    m_auth->addItem(tr("SSH agent"), int(ssh::AuthMethod::Agent));
    m_auth->addItem(tr("Key file"), int(ssh::AuthMethod::Key));
    m_auth->addItem(tr("Password"), int(ssh::AuthMethod::Password));
    m_keyFile = new QLineEdit(this);
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_keyFile, 1);
    keyRow->addWidget(browse);
    m_password = new QLineEdit(this);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setPlaceholderText(tr("stored in the system keychain, never in a file"));
    m_price = new QDoubleSpinBox(this);
    m_price->setRange(0, 1000);
    m_price->setDecimals(3);
    m_price->setSuffix(tr(" /h"));
    // AutoDL and 九天·毕昇 bill in yuan: the price keeps its currency and is never converted.
    m_currency = new QComboBox(this);
    m_currency->setObjectName(QStringLiteral("currency"));
    for (const char *code : {"USD", "CNY", "EUR"})
        m_currency->addItem(QString::fromLatin1(code), QString::fromLatin1(code));
    auto *priceRow = new QHBoxLayout;
    priceRow->addWidget(m_price, 1);
    priceRow->addWidget(m_currency);
    form->addRow(tr("Login command"), m_paste);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Host"), m_address);
    form->addRow(tr("Port"), m_port);
    form->addRow(tr("User"), m_user);
    form->addRow(tr("Authentication"), m_auth);
    form->addRow(tr("Key file"), keyRow);
    form->addRow(tr("Password"), m_password);
    form->addRow(tr("Hourly price"), priceRow);
    layout->addLayout(form);
    m_error = new QLabel(this);
    setToneText(m_error, Tone::Error);
    m_error->setWordWrap(true);
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Private key"), QDir::homePath() + QStringLiteral("/.ssh"));
        if (!file.isEmpty())
            m_keyFile->setText(file);
    });
    connect(m_paste, &QLineEdit::textChanged, this, [this](const QString &text) { applySshCommand(text); });
    for (QLineEdit *edit : {m_name, m_address, m_user, m_keyFile})
        connect(edit, &QLineEdit::textChanged, this, &AddHostDialog::validate);
    connect(m_auth, &QComboBox::currentIndexChanged, this, &AddHostDialog::validate);
    validate();
}

bool AddHostDialog::applySshCommand(const QString &text)
{
    QStringList words = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (!words.isEmpty() && words.first() == QLatin1StringView("ssh"))
        words.removeFirst();
    QString spec;
    for (qsizetype i = 0; i < words.size(); ++i) {
        if (words[i] == QLatin1StringView("-p") && i + 1 < words.size())
            m_port->setValue(words[++i].toInt());
        else if (words[i] == QLatin1StringView("-i") && i + 1 < words.size())
            m_keyFile->setText(words[++i]);
        else if (words[i] == QLatin1StringView("-l") && i + 1 < words.size())
            m_user->setText(words[++i]);
        else if (!words[i].startsWith(QLatin1Char('-')))
            spec = words[i];
    }
    if (spec.isEmpty())
        return false;
    ssh::Target target;
    QString error;
    if (!ssh::parseTargetSpec(spec, &target, &error))
        return false;
    m_address->setText(target.host);
    if (!target.user.isEmpty())
        m_user->setText(target.user);
    if (spec.contains(QLatin1Char(':')))
        m_port->setValue(target.port);
    if (m_name->text().isEmpty())
        m_name->setText(target.host.section(QLatin1Char('.'), 0, 0) + (m_port->value() != 22 ? QLatin1Char('-') + QString::number(m_port->value()) : QString()));
    return true;
}

void AddHostDialog::validate()
{
    QString problem;
    static const QRegularExpression badName(QStringLiteral("[@:/\\s]"));
    if (m_name->text().trimmed().isEmpty())
        problem = tr("Give the machine a name.");
    else if (m_name->text().contains(badName))
        problem = tr("The name may not contain spaces, '@', ':' or '/'.");
    else if (m_address->text().trimmed().isEmpty())
        problem = tr("Enter the host name or IP address.");
    else if (m_auth->currentData().toInt() == int(ssh::AuthMethod::Key) && m_keyFile->text().isEmpty())
        problem = tr("Choose the private key file.");
    // The same checks the host store makes: what would not be safe in ~/.ssh/config or on ssh's command line.
    else if (Result<void> saved = HostStore::check(host()); !saved)
        problem = saved.error().message;
    m_error->setText(problem);
    m_ok->setEnabled(problem.isEmpty());
}

SavedHost AddHostDialog::host() const
{
    SavedHost host;
    host.name = m_name->text().trimmed();
    host.target.host = m_address->text().trimmed();
    host.target.port = m_port->value();
    host.target.user = m_user->text().trimmed();
    host.target.auth = static_cast<ssh::AuthMethod>(m_auth->currentData().toInt());
    if (!m_keyFile->text().isEmpty())
        host.target.identityFiles = {m_keyFile->text()};
    if (!m_password->text().isEmpty() && host.target.auth == ssh::AuthMethod::Auto && m_keyFile->text().isEmpty())
        host.target.auth = ssh::AuthMethod::Password;
    host.setHourlyPrice(m_price->value(), m_currency->currentData().toString());
    host.source = QStringLiteral("manual");
    return host;
}

QString AddHostDialog::password() const
{
    return m_password->text();
}

void AddHostDialog::setHost(const SavedHost &host)
{
    m_name->setText(host.name);
    m_address->setText(host.target.host);
    m_port->setValue(host.target.port);
    m_user->setText(host.target.user);
    m_auth->setCurrentIndex(m_auth->findData(int(host.target.auth)));
    m_keyFile->setText(host.target.identityFiles.value(0));
    m_price->setValue(host.hourlyPrice());
    if (m_currency->findData(host.currency()) < 0)
        m_currency->addItem(host.currency(), host.currency());
    m_currency->setCurrentIndex(m_currency->findData(host.currency()));
}

} // namespace gantry::ui

namespace gantry::ui {

void AddHostDialog::setDefaultKeyFile(const QString &file)
{
    if (m_keyFile->text().isEmpty())
        m_keyFile->setText(file);
}

} // namespace gantry::ui
