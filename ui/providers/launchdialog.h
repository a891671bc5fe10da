#pragma once

#include "core/providers/keychoice.h"
#include "core/providers/providerhub.h"
#include "core/workspace/launches.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace gantry::workspace { class Workspace; }

namespace gantry::ui {

// Point-and-click launch: provider → instance type → region (only those with capacity now) →
// image → SSH key (preselected: one whose private half is on this computer; the others marked;
// or generate the Gantry key and upload it in the same step) → persistent storage → name. Shows
// the hourly price and an estimate for a planned duration with a safety margin. On a marketplace a
// GPU group is rented as its cheapest rentable offer; an offer someone else took is answered with
// the equivalent offers, in place, to pick and launch again. The launch itself is the workspace's
// (a lost answer adopted, the ledger row, the host saved once it is up). On success emits
// launched() and closes; errors stay in the dialog.
class LaunchDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LaunchDialog)

public:
    static constexpr double kSafetyMargin = 1.3;
    static constexpr const char *kGenerateKey = "__generate__";

    explicit LaunchDialog(workspace::Workspace *workspace, QWidget *parent = nullptr);

    // Selects a provider and, once its types are loaded, a type (from the Prices view).
    void preselect(const QString &provider, const QString &typeName);
    providers::LaunchRequest request() const;
    QString providerId() const;
    double pricePerHour() const;
    QString estimateText() const;
    QString errorText() const;
    // Under the SSH key: why the chosen key will not let Gantry in; empty when it will.
    QString keyNoteText() const;
    // The offers shown after one was taken (offer names, cheapest first); empty otherwise.
    QStringList alternativeOffers() const;
    QString offersNoteText() const; // what happened to the taken offer, above them
    bool isBusy() const { return m_busy; }
    static double estimate(double pricePerHour, double hours, double margin = kSafetyMargin);

public slots:
    void launch();

signals:
    void launched(const gantry::workspace::LaunchedInstance &instance);
    void loaded(); // types, images, keys and storage of the chosen provider are in

private:
    double launchPrice(const providers::LaunchRequest &request) const;
    QFormLayout *buildForm();
    void connectSignals();
    void providerChanged();
    void showTypes(const Result<QList<providers::InstanceType>> &types);
    void typeChanged();
    void showPrice(const providers::InstanceType &type);
    void showAlternatives(const providers::InstanceType &like, const QString &takenOffer, const QString &message);
    void updateEstimate();
    void setBusy(bool busy, const QString &status = {});
    void showError(const QString &message);
    void submit(providers::LaunchRequest request);
    void rent(providers::LaunchRequest request);
    void offerAlternatives(const QString &takenOffer, const QString &message);
    void clearAlternatives();
    void showKeys(const Result<QList<providers::SshKey>> &keys, const QList<providers::LocalKeyPair> &local);
    void keyChanged();
    QString identityFileFor(const QString &keyName) const;
    const providers::InstanceType *findType(const QString &name) const;
    void loadPart();
    // launchdialogvolume.cpp: the storage choice with its New volume… button, and the volume made there.
    QWidget *storageRow();
    void askNewVolume();
    void volumeCreated(const providers::Filesystem &volume);

    workspace::Workspace *m_workspace;
    providers::ProviderHub *m_hub;
    QString m_configDir;
    QList<providers::InstanceType> m_types;
    QList<providers::Filesystem> m_filesystems;
    QList<providers::InstanceType> m_offers; // a marketplace's offers, ungrouped, from the last search
    QStringList m_taken;                     // offers that were taken while this dialog was open
    providers::KeyChoice m_keys;
    QString m_pendingType;
    int m_loading = 0;
    bool m_busy = false;
    QComboBox *m_provider;
    QComboBox *m_type;
    QComboBox *m_region;
    QComboBox *m_image;
    QComboBox *m_key;
    QLabel *m_keyNote;
    QFormLayout *m_form = nullptr;
    QListWidget *m_alternatives;
    QLabel *m_offersNote;
    QComboBox *m_storage;
    QWidget *m_storageRow = nullptr;     // m_storage and its New volume… button
    QPushButton *m_newVolume = nullptr;
    QSpinBox *m_volume;
    QLineEdit *m_name;
    QDoubleSpinBox *m_hours;
    QLabel *m_price;
    QLabel *m_estimate;
    QLabel *m_note;
    QLabel *m_error;
    QPushButton *m_launch;
};

} // namespace gantry::ui
