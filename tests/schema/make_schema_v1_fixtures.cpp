// Writes tests/fixtures/schema-v1/config/ with the stores as they were at commit c95c4c6, before
// the files carried a schema version. Kept as the record of how the fixtures were made; it is not
// part of the build (built against today's code it would write today's versions, not version 1).
#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"
#include "core/jobs/results.h"
#include "core/providers/pricecache.h"
#include "core/sshconfig/sshconfigfile.h"
#include "core/transfer/journal.h"
#include "core/transfer/transferqueue.h"
#include "core/util/clock.h"
#include "core/util/uilanguage.h"

#include <QCoreApplication>
#include <QDir>
#include <QThread>

using namespace gantry;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString dir = app.arguments().value(1);
    if (dir.isEmpty() || QDir(dir).exists()) return 2; // a fresh folder only

    HostStore hosts(dir);
    SavedHost manual{QStringLiteral("lab"), {QStringLiteral("lab.example.org"), 2222, QStringLiteral("ada"),
                     {QStringLiteral("/home/ada/.ssh/id_ed25519")}, QStringLiteral("jump@bastion.example.org:22"),
                     ssh::AuthMethod::Key}, 0, {}, {}, QStringLiteral("manual")};
    SavedHost instance{QStringLiteral("a10-train"), {QStringLiteral("203.0.113.7"), 22, QStringLiteral("ubuntu"), {}, {},
                       ssh::AuthMethod::Auto}, 0.75, QStringLiteral("lambda"), QStringLiteral("inst-0001"), QStringLiteral("provider")};
    if (!hosts.add(manual) || !hosts.add(instance)) return 3;

    ManualClock clock(QDateTime(QDate(2026, 3, 1), QTime(9, 0), Qt::UTC));
    {
        cost::Ledger ledger(cost::Ledger::defaultPath(dir), clock);
        if (!ledger.open()) return 4;
        ledger.setBillingPolicy(QStringLiteral("lambda"), {60, 0});
        providers::Instance a;
        a.provider = QStringLiteral("lambda"); a.id = QStringLiteral("inst-0001"); a.name = QStringLiteral("a10-train");
        a.typeName = QStringLiteral("gpu_1x_a10"); a.region = QStringLiteral("us-east-1"); a.volumeGb = 0;
        a.createdAt = clock.now();
        providers::Instance b = a;
        b.provider = QStringLiteral("runpod"); b.id = QStringLiteral("pod-77"); b.name = QStringLiteral("h100-eval");
        b.typeName = QStringLiteral("NVIDIA H100 80GB HBM3"); b.region = QStringLiteral("EU-RO-1"); b.volumeGb = 40;
        if (!ledger.recordLaunch(a, 0.75) || !ledger.recordLaunch(b, 2.99)) return 5;
        clock.advanceSeconds(3600);
        if (!ledger.recordStopped(b.provider, b.id)) return 6;
        clock.advanceSeconds(1800);
        if (!ledger.recordStarted(b.provider, b.id)) return 6;
        clock.advanceSeconds(600);
        if (!ledger.recordTerminated(b.provider, b.id, QStringLiteral("done"))) return 7;
        if (!ledger.setBudget(QStringLiteral("daily"), 25) || !ledger.setBudget(QStringLiteral("monthly"), 300)) return 8;
        if (!ledger.markAlert(QStringLiteral("daily:2026-03-01"), 80)) return 8;
    }

    providers::PriceSnapshot prices;
    prices.fetchedAt = QDateTime(QDate(2026, 3, 1), QTime(8, 30), Qt::UTC);
    prices.types.append({QStringLiteral("lambda"), QStringLiteral("gpu_1x_a10"), QStringLiteral("1x A10 (24 GB PCIe)"),
                         QStringLiteral("A10"), 1, 24, 30, 200, 1400, 0.75,
                         {{QStringLiteral("us-east-1"), QStringLiteral("Virginia, USA")}}, {}});
    prices.types.append({QStringLiteral("runpod"), QStringLiteral("NVIDIA H100 80GB HBM3"), QStringLiteral("H100 SXM"),
                         QStringLiteral("H100"), 8, 80, 128, 1000, 0, 23.92, {}, QStringLiteral("community cloud")});
    if (!providers::savePriceCache(providers::priceCachePath(dir), prices)) return 9;

    transfer::JournalStore journals(dir);
    transfer::FileJournal file;
    file.direction = transfer::Direction::Upload;
    file.host = QStringLiteral("lab");
    file.source = QStringLiteral("/home/ada/data/train.bin");
    file.destination = QStringLiteral("/data/train.bin");
    file.size = 20ull << 20;
    file.mtime = 1767225600123;
    file.chunkSize = 8ull << 20;
    file.done = {true, false, true};
    file.chunkHashes = {QByteArray(64, 'a'), QByteArray(), QByteArray(64, 'c')};
    file.wireBytes = 17ull << 20;
    if (!journals.save(transfer::JournalStore::key(file.direction, file.host, file.source, file.destination), file)) return 10;
    transfer::TreeJournal tree{QStringLiteral("lab"), QStringLiteral("/home/ada/data/images"), QStringLiteral("/data/images"),
                               QByteArray("3f2c9a0d5e7b1486"), {0, 2}, 123456789, 2000, 64ull << 20};
    if (!journals.save(transfer::JournalStore::key(transfer::Direction::Upload, tree.host, tree.source, tree.destination), tree))
        return 11;

    {
        // "nowhere" fails at once; the others wait for a session until the queue is destroyed,
        // which saves the running item as queued.
        transfer::TransferQueue queue(dir, [](const QString &host) -> Result<transfer::SessionFactory> {
            if (host == QLatin1String("nowhere")) return makeError(ErrorCode::NotFound, QStringLiteral("No saved host named nowhere; add it again to continue."));
            return transfer::SessionFactory([](const std::atomic_bool *cancel) -> Result<std::unique_ptr<ssh::Session>> {
                while (!cancel->load()) QThread::msleep(5);
                return makeError(ErrorCode::Cancelled, QStringLiteral("cancelled"));
            });
        });
        queue.setMaxConcurrent(1);
        transfer::TransferRequest gone{transfer::Direction::Download, QStringLiteral("nowhere"), QStringLiteral("/tmp/x"),
                                       QStringLiteral("/x"), false, {}};
        transfer::TransferRequest up{transfer::Direction::Upload, QStringLiteral("lab"), QStringLiteral("/home/ada/data"),
                                     QStringLiteral("/data/"), true, {}};
        up.options.parallel = 4;
        transfer::TransferRequest down{transfer::Direction::Download, QStringLiteral("a10-train"), QStringLiteral("/home/ada/results"),
                                       QStringLiteral("/home/ubuntu/runs/model.pth"), false, {}};
        down.options.onConflict = transfer::ConflictPolicy::Overwrite;
        down.options.verify = false;
        down.options.followSymlinks = false;
        queue.enqueue(gone);
        queue.enqueue(up);
        queue.pause(queue.enqueue(down));
    }

    if (!jobs::ResultPathStore(dir).setPatterns(QStringLiteral("a10-train"), {QStringLiteral("outputs/"), QStringLiteral("*.pth")}))
        return 12;
    if (!sshconfig::setSyncEnabled(dir, true)) return 13;
    if (!uilanguage::storeLanguage(dir, QStringLiteral("zh_CN"))) return 14;
    return 0;
}
