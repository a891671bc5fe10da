#include "ui/cluster/clusterdialogs.h"

#include "core/jobs/jobspec.h"
#include "core/providers/keychoice.h"
#include "core/providers/providerhub.h"
#include "core/util/background.h"
#include "core/util/paths.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>

namespace gantry::ui {

ClusterLaunchDialog::ClusterLaunchDialog(providers::ProviderHub *hub, QString configDir, QWidget *parent)
    : QDialog(parent), m_hub(hub), m_name(new QLineEdit(this)), m_provider(new QComboBox(this)), m_type(new QComboBox(this)),
      m_region(new QComboBox(this)), m_nodes(new QSpinBox(this)), m_configDir(std::move(configDir)), m_sshKey(new QComboBox(this)),
      m_estimate(new QLabel(this))
{
    setWindowTitle(tr("Launch cluster"));
    m_name->setPlaceholderText(tr("e.g. llama-finetune"));
    m_nodes->setRange(1, 256);
    m_nodes->setValue(2);
    m_region->setEditable(true);
    m_sshKey->setObjectName(QStringLiteral("sshKey"));
    m_sshKey->setEditable(true);
    m_sshKey->lineEdit()->setPlaceholderText(tr("an SSH key name on the provider's account"));
    for (const QString &id : m_hub->ids())
        m_provider->addItem(providers::providerDisplayName(id), id);
    auto *form = new QFormLayout(this);
    form->addRow(tr("Cluster name:"), m_name);
    form->addRow(tr("Provider:"), m_provider);
    form->addRow(tr("Instance type:"), m_type);
    form->addRow(tr("Region (all nodes):"), m_region);
    form->addRow(tr("Nodes:"), m_nodes);
    form->addRow(tr("SSH key:"), m_sshKey);
    form->addRow(tr("Price:"), m_estimate);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Launch"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (cluster::validateClusterName(m_name->text()) && m_type->currentIndex() >= 0)
            accept();
        else
            m_estimate->setText(tr("Name the cluster (letters, digits, '.', '_', '-') and pick a type."));
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &ClusterLaunchDialog::providerChanged);
    connect(m_type, &QComboBox::currentIndexChanged, this, &ClusterLaunchDialog::typeChanged);
    connect(m_nodes, &QSpinBox::valueChanged, this, &ClusterLaunchDialog::updateEstimate);
    providerChanged();
}

void ClusterLaunchDialog::providerChanged()
{
    m_type->clear();
    m_types.clear();
    providers::Provider *provider = m_hub->provider(m_provider->currentData().toString());
    if (!provider)
        return;
    m_estimate->setText(tr("Loading instance types…"));
    loadKeys(provider);
    QPointer<ClusterLaunchDialog> self(this);
    provider->listInstanceTypes([self](Result<QList<providers::InstanceType>> types) {
        if (!self)
            return;
        if (!types) {
            self->m_estimate->setText(types.error().message);
            return;
        }
        self->m_types = *types;
        for (const providers::InstanceType &type : std::as_const(self->m_types))
            self->m_type->addItem(QStringLiteral("%1 — $%2/h").arg(type.name).arg(type.pricePerHour, 0, 'f', 2), type.name);
        self->typeChanged();
        emit self->typesLoaded();
    });
}

// As the Launch dialog chooses (providers::chooseKey): the account's keys, the most preferred one
// whose private half is on this computer preselected; the local pairs are read off the GUI thread.
void ClusterLaunchDialog::loadKeys(providers::Provider *provider)
{
    m_sshKey->clear();
    const QString id = provider->info().id;
    QPointer<ClusterLaunchDialog> self(this);
    provider->listSshKeys([self, id](Result<QList<providers::SshKey>> keys) {
        if (!self || self->m_provider->currentData().toString() != id)
            return;
        background::run<QList<providers::LocalKeyPair>>(
            self, [configDir = self->m_configDir] { return providers::localKeyPairs(configDir, paths::userSshDir()); },
            [self, id, keys](QList<providers::LocalKeyPair> local) {
                if (!self || self->m_provider->currentData().toString() != id)
                    return;
                const providers::KeyChoice choice = providers::chooseKey(keys ? *keys : QList<providers::SshKey>{}, local);
                self->m_sshKey->clear();
                for (const providers::KeyOption &option : choice.options) {
                    const QString name = option.key.name.isEmpty() ? option.key.id : option.key.name;
                    self->m_sshKey->addItem(option.usable() ? name : tr("%1 (no private key on this computer)").arg(name), name);
                }
                self->m_sshKey->setCurrentIndex(choice.preferred);
                emit self->keysLoaded();
            });
    });
}

void ClusterLaunchDialog::typeChanged()
{
    m_region->clear();
    const int index = m_type->currentIndex();
    if (index >= 0 && index < m_types.size()) {
        for (const providers::Region &region : m_types[index].regionsWithCapacity)
            m_region->addItem(region.name);
    }
    updateEstimate();
}

void ClusterLaunchDialog::updateEstimate()
{
    m_estimate->setText(estimateText());
}

QString ClusterLaunchDialog::estimateText() const
{
    const int index = m_type->currentIndex();
    if (index < 0 || index >= m_types.size())
        return tr("Pick an instance type.");
    const double each = m_types[index].pricePerHour;
    return tr("%n node(s) × $%1/h = $%2/h in total", nullptr, m_nodes->value())
        .arg(each, 0, 'f', 2).arg(each * m_nodes->value(), 0, 'f', 2);
}

void ClusterLaunchDialog::setNodes(int nodes)
{
    m_nodes->setValue(nodes);
}

cluster::ClusterLaunchRequest ClusterLaunchDialog::request() const
{
    cluster::ClusterLaunchRequest r;
    r.name = m_name->text().trimmed();
    r.provider = m_provider->currentData().toString();
    r.base.typeName = m_type->currentData().toString();
    r.base.region = m_region->currentText().trimmed();
    // A listed key by its name; a name typed in as written.
    const int key = m_sshKey->currentIndex();
    r.base.sshKeyName = key >= 0 && m_sshKey->itemText(key) == m_sshKey->currentText() ? m_sshKey->itemData(key).toString()
                                                                                       : m_sshKey->currentText().trimmed();
    r.nodes = m_nodes->value();
    r.wait = true;
    const int index = m_type->currentIndex();
    if (index >= 0 && index < m_types.size()) {
        r.pricePerHour = m_types[index].pricePerHour;
        r.gpusPerNode = m_types[index].gpuCount;
    }
    if (r.base.region.isEmpty()) {
        if (providers::Provider *provider = m_hub->provider(r.provider))
            r.base.region = provider->info().defaultRegion;
    }
    return r;
}

ClusterFromHostsDialog::ClusterFromHostsDialog(const QStringList &hostNames, QWidget *parent)
    : QDialog(parent), m_name(new QLineEdit(this)), m_hosts(new QListWidget(this)), m_hint(new QLabel(this)), m_ok(nullptr)
{
    setWindowTitle(tr("New cluster from saved hosts"));
    m_name->setPlaceholderText(tr("e.g. lab-pair"));
    for (const QString &host : hostNames) {
        auto *item = new QListWidgetItem(host, m_hosts);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    m_hint->setWordWrap(true);
    auto *form = new QFormLayout(this);
    form->addRow(tr("Cluster name:"), m_name);
    form->addRow(tr("Machines:"), m_hosts);
    form->addRow(m_hint);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Create cluster"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this, &ClusterFromHostsDialog::updateState);
    connect(m_hosts, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        m_order.removeAll(item->text());
        if (item->checkState() == Qt::Checked)
            m_order.append(item->text());
        updateState();
    });
    updateState();
}

QString ClusterFromHostsDialog::name() const
{
    return m_name->text().trimmed();
}

QStringList ClusterFromHostsDialog::hosts() const
{
    return m_order;
}

void ClusterFromHostsDialog::setName(const QString &name)
{
    m_name->setText(name);
}

void ClusterFromHostsDialog::setChecked(const QString &host, bool checked)
{
    for (QListWidgetItem *item : m_hosts->findItems(host, Qt::MatchExactly))
        item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

QString ClusterFromHostsDialog::hintText() const
{
    return m_hint->text();
}

// The OK button waits for a valid name and at least one machine; the hint says which is missing,
// and which machine will be the head (rank 0: the first ticked).
void ClusterFromHostsDialog::updateState()
{
    const bool named = !name().isEmpty() && cluster::validateClusterName(name());
    if (m_hosts->count() == 0)
        m_hint->setText(tr("No saved hosts yet: add machines in the Machines list first."));
    else if (m_order.isEmpty())
        m_hint->setText(tr("Tick the machines to group, the head first: the first ticked is rank 0."));
    else if (!named)
        m_hint->setText(tr("Name the cluster (letters, digits, '.', '_', '-')."));
    else
        m_hint->setText(tr("%n node(s); the head (rank 0) is %1.", nullptr, int(m_order.size())).arg(m_order.first()));
    m_ok->setEnabled(named && !m_order.isEmpty());
}

TorchrunDialog::TorchrunDialog(const cluster::Cluster &cluster, QWidget *parent)
    : QDialog(parent), m_script(new QLineEdit(this)), m_arguments(new QLineEdit(this)), m_workingDir(new QLineEdit(this)),
      m_env(new QLineEdit(this)), m_nproc(new QSpinBox(this)), m_port(new QSpinBox(this))
{
    setWindowTitle(tr("torchrun on %1").arg(cluster.name));
    m_script->setPlaceholderText(tr("train.py"));
    m_arguments->setPlaceholderText(tr("--epochs 3 --lr 3e-4"));
    m_workingDir->setPlaceholderText(tr("the login directory"));
    m_env->setPlaceholderText(tr("NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=ens5"));
    m_nproc->setRange(0, 64);
    m_nproc->setSpecialValueText(tr("auto (GPUs per node)"));
    m_nproc->setValue(0);
    m_port->setRange(1024, 65535);
    m_port->setValue(cluster.lastJob && cluster.lastJob->masterPort > 0 ? cluster.lastJob->masterPort : cluster::kDefaultMasterPort);
    auto *form = new QFormLayout(this);
    form->addRow(tr("Script:"), m_script);
    form->addRow(tr("Arguments:"), m_arguments);
    form->addRow(tr("Working folder:"), m_workingDir);
    form->addRow(tr("Environment:"), m_env);
    form->addRow(tr("Processes per node:"), m_nproc);
    form->addRow(tr("Rendezvous port:"), m_port);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Start on %n node(s)", nullptr, int(cluster.nodes.size())));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void TorchrunDialog::setScript(const QString &script, const QString &arguments)
{
    m_script->setText(script);
    m_arguments->setText(arguments);
}

Result<cluster::TorchrunSpec> TorchrunDialog::spec() const
{
    cluster::TorchrunSpec spec;
    if (m_script->text().trimmed().isEmpty())
        return makeError(ErrorCode::Usage, tr("Name the script torchrun starts on every node."));
    spec.run.command = QStringList{m_script->text().trimmed()} + QProcess::splitCommand(m_arguments->text());
    spec.run.workingDir = m_workingDir->text().trimmed();
    spec.run.masterPort = m_port->value();
    spec.nprocPerNode = m_nproc->value();
    for (const QString &assignment : QProcess::splitCommand(m_env->text())) {
        Result<QPair<QString, QString>> pair = jobs::parseEnvAssignment(assignment);
        if (!pair)
            return pair.error();
        spec.run.env.append(*pair);
    }
    return spec;
}

} // namespace gantry::ui
