#pragma once

#include "core/providers/restprovider.h"

#include <QJsonObject>

namespace gantry::providers {

// Lambda Cloud API v1 (OpenAPI 1.10.0): {"data": …} envelopes, {"error": {code, message,
// suggestion}} failures, no stop, launches limited to one per 12 s.
class LambdaProvider final : public RestProvider
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LambdaProvider)

public:
    static QString defaultEndpoint() { return QStringLiteral("https://cloud.lambda.ai"); }

    explicit LambdaProvider(RestConfig config, QObject *parent = nullptr);

    ProviderInfo info() const override;
    // Lambda allows one launch per 12 s; later launches wait their turn here instead of drawing 429s.
    void setLaunchIntervalMs(int ms) { m_launchIntervalMs = ms; }

    void listInstanceTypes(Callback<QList<InstanceType>> done) override;
    void listInstances(Callback<QList<Instance>> done) override;
    void getInstance(const QString &id, Callback<Instance> done) override;
    void launch(const LaunchRequest &request, Callback<QString> done) override;
    void restart(const QString &id, Callback<void> done) override;
    void terminate(const QString &id, Callback<void> done) override;
    void listSshKeys(Callback<QList<SshKey>> done) override;
    void addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done) override;
    void deleteSshKey(const QString &idOrName, Callback<void> done) override;
    void listFilesystems(Callback<QList<Filesystem>> done) override;
    void createFilesystem(const VolumeSpec &spec, Callback<Filesystem> done) override;
    void deleteFilesystem(const QString &id, Callback<void> done) override;
    void listImages(Callback<QList<Image>> done) override;

    static Result<QList<InstanceType>> parseInstanceTypes(const QJsonValue &data);
    static Instance parseInstance(const QJsonObject &object);
    static Filesystem parseFilesystem(const QJsonObject &object);

protected:
    Error httpError(const HttpResponse &response) const override;
    Result<QJsonValue> unwrap(const HttpResponse &response) const override;

private:
    void sendLaunch(const LaunchRequest &request, Callback<QString> done);

    int m_launchIntervalMs = 12000;
    qint64 m_lastLaunchMs = -1;
};

} // namespace gantry::providers
