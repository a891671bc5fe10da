// bench_prices: a price grid refresh with N Vast.ai offers (default 1000) through the real path:
// gantry-provider-emulator over loopback HTTP, VastProvider (parse on a worker thread), grouping
// off the GUI thread, the PricesPanel table. Reports the refresh time and the longest stall of the
// GUI thread (a 5 ms heartbeat). Run: QT_QPA_PLATFORM=offscreen <build>/tests/providers/bench/bench_prices [N] [rounds]
#include "core/providers/pricegroups.h"
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

using namespace gantry;

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
    ui::PricesPanel panel(&hub, dir.path());
    panel.resize(1440, 900);
    panel.show();

    QElapsedTimer beat;
    qint64 worstGap = 0;
    QTimer heartbeat;
    QObject::connect(&heartbeat, &QTimer::timeout, [&] {
        worstGap = std::max(worstGap, beat.restart());
    });
    QList<qint64> times;
    for (int round = 0; round < rounds; ++round) {
        QEventLoop loop;
        QObject::connect(&panel, &ui::PricesPanel::refreshed, &loop, &QEventLoop::quit);
        QElapsedTimer timer;
        timer.start();
        beat.start();
        worstGap = 0;
        heartbeat.start(5);
        panel.refresh();
        loop.exec();
        heartbeat.stop();
        times.append(timer.elapsed());
        out << "round " << round + 1 << ": refresh " << timer.elapsed() << " ms, " << panel.model()->rowCount()
            << " rows, longest GUI-thread gap " << worstGap << " ms" << Qt::endl;
    }
    std::sort(times.begin(), times.end());
    out << "median refresh with " << offers << " offers: " << times.at(times.size() / 2) << " ms" << Qt::endl;

    // Grouping alone, as the worker thread runs it.
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
    QElapsedTimer timer;
    timer.start();
    int groups = 0;
    for (int i = 0; i < 20; ++i)
        groups = int(providers::groupRows(raw).size());
    out << "groupRows: " << raw.size() << " offers into " << groups << " groups in " << double(timer.elapsed()) / 20 << " ms" << Qt::endl;
    emulator.kill();
    emulator.waitForFinished();
    return 0;
}
