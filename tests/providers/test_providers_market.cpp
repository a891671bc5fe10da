// Vast.ai and Shadeform clients against their emulators over real loopback HTTP, and the GPU model
// table that lets their offers be compared with Lambda's and RunPod's.
#include "restconfigfor.h"
#include "shadeformemulator.h"
#include "vastemulator.h"

#include "core/providers/jsonfields.h"
#include "core/providers/await.h"
#include "core/providers/gpumodels.h"
#include "core/providers/launchtypes.h"
#include "core/providers/launchwatcher.h"
#include "core/providers/providerregistry.h"
#include "core/providers/shadeformprovider.h"
#include "core/providers/vastprovider.h"

#include <QJsonDocument>
#include <QTest>

using namespace gantry;
using namespace gantry::providers;

namespace {


template<typename T, typename Call>
Result<T> run(Call &&call)
{
    return await<T>(std::forward<Call>(call), 20000);
}

Result<Instance> waitUp(Provider &provider, const QString &id)
{
    LaunchWatcher watcher(&provider, id, 10000, 50);
    return await<Instance>([&](auto done) { watcher.start(done); });
}

const InstanceType *byName(const QList<InstanceType> &types, const QString &name)
{
    for (const InstanceType &type : types) {
        if (type.name == name)
            return &type;
    }
    return nullptr;
}

const QString kKey = QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG laptop");

} // namespace

class TestProvidersMarket final : public QObject
{
    Q_OBJECT

private slots:
    void numericIdsKeepEveryDigit()
    {
        // A 7-digit Vast machine_id printed with 6 significant digits would match nothing.
        QCOMPARE(providers::json::string(QJsonValue(1234567.0)), QStringLiteral("1234567"));
        QCOMPARE(providers::json::string(QJsonValue(9007199254740991.0)), QStringLiteral("9007199254740991"));
        QCOMPARE(providers::json::string(QJsonValue(-42.0)), QStringLiteral("-42"));
        QCOMPARE(providers::json::string(QJsonValue(0.25)), QStringLiteral("0.25"));
        QCOMPARE(providers::json::string(QJsonValue(), QStringLiteral("none")), QStringLiteral("none"));
    }

    void gpuModelsStayDistinct()
    {
        QCOMPARE(parseGpuModel(QStringLiteral("H100 (80 GB SXM5)")).name(), QStringLiteral("H100 SXM"));
        QCOMPARE(parseGpuModel(QStringLiteral("NVIDIA H100 80GB HBM3")).name(), QStringLiteral("H100 SXM"));
        QCOMPARE(parseGpuModel(QStringLiteral("H100 PCIE")).name(), QStringLiteral("H100 PCIe"));
        QCOMPARE(parseGpuModel(QStringLiteral("NVIDIA H100 NVL")).name(), QStringLiteral("H100 NVL"));
        QCOMPARE(parseGpuModel(QStringLiteral("H100_sxm5x8")).name(), QStringLiteral("H100 SXM"));
        QCOMPARE(parseGpuModel(QStringLiteral("NVIDIA GeForce RTX 4090")).name(), QStringLiteral("RTX 4090"));
        QCOMPARE(parseGpuModel(QStringLiteral("A100-SXM4-80GB")).name(), QStringLiteral("A100 SXM"));
        QCOMPARE(parseGpuModel(QStringLiteral("A10 (24 GB PCIe)")).name(), QStringLiteral("A10")); // one form only
        QCOMPARE(parseGpuModel(QStringLiteral("GH200 (96 GB)")).name(), QStringLiteral("GH200"));
        QCOMPARE(parseGpuModel(QStringLiteral("L40S")).name(), QStringLiteral("L40S"));
        QCOMPARE(parseGpuModel(QStringLiteral("L4")).name(), QStringLiteral("L4"));
        QCOMPARE(parseGpuModel(QStringLiteral("A6000")).name(), QStringLiteral("RTX A6000"));
        QVERIFY(!parseGpuModel(QStringLiteral("cpu_4x_general")).isKnown());

        const GpuModel sxm = parseGpuModel(QStringLiteral("H100 SXM"));
        const GpuModel pcie = parseGpuModel(QStringLiteral("H100 PCIe"));
        QVERIFY(gpuModelMatches(QStringLiteral("h100"), sxm));
        QVERIFY(gpuModelMatches(QStringLiteral("H100"), pcie));
        QVERIFY(gpuModelMatches(QStringLiteral("H100 SXM"), sxm));
        QVERIFY(!gpuModelMatches(QStringLiteral("H100 SXM"), pcie));
        QVERIFY(!gpuModelMatches(QStringLiteral("H100 NVL"), sxm));
        QVERIFY(!gpuModelMatches(QStringLiteral("H200"), sxm));
        QVERIFY(!gpuModelMatches(QStringLiteral("A10"), parseGpuModel(QStringLiteral("A100"))));

        InstanceType lambda;
        lambda.gpuModel = QStringLiteral("H100");
        lambda.gpuCount = 8;
        lambda.description = QStringLiteral("8x H100 (80 GB SXM5)");
        QCOMPARE(gpuModelOf(lambda).name(), QStringLiteral("H100 SXM"));
    }

    void registryKnowsTheNewProviders()
    {
        QVERIFY(knownProviderIds().contains(QStringLiteral("vast")));
        QVERIFY(knownProviderIds().contains(QStringLiteral("shadeform")));
        QCOMPARE(apiKeyEnvName(QStringLiteral("vast")), QStringLiteral("GANTRY_VAST_API_KEY"));
        QCOMPARE(apiKeyEnvName(QStringLiteral("shadeform")), QStringLiteral("GANTRY_SHADEFORM_API_KEY"));
        ProviderSettings settings;
        settings.apiKeyOverride = QStringLiteral("k");
        settings.endpointOverride = QStringLiteral("http://127.0.0.1:9");
        for (const QString &id : {QStringLiteral("vast"), QStringLiteral("shadeform")}) {
            Result<std::unique_ptr<Provider>> provider = createProvider(id, settings);
            QVERIFY2(provider, provider ? "" : qPrintable(provider.error().message));
            QCOMPARE((*provider)->info().id, id);
        }
        settings.endpointOverride.clear();
        QCOMPARE(endpointFor(QStringLiteral("vast"), settings), QStringLiteral("https://console.vast.ai"));
        QCOMPARE(endpointFor(QStringLiteral("shadeform"), settings), QStringLiteral("https://api.shadeform.ai"));
    }

    void vastOffers()
    {
        test::VastEmulator emulator;
        QVERIFY(emulator.listen());
        VastProvider vast(test::restConfigFor(emulator));
        Result<QList<InstanceType>> offers = run<QList<InstanceType>>([&](auto done) { vast.listInstanceTypes(done); });
        QVERIFY2(offers, offers ? "" : qPrintable(offers.error().message));
        QCOMPARE(offers->size(), 7); // the A100 machine is not rentable, so the search leaves it out
        const InstanceType *h100 = byName(*offers, QStringLiteral("4100301"));
        QVERIFY(h100);
        QCOMPARE(h100->gpuModel, QStringLiteral("H100 SXM"));
        QCOMPARE(h100->vramGbPerGpu, 80); // 81559 MB
        QCOMPARE(h100->ramGb, 64);
        QCOMPARE(h100->vcpus, 16);
        QCOMPARE(h100->pricePerHour, 2.25);
        QCOMPARE(h100->regionsWithCapacity.first().name, QStringLiteral("US"));
        QCOMPARE(h100->regionsWithCapacity.first().description, QStringLiteral("Texas, US"));
        QVERIFY(h100->reliability > 0.99);
        QCOMPARE(h100->maxCuda, 12.4);
        QVERIFY(h100->inetDownMbps > 2000);
        QVERIFY(h100->verified);
        QVERIFY(h100->note.contains(QStringLiteral("Interruptible")));
        // The search asked for what a user can rent now, cheapest first.
        QCOMPARE(offers->first().pricePerHour, 0.29);
    }

    void vastLaunchCheapestMatchAndLifecycle()
    {
        test::VastEmulator emulator;
        emulator.bootMs = 100;
        QVERIFY(emulator.listen());
        VastProvider vast(test::restConfigFor(emulator));
        LaunchRequest request;
        request.typeName = QStringLiteral("H100x1");
        request.name = QStringLiteral("train");
        // Without an account key the instance would be unreachable: refused before renting.
        Result<QString> keyless = run<QString>([&](auto done) { vast.launch(request, done); });
        QVERIFY(!keyless);
        QVERIFY2(keyless.error().message.contains(QStringLiteral("no SSH keys")), qPrintable(keyless.error().message));
        QVERIFY(run<SshKey>([&](auto done) { vast.addSshKey(QStringLiteral("laptop"), kKey, done); }));
        Result<QList<SshKey>> keys = run<QList<SshKey>>([&](auto done) { vast.listSshKeys(done); });
        QVERIFY(keys);
        QCOMPARE(keys->size(), 1);
        QCOMPARE(keys->first().name, QStringLiteral("laptop"));

        Result<QString> id = run<QString>([&](auto done) { vast.launch(request, done); });
        QVERIFY2(id, id ? "" : qPrintable(id.error().message));
        QCOMPARE(*id, QStringLiteral("31000001")); // "new_contract", not "id"
        Result<Instance> up = waitUp(vast, *id);
        QVERIFY2(up, up ? "" : qPrintable(up.error().message));
        QCOMPARE(up->name, QStringLiteral("train"));
        QCOMPARE(up->gpuDescription, QStringLiteral("1x H100 PCIE")); // the cheapest H100 of any form
        QCOMPARE(up->sshHost, QStringLiteral("127.0.0.1"));          // direct, the padded IP stripped
        QVERIFY(up->sshPort >= 20000);
        QCOMPARE(up->sshUser, QStringLiteral("root"));

        // Stop keeps the disk; start brings it back.
        QVERIFY(run<void>([&](auto done) { vast.stop(*id, done); }));
        Result<Instance> stopped = run<Instance>([&](auto done) { vast.getInstance(*id, done); });
        QVERIFY(stopped);
        QCOMPARE(stopped->state, InstanceState::Stopped);
        QCOMPARE(stopped->pricePerHour, 0.0);
        QCOMPARE(stopped->volumeGb, VastProvider::kDefaultDiskGb);
        QVERIFY(run<void>([&](auto done) { vast.start(*id, done); }));
        QVERIFY(waitUp(vast, *id));
        QVERIFY(run<void>([&](auto done) { vast.terminate(*id, done); }));
        Result<Instance> gone = run<Instance>([&](auto done) { vast.getInstance(*id, done); });
        QVERIFY(!gone);
        QCOMPARE(gone.error().code, ErrorCode::NotFound);

        // By offer id, in a region, and the exact form asked for.
        request.typeName = QStringLiteral("H100 SXMx1");
        request.region = QStringLiteral("SE");
        Result<QString> sweden = run<QString>([&](auto done) { vast.launch(request, done); });
        QVERIFY(sweden);
        Result<Instance> swedish = waitUp(vast, *sweden);
        QVERIFY(swedish);
        QCOMPARE(swedish->region, QStringLiteral("Sweden, SE"));
        QVERIFY(run<void>([&](auto done) { vast.deleteSshKey(QStringLiteral("laptop"), done); }));
        QVERIFY(emulator.keyLines().isEmpty());
    }

    void vastOutbidInterruptibleStopsButStillBillsDisk()
    {
        test::VastEmulator emulator;
        emulator.bootMs = 60;
        QVERIFY(emulator.listen());
        VastProvider vast(test::restConfigFor(emulator));
        QVERIFY(run<SshKey>([&](auto done) { vast.addSshKey(QStringLiteral("laptop"), kKey, done); }));
        LaunchRequest request;
        request.typeName = QStringLiteral("4100201");
        request.bidPerHour = 0.05; // below the floor
        Result<QString> low = run<QString>([&](auto done) { vast.launch(request, done); });
        QVERIFY(!low);
        QVERIFY2(low.error().message.contains(QStringLiteral("minimum")), qPrintable(low.error().message));
        request.bidPerHour = 0.20;
        Result<QString> id = run<QString>([&](auto done) { vast.launch(request, done); });
        QVERIFY2(id, id ? "" : qPrintable(id.error().message));
        QVERIFY(waitUp(vast, *id));
        QVERIFY(emulator.outbid(*id));
        Result<Instance> outbid = run<Instance>([&](auto done) { vast.getInstance(*id, done); });
        QVERIFY(outbid);
        QCOMPARE(outbid->state, InstanceState::Stopped);
        QCOMPARE(outbid->providerStatus, QStringLiteral("outbid"));
        QVERIFY(outbid->sshHost.isEmpty());
        QVERIFY(vast.can(Capability::StorageBillsWhileStopped));
    }

    void shadeformTypesAndLaunch()
    {
        test::ShadeformEmulator emulator;
        emulator.bootMs = 100;
        QVERIFY(emulator.listen());
        ShadeformProvider shade(test::restConfigFor(emulator));
        Result<QList<InstanceType>> types = run<QList<InstanceType>>([&](auto done) { shade.listInstanceTypes(done); });
        QVERIFY2(types, types ? "" : qPrintable(types.error().message));
        QCOMPARE(types->size(), 3);
        const InstanceType *a6000 = byName(*types, QStringLiteral("massedcompute/A6000"));
        QVERIFY(a6000);
        QCOMPARE(a6000->pricePerHour, 0.57); // integer cents
        QCOMPARE(a6000->vramGbPerGpu, 48);
        QCOMPARE(a6000->regionsWithCapacity.first().name, QStringLiteral("kansascity-usa-1"));
        const InstanceType *h100 = byName(*types, QStringLiteral("hyperstack/H100_sxm5x8"));
        QVERIFY(h100);
        QCOMPARE(gpuModelOf(*h100).name(), QStringLiteral("H100 SXM"));
        QCOMPARE(h100->gpuCount, 8);
        QVERIFY(!h100->availableNow());
        const InstanceType *pcie = byName(*types, QStringLiteral("lambdalabs/H100"));
        QVERIFY(pcie);
        QCOMPARE(gpuModelOf(*pcie).name(), QStringLiteral("H100 PCIe"));
        QCOMPARE(pcie->regionsWithCapacity.size(), 1); // the spot entry is not a second region
        QVERIFY2(pcie->note.contains(QStringLiteral("1.50")), qPrintable(pcie->note)); // a dollar string

        QVERIFY(run<SshKey>([&](auto done) { shade.addSshKey(QStringLiteral("laptop"), kKey, done); }));
        LaunchRequest request;
        request.typeName = QStringLiteral("massedcompute/A6000");
        request.region = QStringLiteral("kansascity-usa-1");
        request.sshKeyName = QStringLiteral("laptop");
        request.name = QStringLiteral("quickstart");
        Result<QString> id = run<QString>([&](auto done) { shade.launch(request, done); });
        QVERIFY2(id, id ? "" : qPrintable(id.error().message));
        Result<Instance> booting = run<Instance>([&](auto done) { shade.getInstance(*id, done); });
        QVERIFY(booting);
        QCOMPARE(booting->state, InstanceState::Booting); // asynchronous create
        Result<Instance> up = waitUp(shade, *id);
        QVERIFY2(up, up ? "" : qPrintable(up.error().message));
        QCOMPARE(up->sshPort, 22); // ssh_port is null
        QCOMPARE(up->sshUser, QStringLiteral("shadeform"));
        QCOMPARE(up->pricePerHour, 0.57);

        Result<void> stop = run<void>([&](auto done) { shade.stop(*id, done); });
        QVERIFY(!stop);
        QVERIFY2(stop.error().message.contains(QStringLiteral("Shadeform cannot stop")), qPrintable(stop.error().message));
        QVERIFY(!shade.can(Capability::StopStart));
        QVERIFY(run<void>([&](auto done) { shade.restart(*id, done); }));
        QVERIFY(run<void>([&](auto done) { shade.terminate(*id, done); }));
        Result<Instance> deleting = run<Instance>([&](auto done) { shade.getInstance(*id, done); });
        QVERIFY(deleting);
        QCOMPARE(deleting->state, InstanceState::Terminating);
        QVERIFY(run<void>([&](auto done) { shade.deleteSshKey(QStringLiteral("laptop"), done); }));
        Result<void> managed = run<void>([&](auto done) { shade.deleteSshKey(QStringLiteral("Shadeform Managed Key"), done); });
        QVERIFY(!managed);
        QVERIFY(managed.error().message.contains(QStringLiteral("cannot be deleted")));
    }

    void parsersTolerateTheDocumentedVariants()
    {
        // Shadeform: "$15.00" and "103.4" dollar strings; cents as a string.
        QCOMPARE(ShadeformProvider::dollars(QJsonValue(QStringLiteral("$15.00"))), 15.0);
        QCOMPARE(ShadeformProvider::centsToDollars(QJsonValue(QStringLiteral("57"))), 0.57);
        QCOMPARE(ShadeformProvider::centsToDollars(QJsonValue(249)), 2.49);
        // Vast: keys as {"ssh_keys": […]} with "public_key"; ports in the object form.
        const QJsonObject keys = QJsonDocument::fromJson(R"({"ssh_keys":[{"id":5,"public_key":"ssh-ed25519 AAAA work"}]})").object();
        QCOMPARE(VastProvider::parseSshKeys(keys).first().name, QStringLiteral("work"));
        const Instance proxy = VastProvider::parseInstance(QJsonDocument::fromJson(
            R"({"id":7,"actual_status":"running","intended_status":"running","ssh_host":"ssh4.vast.ai","ssh_port":10882})").object());
        QCOMPARE(proxy.sshHost, QStringLiteral("ssh4.vast.ai")); // no direct port: the proxy
        QCOMPARE(proxy.sshPort, 10882);
        QString gpu;
        int count = 0;
        QVERIFY(parseGpuSpec(QStringLiteral("RTX 4090x2"), &gpu, &count));
        QCOMPARE(gpu, QStringLiteral("RTX 4090"));
        QCOMPARE(count, 2);
        QVERIFY(!parseGpuSpec(QStringLiteral("4100301"), &gpu, &count));
    }
};

QTEST_GUILESS_MAIN(TestProvidersMarket)
#include "test_providers_market.moc"
