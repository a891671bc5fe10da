#pragma once

#include "core/providers/restprovider.h"

#include <QJsonObject>

namespace gantry::providers {

// Shadeform API v1 (shadeform-openapi.yaml): one API over many clouds. A type is a
// shade_instance_type on one cloud ("hyperstack/H100_sxm5x8" here) with per-region availability
// and an hourly price in integer cents; create is asynchronous (only an id comes back); there is
// no stop. Auth is an X-API-KEY header; every mutation is a POST to a verb path.
class ShadeformProvider final : public RestProvider
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ShadeformProvider)

public:
    static QString defaultEndpoint() { return QStringLiteral("https://api.shadeform.ai"); }

    explicit ShadeformProvider(RestConfig config, QObject *parent = nullptr);

    ProviderInfo info() const override;

    void listInstanceTypes(Callback<QList<InstanceType>> done) override;
    void listInstances(Callback<QList<Instance>> done) override;
    void getInstance(const QString &id, Callback<Instance> done) override;
    // typeName is "cloud/shade_instance_type" as listInstanceTypes() names it.
    void launch(const LaunchRequest &request, Callback<QString> done) override;
    void restart(const QString &id, Callback<void> done) override;
    void terminate(const QString &id, Callback<void> done) override;
    void listSshKeys(Callback<QList<SshKey>> done) override;
    void addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done) override;
    void deleteSshKey(const QString &idOrName, Callback<void> done) override;
    // Volumes (shadeformvolumes.cpp): priced from /volumes/types, created on the cheapest cloud
    // that offers volumes in the region.
    void listFilesystems(Callback<QList<Filesystem>> done) override;
    void createFilesystem(const VolumeSpec &spec, Callback<Filesystem> done) override;
    void deleteFilesystem(const QString &id, Callback<void> done) override;

    static QList<InstanceType> parseTypes(const QJsonValue &root);
    static Instance parseInstance(const QJsonObject &object);
    static QList<SshKey> parseSshKeys(const QJsonValue &root);
    // Prices come as integer cents (hourly_price) or decimal dollar strings ("1.50", "$15.00").
    static double centsToDollars(const QJsonValue &cents);
    static double dollars(const QJsonValue &value);

protected:
    Error httpError(const HttpResponse &response) const override;
    void authorize(HttpRequest &request) const override;

private:
    void create(const LaunchRequest &request, const QString &keyId, const QString &volumeId, Callback<QString> done);
    void post(const QString &path, Callback<void> done);
};

} // namespace gantry::providers
