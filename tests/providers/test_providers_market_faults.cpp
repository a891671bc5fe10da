// The fault matrix for Vast.ai and Shadeform: 401/403/404/409/429/5xx, timeouts, malformed and
// hostile replies, and each vendor's own failure shapes. Every fault gives its own message with
// the next step; none crashes, none repeats a launch blindly, none saves a hostile address.
#include "restconfigfor.h"
#include "shadeformemulator.h"
#include "vastemulator.h"

#include "core/providers/await.h"
#include "core/providers/instancehosts.h"
#include "core/providers/launchwatcher.h"
#include "core/providers/shadeformprovider.h"
#include "core/providers/vastprovider.h"

#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::providers;

namespace {


Error typesError(Provider &provider)
{
    Result<QList<InstanceType>> result = await<QList<InstanceType>>([&](auto done) { provider.listInstanceTypes(done); });
    return result ? Error{} : result.error();
}

Result<QString> launch(Provider &provider, const LaunchRequest &request)
{
    return await<QString>([&](auto done) { provider.launch(request, done); });
}

const QString kKey = QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG laptop");

LaunchRequest vastOffer()
{
    LaunchRequest request;
    request.typeName = QStringLiteral("4100201");
    return request;
}

LaunchRequest shadeA6000()
{
    LaunchRequest request;
    request.typeName = QStringLiteral("massedcompute/A6000");
    request.region = QStringLiteral("kansascity-usa-1");
    request.sshKeyName = QStringLiteral("laptop");
    return request;
}

void addKey(Provider &provider)
{
    Result<SshKey> key = await<SshKey>([&](auto done) { provider.addSshKey(QStringLiteral("laptop"), kKey, done); });
    QVERIFY2(key, key ? "" : qPrintable(key.error().message));
}

} // namespace

class TestProvidersMarketFaults final : public QObject
{
    Q_OBJECT

private slots:
    void invalidKey()
    {
        test::VastEmulator vastEmu;
        QVERIFY(vastEmu.listen());
        VastProvider vast(test::restConfigFor(vastEmu, test::faultTiming(QStringLiteral("wrong-secret"))));
        const Error vastError = typesError(vast);
        QCOMPARE(vastError.code, ErrorCode::Provider);
        QVERIFY2(vastError.message.contains(QStringLiteral("Invalid user key")), qPrintable(vastError.message));
        QVERIFY(vastError.message.contains(QStringLiteral("provider-key set vast")));
        QVERIFY(!vastError.message.contains(QStringLiteral("wrong-secret")));

        test::ShadeformEmulator shadeEmu;
        QVERIFY(shadeEmu.listen());
        ShadeformProvider shade(test::restConfigFor(shadeEmu, test::faultTiming(QStringLiteral("wrong-secret"))));
        const Error shadeError = typesError(shade);
        QVERIFY2(shadeError.message.contains(QStringLiteral("Invalid API key")), qPrintable(shadeError.message));
        QVERIFY(shadeError.message.contains(QStringLiteral("provider-key set shadeform")));
    }

    void forbiddenNotFoundConflict()
    {
        test::VastEmulator vastEmu;
        QVERIFY(vastEmu.listen());
        VastProvider vast(test::restConfigFor(vastEmu, test::faultTiming()));
        test::ShadeformEmulator shadeEmu;
        QVERIFY(shadeEmu.listen());
        ShadeformProvider shade(test::restConfigFor(shadeEmu, test::faultTiming()));
        for (Provider *provider : {static_cast<Provider *>(&vast), static_cast<Provider *>(&shade)}) {
            test::EmulatorServer &server = provider == &vast ? static_cast<test::EmulatorServer &>(vastEmu) : shadeEmu;
            test::Fault fault;
            fault.status = 403;
            server.addFault(fault);
            const Error forbidden = typesError(*provider);
            QVERIFY2(forbidden.message.contains(provider == &vast ? QStringLiteral("API key") : QStringLiteral("another account")),
                     qPrintable(forbidden.message));
            fault.status = 409;
            server.addFault(fault);
            const Error conflict = typesError(*provider);
            QVERIFY2(!conflict.message.isEmpty() && conflict.message.contains(provider->info().displayName), qPrintable(conflict.message));
            Result<void> missing = await<void>([&](auto done) { provider->terminate(QStringLiteral("999"), done); });
            QVERIFY(!missing);
            QVERIFY2(missing.error().message.contains(QStringLiteral("not found")), qPrintable(missing.error().message));
        }
    }

    // Vast answers 429 in plain text without Retry-After; Gantry backs off itself, then reports.
    void vastPlainTextRateLimit()
    {
        test::VastEmulator emulator;
        QVERIFY(emulator.listen());
        VastProvider vast(test::restConfigFor(emulator, test::faultTiming()));
        test::Fault fault;
        fault.status = 429;
        emulator.addFault(fault);
        QCOMPARE(typesError(vast).message, QString()); // retried once, then fine
        QCOMPARE(emulator.requestCount(QStringLiteral("/bundles/")), 2);
        fault.count = -1;
        emulator.addFault(fault);
        const Error persistent = typesError(vast);
        QVERIFY2(persistent.message.contains(QStringLiteral("Rate limited by Vast.ai after 3 attempts")), qPrintable(persistent.message));
        QVERIFY(persistent.message.contains(QStringLiteral("wait a minute")));
    }

    void shadeformRateLimit()
    {
        test::ShadeformEmulator emulator;
        QVERIFY(emulator.listen());
        ShadeformProvider shade(test::restConfigFor(emulator, test::faultTiming()));
        test::Fault fault;
        fault.status = 429;
        fault.retryAfterSeconds = 0;
        emulator.addFault(fault);
        QCOMPARE(typesError(shade).message, QString());
        QCOMPARE(emulator.requestCount(QStringLiteral("/types")), 2);
    }

    void serverErrorsNeverRepeatALaunch()
    {
        test::VastEmulator vastEmu;
        QVERIFY(vastEmu.listen());
        VastProvider vast(test::restConfigFor(vastEmu, test::faultTiming()));
        addKey(vast);
        test::Fault fault;
        fault.status = 503;
        fault.count = 2;
        vastEmu.addFault(fault);
        QCOMPARE(typesError(vast).message, QString()); // a search is safe to repeat
        fault.status = 502;
        fault.count = 1;
        fault.pathContains = QStringLiteral("/asks/");
        vastEmu.addFault(fault);
        Result<QString> rent = launch(vast, vastOffer());
        QVERIFY(!rent);
        QVERIFY2(rent.error().message.contains(QStringLiteral("internal error")), qPrintable(rent.error().message));
        QCOMPARE(vastEmu.requestCount(QStringLiteral("/asks/")), 1);

        test::ShadeformEmulator shadeEmu;
        QVERIFY(shadeEmu.listen());
        ShadeformProvider shade(test::restConfigFor(shadeEmu, test::faultTiming()));
        addKey(shade);
        fault.status = 500;
        fault.pathContains = QStringLiteral("/create");
        shadeEmu.addFault(fault);
        Result<QString> create = launch(shade, shadeA6000());
        QVERIFY(!create);
        QVERIFY2(create.error().message.contains(QStringLiteral("Shadeform had an internal error")), qPrintable(create.error().message));
        QCOMPARE(shadeEmu.requestCount(QStringLiteral("/create")), 1);
    }

    void timeouts()
    {
        test::VastEmulator vastEmu;
        QVERIFY(vastEmu.listen());
        RestConfig config = test::restConfigFor(vastEmu, test::faultTiming());
        config.timeoutMs = 300;
        config.retry.maxAttempts = 1;
        VastProvider vast(config);
        test::ShadeformEmulator shadeEmu;
        QVERIFY(shadeEmu.listen());
        RestConfig shadeConfig = test::restConfigFor(shadeEmu, test::faultTiming());
        shadeConfig.timeoutMs = 300;
        shadeConfig.retry.maxAttempts = 1;
        ShadeformProvider shade(shadeConfig);
        test::Fault fault;
        fault.status = 0;
        fault.delayMs = 1200;
        vastEmu.addFault(fault);
        shadeEmu.addFault(fault);
        for (Provider *provider : {static_cast<Provider *>(&vast), static_cast<Provider *>(&shade)}) {
            const Error error = typesError(*provider);
            QCOMPARE(error.code, ErrorCode::Timeout);
            QVERIFY2(error.message.contains(QStringLiteral("did not answer in time")), qPrintable(error.message));
        }
        QTest::qWait(1300); // let the late answers land on closed sockets
    }

    void malformedAndWrongShape()
    {
        test::VastEmulator vastEmu;
        QVERIFY(vastEmu.listen());
        VastProvider vast(test::restConfigFor(vastEmu, test::faultTiming()));
        test::ShadeformEmulator shadeEmu;
        QVERIFY(shadeEmu.listen());
        ShadeformProvider shade(test::restConfigFor(shadeEmu, test::faultTiming()));
        test::Fault fault;
        fault.malformed = true;
        vastEmu.addFault(fault);
        shadeEmu.addFault(fault);
        QVERIFY(typesError(vast).message.contains(QStringLiteral("cannot read")));
        QVERIFY(typesError(shade).message.contains(QStringLiteral("cannot read")));
        fault.malformed = false;
        fault.status = 200;
        fault.body = "{\"offers\": \"none\", \"instance_types\": 3}";
        vastEmu.addFault(fault);
        shadeEmu.addFault(fault);
        Result<QList<InstanceType>> odd = await<QList<InstanceType>>([&](auto done) { vast.listInstanceTypes(done); });
        QVERIFY(odd); // a non-list of offers is no offers
        QVERIFY(odd->isEmpty());
        QVERIFY(typesError(shade).message.contains(QStringLiteral("no \"instance_types\" list")));
        // A rent reply without "new_contract" (an "id" alone is not the instance).
        addKey(vast);
        fault.pathContains = QStringLiteral("/asks/");
        fault.body = "{\"success\": true, \"id\": 5}";
        vastEmu.addFault(fault);
        Result<QString> rent = launch(vast, vastOffer());
        QVERIFY(!rent);
        QVERIFY2(rent.error().message.contains(QStringLiteral("new_contract")), qPrintable(rent.error().message));
    }

    // HTTP 200 with {"success": false}: a failure, with what to do about it.
    void vastSuccessFalseOn200()
    {
        test::VastEmulator emulator;
        emulator.credit = 0.10;
        QVERIFY(emulator.listen());
        VastProvider vast(test::restConfigFor(emulator, test::faultTiming()));
        addKey(vast);
        Result<QString> rent = launch(vast, vastOffer());
        QVERIFY(!rent);
        QVERIFY2(rent.error().message.contains(QStringLiteral("Insufficient balance")), qPrintable(rent.error().message));
        QVERIFY(rent.error().message.contains(QStringLiteral("[insufficient_credit]")));
        QCOMPARE(emulator.instanceCount(), 0);
    }

    void capacityGone()
    {
        test::VastEmulator vastEmu;
        vastEmu.rentRacesAway = true;
        QVERIFY(vastEmu.listen());
        VastProvider vast(test::restConfigFor(vastEmu, test::faultTiming()));
        addKey(vast);
        Result<QString> rent = launch(vast, vastOffer());
        QVERIFY(!rent);
        QVERIFY2(rent.error().message.contains(QStringLiteral("out of capacity")), qPrintable(rent.error().message));
        LaunchRequest none;
        none.typeName = QStringLiteral("B200x8");
        Result<QString> nothing = launch(vast, none);
        QVERIFY(!nothing);
        QVERIFY2(nothing.error().message.contains(QStringLiteral("watch-capacity")), qPrintable(nothing.error().message));

        test::ShadeformEmulator shadeEmu;
        QVERIFY(shadeEmu.listen());
        ShadeformProvider shade(test::restConfigFor(shadeEmu, test::faultTiming()));
        addKey(shade);
        LaunchRequest h100 = shadeA6000();
        h100.typeName = QStringLiteral("hyperstack/H100_sxm5x8");
        h100.region = QStringLiteral("canada-1");
        Result<QString> create = launch(shade, h100);
        QVERIFY(!create);
        QVERIFY2(create.error().message.contains(QStringLiteral("Out of capacity")), qPrintable(create.error().message));
        shadeEmu.walletEmpty = true;
        Result<QString> broke = launch(shade, shadeA6000());
        QVERIFY(!broke);
        QVERIFY2(broke.error().message.contains(QStringLiteral("top up")), qPrintable(broke.error().message));
    }

    // A compromised or broken API answers with an address that would inject ssh_config directives.
    void hostileFieldsNeverReachSshConfig()
    {
        const QString hostile = QStringLiteral("1.2.3.4\nProxyCommand=touch${IFS}~/pwned");
        test::VastEmulator vastEmu;
        vastEmu.bootMs = 50;
        vastEmu.sshHost = hostile;
        QVERIFY(vastEmu.listen());
        VastProvider vast(test::restConfigFor(vastEmu, test::faultTiming()));
        addKey(vast);
        test::ShadeformEmulator shadeEmu;
        shadeEmu.bootMs = 50;
        shadeEmu.instanceIp = hostile;
        QVERIFY(shadeEmu.listen());
        ShadeformProvider shade(test::restConfigFor(shadeEmu, test::faultTiming()));
        addKey(shade);
        const QList<std::pair<Provider *, LaunchRequest>> cases{{&vast, vastOffer()}, {&shade, shadeA6000()}};
        for (const auto &[provider, request] : cases) {
            Result<QString> id = launch(*provider, request);
            QVERIFY2(id, id ? "" : qPrintable(id.error().message));
            LaunchWatcher watcher(provider, *id, 10000, 50);
            Result<Instance> up = await<Instance>([&](auto done) { watcher.start(done); });
            QVERIFY2(up, up ? "" : qPrintable(up.error().message));
            QTemporaryDir config;
            HostStore hosts(config.path());
            Result<QString> saved = rememberInstanceHost(hosts, *up, config.path());
            QVERIFY(!saved);
            QCOMPARE(saved.error().code, ErrorCode::Provider);
            QVERIFY(!saved.error().message.contains(u'\n'));
            QVERIFY(hosts.hosts().isEmpty());
        }
        // An error text with terminal escapes is shown escaped.
        test::Fault fault;
        fault.status = 400;
        fault.body = "{\"success\": false, \"error\": \"invalid_args\", \"msg\": \"bad\\u001b]0;pwned\\u0007\"}";
        vastEmu.addFault(fault);
        const Error escaped = typesError(vast);
        QVERIFY2(!escaped.message.contains(QChar(0x1b)) && escaped.message.contains(QStringLiteral("\\x1b")), qPrintable(escaped.message));
    }
};

QTEST_GUILESS_MAIN(TestProvidersMarketFaults)
#include "test_providers_market_faults.moc"
