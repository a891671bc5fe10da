// Lambda and RunPod clients against the in-process emulators over real loopback HTTP.
#include "restconfigfor.h"
#include "lambdaemulator.h"
#include "runpodemulator.h"

#include "core/providers/await.h"
#include "core/providers/providerhub.h"
#include "core/providers/providerregistry.h"
#include "core/util/appsettings.h"
#include "core/util/secretstore.h"
#include "core/providers/lambdaprovider.h"
#include "core/providers/launchwatcher.h"
#include "core/providers/runpodprovider.h"

#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::providers;

namespace {


template<typename T, typename Call>
T valueOf(Call &&call)
{
    Result<T> result = await<T>(std::forward<Call>(call), 20000);
    if (!result)
        qWarning("unexpected error: %s", qPrintable(result.error().message));
    return result ? std::move(result).value() : T{};
}

Result<Instance> waitUntil(Provider &provider, const QString &id, InstanceState wanted, int timeoutMs = 10000)
{
    QElapsedTimer timer;
    timer.start();
    for (;;) {
        Result<Instance> instance = await<Instance>([&](Callback<Instance> done) { provider.getInstance(id, std::move(done)); });
        if (!instance || instance->state == wanted || timer.elapsed() > timeoutMs)
            return instance;
        QTest::qWait(50);
    }
}

} // namespace

class TestProvidersHttp final : public QObject
{
    Q_OBJECT

private slots:
    // An endpoint changed in Settings (gantry.ini) reaches the providers as a value: the next
    // ProviderHub::reload (what Settings' OK does) sends the next request there, no restart and no
    // environment variable in between.
    void endpointSettingAppliesAtTheNextReload()
    {
        qunsetenv("GANTRY_LAMBDA_ENDPOINT");
        QTemporaryDir dir;
        test::LambdaEmulator first;
        test::LambdaEmulator second;
        QVERIFY(first.listen() && second.listen());
        auto secrets = makeMemorySecretStore();
        QVERIFY(secrets->write(apiKeySecretName(QStringLiteral("lambda")), first.apiKey()));
        const std::optional<appsettings::SettingInfo> endpoint =
            appsettings::findSetting(QStringLiteral("endpoint.lambda"), cloudProviderIds());
        QVERIFY(endpoint);
        QVERIFY(appsettings::setValue(dir.path(), *endpoint, first.baseUrl()));
        ProviderSettings settings;
        settings.configDir = dir.path();
        settings.secrets = secrets.get();
        ProviderHub hub(settings);
        QVERIFY(hub.provider(QStringLiteral("lambda")));
        auto listTypes = [&hub] {
            return await<QList<InstanceType>>([&](auto done) { hub.provider(QStringLiteral("lambda"))->listInstanceTypes(done); }).ok();
        };
        QVERIFY(listTypes());
        QCOMPARE(first.requestCount(QStringLiteral("instance-types")), 1);

        QVERIFY(appsettings::setValue(dir.path(), *endpoint, second.baseUrl()));
        hub.reload();
        QVERIFY(listTypes());
        QCOMPARE(second.requestCount(QStringLiteral("instance-types")), 1);
        QCOMPARE(first.requestCount(QStringLiteral("instance-types")), 1);
        QVERIFY(qEnvironmentVariableIsEmpty("GANTRY_LAMBDA_ENDPOINT"));
    }

    void lambdaInstanceTypes()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator));
        const auto types = valueOf<QList<InstanceType>>([&](auto done) { lambda.listInstanceTypes(done); });
        QCOMPARE(types.size(), 4);
        QHash<QString, InstanceType> byName;
        for (const InstanceType &type : types)
            byName.insert(type.name, type);
        const InstanceType a10 = byName.value(QStringLiteral("gpu_1x_a10"));
        QCOMPARE(a10.gpuModel, QStringLiteral("A10"));
        QCOMPARE(a10.vramGbPerGpu, 24);
        QCOMPARE(a10.gpuCount, 1);
        QCOMPARE(a10.pricePerHour, 0.75);
        QCOMPARE(a10.vcpus, 30);
        QCOMPARE(a10.regionsWithCapacity.size(), 2);
        QCOMPARE(a10.regionsWithCapacity.first().description, QStringLiteral("Virginia, USA"));
        // The price arrives as the string "329".
        QCOMPARE(byName.value(QStringLiteral("gpu_1x_h100_sxm5")).pricePerHour, 3.29);
        const InstanceType a100 = byName.value(QStringLiteral("gpu_8x_a100"));
        QVERIFY(!a100.availableNow());
        QCOMPARE(a100.pricePerGpuHour(), 1.29);
        QCOMPARE(byName.value(QStringLiteral("cpu_4x_general")).gpuCount, 0);
        QVERIFY(byName.value(QStringLiteral("cpu_4x_general")).gpuModel.isEmpty());
    }

    void lambdaLifecycle()
    {
        test::LambdaEmulator emulator;
        emulator.bootMs = 300;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator));
        QVERIFY(!lambda.can(Capability::StopStart));
        LaunchRequest request;
        request.typeName = QStringLiteral("gpu_1x_a10");
        request.region = QStringLiteral("us-east-1");
        request.sshKeyName = QStringLiteral("laptop");
        request.name = QStringLiteral("trainer");
        const QString id = valueOf<QString>([&](auto done) { lambda.launch(request, done); });
        QVERIFY(!id.isEmpty());

        Result<Instance> booting = await<Instance>([&](auto done) { lambda.getInstance(id, done); });
        QVERIFY(booting);
        QCOMPARE(booting->state, InstanceState::Booting);
        QVERIFY(booting->sshHost.isEmpty());
        QCOMPARE(booting->name, QStringLiteral("trainer"));

        LaunchWatcher watcher(&lambda, id, 10000, 50);
        Result<Instance> up = await<Instance>([&](auto done) { watcher.start(done); });
        QVERIFY2(up, up ? "" : qPrintable(up.error().message));
        QCOMPARE(up->state, InstanceState::Running);
        QCOMPARE(up->sshHost, QStringLiteral("127.0.0.1"));
        QCOMPARE(up->sshUser, QStringLiteral("ubuntu"));
        QCOMPARE(up->sshPort, 22);
        QCOMPARE(up->pricePerHour, 0.75);
        QCOMPARE(up->region, QStringLiteral("us-east-1"));

        const auto list = valueOf<QList<Instance>>([&](auto done) { lambda.listInstances(done); });
        QCOMPARE(list.size(), 1);

        Result<void> restarted = await<void>([&](auto done) { lambda.restart(id, done); });
        QVERIFY(restarted);
        Result<void> stopped = await<void>([&](auto done) { lambda.stop(id, done); });
        QVERIFY(!stopped);
        QVERIFY(stopped.error().message.contains(QStringLiteral("cannot stop")));

        QVERIFY(await<void>([&](auto done) { lambda.terminate(id, done); }));
        Result<Instance> terminating = await<Instance>([&](auto done) { lambda.getInstance(id, done); });
        QVERIFY(terminating);
        QCOMPARE(terminating->state, InstanceState::Terminating);
        QTRY_VERIFY_WITH_TIMEOUT(valueOf<QList<Instance>>([&](auto done) { lambda.listInstances(done); }).isEmpty(), 5000);
    }

    void lambdaKeysFilesystemsImages()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator));
        const SshKey generated = valueOf<SshKey>([&](auto done) { lambda.addSshKey(QStringLiteral("gen"), QString(), done); });
        QVERIFY(generated.privateKey.contains(QStringLiteral("PRIVATE KEY")));
        const SshKey uploaded = valueOf<SshKey>([&](auto done) {
            lambda.addSshKey(QStringLiteral("mine"), QStringLiteral("ssh-ed25519 AAAAC3Nza mine@host"), done);
        });
        QVERIFY(uploaded.privateKey.isEmpty());
        QCOMPARE(valueOf<QList<SshKey>>([&](auto done) { lambda.listSshKeys(done); }).size(), 3);
        QVERIFY(await<void>([&](auto done) { lambda.deleteSshKey(QStringLiteral("gen"), done); }));
        QCOMPARE(emulator.sshKeyNames(), (QStringList{QStringLiteral("laptop"), QStringLiteral("mine")}));
        Result<void> missing = await<void>([&](auto done) { lambda.deleteSshKey(QStringLiteral("nope"), done); });
        QVERIFY(!missing);

        const auto filesystems = valueOf<QList<Filesystem>>([&](auto done) { lambda.listFilesystems(done); });
        QCOMPARE(filesystems.size(), 1);
        QCOMPARE(filesystems.first().name, QStringLiteral("shared-fs"));
        QCOMPARE(filesystems.first().region, QStringLiteral("us-east-1"));
        const auto images = valueOf<QList<Image>>([&](auto done) { lambda.listImages(done); });
        QCOMPARE(images.size(), 1);
        QCOMPARE(images.first().family, QStringLiteral("lambda-stack-22-04"));
    }

    void lambdaLaunchIntervalIsRespected()
    {
        test::LambdaEmulator emulator;
        emulator.launchIntervalMs = 400;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator));
        lambda.setLaunchIntervalMs(450);
        LaunchRequest request{QStringLiteral("gpu_1x_a10"), QStringLiteral("us-east-1"), QStringLiteral("laptop"), {}, {}, {}, 0, 1};
        QElapsedTimer timer;
        timer.start();
        QVERIFY(!valueOf<QString>([&](auto done) { lambda.launch(request, done); }).isEmpty());
        QVERIFY(!valueOf<QString>([&](auto done) { lambda.launch(request, done); }).isEmpty());
        QVERIFY(timer.elapsed() >= 400);
        QCOMPARE(emulator.requestCount(QStringLiteral("/launch")), 2); // no 429 drawn
    }

    void runpodCatalog()
    {
        test::RunPodEmulator emulator;
        QVERIFY(emulator.listen());
        RunPodProvider runpod(test::restConfigFor(emulator));
        const auto types = valueOf<QList<InstanceType>>([&](auto done) { runpod.listInstanceTypes(done); });
        QCOMPARE(types.size(), 3);
        const InstanceType rtx = types.first();
        QCOMPARE(rtx.name, QStringLiteral("NVIDIA GeForce RTX 4090"));
        QCOMPARE(rtx.gpuModel, QStringLiteral("RTX 4090"));
        QCOMPARE(rtx.vramGbPerGpu, 24);
        QCOMPARE(rtx.pricePerHour, 0.44);
        QCOMPARE(rtx.regionsWithCapacity.size(), 1); // EU-RO-1 has availability NONE
        QCOMPARE(rtx.regionsWithCapacity.first().name, QStringLiteral("US-KS-2"));
        QVERIFY(!types.at(1).availableNow());
    }

    void runpodLifecycle()
    {
        test::RunPodEmulator emulator;
        emulator.bootMs = 300;
        QVERIFY(emulator.listen());
        RunPodProvider runpod(test::restConfigFor(emulator));
        QVERIFY(runpod.can(Capability::StopStart));
        QVERIFY(runpod.can(Capability::StorageBillsWhileStopped));

        LaunchRequest request;
        request.typeName = QStringLiteral("NVIDIA GeForce RTX 4090");
        request.region = QStringLiteral("US-KS-2");
        request.sshKeyName = QStringLiteral("laptop");
        request.volumeGb = 20;
        Result<QString> noKey = await<QString>([&](auto done) { runpod.launch(request, done); });
        QVERIFY(!noKey);
        QVERIFY(noKey.error().message.contains(QStringLiteral("no account SSH key named")));

        const SshKey key = valueOf<SshKey>([&](auto done) {
            runpod.addSshKey(QStringLiteral("laptop"), QStringLiteral("ssh-ed25519 AAAAC3NzaC1 me@laptop"), done);
        });
        QCOMPARE(key.name, QStringLiteral("laptop"));
        QCOMPARE(emulator.keys, (QStringList{QStringLiteral("ssh-ed25519 AAAAC3NzaC1 laptop")}));

        const QString id = valueOf<QString>([&](auto done) { runpod.launch(request, done); });
        QVERIFY(!id.isEmpty());
        Result<Instance> up = waitUntil(runpod, id, InstanceState::Running);
        QVERIFY(up);
        QCOMPARE(up->state, InstanceState::Running);
        QCOMPARE(up->sshUser, QStringLiteral("root"));
        QCOMPARE(up->sshHost, QStringLiteral("127.0.0.1"));
        QVERIFY(up->sshPort > 22);
        QCOMPARE(up->pricePerHour, 0.44);
        QCOMPARE(up->volumeGb, 20);
        QCOMPARE(up->region, QStringLiteral("US-KS-2"));

        QVERIFY(await<void>([&](auto done) { runpod.stop(id, done); }));
        Result<Instance> stopped = await<Instance>([&](auto done) { runpod.getInstance(id, done); });
        QCOMPARE(stopped->state, InstanceState::Stopped);
        QCOMPARE(stopped->pricePerHour, 0.0);
        QVERIFY(stopped->sshHost.isEmpty());
        // Stopping twice is a 409 with the provider's detail.
        Result<void> again = await<void>([&](auto done) { runpod.stop(id, done); });
        QVERIFY(!again);
        QVERIFY(again.error().message.contains(QStringLiteral("not valid while the pod is EXITED")));

        QVERIFY(await<void>([&](auto done) { runpod.start(id, done); }));
        QVERIFY(waitUntil(runpod, id, InstanceState::Running));
        QVERIFY(await<void>([&](auto done) { runpod.terminate(id, done); }));
        Result<Instance> gone = await<Instance>([&](auto done) { runpod.getInstance(id, done); });
        QVERIFY(!gone);
        QVERIFY(gone.error().message.contains(QStringLiteral("not found")));
    }

    void runpodKeys()
    {
        test::RunPodEmulator emulator;
        QVERIFY(emulator.listen());
        RunPodProvider runpod(test::restConfigFor(emulator));
        Result<SshKey> generate = await<SshKey>([&](auto done) { runpod.addSshKey(QStringLiteral("x"), QString(), done); });
        QVERIFY(!generate);
        QCOMPARE(generate.error().code, ErrorCode::Usage);
        QVERIFY(await<SshKey>([&](auto done) { runpod.addSshKey(QStringLiteral("a"), QStringLiteral("ssh-ed25519 AAAA1 x"), done); }));
        QVERIFY(await<SshKey>([&](auto done) { runpod.addSshKey(QStringLiteral("b"), QStringLiteral("ssh-rsa AAAA2"), done); }));
        QCOMPARE(valueOf<QList<SshKey>>([&](auto done) { runpod.listSshKeys(done); }).size(), 2);
        QVERIFY(await<void>([&](auto done) { runpod.deleteSshKey(QStringLiteral("a"), done); }));
        QCOMPARE(emulator.keys, (QStringList{QStringLiteral("ssh-rsa AAAA2 b")}));
        const auto volumes = valueOf<QList<Filesystem>>([&](auto done) { runpod.listFilesystems(done); });
        QCOMPARE(volumes.size(), 1);
        QCOMPARE(volumes.first().sizeGb, 100);
    }
};

QTEST_GUILESS_MAIN(TestProvidersHttp)
#include "test_providers_http.moc"
