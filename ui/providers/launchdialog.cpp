#include "ui/providers/launchdialog.h"

#include "core/providers/gantrykey.h"
#include "core/providers/launchtypes.h"
#include "core/providers/pricegroups.h"
#include "core/providers/providerregistry.h"
#include "core/util/background.h"
#include "core/util/paths.h"
#include "core/workspace/workspace.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace gantry::ui {
namespace {

// Two widgets in one form field, one above the other.
QWidget *column(QWidget *parent, QWidget *top, QWidget *bottom)
{
    auto *field = new QWidget(parent);
    auto *layout = new QVBoxLayout(field);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(top);
    layout->addWidget(bottom);
    return field;
}

} // namespace

LaunchDialog::LaunchDialog(workspace::Workspace *workspace, QWidget *parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_hub(workspace ? workspace->providers() : nullptr)
    , m_configDir(workspace ? workspace->configDir() : QString())
    , m_provider(new QComboBox(this))
    , m_type(new QComboBox(this))
    , m_region(new QComboBox(this))
    , m_image(new QComboBox(this))
    , m_key(new QComboBox(this))
    , m_keyNote(new QLabel(this))
    , m_alternatives(new QListWidget(this))
    , m_offersNote(new QLabel(this))
    , m_storage(new QComboBox(this))
    , m_volume(new QSpinBox(this))
    , m_name(new QLineEdit(this))
    , m_hours(new QDoubleSpinBox(this))
    , m_price(new QLabel(this))
    , m_estimate(new QLabel(this))
    , m_note(new QLabel(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Launch an instance"));
    m_provider->setObjectName(QStringLiteral("provider"));
    m_type->setObjectName(QStringLiteral("type"));
    m_region->setObjectName(QStringLiteral("region"));
    m_image->setObjectName(QStringLiteral("image"));
    m_key->setObjectName(QStringLiteral("sshKey"));
    m_keyNote->setObjectName(QStringLiteral("keyNote"));
    m_keyNote->setWordWrap(true);
    m_keyNote->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_alternatives->setObjectName(QStringLiteral("alternatives"));
    m_offersNote->setObjectName(QStringLiteral("offersNote"));
    m_offersNote->setWordWrap(true);
    m_offersNote->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_storage->setObjectName(QStringLiteral("storage"));
    m_volume->setObjectName(QStringLiteral("volume"));
    m_volume->setRange(0, 4096);
    m_volume->setSuffix(tr(" GB volume disk"));
    m_volume->setSpecialValueText(tr("No volume disk"));
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setPlaceholderText(tr("optional, e.g. training-1"));
    m_name->setMaxLength(64);
    m_hours->setObjectName(QStringLiteral("hours"));
    m_hours->setRange(0.25, 24 * 60);
    m_hours->setValue(4);
    m_hours->setSuffix(tr(" h"));
    m_estimate->setObjectName(QStringLiteral("estimate"));
    m_note->setWordWrap(true);
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->hide();

    QFormLayout *form = buildForm();
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_launch = buttons->addButton(tr("Launch"), QDialogButtonBox::AcceptRole);
    m_launch->setObjectName(QStringLiteral("launchButton"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addStretch(1); // a tall window leaves the space below the form, not between its rows
    layout->addWidget(m_note);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connectSignals();

    if (m_hub) {
        const QSignalBlocker blocker(m_provider);
        for (const QString &id : m_hub->ids())
            m_provider->addItem(providers::providerDisplayName(id), id);
    }
    providerChanged();
}

QFormLayout *LaunchDialog::buildForm()
{
    auto *form = new QFormLayout;
    m_form = form;
    form->addRow(tr("Provider"), m_provider);
    form->addRow(tr("Instance type"), m_type);
    // What happened sits right above the offers to pick from, not at the foot of the dialog.
    QWidget *offersField = column(this, m_offersNote, m_alternatives);
    form->addRow(tr("Equivalent offers"), offersField);
    form->setRowVisible(offersField, false);
    form->addRow(tr("Region"), m_region);
    form->addRow(tr("Image"), m_image);
    // The note sits under the key in one column: a word-wrapped label as a form row of its own
    // gets a height for a narrower width, and gaps above and below it.
    m_keyNote->hide();
    form->addRow(tr("SSH key"), column(this, m_key, m_keyNote));
    form->addRow(tr("Persistent storage"), storageRow());
    form->addRow(tr("Disk"), m_volume);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Price"), m_price);
    form->addRow(tr("Planned duration"), m_hours);
    form->addRow(tr("Estimate"), m_estimate);
    return form;
}

void LaunchDialog::connectSignals()
{
    connect(m_launch, &QPushButton::clicked, this, &LaunchDialog::launch);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &LaunchDialog::providerChanged);
    connect(m_type, &QComboBox::currentIndexChanged, this, [this] {
        clearAlternatives(); // another type: the offers listed for the taken one no longer apply
        typeChanged();
    });
    connect(m_alternatives, &QListWidget::currentRowChanged, this, &LaunchDialog::typeChanged);
    connect(m_key, &QComboBox::currentIndexChanged, this, &LaunchDialog::keyChanged);
    connect(m_region, &QComboBox::currentIndexChanged, this, &LaunchDialog::typeChanged);
    connect(m_hours, &QDoubleSpinBox::valueChanged, this, &LaunchDialog::updateEstimate);
    connect(m_volume, &QSpinBox::valueChanged, this, &LaunchDialog::updateEstimate);
}

double LaunchDialog::estimate(double pricePerHour, double hours, double margin)
{
    return pricePerHour * hours * margin;
}

QString LaunchDialog::providerId() const
{
    return m_provider->currentData().toString();
}

double LaunchDialog::pricePerHour() const
{
    return launchPrice(request());
}

double LaunchDialog::launchPrice(const providers::LaunchRequest &request) const
{
    providers::Provider *provider = m_hub ? m_hub->provider(providerId()) : nullptr;
    const providers::InstanceType *type = findType(request.typeName);
    return provider && type ? providers::launchPricePerHour(provider->info(), *type, request.gpuCount) : 0;
}

// A type the dialog lists, or one offer of a marketplace's.
const providers::InstanceType *LaunchDialog::findType(const QString &name) const
{
    for (const QList<providers::InstanceType> *list : {&m_types, &m_offers}) {
        for (const providers::InstanceType &type : *list) {
            if (type.name == name)
                return &type;
        }
    }
    return nullptr;
}

QString LaunchDialog::estimateText() const
{
    return m_estimate->text();
}

QString LaunchDialog::errorText() const
{
    return m_error->isVisible() || !m_error->text().isEmpty() ? m_error->text() : QString();
}

QString LaunchDialog::keyNoteText() const
{
    return m_keyNote->text();
}

QStringList LaunchDialog::alternativeOffers() const
{
    QStringList names;
    for (int i = 0; i < m_alternatives->count(); ++i)
        names.append(m_alternatives->item(i)->data(Qt::UserRole).toString());
    return names;
}

providers::LaunchRequest LaunchDialog::request() const
{
    providers::LaunchRequest request;
    request.typeName = m_type->currentData().toString();
    if (const QListWidgetItem *offer = m_alternatives->currentItem(); offer && m_alternatives->count() > 0)
        request.typeName = offer->data(Qt::UserRole).toString();
    request.region = m_region->currentData().toString();
    request.image = m_image->currentData().toString();
    request.sshKeyName = m_key->currentData().toString();
    request.name = m_name->text().trimmed();
    const QString storage = m_storage->currentData().toString();
    if (!storage.isEmpty())
        request.filesystemNames = QStringList{storage};
    providers::Provider *provider = m_hub ? m_hub->provider(providerId()) : nullptr;
    request.volumeGb = provider && provider->can(providers::Capability::LaunchVolume) ? m_volume->value() : 0;
    return request;
}

void LaunchDialog::preselect(const QString &provider, const QString &typeName)
{
    m_pendingType = typeName;
    const int index = m_provider->findData(provider);
    if (index >= 0 && index != m_provider->currentIndex())
        m_provider->setCurrentIndex(index); // providerChanged() applies m_pendingType when loaded
    else if (m_loading == 0 && m_type->findData(typeName) >= 0)
        m_type->setCurrentIndex(m_type->findData(typeName));
}

void LaunchDialog::loadPart()
{
    if (--m_loading > 0)
        return;
    if (!m_pendingType.isEmpty() && m_type->findData(m_pendingType) >= 0)
        m_type->setCurrentIndex(m_type->findData(m_pendingType));
    setBusy(false);
    emit loaded();
}

void LaunchDialog::providerChanged()
{
    m_type->clear();
    m_region->clear();
    m_image->clear();
    m_key->clear();
    m_storage->clear();
    m_types.clear();
    m_offers.clear();
    m_taken.clear();
    m_keys = {};
    clearAlternatives();
    m_error->hide();
    m_error->clear();
    providers::Provider *provider = m_hub ? m_hub->provider(providerId()) : nullptr;
    if (!provider) {
        m_launch->setEnabled(false);
        return;
    }
    const providers::ProviderInfo info = provider->info();
    m_note->setText(info.billingNote);
    // The row with its label: a provider without filesystems shows no "Persistent storage" heading.
    m_form->setRowVisible(m_volume, provider->can(providers::Capability::LaunchVolume));
    m_form->setRowVisible(m_storageRow, provider->can(providers::Capability::Filesystems) && !provider->can(providers::Capability::LaunchVolume));
    m_loading = 4;
    setBusy(true, tr("Loading…"));
    QPointer<LaunchDialog> self(this);
    const QString id = info.id;
    auto stale = [self, id] { return !self || self->providerId() != id; };
    const bool marketplace = provider->can(providers::Capability::Marketplace);
    provider->listInstanceTypes([self, stale, marketplace](Result<QList<providers::InstanceType>> types) {
        if (stale())
            return;
        // A marketplace lists single machines: offer one entry per GPU model and count, which the
        // provider rents as its cheapest rentable offer.
        if (types && marketplace) {
            self->m_offers = *types;
            types = providers::groupRows(*types);
        }
        self->showTypes(types);
        self->typeChanged();
        self->loadPart();
    });
    const bool byFamily = provider->can(providers::Capability::ImagesByFamily);
    provider->listImages([self, stale, byFamily](Result<QList<providers::Image>> images) {
        if (stale())
            return;
        self->m_image->addItem(tr("Provider default"), QString());
        if (images) {
            for (const providers::Image &image : std::as_const(*images))
                self->m_image->addItem(image.name.isEmpty() ? image.id : image.name,
                                       image.family.isEmpty() || !byFamily ? image.id : image.family);
        }
        self->loadPart();
    });
    provider->listSshKeys([self, stale, configDir = m_configDir](Result<QList<providers::SshKey>> keys) {
        if (stale())
            return;
        // Which keys have their private half here: a few small files, read off the GUI thread.
        background::run<QList<providers::LocalKeyPair>>(
            self, [configDir] { return providers::localKeyPairs(configDir, paths::userSshDir()); },
            [self, stale, keys](QList<providers::LocalKeyPair> local) {
                if (stale())
                    return;
                self->showKeys(keys, local);
                self->loadPart();
            });
    });
    provider->listFilesystems([self, stale](Result<QList<providers::Filesystem>> filesystems) {
        if (stale())
            return;
        self->m_filesystems = filesystems ? *filesystems : QList<providers::Filesystem>{};
        self->typeChanged();
        self->loadPart();
    });
}

// The provider's types, cheapest first, starting on the cheapest that can launch now.
void LaunchDialog::showTypes(const Result<QList<providers::InstanceType>> &types)
{
    if (!types) {
        showError(types.error().message);
    } else {
        m_types = *types;
        std::sort(m_types.begin(), m_types.end(),
                  [](const auto &a, const auto &b) { return a.pricePerHour < b.pricePerHour; });
        const QSignalBlocker blocker(m_type);
        for (const providers::InstanceType &type : std::as_const(m_types)) {
            const QString label = QStringLiteral("%1 — %2 — $%3/h%4")
                                      .arg(type.name, type.gpuCount > 0 ? QStringLiteral("%1x %2").arg(type.gpuCount).arg(type.gpuModel) : tr("CPU only"))
                                      .arg(type.pricePerHour, 0, 'f', 2)
                                      .arg(type.availableNow() ? QString() : tr(" (no capacity now)"));
            m_type->addItem(label, type.name);
        }
        // Start on the cheapest type that can launch now.
        for (int i = 0; i < m_types.size(); ++i) {
            if (m_types.at(i).availableNow()) {
                m_type->setCurrentIndex(i);
                break;
            }
        }
    }
}

void LaunchDialog::typeChanged()
{
    // The equivalent offer picked after one was taken, else the type: its regions and its price.
    const QListWidgetItem *picked = m_alternatives->count() > 0 ? m_alternatives->currentItem() : nullptr;
    const QString typeName = picked ? picked->data(Qt::UserRole).toString() : m_type->currentData().toString();
    const QString previousRegion = m_region->currentData().toString();
    const providers::InstanceType *found = findType(typeName);
    const providers::InstanceType current = found ? *found : providers::InstanceType{};
    {
        const QSignalBlocker blocker(m_region);
        m_region->clear();
        for (const providers::Region &region : std::as_const(current.regionsWithCapacity))
            m_region->addItem(region.description.isEmpty() ? region.name : QStringLiteral("%1 (%2)").arg(region.name, region.description),
                              region.name);
        const int keep = m_region->findData(previousRegion);
        if (keep >= 0)
            m_region->setCurrentIndex(keep);
    }
    {
        const QString region = m_region->currentData().toString();
        const QString previous = m_storage->currentData().toString();
        const QSignalBlocker blocker(m_storage);
        m_storage->clear();
        m_storage->addItem(tr("None (the local disk is lost on terminate)"), QString());
        for (const providers::Filesystem &fs : std::as_const(m_filesystems)) {
            if (!fs.region.isEmpty() && fs.region != region)
                continue;
            // Shadeform and Vast do not say where a volume mounts until it is attached.
            const QString label = !fs.mountPoint.isEmpty() ? tr("%1 (mounted at %2)").arg(fs.name, fs.mountPoint)
                                  : fs.sizeGb > 0          ? tr("%1 (%2 GB)").arg(fs.name).arg(fs.sizeGb)
                                                           : fs.name;
            m_storage->addItem(label, fs.name);
        }
        const int keep = m_storage->findData(previous);
        if (keep >= 0)
            m_storage->setCurrentIndex(keep);
    }
    showPrice(current);
    updateEstimate();
}

void LaunchDialog::showPrice(const providers::InstanceType &type)
{
    m_price->setText(type.name.isEmpty() ? QStringLiteral("—")
                                         : tr("$%1 per hour ($%2 per GPU-hour)").arg(type.pricePerHour, 0, 'f', 2)
                                               .arg(type.pricePerGpuHour(), 0, 'f', 2));
    m_price->setToolTip(type.note);
}

// The account's keys, marked where no private half is here; preselected: the most preferred key
// that Gantry can log in with, else generating (or uploading) Gantry's own.
void LaunchDialog::showKeys(const Result<QList<providers::SshKey>> &keys, const QList<providers::LocalKeyPair> &local)
{
    if (!keys)
        showError(keys.error().message);
    m_keys = providers::chooseKey(keys ? *keys : QList<providers::SshKey>{}, local);
    const QSignalBlocker blocker(m_key);
    m_key->clear();
    bool gantryUploaded = false;
    const QString gantryPath = QFileInfo(providers::gantryKeyPath(m_configDir)).absoluteFilePath();
    for (const providers::KeyOption &option : std::as_const(m_keys.options)) {
        const QString name = option.key.name.isEmpty() ? option.key.id : option.key.name;
        if (option.usable()) {
            m_key->addItem(name, name);
            m_key->setItemData(m_key->count() - 1, tr("Gantry logs in with %1").arg(option.privateKeyPath), Qt::ToolTipRole);
            gantryUploaded = gantryUploaded || option.privateKeyPath == gantryPath;
        } else {
            m_key->addItem(tr("%1 (no private key on this computer)").arg(name), name);
        }
    }
    const bool gantryPair = std::any_of(local.cbegin(), local.cend(), [&](const auto &pair) { return pair.privateKeyPath == gantryPath; });
    if (!gantryUploaded) {
        m_key->addItem(gantryPair ? tr("Upload Gantry's key (%1)").arg(providers::gantryKeyName()) : tr("Generate and upload a key"),
                       QString::fromLatin1(kGenerateKey));
    }
    m_key->setCurrentIndex(m_keys.preferred >= 0 ? m_keys.preferred : m_key->count() - 1);
    keyChanged();
}

void LaunchDialog::keyChanged()
{
    const QString name = m_key->currentData().toString();
    const providers::KeyOption *option = providers::findKeyOption(m_keys, name);
    const QString note = option && !option->usable()
        ? tr("No private key on this computer matches \"%1\": the machine would only let in a computer that has it, "
             "and Gantry could not connect. Pick a key without the marker, or generate and upload one.").arg(name)
        : QString();
    m_keyNote->setText(note);
    m_keyNote->setVisible(!note.isEmpty());
}

// The private key the saved host logs in with: the chosen key's, Gantry's own for the key it uploads.
QString LaunchDialog::identityFileFor(const QString &keyName) const
{
    if (const providers::KeyOption *option = providers::findKeyOption(m_keys, keyName); option && option->usable())
        return option->privateKeyPath;
    return keyName == providers::gantryKeyName() ? providers::gantryKeyPath(m_configDir) : QString();
}

void LaunchDialog::updateEstimate()
{
    const double price = pricePerHour();
    const double hours = m_hours->value();
    QString text = tr("about $%1 for %2 h; plan for $%3 (×%4 safety margin)")
                       .arg(price * hours, 0, 'f', 2)
                       .arg(hours)
                       .arg(estimate(price, hours), 0, 'f', 2)
                       .arg(kSafetyMargin);
    // The disk is billed on top at some providers, and keeps billing while stopped: say so in money.
    const providers::Provider *provider = m_hub ? m_hub->provider(providerId()) : nullptr;
    const int disk = request().volumeGb;
    if (provider && disk > 0) {
        const providers::CostModel &cost = provider->info().cost;
        const double running = providers::storageCostPerDay(cost, disk, false);
        const double stopped = providers::storageCostPerDay(cost, disk, true);
        if (running > 0)
            text += tr("; the %1 GB disk adds $%2 (and $%3 a day while stopped)")
                        .arg(disk).arg(running * hours / 24, 0, 'f', 2).arg(stopped, 0, 'f', 2);
    }
    m_estimate->setText(text);
    const bool ready = !m_busy && !m_type->currentData().toString().isEmpty() && m_region->count() > 0;
    m_launch->setEnabled(ready);
    if (!m_busy && !m_type->currentData().toString().isEmpty() && m_region->count() == 0)
        m_launch->setToolTip(tr("No region has capacity for this type right now."));
    else
        m_launch->setToolTip(QString());
}

void LaunchDialog::setBusy(bool busy, const QString &status)
{
    m_busy = busy;
    m_launch->setText(busy && !status.isEmpty() ? status : tr("Launch"));
    for (QWidget *widget : {static_cast<QWidget *>(m_type), static_cast<QWidget *>(m_region), static_cast<QWidget *>(m_image),
                            static_cast<QWidget *>(m_key), static_cast<QWidget *>(m_storage), static_cast<QWidget *>(m_provider),
                            static_cast<QWidget *>(m_alternatives)})
        widget->setEnabled(!busy);
    updateEstimate();
}

void LaunchDialog::showError(const QString &message)
{
    m_error->setText(message);
    m_error->show();
}

void LaunchDialog::launch()
{
    providers::Provider *provider = m_hub ? m_hub->provider(providerId()) : nullptr;
    if (!provider || m_busy)
        return;
    providers::LaunchRequest wanted = request();
    m_error->hide();
    m_error->clear();
    if (wanted.sshKeyName != QLatin1String(kGenerateKey)) {
        submit(wanted);
        return;
    }
    // Generate (or reuse) the Gantry key locally and upload its public half, then launch with it.
    setBusy(true, tr("Uploading key…"));
    QPointer<LaunchDialog> self(this);
    providers::uploadGantryKey(provider, m_configDir, [self, wanted](Result<QString> keyName) mutable {
        if (!self)
            return;
        if (!keyName) {
            self->setBusy(false);
            self->showError(keyName.error().message);
            return;
        }
        // The key is at the provider now: it is the choice from here on, not something to upload.
        self->m_key->removeItem(self->m_key->findData(QString::fromLatin1(kGenerateKey)));
        if (self->m_key->findData(*keyName) < 0)
            self->m_key->insertItem(0, *keyName, *keyName);
        self->m_key->setCurrentIndex(self->m_key->findData(*keyName));
        wanted.sshKeyName = *keyName;
        self->submit(wanted);
    });
}

} // namespace gantry::ui
