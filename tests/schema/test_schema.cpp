// Files written by the release before schema versions (tests/fixtures/schema-v1) open in this one
// field by field and are saved with the current version; files from a newer Gantry are refused
// and stay byte for byte as they were.
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/jobs/results.h"
#include "core/providers/costmodel.h"
#include "core/providers/pricecache.h"
#include "core/sshconfig/sshconfigfile.h"
#include "core/transfer/journal.h"
#include "core/transfer/transferqueue.h"
#include "core/util/schemaversion.h"
#include "core/util/uilanguage.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <memory>

using namespace gantry;

namespace {

const QString kFixture = QStringLiteral(GANTRY_FIXTURES_DIR "/schema-v1/config");

// The fixture folder, copied: loading migrates, and the repository's files must stay as they are.
bool copyFixture(const QString &to)
{
    QDirIterator it(kFixture, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString from = it.next();
        const QString target = QDir(to).filePath(QDir(kFixture).relativeFilePath(from));
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(from, target))
            return false;
        QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
    }
    return true;
}

QByteArray bytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QJsonObject jsonAt(const QString &path)
{
    return QJsonDocument::fromJson(bytes(path)).object();
}

// Rewrites a JSON file as a newer Gantry might: a higher schema and a member this build does not know.
void makeNewer(const QString &path, QJsonObject root)
{
    root.insert(QStringLiteral("schema"), 99);
    root.insert(QStringLiteral("fromTheFuture"), true);
    QFile file(path);
    QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(root).toJson());
}

// A transfer that never connects: items stay running (saved as queued) until the queue goes.
transfer::TransferQueue::FactoryProvider waitingProvider()
{
    return [](const QString &host) -> Result<transfer::SessionFactory> {
        if (host == QLatin1String("nowhere"))
            return makeError(ErrorCode::NotFound, QStringLiteral("No saved host named nowhere."));
        return transfer::SessionFactory([](const std::atomic_bool *cancel) -> Result<std::unique_ptr<ssh::Session>> {
            while (!cancel->load())
                QThread::msleep(2);
            return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
        });
    };
}

const QString kFileKey = transfer::JournalStore::key(transfer::Direction::Upload, QStringLiteral("lab"),
                                                     QStringLiteral("/home/ada/data/train.bin"), QStringLiteral("/data/train.bin"));
const QString kTreeKey = transfer::JournalStore::key(transfer::Direction::Upload, QStringLiteral("lab"),
                                                     QStringLiteral("/home/ada/data/images"), QStringLiteral("/data/images"));

QDateTime utc(int day, int hour, int minute)
{
    return QDateTime(QDate(2026, 3, day), QTime(hour, minute), Qt::UTC);
}

} // namespace

class TestSchema final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_temporary; // a fresh copy of the fixtures for each test
    QString m_config;
    QString path(const QString &relative) const { return QDir(m_config).filePath(relative); }

private slots:
    void init()
    {
        m_temporary = std::make_unique<QTemporaryDir>();
        QVERIFY(m_temporary->isValid());
        m_config = m_temporary->path();
        QVERIFY2(copyFixture(m_config), "copying tests/fixtures/schema-v1 failed; is the checkout complete?");
    }

    void helperMigratesStepByStep()
    {
        static const schema::Migration steps[] = {
            [](QJsonObject o) { o.insert(QStringLiteral("b"), o.take(QStringLiteral("a"))); return o; },
            [](QJsonObject o) { o.insert(QStringLiteral("c"), o.value(QStringLiteral("b")).toInt() * 2); return o; },
        };
        const auto fromOne = schema::upgrade(QJsonObject{{QStringLiteral("a"), 21}}, 3, QStringLiteral("x.json"), steps);
        QVERIFY(fromOne);
        QCOMPARE(*fromOne, (QJsonObject{{QStringLiteral("b"), 21}, {QStringLiteral("c"), 42}, {QStringLiteral("schema"), 3}}));
        const auto fromTwo = schema::upgrade(QJsonObject{{QStringLiteral("schema"), 2}, {QStringLiteral("b"), 1}}, 3,
                                             QStringLiteral("x.json"), steps);
        QVERIFY(fromTwo);
        QCOMPARE(fromTwo->value(QStringLiteral("c")).toInt(), 2);
        const auto newer = schema::upgrade(QJsonObject{{QStringLiteral("schema"), 4}}, 3, QStringLiteral("x.json"), steps);
        QVERIFY(!newer);
        QCOMPARE(newer.error().code, ErrorCode::Conflict);
        QVERIFY2(newer.error().message.contains(QLatin1String("x.json")) && newer.error().message.contains(QLatin1String("Upgrade")),
                 qPrintable(newer.error().message));
        QCOMPARE(schema::versionOf(QJsonObject{{QStringLiteral("version"), 1}}, QLatin1StringView("version")), 1);
    }

    void hostsV1()
    {
        HostStore store(m_config);
        QVERIFY(store.load());
        QCOMPARE(store.hosts().size(), 2);
        const SavedHost lab = store.hosts().at(0);
        QCOMPARE(lab.name, QStringLiteral("lab"));
        QCOMPARE(lab.target.host, QStringLiteral("lab.example.org"));
        QCOMPARE(lab.target.port, 2222);
        QCOMPARE(lab.target.user, QStringLiteral("ada"));
        QCOMPARE(lab.target.auth, ssh::AuthMethod::Key);
        QCOMPARE(lab.target.identityFiles, QStringList{QStringLiteral("/home/ada/.ssh/id_ed25519")});
        QCOMPARE(lab.target.proxyJump, QStringLiteral("jump@bastion.example.org:22"));
        QCOMPARE(lab.hourlyPriceUsd, 0.0);
        QCOMPARE(lab.provider, QString());
        QCOMPARE(lab.source, QStringLiteral("manual"));
        const SavedHost instance = store.hosts().at(1);
        QCOMPARE(instance.name, QStringLiteral("a10-train"));
        QCOMPARE(instance.target.host, QStringLiteral("203.0.113.7"));
        QCOMPARE(instance.target.port, 22);
        QCOMPARE(instance.target.user, QStringLiteral("ubuntu"));
        QCOMPARE(instance.target.auth, ssh::AuthMethod::Auto);
        QVERIFY(instance.target.identityFiles.isEmpty());
        QCOMPARE(instance.hourlyPriceUsd, 0.75);
        QCOMPARE(instance.provider, QStringLiteral("lambda"));
        QCOMPARE(instance.instanceId, QStringLiteral("inst-0001"));
        QCOMPARE(instance.source, QStringLiteral("provider"));

        // Saved again: the current version, the old "version" key gone, nothing else lost.
        QVERIFY(store.remove(QStringLiteral("lab")));
        const QJsonObject saved = jsonAt(store.filePath());
        QCOMPARE(saved.value(QStringLiteral("schema")).toInt(), 2); // 2: each price keeps its currency
        QVERIFY(!saved.contains(QStringLiteral("version")));
        const QJsonObject row = saved.value(QStringLiteral("hosts")).toArray().at(0).toObject();
        QCOMPARE(row.value(QStringLiteral("hourly_price")).toDouble(), 0.75);
        QCOMPARE(row.value(QStringLiteral("currency")).toString(), QStringLiteral("USD")); // every v1 price was dollars
        QVERIFY(!row.contains(QStringLiteral("hourly_price_usd")));
        HostStore reread(m_config);
        QVERIFY(reread.load());
        QCOMPARE(reread.hosts(), QList<SavedHost>{instance});

        // A price in yuan stays in yuan: never converted, never read as dollars.
        SavedHost autodl = lab;
        autodl.name = QStringLiteral("autodl");
        autodl.setHourlyPrice(2.5, QStringLiteral("cny"));
        QVERIFY(reread.add(autodl));
        HostStore third(m_config);
        QVERIFY(third.load());
        const SavedHost yuan = *third.find(QStringLiteral("autodl"));
        QCOMPARE(yuan.currency(), QStringLiteral("CNY"));
        QCOMPARE(yuan.hourlyPrice(), 2.5);
        QCOMPARE(yuan.hourlyPriceUsd, 0.0);
        autodl.setHourlyPrice(1, QStringLiteral("yuan"));
        autodl.name = QStringLiteral("bad-currency");
        QCOMPARE(third.add(autodl).error().code, ErrorCode::Usage);
    }

    void ledgerV1()
    {
        ManualClock clock(utc(1, 10, 0));
        {
            cost::Ledger ledger(cost::Ledger::defaultPath(m_config), clock);
            QVERIFY(ledger.open());
            ledger.setBillingPolicy(QStringLiteral("lambda"), {60, 0});
            const auto lambda = ledger.entry(QStringLiteral("lambda"), QStringLiteral("inst-0001"));
            QVERIFY(lambda);
            QCOMPARE(lambda->name, QStringLiteral("a10-train"));
            QCOMPARE(lambda->typeName, QStringLiteral("gpu_1x_a10"));
            QCOMPARE(lambda->region, QStringLiteral("us-east-1"));
            QCOMPARE(lambda->pricePerHour, 0.75);
            QCOMPARE(lambda->launchedAt, utc(1, 9, 0));
            QVERIFY(lambda->isRunning() && lambda->isOpen());
            QCOMPARE(lambda->billingIncrementSeconds, 60);
            QCOMPARE(lambda->billedSeconds, 3600);
            QCOMPARE(lambda->cost, 0.75);
            const auto runpod = ledger.entry(QStringLiteral("runpod"), QStringLiteral("pod-77"));
            QVERIFY(runpod);
            QCOMPARE(runpod->name, QStringLiteral("h100-eval"));
            QCOMPARE(runpod->volumeGb, 40);
            QCOMPARE(runpod->pricePerHour, 2.99);
            QCOMPARE(runpod->state, QStringLiteral("terminated"));
            QCOMPARE(runpod->note, QStringLiteral("done"));
            QCOMPARE(runpod->stoppedAt, utc(1, 10, 0));
            QCOMPARE(runpod->terminatedAt, utc(1, 10, 40));
            QCOMPARE(runpod->billedSeconds, 3600 + 600); // the 30 stopped minutes are not billed
            QCOMPARE(ledger.budget(QStringLiteral("daily")).valueOr(0), 25.0);
            QCOMPARE(ledger.budget(QStringLiteral("monthly")).valueOr(0), 300.0);
            QCOMPARE(ledger.markAlert(QStringLiteral("daily:2026-03-01"), 80).valueOr(true), false); // marked already
            QCOMPARE(ledger.entries().valueOr({}).size(), 2);
            QCOMPARE(ledger.entries().valueOr({}).first().currency, QStringLiteral("USD")); // rows before version 2 were dollars
        }
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("peek"));
        db.setDatabaseName(cost::Ledger::defaultPath(m_config));
        QVERIFY(db.open());
        {
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("PRAGMA user_version")) && query.next());
            QCOMPARE(query.value(0).toInt(), 5); // migrated: saved with the current version (5: recorded_at)
        }
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("peek"));
    }

    // The ledger of the release before storage periods (tests/fixtures/schema-v2): every row keeps
    // its fields, and the pod that was stopped then has billed its disk since its stop.
    void ledgerV2()
    {
        const QString file = cost::Ledger::defaultPath(m_config);
        QFile::remove(file);
        QVERIFY(QFile::copy(QStringLiteral(GANTRY_FIXTURES_DIR "/schema-v2/config/cost.sqlite"), file));
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        ManualClock clock(utc(1, 14, 0));
        {
            cost::Ledger ledger(file, clock);
            QVERIFY(ledger.open());
            const auto pod = ledger.entry(QStringLiteral("runpod"), QStringLiteral("pod-9"));
            QVERIFY(pod);
            QCOMPARE(pod->name, QStringLiteral("finetune"));
            QCOMPARE(pod->volumeGb, 100);
            QCOMPARE(pod->pricePerHour, 1.19);
            QCOMPARE(pod->state, QStringLiteral("stopped"));
            QCOMPARE(pod->stoppedAt, utc(1, 11, 0));
            QCOMPARE(pod->billedSeconds, 2 * 3600);
            QCOMPARE(pod->storageSeconds, 3 * 3600); // 11:00 to 14:00, at RunPod's stopped rate
            const double perHour = providers::storageCostPerDay(providers::costModelFor(QStringLiteral("runpod")), 100, true) / 24;
            QVERIFY(qAbs(pod->storageCost - 3 * perHour) < 1e-9);
            QVERIFY(pod->isBillingStorage());
            const auto yuan = ledger.entry(QStringLiteral("autodl"), QStringLiteral("west-4090"));
            QVERIFY(yuan);
            QCOMPARE(yuan->currency, QStringLiteral("CNY"));
            QCOMPARE(yuan->pricePerHour, 2.5);
            QCOMPARE(yuan->storageCost, 0.0);
            QCOMPARE(ledger.budget(QStringLiteral("daily")).valueOr(0), 10.0);
            QCOMPARE(ledger.storagePeriods().valueOr({}).size(), 1);
            QVERIFY(ledger.recordStarted(QStringLiteral("runpod"), QStringLiteral("pod-9")));
            clock.advanceSeconds(3600);
            QCOMPARE(ledger.entry(QStringLiteral("runpod"), QStringLiteral("pod-9"))->storageSeconds, 3 * 3600);
        }
        cost::Ledger reopened(file, clock); // migrated once: opening again adds no second period
        QVERIFY(reopened.open());
        QCOMPARE(reopened.storagePeriods().valueOr({}).size(), 1);
    }

    void priceCacheV1()
    {
        const QString file = providers::priceCachePath(m_config);
        const providers::PriceSnapshot cached = providers::loadPriceCache(file);
        QCOMPARE(cached.fetchedAt, utc(1, 8, 30));
        QCOMPARE(cached.types.size(), 2);
        const providers::InstanceType a10 = cached.types.at(0);
        QCOMPARE(a10.provider, QStringLiteral("lambda"));
        QCOMPARE(a10.name, QStringLiteral("gpu_1x_a10"));
        QCOMPARE(a10.description, QStringLiteral("1x A10 (24 GB PCIe)"));
        QCOMPARE(a10.gpuModel, QStringLiteral("A10"));
        QCOMPARE(a10.gpuCount, 1);
        QCOMPARE(a10.vramGbPerGpu, 24);
        QCOMPARE(a10.vcpus, 30);
        QCOMPARE(a10.ramGb, 200);
        QCOMPARE(a10.diskGb, 1400);
        QCOMPARE(a10.pricePerHour, 0.75);
        QCOMPARE(a10.regionsWithCapacity.size(), 1);
        QCOMPARE(a10.regionsWithCapacity.at(0).name, QStringLiteral("us-east-1"));
        QCOMPARE(a10.regionsWithCapacity.at(0).description, QStringLiteral("Virginia, USA"));
        const providers::InstanceType h100 = cached.types.at(1);
        QCOMPARE(h100.provider, QStringLiteral("runpod"));
        QCOMPARE(h100.gpuCount, 8);
        QCOMPARE(h100.pricePerHour, 23.92);
        QVERIFY(h100.regionsWithCapacity.isEmpty());
        QCOMPARE(h100.note, QStringLiteral("community cloud"));

        QVERIFY(providers::savePriceCache(file, cached));
        QCOMPARE(jsonAt(file).value(QStringLiteral("schema")).toInt(), 1);
        QCOMPARE(providers::loadPriceCache(file).types.size(), 2);
    }

    void journalsV1()
    {
        transfer::JournalStore store(m_config);
        const auto file = store.loadFile(kFileKey);
        QVERIFY2(file, "the version-1 file journal did not load");
        QCOMPARE(file->direction, transfer::Direction::Upload);
        QCOMPARE(file->host, QStringLiteral("lab"));
        QCOMPARE(file->source, QStringLiteral("/home/ada/data/train.bin"));
        QCOMPARE(file->destination, QStringLiteral("/data/train.bin"));
        QCOMPARE(file->size, 20ull << 20);
        QCOMPARE(file->mtime, 1767225600123);
        QCOMPARE(file->chunkSize, 8ull << 20);
        QCOMPARE(file->done, (QList<bool>{true, false, true}));
        QCOMPARE(file->chunkHashes, (QList<QByteArray>{QByteArray(64, 'a'), QByteArray(), QByteArray(64, 'c')}));
        QCOMPARE(file->wireBytes, 17ull << 20);
        QCOMPARE(file->doneBytes(), (8ull << 20) + (4ull << 20));
        const auto tree = store.loadTree(kTreeKey);
        QVERIFY2(tree, "the version-1 tree journal did not load");
        QCOMPARE(tree->host, QStringLiteral("lab"));
        QCOMPARE(tree->source, QStringLiteral("/home/ada/data/images"));
        QCOMPARE(tree->destination, QStringLiteral("/data/images"));
        QCOMPARE(tree->fingerprint, QByteArray("3f2c9a0d5e7b1486"));
        QCOMPARE(tree->doneBatches, (QList<int>{0, 2}));
        QCOMPARE(tree->wireBytes, 123456789ull);
        QCOMPARE(tree->batchFiles, 2000);
        QCOMPARE(tree->batchBytes, 64ull << 20);
        QVERIFY(store.checkReplaceable(kFileKey));

        QVERIFY(store.save(kFileKey, *file));
        QVERIFY(store.save(kTreeKey, *tree));
        for (const QString &key : {kFileKey, kTreeKey})
            QCOMPARE(jsonAt(QDir(store.directory()).filePath(key + QStringLiteral(".json"))).value(QStringLiteral("schema")).toInt(), 1);
        QCOMPARE(store.loadFile(kFileKey)->chunkHashes, file->chunkHashes);
        QCOMPARE(store.loadTree(kTreeKey)->doneBatches, tree->doneBatches);
    }

    void queueV1()
    {
        const QString queueFile = path(QStringLiteral("transfers/queue.json"));
        {
            transfer::TransferQueue queue(m_config, waitingProvider());
            queue.setMaxConcurrent(1);
            QVERIFY(queue.restore());
            const QList<transfer::QueueItem> items = queue.items();
            QCOMPARE(items.size(), 3);
            QCOMPARE(items[0].state, transfer::ItemState::Failed);
            QCOMPARE(items[0].message, QStringLiteral("No saved host named nowhere; add it again to continue."));
            QCOMPARE(items[0].request.host, QStringLiteral("nowhere"));
            QCOMPARE(items[0].request.direction, transfer::Direction::Download);
            const transfer::TransferRequest &up = items[1].request;
            QCOMPARE(items[1].state, transfer::ItemState::Running); // queued in the file, started by restore()
            QCOMPARE(up.direction, transfer::Direction::Upload);
            QCOMPARE(up.host, QStringLiteral("lab"));
            QCOMPARE(up.localPath, QStringLiteral("/home/ada/data"));
            QCOMPARE(up.remotePath, QStringLiteral("/data/"));
            QVERIFY(up.destinationIsDir);
            QCOMPARE(up.options.parallel, 4);
            QCOMPARE(up.options.onConflict, transfer::ConflictPolicy::Ask);
            QVERIFY(up.options.followSymlinks && up.options.verify);
            const transfer::TransferRequest &down = items[2].request;
            QCOMPARE(items[2].state, transfer::ItemState::Paused);
            QCOMPARE(down.host, QStringLiteral("a10-train"));
            QCOMPARE(down.localPath, QStringLiteral("/home/ada/results"));
            QCOMPARE(down.remotePath, QStringLiteral("/home/ubuntu/runs/model.pth"));
            QVERIFY(!down.destinationIsDir);
            QCOMPARE(down.options.onConflict, transfer::ConflictPolicy::Overwrite);
            QVERIFY(!down.options.followSymlinks && !down.options.verify);
        }
        // Saved on the way out in the current format, the three items kept.
        const QJsonDocument saved = QJsonDocument::fromJson(bytes(queueFile));
        QVERIFY2(saved.isObject(), bytes(queueFile).constData());
        QCOMPARE(saved.object().value(QStringLiteral("schema")).toInt(), 2);
        QCOMPARE(saved.object().value(QStringLiteral("items")).toArray().size(), 3);
        transfer::TransferQueue again(m_config, waitingProvider());
        QVERIFY(again.restore());
        QCOMPARE(again.items().size(), 3);
    }

    void smallFilesV1()
    {
        jobs::ResultPathStore results(m_config);
        QCOMPARE(results.patterns(QStringLiteral("a10-train")), (QStringList{QStringLiteral("outputs/"), QStringLiteral("*.pth")}));
        QVERIFY(sshconfig::isSyncEnabled(m_config));
        QCOMPARE(uilanguage::storedLanguage(m_config), QStringLiteral("zh_CN"));

        QVERIFY(results.setPatterns(QStringLiteral("lab"), {QStringLiteral("runs/")}));
        QCOMPARE(jsonAt(results.filePath()).value(QStringLiteral("schema")).toInt(), 1);
        QCOMPARE(results.patterns(QStringLiteral("a10-train")).size(), 2);
        QVERIFY(sshconfig::setSyncEnabled(m_config, true));
        QCOMPARE(jsonAt(path(QStringLiteral("sshconfig.json"))).value(QStringLiteral("schema")).toInt(), 1);
        QVERIFY(uilanguage::storeLanguage(m_config, QStringLiteral("en")));
        const QSettings ini(path(QStringLiteral("gantry.ini")), QSettings::IniFormat);
        QCOMPARE(ini.value(QStringLiteral("schema")).toInt(), 1);
        QCOMPARE(ini.value(QStringLiteral("ui/language")).toString(), QStringLiteral("en"));
    }

    void newerJsonFilesAreRefusedAndKept()
    {
        const QString hostsFile = path(QStringLiteral("hosts.json"));
        const QString pricesFile = providers::priceCachePath(m_config);
        const QString journalFile = path(QStringLiteral("transfers/") + kFileKey + QStringLiteral(".json"));
        const QString queueFile = path(QStringLiteral("transfers/queue.json"));
        const QString resultsFile = path(QStringLiteral("results.json"));
        const QString syncFile = path(QStringLiteral("sshconfig.json"));
        for (const QString &file : {hostsFile, pricesFile, journalFile, resultsFile, syncFile})
            makeNewer(file, jsonAt(file));
        makeNewer(queueFile, {{QStringLiteral("items"), QJsonDocument::fromJson(bytes(queueFile)).array()}});
        QHash<QString, QByteArray> before;
        for (const QString &file : {hostsFile, pricesFile, journalFile, queueFile, resultsFile, syncFile})
            before.insert(file, bytes(file));

        HostStore hosts(m_config);
        const Result<void> loaded = hosts.load();
        QVERIFY(!loaded);
        QVERIFY2(loaded.error().message.contains(QLatin1String("newer Gantry")), qPrintable(loaded.error().message));
        QCOMPARE(hosts.hosts().size(), 2); // shown read-only
        SavedHost extra = hosts.hosts().at(1);
        extra.name = QStringLiteral("extra");
        QCOMPARE(hosts.add(extra).error().code, ErrorCode::Conflict);

        QVERIFY(providers::loadPriceCache(pricesFile).types.isEmpty());
        QVERIFY(!providers::savePriceCache(pricesFile, {{providers::InstanceType{}}, QDateTime::currentDateTimeUtc()}));

        transfer::JournalStore journals(m_config);
        QVERIFY(!journals.loadFile(kFileKey));
        QVERIFY(!journals.checkReplaceable(kFileKey));

        {
            transfer::TransferQueue queue(m_config, waitingProvider());
            const Result<void> restored = queue.restore();
            QVERIFY(!restored);
            QVERIFY2(restored.error().message.contains(queueFile), qPrintable(restored.error().message));
            queue.enqueue({transfer::Direction::Download, QStringLiteral("nowhere"), QStringLiteral("/tmp/y"), QStringLiteral("/y"), false, {}});
        }

        jobs::ResultPathStore results(m_config);
        QCOMPARE(results.patterns(QStringLiteral("a10-train")).size(), 2);
        QVERIFY(!results.setPatterns(QStringLiteral("lab"), {QStringLiteral("x")}));
        QVERIFY(!sshconfig::setSyncEnabled(m_config, false));

        for (auto it = before.constBegin(); it != before.constEnd(); ++it)
            QVERIFY2(bytes(it.key()) == it.value(), qPrintable(it.key() + QStringLiteral(" was changed")));
    }

    // A damaged hosts.json (a hand edit gone wrong) loads as no hosts, and the next save keeps the
    // damaged bytes beside instead of writing over them.
    void damagedFilesAreKeptAside()
    {
        const QString hostsFile = path(QStringLiteral("hosts.json"));
        const QByteArray damaged = bytes(hostsFile).left(bytes(hostsFile).size() / 2);
        QVERIFY(!damaged.isEmpty());
        {
            QFile file(hostsFile);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(damaged);
        }
        HostStore hosts(m_config);
        const Result<void> loaded = hosts.load();
        QVERIFY(!loaded);
        QVERIFY2(loaded.error().message.contains(QLatin1String(".damaged-")), qPrintable(loaded.error().message));
        QVERIFY(hosts.hosts().isEmpty());
        SavedHost host;
        host.name = QStringLiteral("fresh");
        host.target.host = QStringLiteral("127.0.0.1");
        host.target.user = QStringLiteral("me");
        QVERIFY(hosts.add(host));
        const QStringList kept = QDir(m_config).entryList({QStringLiteral("hosts.json.damaged-*")}, QDir::Files);
        QCOMPARE(kept.size(), 1);
        QCOMPARE(bytes(path(kept.first())), damaged);
        QCOMPARE(schema::damagedCopyPath(hostsFile).left(hostsFile.size() + 9), hostsFile + QStringLiteral(".damaged-"));
        HostStore reloaded(m_config);
        QVERIFY(reloaded.load());
        QCOMPARE(reloaded.hosts().size(), 1);
    }

    void newerSettingsAreRefusedAndKept()
    {
        const QString iniFile = path(QStringLiteral("gantry.ini"));
        QFile file(iniFile);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("[General]\nschema=7\n\n[ui]\nlanguage=zh_CN\ntheme=dark\n");
        file.close();
        const QByteArray before = bytes(iniFile);
        QCOMPARE(uilanguage::storedLanguage(m_config), QStringLiteral("zh_CN"));
        const Result<void> stored = uilanguage::storeLanguage(m_config, QStringLiteral("en"));
        QVERIFY(!stored);
        QVERIFY2(stored.error().message.contains(QLatin1String("newer Gantry")), qPrintable(stored.error().message));
        QCOMPARE(bytes(iniFile), before);
    }

    void newerLedgerIsRefusedAndKept()
    {
        const QString ledgerFile = cost::Ledger::defaultPath(m_config);
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("future"));
            db.setDatabaseName(ledgerFile);
            QVERIFY(db.open());
            QSqlQuery query(db);
            QVERIFY(query.exec(QStringLiteral("PRAGMA user_version = 6")));
            QVERIFY(query.exec(QStringLiteral("CREATE TABLE spot_bids(id INTEGER PRIMARY KEY)")));
            query = QSqlQuery();
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("future"));
        const QByteArray before = bytes(ledgerFile);
        {
            cost::Ledger ledger(ledgerFile);
            const Result<void> opened = ledger.open();
            QVERIFY(!opened);
            QCOMPARE(opened.error().code, ErrorCode::Conflict);
            QVERIFY2(opened.error().message.contains(ledgerFile) && opened.error().message.contains(QLatin1String("Upgrade")),
                     qPrintable(opened.error().message));
            QVERIFY(!ledger.setBudget(QStringLiteral("daily"), 1)); // closed: nothing reaches the file
        }
        QCOMPARE(bytes(ledgerFile), before);
        QVERIFY(!QFileInfo::exists(ledgerFile + QStringLiteral("-journal")));
    }
};

QTEST_GUILESS_MAIN(TestSchema)
#include "test_schema.moc"
