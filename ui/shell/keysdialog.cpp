#include "ui/shell/keysdialog.h"

#include "core/ssh/keygen.h"
#include "core/util/paths.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gantry::ui {

KeysDialog::KeysDialog(QString configDir, QWidget *parent)
    : QDialog(parent)
    , m_configDir(std::move(configDir))
{
    setWindowTitle(tr("SSH keys"));
    resize(720, 420);
    auto *layout = new QVBoxLayout(this);
    m_list = new QListWidget(this);
    m_publicKey = new QPlainTextEdit(this);
    m_publicKey->setReadOnly(true);
    m_publicKey->setMaximumHeight(90);
    m_info = new QLabel(this);
    m_info->setWordWrap(true);
    auto *buttons = new QHBoxLayout;
    auto *generateButton = new QPushButton(tr("Generate new key…"), this);
    auto *copyButton = new QPushButton(tr("Copy public key"), this);
    buttons->addWidget(generateButton);
    buttons->addStretch(1);
    buttons->addWidget(copyButton);
    layout->addWidget(new QLabel(tr("Private keys with a public half (.pub):"), this));
    layout->addWidget(m_list, 1);
    layout->addWidget(m_publicKey);
    layout->addWidget(m_info);
    layout->addLayout(buttons);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    layout->addWidget(close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::currentRowChanged, this, &KeysDialog::showSelected);
    connect(copyButton, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(selectedPublicKey());
        m_info->setText(tr("Copied. Paste it into your provider's SSH keys page or the machine's ~/.ssh/authorized_keys."));
    });
    connect(generateButton, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString path = QInputDialog::getText(this, tr("Generate ed25519 key"), tr("Private key file:"), QLineEdit::Normal,
                                                   m_configDir + QStringLiteral("/keys/gantry_ed25519"), &ok);
        if (!ok || path.isEmpty())
            return;
        const QString error = generate(path);
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Generate key"), error);
    });
    reload();
}

void KeysDialog::reload()
{
    m_list->clear();
    const QStringList dirs{paths::userSshDir(), m_configDir + QStringLiteral("/keys")};
    for (const QString &dir : dirs) {
        const QStringList pubs = QDir(dir).entryList({QStringLiteral("*.pub")}, QDir::Files, QDir::Name);
        for (const QString &pub : pubs) {
            const QString priv = dir + QLatin1Char('/') + pub.chopped(4);
            if (QFileInfo::exists(priv))
                m_list->addItem(priv);
        }
    }
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
    else
        m_info->setText(tr("No key pair found. Generate one: Gantry writes the private key with mode 0600."));
}

QString KeysDialog::generate(const QString &path)
{
    auto key = ssh::generateEd25519Key(path, QStringLiteral("gantry"));
    if (!key)
        return key.error().message;
    reload();
    const QList<QListWidgetItem *> items = m_list->findItems(path, Qt::MatchExactly);
    if (!items.isEmpty())
        m_list->setCurrentItem(items.first());
    m_info->setText(tr("Wrote %1 (mode 0600). Fingerprint %2.").arg(path, key->fingerprint));
    return {};
}

QString KeysDialog::selectedPublicKey() const
{
    return m_publicKey->toPlainText().trimmed();
}

void KeysDialog::showSelected()
{
    QListWidgetItem *item = m_list->currentItem();
    if (!item) {
        m_publicKey->clear();
        return;
    }
    auto key = ssh::readPublicKey(item->text());
    m_publicKey->setPlainText(key ? *key : key.error().message);
}

} // namespace gantry::ui
