#pragma once

#include "core/providers/provider.h"

#include <QJsonObject>
#include <QThreadPool>

namespace gantry::providers {

namespace sandbox {
enum class GpuProfile;
}

struct SandboxOptions
{
    int bootDelayMs = 2000;   // how long a new instance stays "booting"
    QString sshdPath = QStringLiteral("/usr/sbin/sshd");
};

// The embedded default provider: Lambda-like semantics on this machine. Each "instance" is a real
// OpenSSH sshd on 127.0.0.1 (started detached as the current user, its own host key, the Gantry
// key in authorized_keys), recorded under <configDir>/sandbox/ so it outlives the app: a later
// listing restarts sshd when it is gone. Status moves booting → active when read after the boot
// delay, so a CLI that launches and exits sees the same lifecycle as the GUI. Every instance has a
// home of its own and its GPU types a simulated GPU (sandboxproviderhome.h).
class SandboxProvider final : public Provider
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SandboxProvider)

public:
    explicit SandboxProvider(QString configDir, SandboxOptions options = {}, QObject *parent = nullptr);
    ~SandboxProvider() override;

    ProviderInfo info() const override;
    static QList<InstanceType> instanceTypes();
    // What the type's nvidia-smi shows (None: the CPU type has no GPU, real or simulated).
    static sandbox::GpuProfile gpuProfileOf(const QString &typeName);
    // The spot variants' names end in _spot or -spot.
    static bool isSpotType(const QString &typeName);
    QString stateDir() const;
    QString configDir() const { return m_configDir; }

    void listInstanceTypes(Callback<QList<InstanceType>> done) override;
    void listInstances(Callback<QList<Instance>> done) override;
    void getInstance(const QString &id, Callback<Instance> done) override;
    void launch(const LaunchRequest &request, Callback<QString> done) override;
    void restart(const QString &id, Callback<void> done) override;
    void terminate(const QString &id, Callback<void> done) override;
    void listSshKeys(Callback<QList<SshKey>> done) override;
    void addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done) override;
    void deleteSshKey(const QString &idOrName, Callback<void> done) override;
    void listImages(Callback<QList<Image>> done) override;
    // Reclaims a spot instance as a spot market does (`gantry-cli preempt`): every process of the
    // machine ends at once; the next reading reports it preempted (terminated), the one after
    // finds it gone. An on-demand instance is refused.
    void preempt(const QString &id, Callback<void> done);
    // The machine drops off the network while it still runs and bills, as a cloud machine whose
    // network or sshd died: its SSH server and sessions end and stay down, and the provider goes
    // on reporting it running until it is terminated (tests of the unreachable path).
    void cutOff(const QString &id, Callback<void> done);

private:
    template<typename T>
    void runJob(std::function<Result<T>()> job, Callback<T> done);

    // The rest runs on the single worker thread, which serialises every change to the state dir.
    Result<QList<Instance>> refreshAll();
    Result<Instance> refreshOne(const QString &id);
    Result<QString> createInstance(const LaunchRequest &request);
    Result<void> destroyInstance(const QString &id);
    Result<void> restartInstance(const QString &id);
    Result<void> reclaimInstance(const QString &id);
    Result<void> cutOffInstance(const QString &id);
    Result<Instance> reportReclaimed(const QString &id, QJsonObject record);
    Result<QList<SshKey>> loadKeys();
    Result<void> saveKeys(const QList<SshKey> &keys);
    Result<SshKey> storeKey(const QString &name, const QString &publicKey);
    Result<void> removeKey(const QString &idOrName);

    QString instanceDir(const QString &id) const;
    Result<QJsonObject> loadRecord(const QString &id) const;
    Result<void> saveRecord(const QString &id, const QJsonObject &record) const;
    Result<void> bringUp(const QString &id, QJsonObject *record);
    Result<void> startSshd(const QString &id, QJsonObject *record);
    bool sshdAlive(const QString &id) const;
    void killSshd(const QString &id) const;
    Instance toInstance(const QJsonObject &record) const;

    QString m_configDir;
    SandboxOptions m_options;
    QThreadPool m_pool;
};

} // namespace gantry::providers
