// Monitor benchmark: N machines × G GPUs at 1 Hz through the real MetricStore, AlertEngine,
// FleetOverview and one visible MonitorTab (9 QtCharts), offscreen.
//
//   bench_monitor [--machines 16] [--gpus 8] [--minutes 10]     fast mode (default)
//   bench_monitor --realtime 60                                  real time, real 1 s timers
//
// Fast mode drives a ManualClock: each simulated second injects one sample per machine, then does
// what the 1 s timers do at 1 Hz (MonitorTab::redraw, one FleetOverview repaint). GUI-thread CPU
// time divided by the simulated seconds is the share of one core the GUI thread would use at 1 Hz.
// Real-time mode measures the same with the real timers and wall clock.
// It also runs the real remote loop (streamCommand) locally for a few seconds against a fake
// nvidia-smi and reports its CPU share and process count: the per-machine remote overhead.
#include "ui/monitor/fleetoverview.h"
#include "core/monitor/monitorservice.h"
#include "ui/monitor/monitortab.h"
#include "core/monitor/remotescript.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <unistd.h>
#include <random>

using namespace gantry;
using namespace gantry::monitor;

namespace {

double threadCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

qint64 statusKib(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly)) {
        return -1;
    }
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(field)) {
            return line.mid(qsizetype(strlen(field))).trimmed().split(' ').first().toLongLong();
        }
    }
    return -1;
}

class Feeder
{
public:
    Feeder(MonitorService &service, int machines, int gpus)
        : m_service(service)
        , m_gpus(gpus)
        , m_rng(42)
    {
        for (int m = 0; m < machines; ++m) {
            const QString name = QStringLiteral("gpu-node-%1").arg(m, 2, 10, QLatin1Char('0'));
            m_names.append(name);
            service.addMachine(name, gpus * 2.49);
        }
    }
    void tick(const QDateTime &now)
    {
        std::uniform_real_distribution<double> noise(-5, 5);
        for (const QString &name : std::as_const(m_names)) {
            MachineSample s;
            s.time = now;
            s.host = name;
            s.driver = DriverState::Ok;
            for (int i = 0; i < m_gpus; ++i) {
                GpuSample g;
                g.index = i;
                g.name = QStringLiteral("NVIDIA H100 80GB HBM3");
                g.uuid = QStringLiteral("GPU-%1").arg(i);
                g.utilizationGpu = qBound(0.0, 85 + noise(m_rng), 100.0);
                g.utilizationMemory = qBound(0.0, 40 + noise(m_rng), 100.0);
                g.memoryUsedMib = 60000 + noise(m_rng) * 100;
                g.memoryTotalMib = 81559;
                g.temperatureC = 65 + noise(m_rng);
                g.powerDrawW = 550 + noise(m_rng) * 10;
                g.powerLimitW = 700;
                g.smClockMhz = 1980;
                g.smClockMaxMhz = 1980;
                g.pstate = QStringLiteral("P0");
                g.clocksEventReasons = 0;
                g.pcieGen = 5;
                g.pcieGenMax = 5;
                g.pcieWidth = 16;
                g.pcieWidthMax = 16;
                g.eccUncorrected = 0;
                s.gpus.append(g);
            }
            HostMetrics h;
            h.cpuBusyPercent = 35 + noise(m_rng);
            for (int c = 0; c < 32; ++c) {
                h.coreBusyPercent.append(qBound(0.0, 35 + noise(m_rng) * 4, 100.0));
            }
            h.memTotalMib = 2000000;
            h.memAvailableMib = 1500000;
            h.load1 = 12;
            h.netRxBytesPerS = 1e8 + noise(m_rng) * 1e6;
            h.netTxBytesPerS = 1e6;
            h.diskReadBytesPerS = 5e8;
            h.diskWriteBytesPerS = 1e7;
            s.hostMetrics = h;
            m_service.injectSample(name, s);
        }
    }
    const QStringList &names() const { return m_names; }

private:
    MonitorService &m_service;
    int m_gpus;
    std::mt19937 m_rng;
    QStringList m_names;
};

// Runs the real stream script locally for `seconds` with a fake nvidia-smi and reports its CPU use.
void measureRemoteLoop(int seconds, int gpus)
{
    QTemporaryDir dir;
    QDir().mkpath(dir.filePath(QStringLiteral("bin")));
    QFile fake(dir.filePath(QStringLiteral("bin/nvidia-smi")));
    fake.open(QIODevice::WriteOnly);
    QByteArray script = "#!/bin/sh\necho \"$*\" >> '" + dir.filePath(QStringLiteral("log")).toUtf8() + "'\n"
                        "case \"$*\" in *compute-apps*) echo '4242, GPU-0, 1000, python'; exit 0;; esac\n"
                        "while :; do\n";
    for (int i = 0; i < gpus; ++i) {
        script += "echo '" + QByteArray::number(i) + ", " + QByteArray::number(gpus)
                  + ", GPU-0, NVIDIA H100 80GB HBM3, 85, 40, 60000, 81559, 65, 550.00, P0, 700.00, 1980, 1980, "
                    "0x0000000000000000, 5, 5, 16, 16, 0, 0'\n";
    }
    script += "sleep 1; done\n";
    fake.write(script);
    fake.close();
    fake.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);

    QProcess loop;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), dir.filePath(QStringLiteral("bin")) + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
    loop.setProcessEnvironment(env);
    const QString command = streamCommand(selectGpuFields({}), StreamSettings{1000, 5000});
    // setsid: the loop's TERM trap kills its own process group (remotely that is the SSH session),
    // so it must not share ours. exec: the measured pid is the loop shell itself.
    loop.start(QStringLiteral("setsid"), {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("exec ") + command});
    loop.waitForStarted();
    QElapsedTimer wall;
    wall.start();
    qint64 bytes = 0;
    while (wall.elapsed() < seconds * 1000) {
        loop.waitForReadyRead(200);
        bytes += loop.readAllStandardOutput().size();
    }
    // utime+stime+cutime+cstime of the host loop shell: builtins, sleep, the 5 s compute-apps query.
    QFile stat(QStringLiteral("/proc/%1/stat").arg(loop.processId()));
    double ticks = 0;
    if (stat.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> f = stat.readAll().split(' ');
        if (f.size() > 16) {
            ticks = f.at(13).toDouble() + f.at(14).toDouble() + f.at(15).toDouble() + f.at(16).toDouble();
        }
    }
    const double hz = double(sysconf(_SC_CLK_TCK));
    loop.terminate();
    loop.waitForFinished(2000);
    QFile log(dir.filePath(QStringLiteral("log")));
    log.open(QIODevice::ReadOnly);
    const QList<QByteArray> calls = log.readAll().split('\n');
    int streaming = 0, apps = 0;
    for (const QByteArray &c : calls) {
        streaming += c.contains("-lms") ? 1 : 0;
        apps += c.contains("compute-apps") ? 1 : 0;
    }
    printf("remote loop (per machine, measured locally for %d s, fake nvidia-smi): 1 SSH channel / 1 exec; "
           "nvidia-smi -lms started %d time(s); compute-apps queries %d; stream %.1f KiB/s; "
           "loop shell CPU (self+waited children) %.2f %% of one core\n",
           seconds, streaming, apps, double(bytes) / 1024.0 / seconds, 100.0 * ticks / hz / seconds);
}

} // namespace

int main(int argc, char **argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    setvbuf(stdout, nullptr, _IOLBF, 0);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("machines"), QStringLiteral("Machines."), QStringLiteral("n"), QStringLiteral("16")});
    parser.addOption({QStringLiteral("gpus"), QStringLiteral("GPUs per machine."), QStringLiteral("n"), QStringLiteral("8")});
    parser.addOption({QStringLiteral("minutes"), QStringLiteral("Simulated minutes (fast mode)."), QStringLiteral("n"), QStringLiteral("10")});
    parser.addOption({QStringLiteral("realtime"), QStringLiteral("Real-time seconds instead of fast mode."), QStringLiteral("s")});
    parser.addOption({QStringLiteral("remote-seconds"), QStringLiteral("Seconds to run the remote loop locally (0: skip)."), QStringLiteral("s"), QStringLiteral("10")});
    parser.process(app);
    const int machines = parser.value(QStringLiteral("machines")).toInt();
    const int gpus = parser.value(QStringLiteral("gpus")).toInt();

    ManualClock clock(QDateTime::currentDateTimeUtc());
    const bool realtime = parser.isSet(QStringLiteral("realtime"));
    MonitorService service(nullptr, {}, realtime ? Clock::system() : static_cast<const Clock &>(clock));
    Feeder feeder(service, machines, gpus);
    gantry::ui::monitor::FleetOverview fleet(&service);
    fleet.resize(fleet.sizeHint());
    fleet.show();
    gantry::ui::monitor::MonitorTab tab(&service);
    tab.resize(1600, 1000);
    tab.showMachine(feeder.names().first());
    tab.show();
    app.processEvents();

    const qint64 rssStart = statusKib("VmRSS:");
    qint64 rssAfterFirstMinute = 0;
    double cpuStart = threadCpuSeconds();
    double cpuAfterFirstMinute = 0;
    QElapsedTimer wall;
    wall.start();
    int seconds = 0;
    struct
    {
        double ingest = 0, fleet = 0, tab = 0;
    } split; // GUI-thread CPU seconds by part (fast mode)
    if (!realtime) {
        const int total = parser.value(QStringLiteral("minutes")).toInt() * 60;
        for (seconds = 1; seconds <= total; ++seconds) {
            clock.advanceSeconds(1);
            double t = threadCpuSeconds();
            feeder.tick(clock.now());
            split.ingest += threadCpuSeconds() - t;
            t = threadCpuSeconds();
            fleet.tick();         // what FleetOverview's 1 s batch timer does
            fleet.rows()->repaint(); // its paint, synchronously
            split.fleet += threadCpuSeconds() - t;
            t = threadCpuSeconds();
            tab.redraw();        // what MonitorTab's 1 s timer does, and more: all 9 charts, not 3
            app.processEvents();
            split.tab += threadCpuSeconds() - t;
            if (seconds == 60) {
                rssAfterFirstMinute = statusKib("VmRSS:");
                cpuAfterFirstMinute = threadCpuSeconds();
            }
            if (seconds % 300 == 0) {
                // The 1 s rings and the 10-minute charts are full after 600 s: RSS must stay flat from there.
                printf("  t=%3d min RSS %lld KiB\n", seconds / 60, statusKib("VmRSS:"));
            }
        }
        --seconds;
    } else {
        const int total = parser.value(QStringLiteral("realtime")).toInt();
        QTimer feed;
        feed.setInterval(1000);
        QObject::connect(&feed, &QTimer::timeout, &app, [&] {
            ++seconds;
            feeder.tick(QDateTime::currentDateTimeUtc());
            if (seconds == 60) {
                rssAfterFirstMinute = statusKib("VmRSS:");
                cpuAfterFirstMinute = threadCpuSeconds();
            }
            if (seconds >= total) {
                app.quit();
            }
        });
        feed.start();
        app.exec();
    }
    const double cpu = threadCpuSeconds() - cpuStart;
    const qint64 rssEnd = statusKib("VmRSS:");
    const qint64 hwm = statusKib("VmHWM:");
    size_t storeBytes = 0;
    for (const QString &name : service.machines()) {
        storeBytes += service.store(name)->memoryBytes();
    }
    printf("mode: %s, %d machines x %d GPUs at 1 Hz, %d %s seconds, wall %.1f s\n", realtime ? "real time" : "fast (simulated clock)",
           machines, gpus, seconds, realtime ? "real" : "simulated", wall.elapsed() / 1000.0);
    printf("GUI thread CPU: %.2f s total = %.2f %% of one core at 1 Hz (%.1f ms per 1 s tick: %d samples + tab refresh of 9 charts + fleet repaint; fleet paints %d)\n",
           cpu, 100.0 * cpu / seconds, 1000.0 * cpu / seconds, machines, fleet.paintCount());
    if (!realtime && seconds > 0) {
        printf("  of which: samples in (store, alerts, meters) %.2f %%, fleet view %.2f %%, Monitor tab charts %.2f %%\n",
               100.0 * split.ingest / seconds, 100.0 * split.fleet / seconds, 100.0 * split.tab / seconds);
    }
    if (seconds > 60) {
        const double later = threadCpuSeconds() - cpuAfterFirstMinute;
        printf("GUI thread CPU after the first minute: %.2f %% of one core\n", 100.0 * later / (seconds - 60));
    }
    printf("RSS: start %lld KiB, after 1 min %lld KiB, end %lld KiB (growth after 1 min: %lld KiB), peak %lld KiB; "
           "metric stores hold %.1f MiB (every machine at 1 s for 10 min and 2 min for 48 h, the charted one also 10 s for 3 h; fixed rings)\n",
           rssStart, rssAfterFirstMinute, rssEnd, rssEnd - rssAfterFirstMinute, hwm, double(storeBytes) / 1048576.0);
    const int remoteSeconds = parser.value(QStringLiteral("remote-seconds")).toInt();
    if (remoteSeconds > 0) {
        measureRemoteLoop(remoteSeconds, gpus);
    }
    return 0;
}
