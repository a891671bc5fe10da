#pragma once

#include "core/providers/restprovider.h"

#include <QJsonObject>

namespace gantry::providers {

// RunPod REST v2: GPU catalog with per-GPU prices, pods with /action (stop keeps the volume disk
// billing), account-wide SSH keys replaced as a whole, problem+json errors.
class RunPodProvider final : public RestProvider
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunPodProvider)

public:
    static QString defaultEndpoint() { return QStringLiteral("https://api.runpod.io"); }
    static QString defaultImage() { return QStringLiteral("runpod/pytorch:1.0.2-cu1281-torch280-ubuntu2404"); }

    explicit RunPodProvider(RestConfig config, QObject *parent = nullptr);

    ProviderInfo info() const override;

    void listInstanceTypes(Callback<QList<InstanceType>> done) override;
    void listInstances(Callback<QList<Instance>> done) override;
    void getInstance(const QString &id, Callback<Instance> done) override;
    void launch(const LaunchRequest &request, Callback<QString> done) override;
    void stop(const QString &id, Callback<void> done) override;
    void start(const QString &id, Callback<void> done) override;
    void restart(const QString &id, Callback<void> done) override;
    void terminate(const QString &id, Callback<void> done) override;
    void listSshKeys(Callback<QList<SshKey>> done) override;
    void addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done) override;
    void deleteSshKey(const QString &idOrName, Callback<void> done) override;
    void listFilesystems(Callback<QList<Filesystem>> done) override;
    void createFilesystem(const VolumeSpec &spec, Callback<Filesystem> done) override;
    void deleteFilesystem(const QString &id, Callback<void> done) override;
    static Filesystem parseVolume(const QJsonObject &object);
    void listImages(Callback<QList<Image>> done) override;

    static QList<InstanceType> parseCatalog(const QJsonValue &root);
    static Instance parsePod(const QJsonObject &object);
    // Account keys are bare strings; the name is the key's comment (or a short fingerprint).
    static SshKey keyFromLine(const QString &line);

protected:
    Error httpError(const HttpResponse &response) const override;

private:
    void sendLaunch(const LaunchRequest &request, const QString &volumeId, Callback<QString> done);
    void action(const QString &id, const QString &verb, Callback<void> done);
    void fetchKeyLines(std::function<void(Result<QStringList>)> done);
    void putKeyLines(const QStringList &lines, Callback<void> done);
};

} // namespace gantry::providers
