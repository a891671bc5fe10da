// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include <pthread.h>
#include <sched.h>

namespace gantry::test {

// An event-loop latency probe for GUI tests: a 10 ms timer on the GUI thread. A gap of more than
// thresholdMs between two ticks is a stall — the thread computed or waited (a join, a blocking
// keychain or network call) instead of returning to its event loop — less two kinds of time that
// are the machine's, not the code's:
// - time the thread only stood in the CPU's run queue (/proc/thread-self/schedstat on Linux): a
//   loaded CI machine that preempts the thread;
// - time the GUI thread's CPU stood still. A virtual machine whose host throttles it (seen here:
//   one busy loop beside a writer that syncs each block) stops a virtual CPU, or all of them, for
//   ~100 ms at a time, and the guest counts none of it as run-queue time. A reference thread per
//   CPU, pinned there, that only sleeps 10 ms at a time sees those freezes too; the part of a
//   GUI-thread gap that the reference of the CPU it went to sleep on also saw is not a stall.
class StallWatchdog final
{
public:
    explicit StallWatchdog(int thresholdMs = 100) : m_threshold(thresholdMs)
    {
        m_tick.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_tick, &QTimer::timeout, &m_tick, [this] { tick(); });
    }
    ~StallWatchdog() { stop(); }
    StallWatchdog(const StallWatchdog &) = delete;
    StallWatchdog &operator=(const StallWatchdog &) = delete;

    void start() // on the GUI thread
    {
        m_clock.start();
        m_last = -1;
        m_lastQueuedMs = queuedMs();
        m_tick.start(10);
        m_lastCpu = sched_getcpu();
        m_referenceRuns = true;
        cpu_set_t allowed;
        CPU_ZERO(&allowed);
        if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
            return;
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &allowed))
                m_references.emplace_back([this, cpu] { runReference(cpu); });
    }
    void stop()
    {
        m_tick.stop();
        m_referenceRuns = false;
        for (std::thread &reference : m_references)
            reference.join();
        m_references.clear();
    }

    // "240 ms at 12.35 s" for each stall.
    QStringList stalls() const
    {
        QStringList out;
        for (const Gap &gap : m_gaps)
            if (const qint64 ms = ownMs(gap); ms > m_threshold)
                out << QStringLiteral("%1 ms at %2 s").arg(ms).arg(double(gap.from) / 1000, 0, 'f', 2);
        return out;
    }
    // The longest wait between two ticks that was the thread's own (10 ms when nothing held it up).
    qint64 longestGapMs() const
    {
        qint64 longest = m_longestSmall;
        for (const Gap &gap : m_gaps)
            longest = std::max(longest, ownMs(gap));
        return longest;
    }

    // How long, in all, the reference threads saw their CPUs stand still.
    qint64 frozenMs() const
    {
        std::lock_guard lock(m_frozenMutex);
        qint64 total = 0;
        for (const Gap &f : m_frozen)
            total += f.to - f.from;
        return total;
    }

private:
    struct Gap
    {
        qint64 from; // ms on m_clock
        qint64 to;
        qint64 notQueued; // to - from less run-queue time
        int cpuFrom = -1; // the CPU the thread went to sleep on (a reference's own CPU)
    };

    // Time this thread was runnable but waiting for a CPU, in ms; 0 where the kernel does not say.
    static qint64 queuedMs()
    {
        QFile stat(QStringLiteral("/proc/thread-self/schedstat"));
        if (!stat.open(QIODevice::ReadOnly))
            return 0;
        const QList<QByteArray> fields = stat.readAll().split(' ');
        return fields.size() >= 2 ? fields.at(1).toLongLong() / 1000000 : 0;
    }

    // The gaps worth a second look are kept; the rest only count towards the shortest figure.
    void tick()
    {
        const qint64 now = m_clock.elapsed();
        const qint64 queued = queuedMs();
        const int cpu = sched_getcpu();
        if (m_last >= 0) {
            const qint64 gap = (now - m_last) - (queued - m_lastQueuedMs);
            m_longestSmall = std::max(m_longestSmall, std::min<qint64>(gap, 30));
            if (gap > 30)
                m_gaps.push_back({m_last, now, gap, m_lastCpu});
        }
        m_last = now;
        m_lastCpu = cpu;
        m_lastQueuedMs = queued;
    }

    // A reference: sleeps 10 ms at a time on its CPU and notes where it woke late without having
    // queued.
    void runReference(int cpu)
    {
        cpu_set_t only;
        CPU_ZERO(&only);
        CPU_SET(cpu, &only);
        if (pthread_setaffinity_np(pthread_self(), sizeof only, &only) != 0)
            return;
        qint64 last = m_clock.elapsed();
        qint64 lastQueued = queuedMs();
        while (m_referenceRuns) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            const qint64 now = m_clock.elapsed();
            const qint64 queued = queuedMs();
            if ((now - last) - (queued - lastQueued) > 20) {
                std::lock_guard lock(m_frozenMutex);
                m_frozen.push_back({last + 10, now, 0, cpu});
            }
            last = now;
            lastQueued = queued;
        }
    }

    // A gap less the part of it the reference of the CPU it went to sleep on was held up as well.
    qint64 ownMs(const Gap &gap) const
    {
        std::lock_guard lock(m_frozenMutex);
        qint64 frozen = 0;
        for (const Gap &f : m_frozen) {
            if (f.cpuFrom == gap.cpuFrom)
                frozen += std::max<qint64>(0, std::min(gap.to, f.to) - std::max(gap.from, f.from));
        }
        // The CPU it went to sleep on holds its wake-up timer: a freeze there delays the wake-up
        // without any run-queue time. (Once woken, a frozen CPU's time counts as run-queue time.)
        return std::max<qint64>(0, gap.notQueued - frozen);
    }

    const int m_threshold;
    QTimer m_tick;
    QElapsedTimer m_clock;
    qint64 m_last = -1;
    qint64 m_lastQueuedMs = 0;
    qint64 m_longestSmall = 0;
    std::vector<Gap> m_gaps; // GUI thread only
    std::atomic_bool m_referenceRuns{false};
    int m_lastCpu = -1;
    std::vector<std::thread> m_references;
    mutable std::mutex m_frozenMutex;
    std::vector<Gap> m_frozen; // the references' late wake-ups, guarded by m_frozenMutex
};

} // namespace gantry::test
