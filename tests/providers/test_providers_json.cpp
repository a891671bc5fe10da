// Numbers in provider replies that no integer can hold: read as the field's fallback, not cast
// (a double → integer cast out of range is undefined behaviour; the provider_json fuzz harness
// found it with a Vast.ai offer id of 4e74, seeded as tests/fuzz/corpus/provider_json/vast-offer-id-4e74).
#include "core/providers/jsonfields.h"
#include "core/providers/vastprovider.h"

#include <QJsonDocument>
#include <QTest>

#include <cmath>
#include <limits>

using namespace gantry::providers;

class TestProvidersJson : public QObject
{
    Q_OBJECT

private slots:
    void truncatesLikeACastWithinRange()
    {
        QCOMPARE(json::truncatedInt(51.7), 51);
        QCOMPARE(json::truncatedInt(-3.9), -3);
        QCOMPARE(json::truncatedInt(2147483647.9), 2147483647);
        QCOMPARE(json::truncatedInt(-2147483648.9), int(-2147483648LL));
        QCOMPARE(json::truncatedInt64(9007199254740993.0), qint64(9007199254740992LL));
        QCOMPARE(json::truncatedInt64(-9223372036854775808.0), std::numeric_limits<qint64>::min());
    }

    void outOfRangeGivesTheFallback()
    {
        QCOMPARE(json::truncatedInt(2147483648.0, -1), -1);
        QCOMPARE(json::truncatedInt(-2147483649.0, -1), -1);
        QCOMPARE(json::truncatedInt(4.13e74, 7), 7);
        QCOMPARE(json::truncatedInt(std::nan(""), 7), 7);
        QCOMPARE(json::truncatedInt64(9223372036854775808.0, -1), qint64(-1));
        QCOMPARE(json::truncatedInt64(-1e300, -1), qint64(-1));
        QCOMPARE(json::truncatedInt64(std::numeric_limits<double>::infinity(), 5), qint64(5));
    }

    void vastOfferWithHugeNumbers()
    {
        const QJsonObject offer = QJsonDocument::fromJson(
            R"({"id": 4.13e74, "gpu_name": "H100 SXM", "disk_space": 1e30, "cpu_cores": -1e20})").object();
        QVERIFY(VastProvider::parseOffer(offer).name.isEmpty()); // no usable id: no offer

        const QJsonObject sane = QJsonDocument::fromJson(
            R"({"id": 123, "gpu_name": "H100 SXM", "num_gpus": 1, "disk_space": 1e30, "cpu_cores": 1e20, "gpu_ram": 1e300})").object();
        const InstanceType type = VastProvider::parseOffer(sane);
        QCOMPARE(type.name, QStringLiteral("123"));
        QCOMPARE(type.diskGb, 0);
        QCOMPARE(type.vcpus, 0);
        QCOMPARE(type.vramGbPerGpu, 0);

        const Instance instance = VastProvider::parseInstance(QJsonDocument::fromJson(
            R"({"id": 9, "disk_space": -1e40, "start_date": 1e300, "actual_status": "running"})").object());
        QCOMPARE(instance.volumeGb, 0);
    }
};

QTEST_GUILESS_MAIN(TestProvidersJson)
#include "test_providers_json.moc"
