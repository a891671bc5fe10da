// SPDX-License-Identifier: Apache-2.0
#include "ui/storage/addbucketdialog.h"

#include "core/util/background.h"
#include "ui/common/themecolors.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace gantry::ui {

AddBucketDialog::AddBucketDialog(storage::Buckets *buckets, QWidget *parent) : QDialog(parent), m_buckets(buckets)
{
    setWindowTitle(tr("Add bucket"));
    auto *form = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(tr("data (you copy with s3://data/…)"));
    m_endpoint = new QLineEdit(this);
    m_endpoint->setPlaceholderText(QStringLiteral("https://s3.us-east-1.amazonaws.com"));
    m_bucket = new QLineEdit(this);
    m_region = new QLineEdit(QStringLiteral("us-east-1"), this);
    m_region->setToolTip(tr("\"auto\" for Cloudflare R2; us-east-1 where the server ignores it."));
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Endpoint:"), m_endpoint);
    form->addRow(tr("Bucket:"), m_bucket);
    form->addRow(tr("Region:"), m_region);
    m_typed = new QRadioButton(tr("Typed here, kept in the keychain"), this);
    m_environment = new QRadioButton(tr("From the environment (AWS_ACCESS_KEY_ID…), never stored"), this);
    const bool envKeys = storage::environmentCredentials().has_value();
    m_environment->setEnabled(envKeys);
    m_environment->setToolTip(envKeys ? tr("AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN are read at each use.")
                                      : tr("Start Gantry with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY set to use them."));
    m_typed->setChecked(true);
    form->addRow(tr("Keys:"), m_typed);
    form->addRow(QString(), m_environment);
    m_accessKey = new QLineEdit(this);
    m_secretKey = new QLineEdit(this);
    m_secretKey->setEchoMode(QLineEdit::Password);
    form->addRow(tr("Access key ID:"), m_accessKey);
    form->addRow(tr("Secret access key:"), m_secretKey);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Add"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addStretch();
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &AddBucketDialog::submit);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_environment, &QRadioButton::toggled, this, &AddBucketDialog::updateKeyFields);
    setMinimumWidth(520);
}

AddBucketDialog::~AddBucketDialog()
{
    m_token.cancel(); // a test of the keys still running ends early; its answer is dropped
}

void AddBucketDialog::setFields(const storage::BucketConfig &config, const QString &accessKey, const QString &secretKey)
{
    m_name->setText(config.name);
    m_endpoint->setText(config.endpoint);
    m_bucket->setText(config.bucket);
    m_region->setText(config.region);
    m_typed->setChecked(true);
    m_accessKey->setText(accessKey);
    m_secretKey->setText(secretKey);
}

QString AddBucketDialog::errorText() const
{
    return m_status->property("error").toBool() ? m_status->text() : QString();
}

void AddBucketDialog::updateKeyFields()
{
    const bool typed = !m_environment->isChecked();
    m_accessKey->setEnabled(typed && !m_busy);
    m_secretKey->setEnabled(typed && !m_busy);
}

void AddBucketDialog::setBusy(bool busy)
{
    m_busy = busy;
    for (QLineEdit *field : {m_name, m_endpoint, m_bucket, m_region})
        field->setEnabled(!busy);
    m_typed->setEnabled(!busy);
    m_environment->setEnabled(!busy && storage::environmentCredentials().has_value());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy);
    updateKeyFields();
}

void AddBucketDialog::showError(const QString &message)
{
    m_status->setProperty("error", true);
    setToneText(m_status, Tone::Error);
    m_status->setText(message);
}

void AddBucketDialog::submit()
{
    storage::BucketConfig config{m_name->text().trimmed(), m_endpoint->text().trimmed(), m_bucket->text().trimmed(),
                                 m_region->text().trimmed().isEmpty() ? QStringLiteral("us-east-1") : m_region->text().trimmed()};
    // What can be told without the network is told at once (and nothing leaves this computer).
    if (Result<void> named = storage::Buckets::checkName(config.name); !named)
        return showError(named.error().message);
    if (config.bucket.isEmpty())
        return showError(tr("Give the bucket's name as the provider shows it."));
    if (Result<QUrl> endpoint = storage::checkStorageEndpoint(config.endpoint); !endpoint)
        return showError(endpoint.error().message);
    const storage::KeySource source = m_environment->isChecked() ? storage::KeySource::Environment : storage::KeySource::Keychain;
    storage::sigv4::Credentials credentials{m_accessKey->text().trimmed(), m_secretKey->text(), {}};
    if (source == storage::KeySource::Environment)
        credentials = storage::environmentCredentials().value_or(storage::sigv4::Credentials{});
    if (!credentials.isComplete())
        return showError(tr("Give the access key ID and the secret access key from the provider's console."));
    setBusy(true);
    m_status->setProperty("error", false);
    m_status->setPalette(palette());
    m_status->setText(tr("Testing the keys with one request to %1…").arg(config.endpoint));
    m_token = background::run<Result<storage::StoredBucket>>(
        this,
        [buckets = m_buckets, config, credentials, source](const CancelToken &token) {
            return buckets->add(config, credentials, source, token.flag());
        },
        [this](Result<storage::StoredBucket> result) {
            setBusy(false);
            if (!result)
                return showError(result.error().message);
            emit added(*result);
            accept();
        });
}

} // namespace gantry::ui
