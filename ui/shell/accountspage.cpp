#include "ui/shell/accountspage.h"

#include "ui/common/themecolors.h"

#include "core/diagnostics/cloudproviders.h"
#include "core/providers/providerregistry.h"
#include "core/util/appsettings.h"
#include "core/util/background.h"
#include "core/util/secretstore.h"

#include <QApplication>
#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>

namespace gantry::ui {

AccountsPage::AccountsPage(QString configDir, SecretStore *secrets, QWidget *parent)
    : QWidget(parent)
    , m_configDir(std::move(configDir))
    , m_secrets(secrets)
{
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("API keys are tested with one call to the provider, then kept in the system keychain. "
                                "Gantry never shows a stored key again; replace it with a new one or remove it."), this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_keyringNote = new QLabel(this);
    m_keyringNote->setObjectName(QStringLiteral("keyringNote"));
    m_keyringNote->setWordWrap(true);
    m_keyringNote->hide();
    layout->addWidget(m_keyringNote);
    m_fileStore = new QCheckBox(tr("Keep API keys in a file only you can read"), this);
    m_fileStore->setObjectName(QStringLiteral("secretsFile"));
    m_fileStore->setChecked(secretsFileEnabled(m_configDir));
    m_fileDetail = new QLabel(tr("%1 — turning this off deletes the file and the keys in it.").arg(secretsFilePath(m_configDir)), this);
    m_fileDetail->setWordWrap(true);
    m_fileDetail->setIndent(fontMetrics().height() * 3 / 2);
    for (QWidget *widget : {static_cast<QWidget *>(m_fileStore), static_cast<QWidget *>(m_fileDetail)}) {
        widget->setVisible(m_fileStore->isChecked());
        layout->addWidget(widget);
    }
    connect(m_fileStore, &QCheckBox::toggled, this, &AccountsPage::setFileStore);
    for (const QString &id : providers::cloudProviderIds())
        layout->addWidget(buildRow(id));
    auto *advanced = new QCheckBox(tr("Show advanced settings (API endpoints)"), this);
    layout->addWidget(advanced);
    layout->addStretch(1);
    auto showAdvanced = [this](bool on) {
        for (const Row &row : std::as_const(m_rows)) {
            row.endpoint->setVisible(on);
            if (auto *form = qobject_cast<QFormLayout *>(row.endpoint->parentWidget()->layout()))
                form->labelForField(row.endpoint)->setVisible(on);
        }
    };
    connect(advanced, &QCheckBox::toggled, this, showAdvanced);
    bool anyEndpoint = false;
    for (const QString &id : m_rows.keys())
        anyEndpoint = anyEndpoint || appsettings::isSet(m_configDir, QStringLiteral("endpoint.") + id);
    advanced->setChecked(anyEndpoint);
    showAdvanced(anyEndpoint);
    refreshStatus();
}

QWidget *AccountsPage::buildRow(const QString &id)
{
    auto *box = new QGroupBox(providers::providerDisplayName(id), this);
    box->setObjectName(id + QStringLiteral("Account"));
    auto *form = new QFormLayout(box);
    Row row;
    row.status = new QLabel(tr("Checking the keychain…"), box);
    row.status->setWordWrap(true);
    row.key = new QLineEdit(box);
    row.key->setEchoMode(QLineEdit::Password);
    row.key->setPlaceholderText(tr("paste a new API key"));
    row.save = new QPushButton(tr("Test and save"), box);
    row.remove = new QPushButton(tr("Remove key"), box);
    auto *keyLine = new QHBoxLayout;
    keyLine->addWidget(row.key, 1);
    keyLine->addWidget(row.save);
    keyLine->addWidget(row.remove);
    row.endpoint = new QLineEdit(appsettings::isSet(m_configDir, QStringLiteral("endpoint.") + id)
                                     ? appsettings::value(m_configDir, QStringLiteral("endpoint.") + id) : QString(), box);
    providers::ProviderSettings vendor;
    row.endpoint->setPlaceholderText(providers::endpointFor(id, vendor));
    form->addRow(tr("Status"), row.status);
    form->addRow(tr("API key"), keyLine);
    form->addRow(tr("Endpoint"), row.endpoint);
    m_rows.insert(id, row);
    connect(row.save, &QPushButton::clicked, this, [this, id] { testAndSave(id); });
    connect(row.key, &QLineEdit::returnPressed, this, [this, id] { testAndSave(id); });
    connect(row.remove, &QPushButton::clicked, this, [this, id] { removeKey(id); });
    return box;
}

QLineEdit *AccountsPage::keyEdit(const QString &providerId) const
{
    return m_rows.value(providerId).key;
}

QLineEdit *AccountsPage::endpointEdit(const QString &providerId) const
{
    return m_rows.value(providerId).endpoint;
}

QString AccountsPage::keyringNote() const
{
    return m_keyringNote->isHidden() ? QString() : m_keyringNote->text();
}

bool AccountsPage::noteKeyring(const Error &error)
{
    if (error.message != noKeyringMessage())
        return false;
    m_keyringNote->setText(tr("No keyring found on this desktop (no Secret Service or KWallet answers), so keys cannot be "
                              "kept in one. Set the provider's environment variable (GANTRY_LAMBDA_API_KEY, …) before "
                              "starting Gantry, or keep the keys in a file only you can read:"));
    setToneText(m_keyringNote, Tone::Error);
    m_keyringNote->show();
    m_fileStore->show();
    m_fileDetail->show();
    return true;
}

// The user's explicit choice (never made for them): secrets in a private file, or back to the keychain.
void AccountsPage::setFileStore(bool on)
{
    const Result<void> changed = on ? enableSecretsFile(m_configDir) : disableSecretsFile(m_configDir);
    if (!changed) {
        const QSignalBlocker blocker(m_fileStore);
        m_fileStore->setChecked(!on);
        m_keyringNote->setText(changed.error().message);
        m_keyringNote->show();
        return;
    }
    if (on)
        m_keyringNote->hide();
    refreshStatus();
    emit accountsChanged();
}

QString AccountsPage::statusText(const QString &providerId) const
{
    const Row row = m_rows.value(providerId);
    return row.status ? row.status->text() : QString();
}

bool AccountsPage::isBusy(const QString &providerId) const
{
    return m_rows.value(providerId).busy;
}

void AccountsPage::setStatus(const QString &id, const QString &text, bool error)
{
    QLabel *label = m_rows.value(id).status;
    label->setText(text);
    label->setPalette(palette());
    if (error)
        setToneText(label, Tone::Error);
}

void AccountsPage::setBusy(const QString &id, bool busy)
{
    Row &row = m_rows[id];
    row.busy = busy;
    row.save->setEnabled(!busy);
    row.remove->setEnabled(!busy);
    emit busyChanged();
}

void AccountsPage::offThread(std::function<Result<void>()> work, std::function<void(const Result<void> &)> then)
{
    background::run<Result<void>>(this, [work = std::move(work)](const CancelToken &) { return work(); },
                                  [then = std::move(then)](Result<void> result) { then(result); });
}

void AccountsPage::refreshStatus()
{
    for (const QString &id : m_rows.keys()) {
        // The environment wins over the keychain (providerregistry.h); say so rather than hide it.
        if (!qEnvironmentVariableIsEmpty(providers::apiKeyEnvName(id).toLatin1().constData())) {
            setStatus(id, tr("Key set by %1 in the environment (it takes precedence).").arg(providers::apiKeyEnvName(id)), false);
            continue;
        }
        auto found = std::make_shared<bool>(false);
        SecretStore *secrets = m_secrets;
        offThread(
            [secrets, id, found]() -> Result<void> {
                if (!secrets)
                    return makeError(ErrorCode::NotFound, tr("No keychain is available."));
                Result<std::optional<QString>> key = secrets->read(providers::apiKeySecretName(id));
                if (!key)
                    return key.error();
                *found = key->has_value() && !(*key)->isEmpty();
                return {};
            },
            [this, id, found](const Result<void> &read) {
                if (!read && noteKeyring(read.error()))
                    setStatus(id, tr("No key yet."), false);
                else if (!read)
                    setStatus(id, read.error().message, true);
                else if (*found && secretsFileEnabled(m_configDir))
                    setStatus(id, tr("A key is stored in the file."), false);
                else
                    setStatus(id, *found ? tr("A key is stored in the keychain.") : tr("No key yet."), false);
                m_rows[id].remove->setVisible(*found);
            });
    }
}

// A changed endpoint is announced like a changed key: the providers are made again with it, so it
// applies to the next request, without a restart.
QString AccountsPage::saveEndpoints(bool announce)
{
    bool changed = false;
    for (auto it = m_rows.cbegin(); it != m_rows.cend(); ++it) {
        const auto setting = appsettings::findSetting(QStringLiteral("endpoint.") + it.key(), providers::cloudProviderIds());
        if (!setting)
            continue;
        const QString before = appsettings::value(m_configDir, setting->key);
        if (Result<void> stored = appsettings::setValue(m_configDir, *setting, it->endpoint->text()); !stored)
            return stored.error().message;
        changed = changed || appsettings::value(m_configDir, setting->key) != before;
    }
    if (changed && announce)
        emit accountsChanged();
    return QString();
}

void AccountsPage::testAndSave(const QString &id)
{
    Row &row = m_rows[id];
    const QString key = row.key->text().trimmed();
    if (key.isEmpty()) {
        setStatus(id, tr("Paste the API key from the provider's console first."), true);
        return;
    }
    providers::ProviderSettings settings;
    settings.configDir = m_configDir;
    settings.apiKeyOverride = key;
    settings.endpointOverride = row.endpoint->text().trimmed();
    Result<std::unique_ptr<providers::Provider>> created = providers::createProvider(id, settings, this);
    if (!created) {
        setStatus(id, created.error().message, true);
        return;
    }
    setBusy(id, true);
    setStatus(id, tr("Testing the key with %1…").arg(providers::providerDisplayName(id)), false);
    providers::Provider *provider = created->release(); // parented to this page; deleted below
    QPointer<AccountsPage> self(this);
    provider->listInstances([self, provider, id, key](Result<QList<providers::Instance>> instances) {
        provider->deleteLater();
        if (!self)
            return;
        if (!instances) {
            self->setBusy(id, false);
            self->setStatus(id, tr("The key was not saved: %1").arg(instances.error().message), true);
            return;
        }
        self->store(id, key);
    });
}

void AccountsPage::store(const QString &id, const QString &key)
{
    SecretStore *secrets = m_secrets;
    offThread(
        [secrets, id, key]() -> Result<void> {
            if (!secrets)
                return makeError(ErrorCode::NotFound, tr("No keychain is available to keep the key."));
            return secrets->write(providers::apiKeySecretName(id), key);
        },
        [this, id](const Result<void> &written) {
            setBusy(id, false);
            if (!written) {
                setStatus(id, noteKeyring(written.error()) ? tr("Not saved: there is no keyring (see above).") : written.error().message, true);
                return;
            }
            m_rows[id].key->clear(); // never shown again
            m_rows[id].remove->setVisible(true);
            if (const QString error = saveEndpoints(false); !error.isEmpty()) // announced once, just below
                setStatus(id, error, true);
            else
                setStatus(id, secretsFileEnabled(m_configDir) ? tr("The key works and is stored in the file.")
                                                              : tr("The key works and is stored in the keychain."), false);
            emit accountsChanged();
        });
}

void AccountsPage::removeKey(const QString &id)
{
    setBusy(id, true);
    SecretStore *secrets = m_secrets;
    offThread(
        [secrets, id]() -> Result<void> {
            if (!secrets)
                return makeError(ErrorCode::NotFound, tr("No keychain is available."));
            return secrets->remove(providers::apiKeySecretName(id));
        },
        [this, id](const Result<void> &removed) {
            setBusy(id, false);
            if (!removed) {
                setStatus(id, removed.error().message, true);
                return;
            }
            m_rows[id].remove->setVisible(false);
            setStatus(id, tr("Key removed from the keychain."), false);
            emit accountsChanged();
        });
}

} // namespace gantry::ui
