// Every fault a user can meet, against the emulators: each gives its own message, none crashes.
#include "restconfigfor.h"
#include "lambdaemulator.h"
#include "runpodemulator.h"

#include "core/providers/await.h"
#include "core/providers/httpclient.h"
#include "core/providers/instancehosts.h"
#include "core/providers/lambdaprovider.h"
#include "core/providers/launchwatcher.h"
#include "core/providers/runpodprovider.h"

#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::providers;

namespace {


LaunchRequest a10()
{
    LaunchRequest request;
    request.typeName = QStringLiteral("gpu_1x_a10");
    request.region = QStringLiteral("us-east-1");
    request.sshKeyName = QStringLiteral("laptop");
    return request;
}

Error errorOf(Result<QList<InstanceType>> result)
{
    return result ? Error{} : result.error();
}

Result<QList<InstanceType>> types(Provider &provider)
{
    return await<QList<InstanceType>>([&](auto done) { provider.listInstanceTypes(done); });
}

Result<QString> launch(Provider &provider, const LaunchRequest &request)
{
    return await<QString>([&](auto done) { provider.launch(request, done); });
}

} // namespace

class TestProvidersFaults final : public QObject
{
    Q_OBJECT

private slots:
    void invalidKey()
    {
        test::LambdaEmulator lambdaEmu;
        QVERIFY(lambdaEmu.listen());
        LambdaProvider lambda(test::restConfigFor(lambdaEmu, test::faultTiming(QStringLiteral("wrong"))));
        const Error error = errorOf(types(lambda));
        QCOMPARE(error.code, ErrorCode::Provider);
        QVERIFY2(error.message.contains(QStringLiteral("API key was invalid, expired, or deleted.")), qPrintable(error.message));
        QVERIFY(error.message.contains(QStringLiteral("[global/invalid-api-key]")));
        QVERIFY(!error.message.contains(QStringLiteral("wrong"))); // the key itself never shows up

        test::RunPodEmulator runpodEmu;
        QVERIFY(runpodEmu.listen());
        RunPodProvider runpod(test::restConfigFor(runpodEmu, test::faultTiming(QStringLiteral("wrong"))));
        const Error rpError = errorOf(types(runpod));
        QCOMPARE(rpError.code, ErrorCode::Provider);
        QVERIFY2(rpError.message.contains(QStringLiteral("invalid api key")), qPrintable(rpError.message));
        QVERIFY(rpError.message.contains(QStringLiteral("provider-key set runpod")));
        QVERIFY(rpError.message.contains(QStringLiteral("Settings → Accounts"))); // where a window user fixes it
    }

    void accountInactiveAndQuota()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator, test::faultTiming()));
        emulator.accountInactive = true;
        Result<QString> inactive = launch(lambda, a10());
        QVERIFY(!inactive);
        QVERIFY2(inactive.error().message.contains(QStringLiteral("Your account is inactive.")), qPrintable(inactive.error().message));
        QVERIFY(inactive.error().message.contains(QStringLiteral("valid payment method")));
        emulator.accountInactive = false;
        emulator.quotaExceeded = true;
        Result<QString> quota = launch(lambda, a10());
        QVERIFY(!quota);
        QVERIFY(quota.error().message.contains(QStringLiteral("Quota exceeded. Contact Support to increase your quota.")));
        QCOMPARE(emulator.instanceCount(), 0);
    }

    void noCapacity()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator, test::faultTiming()));
        LaunchRequest request = a10();
        request.typeName = QStringLiteral("gpu_8x_a100");
        Result<QString> result = launch(lambda, request);
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::Provider);
        QVERIFY(result.error().message.contains(QStringLiteral("Not enough capacity to fulfill launch request.")));
        QVERIFY(result.error().message.contains(QStringLiteral("another region")));

        test::RunPodEmulator runpodEmu;
        runpodEmu.keys = {QStringLiteral("ssh-ed25519 AAAA laptop")};
        QVERIFY(runpodEmu.listen());
        RunPodProvider runpod(test::restConfigFor(runpodEmu, test::faultTiming()));
        LaunchRequest pod;
        pod.typeName = QStringLiteral("NVIDIA H100 80GB HBM3");
        pod.sshKeyName = QStringLiteral("laptop");
        Result<QString> podResult = launch(runpod, pod);
        QVERIFY(!podResult);
        QVERIFY2(podResult.error().message.contains(QStringLiteral("no longer any instances available")), qPrintable(podResult.error().message));
        QCOMPARE(runpodEmu.podCount(), 0);
        runpodEmu.insufficientBalance = true;
        pod.typeName = QStringLiteral("NVIDIA GeForce RTX 4090");
        Result<QString> broke = launch(runpod, pod);
        QVERIFY(!broke);
        QVERIFY(broke.error().message.contains(QStringLiteral("Insufficient balance")));
    }

    void rateLimitedRetriesHonourRetryAfter()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator, test::faultTiming()));
        test::Fault fault;
        fault.pathContains = QStringLiteral("/instance-types");
        fault.status = 429;
        fault.retryAfterSeconds = 1;
        emulator.addFault(fault);
        QElapsedTimer timer;
        timer.start();
        QVERIFY(types(lambda));
        QVERIFY(timer.elapsed() >= 900); // waited as told
        QCOMPARE(emulator.requestCount(QStringLiteral("/instance-types")), 2);

        // Told to wait longer than we are willing to: reported with the wait, not slept through.
        fault.retryAfterSeconds = 600;
        emulator.addFault(fault);
        const Error error = errorOf(types(lambda));
        QVERIFY2(error.message.contains(QStringLiteral("try again in 600 s")), qPrintable(error.message));

        // Without Retry-After: exponential backoff, then give up with a message.
        fault.retryAfterSeconds = -1;
        fault.count = -1;
        emulator.addFault(fault);
        const Error persistent = errorOf(types(lambda));
        QVERIFY(persistent.message.contains(QStringLiteral("Rate limited by Lambda Cloud after 3 attempts")));
        emulator.clearFaults();

        test::RunPodEmulator runpodEmu;
        QVERIFY(runpodEmu.listen());
        RunPodProvider runpod(test::restConfigFor(runpodEmu, test::faultTiming()));
        fault.pathContains.clear();
        fault.count = 1;
        fault.retryAfterSeconds = 0;
        runpodEmu.addFault(fault);
        QVERIFY(types(runpod));
        QCOMPARE(runpodEmu.requestCount(), 2);
    }

    void serverErrorsRetryOnlyWhenSafe()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator, test::faultTiming()));
        test::Fault fault;
        fault.status = 503;
        fault.count = 2;
        emulator.addFault(fault);
        QVERIFY(types(lambda)); // GET: retried through two 503s
        QCOMPARE(emulator.requestCount(QStringLiteral("/instance-types")), 3);

        fault.status = 500;
        fault.count = 1;
        fault.pathContains = QStringLiteral("/launch");
        emulator.addFault(fault);
        Result<QString> result = launch(lambda, a10());
        QVERIFY(!result);
        QVERIFY2(result.error().message.contains(QStringLiteral("An internal server error occurred.")), qPrintable(result.error().message));
        QCOMPARE(emulator.requestCount(QStringLiteral("/launch")), 1); // a launch is never repeated blindly
    }

    void slowResponseTimesOut()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        RestConfig config = test::restConfigFor(emulator, test::faultTiming());
        config.timeoutMs = 300;
        config.retry.maxAttempts = 1;
        LambdaProvider lambda(config);
        test::Fault fault;
        fault.status = 0;
        fault.delayMs = 1500;
        emulator.addFault(fault);
        const Error error = errorOf(types(lambda));
        QCOMPARE(error.code, ErrorCode::Timeout);
        QVERIFY2(error.message.contains(QStringLiteral("did not answer in time")), qPrintable(error.message));
        QTest::qWait(1600); // let the emulator's late write land on a closed socket
    }

    // An answer past the cap is dropped as it arrives (memory stays bounded) and named, not parsed.
    void anEndlessAnswerIsDroppedAtTheCap()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        RestConfig config = test::restConfigFor(emulator, test::faultTiming());
        config.retry.maxAttempts = 1;
        LambdaProvider lambda(config);
        test::Fault fault;
        fault.status = 200;
        fault.body = "{\"data\": \"" + QByteArray(kMaxResponseBytes, 'x') + "\"}";
        emulator.addFault(fault);
        const Error error = errorOf(types(lambda));
        QCOMPARE(error.code, ErrorCode::Provider);
        QVERIFY2(error.message.contains(QStringLiteral("larger than 64 MiB")), qPrintable(error.message));
    }

    void malformedJson()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator, test::faultTiming()));
        test::Fault fault;
        fault.malformed = true;
        emulator.addFault(fault);
        const Error error = errorOf(types(lambda));
        QCOMPARE(error.code, ErrorCode::Provider);
        QVERIFY2(error.message.contains(QStringLiteral("cannot read")), qPrintable(error.message));

        test::RunPodEmulator runpodEmu;
        QVERIFY(runpodEmu.listen());
        RunPodProvider runpod(test::restConfigFor(runpodEmu, test::faultTiming()));
        runpodEmu.addFault(fault);
        QVERIFY(errorOf(types(runpod)).message.contains(QStringLiteral("cannot read")));
        // Valid JSON of the wrong shape is caught too.
        fault.malformed = false;
        fault.status = 200;
        fault.body = "{\"pods\": 7}";
        runpodEmu.addFault(fault);
        Result<QList<Instance>> pods = await<QList<Instance>>([&](auto done) { runpod.listInstances(done); });
        QVERIFY(!pods);
        QVERIFY(pods.error().message.contains(QStringLiteral("no \"pods\" list")));
    }

    void networkDown()
    {
        quint16 closedPort = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            closedPort = probe.serverPort();
        }
        LambdaProvider lambda(test::restConfigFor(QStringLiteral("http://127.0.0.1:%1").arg(closedPort), test::faultTiming()));
        const Error error = errorOf(types(lambda));
        QCOMPARE(error.code, ErrorCode::ConnectFailed);
        QVERIFY2(error.message.contains(QStringLiteral("connection refused")), qPrintable(error.message));
    }

    void tlsFailure()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(QStringLiteral("https://127.0.0.1:%1").arg(emulator.port()), test::faultTiming()));
        const Error error = errorOf(types(lambda));
        QCOMPARE(error.code, ErrorCode::ConnectFailed);
        QVERIFY2(error.message.contains(QStringLiteral("Secure connection to Lambda Cloud")), qPrintable(error.message));
        QCOMPARE(emulator.requestCount(QStringLiteral("/instance-types")), 0);
    }

    void plainHttpOnlyOnLoopback()
    {
        QVERIFY(checkEndpoint(QStringLiteral("https://cloud.lambda.ai"), QStringLiteral("Lambda Cloud")));
        QVERIFY(checkEndpoint(QStringLiteral("http://127.0.0.1:8080"), QStringLiteral("Lambda Cloud")));
        QVERIFY(checkEndpoint(QStringLiteral("http://localhost:8080"), QStringLiteral("Lambda Cloud")));
        QVERIFY(checkEndpoint(QStringLiteral("http://[::1]:8080"), QStringLiteral("Lambda Cloud")));
        Result<QUrl> remote = checkEndpoint(QStringLiteral("http://api.example.com"), QStringLiteral("Lambda Cloud"));
        QVERIFY(!remote);
        QVERIFY(remote.error().message.contains(QStringLiteral("unencrypted")));
        QVERIFY(!checkEndpoint(QStringLiteral("ftp://127.0.0.1"), QStringLiteral("RunPod")));
        QVERIFY(!checkEndpoint(QStringLiteral("not a url"), QStringLiteral("RunPod")));
    }

    void launchThatNeverBecomesActive()
    {
        test::LambdaEmulator emulator;
        emulator.neverActive = true;
        emulator.terminateMs = 100;
        QVERIFY(emulator.listen());
        LambdaProvider lambda(test::restConfigFor(emulator, test::faultTiming()));
        Result<QString> id = launch(lambda, a10());
        QVERIFY(id);
        LaunchWatcher watcher(&lambda, *id, 500, 50);
        Result<Instance> result = await<Instance>([&](auto done) { watcher.start(done); });
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::Timeout);
        QVERIFY2(result.error().message.contains(QStringLiteral("terminated it so it does not keep billing")), qPrintable(result.error().message));
        Result<Instance> after = await<Instance>([&](auto done) { lambda.getInstance(*id, done); });
        QVERIFY(after);
        QCOMPARE(after->state, InstanceState::Terminating);
    }

    void instanceTerminatedOutsideGantry()
    {
        test::RunPodEmulator emulator;
        emulator.keys = {QStringLiteral("ssh-ed25519 AAAA laptop")};
        QVERIFY(emulator.listen());
        RunPodProvider runpod(test::restConfigFor(emulator, test::faultTiming()));
        LaunchRequest request;
        request.typeName = QStringLiteral("NVIDIA GeForce RTX 4090");
        Result<QString> id = launch(runpod, request);
        QVERIFY(id);
        QVERIFY(emulator.vanish(*id));
        LaunchWatcher watcher(&runpod, *id, 5000, 50);
        Result<Instance> result = await<Instance>([&](auto done) { watcher.start(done); });
        QVERIFY(!result);
        QVERIFY2(result.error().message.contains(QStringLiteral("not found")), qPrintable(result.error().message));
        Result<void> terminate = await<void>([&](auto done) { runpod.terminate(*id, done); });
        QVERIFY(!terminate);
    }

    // A compromised or broken API answers with an address that would inject ssh_config directives.
    void hostileSshAddressIsNotSaved()
    {
        const QString hostile = QStringLiteral("1.2.3.4\nProxyCommand=touch${IFS}~/pwned");
        test::LambdaEmulator lambdaEmu;
        lambdaEmu.bootMs = 50;
        lambdaEmu.instanceIp = hostile;
        QVERIFY(lambdaEmu.listen());
        LambdaProvider lambda(test::restConfigFor(lambdaEmu, test::faultTiming()));
        test::RunPodEmulator runpodEmu;
        runpodEmu.bootMs = 50;
        runpodEmu.keys = {QStringLiteral("ssh-ed25519 AAAA laptop")};
        runpodEmu.sshHost = hostile;
        QVERIFY(runpodEmu.listen());
        RunPodProvider runpod(test::restConfigFor(runpodEmu, test::faultTiming()));
        LaunchRequest pod;
        pod.typeName = QStringLiteral("NVIDIA GeForce RTX 4090");
        const QList<std::pair<Provider *, LaunchRequest>> cases{{&lambda, a10()}, {&runpod, pod}};
        for (const auto &[provider, request] : cases) {
            Result<QString> id = launch(*provider, request);
            QVERIFY(id);
            LaunchWatcher watcher(provider, *id, 10000, 50);
            Result<Instance> up = await<Instance>([&](auto done) { watcher.start(done); });
            QVERIFY2(up, up ? "" : qPrintable(up.error().message));
            QTemporaryDir config;
            HostStore hosts(config.path());
            Result<QString> saved = rememberInstanceHost(hosts, *up, config.path());
            QVERIFY(!saved);
            QCOMPARE(saved.error().code, ErrorCode::Provider);
            QVERIFY2(saved.error().message.contains(QStringLiteral("not a host name")), qPrintable(saved.error().message));
            QVERIFY(!saved.error().message.contains(u'\n'));
            QVERIFY(hosts.hosts().isEmpty());
            QVERIFY(!QFile::exists(hosts.filePath()));
        }
    }

    // An instance named ".." or "a/b" by the provider (or by whoever launched it) must not name a
    // saved host: host names become folders (results home) and ~/.ssh/config aliases.
    void instanceNamesThatCannotNameAHostFallBack()
    {
        QTemporaryDir config;
        HostStore hosts(config.path());
        for (const QString &name : {QStringLiteral(".."), QStringLiteral("."), QStringLiteral("a/b"), QStringLiteral("x\ny")}) {
            Instance instance;
            instance.provider = QStringLiteral("lambda");
            instance.id = QStringLiteral("0123456789abcdef") + QString::number(name.size());
            instance.name = name;
            instance.sshHost = QStringLiteral("127.0.0.1");
            instance.sshPort = 22;
            instance.sshUser = QStringLiteral("ubuntu");
            Result<QString> saved = rememberInstanceHost(hosts, instance, config.path());
            QVERIFY2(saved, saved ? "" : qPrintable(saved.error().message));
            QVERIFY2(saved->startsWith(QStringLiteral("lambda-01234567")), qPrintable(*saved));
        }
        SavedHost dots;
        dots.name = QStringLiteral("..");
        dots.target.host = QStringLiteral("127.0.0.1");
        QVERIFY(!HostStore::check(dots));
        dots.name = QStringLiteral(" . ");
        QVERIFY(!HostStore::check(dots));
    }

    void providerDestroyedWithRequestInFlight()
    {
        test::LambdaEmulator emulator;
        QVERIFY(emulator.listen());
        test::Fault fault;
        fault.status = 0;
        fault.delayMs = 300;
        emulator.addFault(fault);
        bool called = false;
        {
            LambdaProvider lambda(test::restConfigFor(emulator, test::faultTiming()));
            lambda.listInstanceTypes([&called](Result<QList<InstanceType>>) { called = true; });
        }
        QTest::qWait(400);
        QVERIFY(!called);
    }
};

QTEST_GUILESS_MAIN(TestProvidersFaults)
#include "test_providers_faults.moc"
