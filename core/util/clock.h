#pragma once

#include <QDateTime>

#include <atomic>

namespace gantry {

// Time source; tests inject a ManualClock so countdowns, meters and idle detection can be driven.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual QDateTime now() const = 0;              // UTC
    virtual qint64 monotonicMs() const = 0;

    static Clock &system();
};

class ManualClock final : public Clock
{
public:
    explicit ManualClock(QDateTime start = QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC))
        : m_startUtc(start.toMSecsSinceEpoch()) {}
    QDateTime now() const override { return QDateTime::fromMSecsSinceEpoch(m_startUtc + m_elapsed, Qt::UTC); }
    qint64 monotonicMs() const override { return m_elapsed; }
    void advanceMs(qint64 ms) { m_elapsed += ms; }
    void advanceSeconds(qint64 s) { advanceMs(s * 1000); }

private:
    qint64 m_startUtc;
    std::atomic<qint64> m_elapsed{0};
};

} // namespace gantry
