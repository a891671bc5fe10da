#pragma once

#include "emulatorserver.h"

#include <QJsonArray>
#include <QMap>

namespace gantry::test {

// Vast.ai REST v0 per vast-openapi.yaml and the official CLI: offers searched with POST /bundles/
// (filters {"field": {"op": value}}, MB units), PUT /asks/{id}/ answering "new_contract",
// success:false on HTTP 200 for a failed rent, plain-text 429 without Retry-After, the CLI's
// "ssh_direc ssh_proxy" runtype, instances that load then run, stop keeping the disk, outbid bids.
class VastEmulator final : public EmulatorServer
{
    Q_OBJECT

public:
    explicit VastEmulator(QObject *parent = nullptr);

    int bootMs = 300;
    double credit = 25.0;            // below the hourly price, a rent fails with success:false on 200
    QString sshHost = QStringLiteral("127.0.0.1");
    int hiddenSearches = 0;          // the H100 offers appear only after this many searches
    bool rentRacesAway = false;      // every rent finds its offer just taken (capacity gone)
    int rentRaces = 0;               // the next this many rents find their offer just taken; it stays listed a while
    int searchCount = 0;

    // Adds n synthetic offers (benchmarks): mixed GPUs, counts and prices.
    void addSyntheticOffers(int n);
    void addOffer(const QJsonObject &offer) { m_offers.append(offer); }
    // One more verified, rentable offer like the built-in ones.
    void addOffer(qint64 id, const QString &gpu, int count, double dollarsPerHour, const QString &where);
    bool vanish(const QString &id) override;
    // An interruptible instance loses its GPU to a higher bid: stopped, still billing its disk.
    bool outbid(const QString &id);
    int instanceCount() const { return int(m_instances.size()); }
    QStringList keyLines() const;

protected:
    EmuResponse handle(const EmuRequest &request) override;
    EmuResponse errorFor(int status, const QString &message) const override;
    void configure(const QJsonObject &config) override;

private:
    struct Instance
    {
        QJsonObject offer;
        QJsonObject base;
        qint64 startedMs = 0;
        bool stopped = false;
        bool outbid = false;
    };
    static EmuResponse failure(int status, const QString &code, const QString &message);
    QJsonArray search(const QJsonObject &query);
    QJsonObject render(const Instance &instance) const;
    EmuResponse rent(const QString &offerId, const QJsonObject &body);
    EmuResponse instanceCall(const EmuRequest &request, const QString &id, const QJsonObject &body);
    EmuResponse keysCall(const EmuRequest &request, const QJsonObject &body);
    // Volumes (vastvolumes.cpp).
    QJsonArray volumeOffers() const;
    QJsonObject renderVolume(const QJsonObject &volume) const;
    EmuResponse volumesCall(const EmuRequest &request, const QJsonObject &body);
    QString linkVolume(const QJsonObject &body, const QJsonObject &offer) const;

    QJsonArray m_offers;
    QMap<qint64, Instance> m_instances;
    QJsonArray m_keys;
    QMap<qint64, QJsonObject> m_volumes;
    qint64 m_nextInstance = 31000001;
    int m_nextKey = 801;
};

} // namespace gantry::test
