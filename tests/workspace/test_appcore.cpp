// SPDX-License-Identifier: Apache-2.0
// workspace::AppCore, the application object both front ends drive: it reads the providers' keys
// only on a worker (at start and after Settings), runs a reload asked for mid-read after that read,
// keeps the price table across a restart, and announces a store it cannot read once the event loop
// runs, naming the file. gantry-cli's per-command core acts only on the clouds it names, reads no
// key later, reports what open() could not read at once, and leaves the window's queue alone.
#include "core/hosts/hoststore.h"
#include "core/providers/priceboard.h"
#include "core/providers/providerhub.h"
#include "core/providers/providerregistry.h"
#include "core/sync/syncservice.h"
#include "core/util/secretstore.h"
#include "core/workspace/appcore.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <mutex>

using namespace gantry;

namespace {

// A keychain that answers slowly (a Secret Service over D-Bus) and counts reads made on the
// main thread, which would freeze a window.
class SlowKeychain final : public SecretStore
{
public:
    Result<std::optional<QString>> read(const QString &key) override
    {
        if (QThread::currentThread() == QCoreApplication::instance()->thread())
            ++readsOnMainThread;
        QThread::msleep(200); // the D-Bus round trip being simulated, not a synchronisation
        std::lock_guard lock(m_mutex);
        return m_keys.contains(key) ? std::optional<QString>(m_keys.value(key)) : std::nullopt;
    }
    Result<void> write(const QString &key, const QString &secret) override
    {
        std::lock_guard lock(m_mutex);
        m_keys.insert(key, secret);
        return {};
    }
    Result<void> remove(const QString &key) override
    {
        std::lock_guard lock(m_mutex);
        m_keys.remove(key);
        return {};
    }
    std::atomic_int readsOnMainThread{0};

private:
    std::mutex m_mutex;
    QHash<QString, QString> m_keys;
};

// A hosts file a hand edit broke: the core must name it and leave it as it is.
bool writeBrokenHosts(QFile &hosts)
{
    if (!hosts.open(QIODevice::WriteOnly))
        return false;
    hosts.write("{ not json");
    hosts.close();
    return true;
}

const QString kLambda = QStringLiteral("lambda");
const QString kRunPod = QStringLiteral("runpod");

} // namespace

class TestAppCore final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        for (const QString &id : providers::knownProviderIds())
            qunsetenv(providers::apiKeyEnvName(id).toLatin1().constData()); // keys come from the keychain here
        qputenv("DBUS_SESSION_BUS_ADDRESS", "");
    }

    void keysAreReadOnAWorkerAtStartAndAfterSettings()
    {
        QTemporaryDir dir;
        SlowKeychain keychain;
        QVERIFY(keychain.write(providers::apiKeySecretName(kLambda), QStringLiteral("lambda-key")));
        workspace::AppCore core(dir.path(), &keychain);
        core.open();
        QVERIFY(!core.providers()->provider(kLambda)); // the window opens before the keychain answers
        QVERIFY(core.providers()->provider(QStringLiteral("sandbox")));
        QTRY_VERIFY_WITH_TIMEOUT(core.providers()->provider(kLambda), 10000);

        // Settings saved a RunPod key: the hub is rebuilt from keys read on the worker again.
        QVERIFY(keychain.write(providers::apiKeySecretName(kRunPod), QStringLiteral("runpod-key")));
        QSignalSpy reloaded(&core, &workspace::AppCore::providersReloaded);
        core.reloadProviders();
        QVERIFY(!core.providers()->provider(kRunPod)); // not read on this thread
        QVERIFY(reloaded.wait(10000));
        QVERIFY(core.providers()->provider(kRunPod));
        QVERIFY(core.providers()->provider(kLambda));
        QCOMPARE(keychain.readsOnMainThread.load(), 0);
    }

    void aReloadAskedForWhileKeysAreReadRunsAfterThem()
    {
        QTemporaryDir dir;
        SlowKeychain keychain;
        workspace::AppCore core(dir.path(), &keychain);
        core.open();
        // The start-up read is under way when Settings saves a key and asks for a reload.
        QVERIFY(keychain.write(providers::apiKeySecretName(kRunPod), QStringLiteral("runpod-key")));
        QSignalSpy reloaded(&core, &workspace::AppCore::providersReloaded);
        core.reloadProviders();
        QVERIFY(reloaded.wait(20000));
        QVERIFY(core.providers()->provider(kRunPod));
        QCOMPARE(reloaded.size(), 1);
        QCOMPARE(keychain.readsOnMainThread.load(), 0);
    }

    // The price table is the core's: a refresh is written back, and the next start opens with it
    // before any provider is asked.
    void thePriceTableOutlivesARestart()
    {
        QTemporaryDir dir;
        SlowKeychain keychain;
        QStringList listed;
        {
            workspace::AppCore core(dir.path(), &keychain);
            core.open();
            QVERIFY(!core.prices()->fetchedAt().isValid());
            QSignalSpy refreshed(core.prices(), &providers::PriceBoard::refreshed);
            core.prices()->refresh();
            QVERIFY(refreshed.wait(10000));
            QVERIFY(!core.prices()->types(QStringLiteral("sandbox")).isEmpty());
            for (const providers::InstanceType &type : core.prices()->allTypes())
                listed << type.name;
            QTRY_VERIFY_WITH_TIMEOUT(!core.prices()->isWritingCache(), 10000);
        }
        workspace::AppCore again(dir.path(), &keychain);
        again.open();
        QVERIFY(again.prices()->fetchedAt().isValid());
        QStringList cached;
        for (const providers::InstanceType &type : again.prices()->allTypes())
            cached << type.name;
        QCOMPARE(cached, listed);
    }

    // The Terminate question names what ends with the machine: its folders kept in sync (a pair
    // only remembered is not named), none for an instance without a saved host.
    void terminateNamesTheFoldersKeptInSync()
    {
        QTemporaryDir config;
        auto secrets = makeMemorySecretStore();
        workspace::AppCore core(config.path(), secrets.get());
        core.open();
        SavedHost host;
        host.name = QStringLiteral("box");
        host.target.host = QStringLiteral("127.0.0.1");
        host.target.user = QStringLiteral("me");
        host.provider = QStringLiteral("sandbox");
        host.instanceId = QStringLiteral("i-1");
        QVERIFY(core.hosts()->add(host).ok());
        sync::SyncPair kept{QStringLiteral("box"), QStringLiteral("/home/me/project"), QStringLiteral("project"), false, true};
        sync::SyncPair remembered{QStringLiteral("box"), QStringLiteral("/home/me/data"), QStringLiteral("data"), false, false};
        QVERIFY(core.syncPairs()->remember(kept).ok());
        QVERIFY(core.syncPairs()->remember(remembered).ok());
        const QStringList lines = core.whatTerminateEnds(QStringLiteral("sandbox"), QStringLiteral("i-1"));
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines.first().contains(QStringLiteral("/home/me/project")), qPrintable(lines.first()));
        QVERIFY2(!lines.first().contains(QStringLiteral("/home/me/data")), qPrintable(lines.first()));
        QVERIFY(core.whatTerminateEnds(QStringLiteral("sandbox"), QStringLiteral("other")).isEmpty());
    }

    void aStoreThatCannotBeReadIsAnnouncedOnceTheLoopRuns()
    {
        QTemporaryDir dir;
        QFile hosts(dir.filePath(QStringLiteral("hosts.json")));
        QVERIFY(writeBrokenHosts(hosts));
        SlowKeychain keychain;
        workspace::AppCore core(dir.path(), &keychain);
        QSignalSpy problems(&core, &workspace::AppCore::problem);
        core.open();
        QCOMPARE(problems.size(), 0); // a window made after open() still hears it
        QTRY_COMPARE(problems.size(), 1);
        QCOMPARE(problems.first().at(0).value<workspace::AppCore::Store>(), workspace::AppCore::Store::Hosts);
        QVERIFY2(problems.first().at(1).toString().contains(QStringLiteral("hosts.json")), qPrintable(problems.first().at(1).toString()));
        // The file is left as it was for the user to mend: nothing replaced it.
        QVERIFY(hosts.open(QIODevice::ReadOnly));
        QCOMPARE(hosts.readAll(), QByteArray("{ not json"));
    }

    void aCommandsCoreActsOnTheCloudsItNamesAndLeavesTheWindowsWorkAlone()
    {
        QTemporaryDir dir;
        QFile hosts(dir.filePath(QStringLiteral("hosts.json")));
        QVERIFY(writeBrokenHosts(hosts));
        SlowKeychain keychain;
        QVERIFY(keychain.write(providers::apiKeySecretName(kLambda), QStringLiteral("lambda-key")));
        workspace::AppCore::Options options;
        providers::ProviderSettings accounts;
        accounts.configDir = dir.path();
        accounts.apiKeyOverride = QStringLiteral("runpod-key");
        options.accounts = accounts;
        options.providerIds = {kRunPod, QStringLiteral("nowhere")};
        options.transfersDir = dir.filePath(QStringLiteral("cli"));
        options.resumeWork = false;
        workspace::AppCore core(dir.path(), &keychain, options);
        core.open();
        QCOMPARE(core.providers()->ids(), QStringList{kRunPod}); // not the keychain's Lambda, nor the sandbox
        QCOMPARE(core.providers()->errors().size(), 1);            // the unknown cloud is named
        QVERIFY2(core.providers()->errors().constFirst().contains(QStringLiteral("nowhere")), qPrintable(core.providers()->errors().constFirst()));
        QCOMPARE(core.openProblems().size(), 1); // readable before any event loop runs
        QVERIFY(core.openProblems().constFirst().contains(QStringLiteral("hosts.json")));
        QVERIFY(core.ledgerOpen());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("transfers.json"))));
        QSignalSpy reloaded(&core, &workspace::AppCore::providersReloaded);
        core.reloadProviders(); // the command's accounts again, without the keychain
        QCOMPARE(reloaded.size(), 1);
        QCOMPARE(core.providers()->ids(), QStringList{kRunPod});
        QCOMPARE(keychain.readsOnMainThread.load(), 0);
    }
};

QTEST_GUILESS_MAIN(TestAppCore)
#include "test_appcore.moc"
