// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QStringList>
#include <QTimer>

#include <algorithm>
#include <vector>

namespace gantry::test {

// An event-loop latency probe for GUI tests: a 10 ms timer on the GUI thread. A gap of more than
// thresholdMs between two ticks is a stall — the thread computed or waited (a join, a blocking
// keychain or network call) instead of returning to its event loop — less the time the thread
// only stood in the CPU's run queue (/proc/thread-self/schedstat on Linux): a loaded CI machine
// that preempts the thread is not a stall of the code under test.
class StallWatchdog final
{
public:
    explicit StallWatchdog(int thresholdMs = 100) : m_threshold(thresholdMs)
    {
        m_tick.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_tick, &QTimer::timeout, &m_tick, [this] { tick(); });
    }

    void start() // on the GUI thread
    {
        m_clock.start();
        m_last = -1;
        m_lastQueuedMs = queuedMs();
        m_tick.start(10);
    }
    void stop() { m_tick.stop(); }

    // "240 ms at 12.35 s" for each stall.
    QStringList stalls() const { return m_stalls; }
    // The longest wait between two ticks less run-queue time (10 ms when nothing held the thread up).
    qint64 longestGapMs() const { return m_longest; }

private:
    // Time this thread was runnable but waiting for a CPU, in ms; 0 where the kernel does not say.
    static qint64 queuedMs()
    {
        QFile stat(QStringLiteral("/proc/thread-self/schedstat"));
        if (!stat.open(QIODevice::ReadOnly))
            return 0;
        const QList<QByteArray> fields = stat.readAll().split(' ');
        return fields.size() >= 2 ? fields.at(1).toLongLong() / 1000000 : 0;
    }

    void tick()
    {
        const qint64 now = m_clock.elapsed();
        const qint64 queued = queuedMs();
        if (m_last >= 0) {
            const qint64 gap = (now - m_last) - (queued - m_lastQueuedMs);
            m_longest = std::max(m_longest, gap);
            if (gap > m_threshold)
                m_stalls << QStringLiteral("%1 ms at %2 s").arg(gap).arg(double(m_last) / 1000, 0, 'f', 2);
        }
        m_last = now;
        m_lastQueuedMs = queued;
    }

    const int m_threshold;
    QTimer m_tick;
    QElapsedTimer m_clock;
    qint64 m_last = -1;
    qint64 m_lastQueuedMs = 0;
    qint64 m_longest = 0;
    QStringList m_stalls;
};

} // namespace gantry::test
