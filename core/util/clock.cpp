#include "core/util/clock.h"

#include <QElapsedTimer>

namespace gantry {
namespace {
class SystemClock final : public Clock
{
public:
    SystemClock() { m_timer.start(); }
    QDateTime now() const override { return QDateTime::currentDateTimeUtc(); }
    qint64 monotonicMs() const override { return m_timer.elapsed(); }

private:
    QElapsedTimer m_timer;
};
} // namespace

Clock &Clock::system()
{
    static SystemClock clock;
    return clock;
}

} // namespace gantry
