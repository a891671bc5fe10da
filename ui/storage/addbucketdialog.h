// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/storage/buckets.h"
#include "core/util/canceltoken.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QRadioButton;

namespace gantry::ui {

// Add bucket: Gantry's name for it, the endpoint (https, plain http only on this computer), the
// bucket, its region and the keys — typed here (then kept in the keychain) or the AWS_* variables
// of the environment (read at each use, never stored). Add tests the keys with one request on a
// worker before anything is saved; a failure is one line with the next step and nothing is kept.
class AddBucketDialog final : public QDialog
{
    Q_OBJECT

public:
    AddBucketDialog(storage::Buckets *buckets, QWidget *parent = nullptr);
    ~AddBucketDialog() override;

    // For tests: fill the form as a user would.
    void setFields(const storage::BucketConfig &config, const QString &accessKey, const QString &secretKey);
    QString errorText() const;
    bool isBusy() const { return m_busy; }

signals:
    void added(const gantry::storage::StoredBucket &bucket);

private:
    void submit();
    void setBusy(bool busy);
    void showError(const QString &message);
    void updateKeyFields();

    storage::Buckets *m_buckets;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_endpoint = nullptr;
    QLineEdit *m_bucket = nullptr;
    QLineEdit *m_region = nullptr;
    QRadioButton *m_typed = nullptr;
    QRadioButton *m_environment = nullptr;
    QLineEdit *m_accessKey = nullptr;
    QLineEdit *m_secretKey = nullptr;
    QLabel *m_status = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    CancelToken m_token;
    bool m_busy = false;
};

} // namespace gantry::ui
