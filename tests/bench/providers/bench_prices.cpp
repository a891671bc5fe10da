// bench_prices: a price grid refresh with N Vast.ai offers (default 1000) through the real path:
// gantry-provider-emulator over loopback HTTP, VastProvider (parse on a worker thread), grouping
// off the GUI thread, the PricesPanel table. Reports the refresh time and the longest stall of the
// GUI thread (a 5 ms heartbeat). Run: QT_QPA_PLATFORM=offscreen <build>/tests/providers/bench/bench_prices [N] [rounds]
#include "core/providers/pricecache.h"
#include "core/providers/pricegroups.h"
#include "core/providers/priceboard.h"
#include "ui/providers/pricespanel.h"
#include "ui/providers/pricetablemodel.h"
#include "core/providers/providerhub.h"
#include "core/providers/vastprovider.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <algorithm>
#include <ctime>

using namespace gantry;

namespace {

double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1000 + double(t.tv_nsec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const int offers = argc > 1 ? QString::fromLatin1(argv[1]).toInt() : 1000;
    const int rounds = argc > 2 ? QString::fromLatin1(argv[2]).toInt() : 5;
    QTextStream out(stdout);
    QProcess emulator;
    emulator.start(QStringLiteral(GANTRY_EMULATOR_PATH), {QStringLiteral("--provider"), QStringLiteral("vast"), QStringLiteral("--offers"),
                                                          QString::number(offers)});
    if (!emulator.waitForReadyRead(20000))
        return 1;
    const QString url = QString::fromLatin1(emulator.readLine().trimmed().mid(int(qstrlen("listening on "))));

    providers::RestConfig config;
    config.baseUrl = QUrl(url);
    config.apiKey = QStringLiteral("test-key");
    providers::ProviderHub hub;
    hub.addProvider(std::make_unique<providers::VastProvider>(config));
    QTemporaryDir dir;
    providers::PriceBoard panelBoard(&hub, dir.path());
    ui::PricesPanel panel(&panelBoard);
    panel.resize(1440, 900);
    panel.show();

    // The offers as listed, for the timings of the steps alone.
    const QList<providers::InstanceType> raw = [&] {
        QList<providers::InstanceType> list;
        QEventLoop loop;
        hub.provider(QStringLiteral("vast"))->listInstanceTypes([&](Result<QList<providers::InstanceType>> types) {
            if (types)
                list = *types;
            loop.quit();
        });
        loop.exec();
        return list;
    }();
    // The wall-clock gap includes time the scheduler gave other processes on a busy machine; the
    // GUI thread's own CPU time between two beats is the work that stalled it.
    QElapsedTimer beat;
    qint64 worstGap = 0;
    double worstBusyMs = 0, lastCpuMs = threadCpuMs();
    QTimer heartbeat;
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        worstGap = std::max(worstGap, beat.restart());
        const double now = threadCpuMs();
        worstBusyMs = std::max(worstBusyMs, now - lastCpuMs);
        lastCpuMs = now;
    });
    // "sync": also write the price cache on the GUI thread when a refresh ends, as before it moved
    // to its own thread, to see what that cost.
    if (argc > 3 && qstrcmp(argv[3], "sync") == 0) {
        QObject::connect(&panel, &ui::PricesPanel::refreshed, [&] {
            (void)providers::savePriceCache(providers::priceCachePath(dir.path()), {raw, QDateTime::currentDateTimeUtc()});
        });
    }
    QList<qint64> times;
    for (int round = 0; round < rounds; ++round) {
        QEventLoop loop;
        QObject::connect(&panel, &ui::PricesPanel::refreshed, &loop, &QEventLoop::quit);
        QElapsedTimer timer;
        timer.start();
        beat.start();
        worstGap = 0;
        worstBusyMs = 0;
        lastCpuMs = threadCpuMs();
        heartbeat.start(5);
        panel.refresh();
        loop.exec();
        times.append(timer.elapsed());
        // The heartbeat runs on for 300 ms: work queued after "refreshed" (the price cache write,
        // now on its own thread) would still stall the GUI thread a user is clicking in.
        QEventLoop tail;
        QTimer::singleShot(300, &tail, &QEventLoop::quit);
        tail.exec();
        heartbeat.stop();
        out << "round " << round + 1 << ": refresh " << times.last() << " ms, " << panel.model()->rowCount()
            << " rows, longest GUI-thread gap " << worstGap << " ms, of it busy " << worstBusyMs << " ms" << Qt::endl;
    }
    std::sort(times.begin(), times.end());
    out << "median refresh with " << offers << " offers: " << times.at(times.size() / 2) << " ms" << Qt::endl;

    // Grouping alone, as the worker thread runs it.
    QElapsedTimer timer;
    timer.start();
    int groups = 0;
    for (int i = 0; i < 20; ++i)
        groups = int(providers::groupRows(raw).size());
    out << "groupRows: " << raw.size() << " offers into " << groups << " groups in " << double(timer.elapsed()) / 20 << " ms" << Qt::endl;
    // The price cache write, as the cache thread runs it (it was on the GUI thread).
    timer.restart();
    for (int i = 0; i < 10; ++i)
        (void)providers::savePriceCache(providers::priceCachePath(dir.path()), {raw, QDateTime::currentDateTimeUtc()});
    out << "savePriceCache: " << raw.size() << " offers in " << double(timer.elapsed()) / 10 << " ms" << Qt::endl;
    emulator.kill();
    emulator.waitForFinished();
    return 0;
}
