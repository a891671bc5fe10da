#pragma once

#include "core/providers/restprovider.h"

#include <QJsonObject>

namespace gantry::providers {

// Vast.ai REST API v0 (vast-openapi.yaml): a marketplace, so "types" are single offers (machines)
// searched with POST /bundles/; renting one is PUT /asks/{offer}/ whose reply names the instance
// "new_contract". Replies may say success:false on HTTP 200 and 429s arrive as plain text without
// Retry-After. Memory fields are MB. Stopping keeps the disk billing.
class VastProvider final : public RestProvider
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(VastProvider)

public:
    static QString defaultEndpoint() { return QStringLiteral("https://console.vast.ai"); }
    static QString defaultImage() { return QStringLiteral("vastai/base-image:@vastai-automatic-tag"); }
    static constexpr int kDefaultDiskGb = 32;

    explicit VastProvider(RestConfig config, QObject *parent = nullptr);

    ProviderInfo info() const override;

    void listInstanceTypes(Callback<QList<InstanceType>> done) override;
    void listInstances(Callback<QList<Instance>> done) override;
    void getInstance(const QString &id, Callback<Instance> done) override;
    // typeName is an offer id, or "GPUxN" ("H100x1", "RTX 4090x2") for the cheapest rentable match
    // (in request.region when given, a country code such as "US").
    void launch(const LaunchRequest &request, Callback<QString> done) override;
    void stop(const QString &id, Callback<void> done) override;
    void start(const QString &id, Callback<void> done) override;
    void restart(const QString &id, Callback<void> done) override;
    void terminate(const QString &id, Callback<void> done) override;
    void listSshKeys(Callback<QList<SshKey>> done) override;
    void addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done) override;
    void deleteSshKey(const QString &idOrName, Callback<void> done) override;
    // Volumes (vastvolumes.cpp): a Vast volume is rented from a machine's volume offer, named by
    // Vast ("V.<id>"), and attaches only to instances on that machine.
    void listFilesystems(Callback<QList<Filesystem>> done) override;
    void createFilesystem(const VolumeSpec &spec, Callback<Filesystem> done) override;
    void deleteFilesystem(const QString &id, Callback<void> done) override;

    // The search body: rentable, verified offers with a direct SSH port, cheapest first.
    static QJsonObject offerQuery(const QString &gpuName = {}, int gpuCount = 0, int limit = 1000);
    static QList<InstanceType> parseOffers(const QJsonValue &root);
    // The raw search reply, as read on a worker thread.
    static Result<QList<InstanceType>> readOffers(const QByteArray &body);
    static InstanceType parseOffer(const QJsonObject &offer);
    static Instance parseInstance(const QJsonObject &object);
    static QList<SshKey> parseSshKeys(const QJsonValue &root);

protected:
    Error httpError(const HttpResponse &response) const override;
    Result<QJsonValue> unwrap(const HttpResponse &response) const override;

private:
    void pickOffer(const LaunchRequest &request, const Filesystem &volume, Callback<QString> done);
    void searchOffers(const QJsonObject &query, Callback<QList<InstanceType>> done);
    void rent(const QString &offerId, const LaunchRequest &request, const QString &volumeId, Callback<QString> done);
    void rentVolume(const QJsonObject &offer, const VolumeSpec &spec, Callback<Filesystem> done);
    void setState(const QString &id, const QString &state, Callback<void> done);
    static Error vastError(int status, const QJsonObject &body, const QByteArray &raw);
};

} // namespace gantry::providers
