#include "ui/shell/welcomepage.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gantry::ui {

WelcomePage::WelcomePage(QWidget *parent)
    : QWidget(parent)
    , m_choices(new QWidget(this))
{
    setObjectName(QStringLiteral("welcomePage"));
    auto *title = new QLabel(tr("Welcome to Gantry"), this);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    title->setFont(big);
    auto *intro = new QLabel(tr("Gantry rents, checks and watches GPU machines, and moves your files to them. "
                                "Start with one of these:"), this);
    intro->setWordWrap(true);

    new QGridLayout(m_choices);
    m_sandbox = addChoice(tr("Try the local sandbox"),
                          tr("Starts a free practice machine on this computer (with a simulated GPU where available) "
                             "and opens it: nothing is rented, nothing is billed."));
    m_sandbox->setObjectName(QStringLiteral("trySandbox"));
    m_sandbox->setDefault(true);
    m_sshCommand = new QLineEdit(this);
    m_sshCommand->setObjectName(QStringLiteral("sshCommand"));
    m_sshCommand->setPlaceholderText(tr("ssh -p 22 root@gpu.example.com"));
    m_sshCommand->setClearButtonEnabled(true);
    QPushButton *add = addChoice(tr("Add an SSH host…"),
                                 tr("Any machine you can reach with ssh: paste the login command your provider shows."), m_sshCommand);
    QPushButton *import = addChoice(tr("Import ~/.ssh/config"), tr("Adds the hosts you already use with ssh."));
    QPushButton *cloud = addChoice(tr("Connect a cloud account…"),
                                   tr("Add a Lambda or RunPod API key to see their prices and launch machines from here."));
    add->setObjectName(QStringLiteral("addSshHost"));
    import->setObjectName(QStringLiteral("importSshConfig"));
    cloud->setObjectName(QStringLiteral("connectCloud"));

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("welcomeStatus"));
    m_status->setWordWrap(true);
    m_status->hide();

    auto *column = new QVBoxLayout;
    column->addWidget(title);
    column->addWidget(intro);
    column->addSpacing(fontMetrics().height());
    column->addWidget(m_choices);
    column->addWidget(m_status);
    column->addStretch(1);
    // A readable measure at any window width: the column keeps to about 90 characters.
    auto *centre = new QHBoxLayout(this);
    centre->addStretch(1);
    centre->addLayout(column, 8);
    centre->addStretch(1);
    m_choices->setMaximumWidth(fontMetrics().averageCharWidth() * 110);

    connect(m_sandbox, &QPushButton::clicked, this, &WelcomePage::trySandbox);
    connect(add, &QPushButton::clicked, this, [this] { emit addSshHost(m_sshCommand->text().trimmed()); });
    connect(m_sshCommand, &QLineEdit::returnPressed, add, &QPushButton::click);
    connect(import, &QPushButton::clicked, this, &WelcomePage::importSshConfig);
    connect(cloud, &QPushButton::clicked, this, &WelcomePage::connectCloud);
}

QPushButton *WelcomePage::addChoice(const QString &title, const QString &detail, QWidget *extra)
{
    auto *grid = static_cast<QGridLayout *>(m_choices->layout());
    const int row = grid->rowCount();
    auto *button = new QPushButton(title, m_choices);
    button->setMinimumHeight(fontMetrics().height() * 2 + 4);
    auto *text = new QLabel(detail, m_choices);
    text->setWordWrap(true);
    text->setBuddy(button);
    grid->addWidget(button, row, 0);
    if (extra) {
        auto *right = new QVBoxLayout;
        right->addWidget(text);
        right->addWidget(extra);
        grid->addLayout(right, row, 1);
    } else {
        grid->addWidget(text, row, 1);
    }
    grid->setColumnStretch(1, 1);
    return button;
}

void WelcomePage::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString WelcomePage::statusText() const
{
    return m_status->text();
}

} // namespace gantry::ui
