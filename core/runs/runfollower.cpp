// SPDX-License-Identifier: Apache-2.0
#include "core/runs/runfollower.h"

#include "core/util/background.h"

namespace gantry::runs {

namespace {

struct Polled
{
    Result<RunRecord> record = Error{ErrorCode::NotFound, QString()};
    Result<RunLogChunk> log = RunLogChunk{};
};

} // namespace

RunFollower::RunFollower(RunBook book, QString name, int intervalMs, QObject *parent)
    : QObject(parent)
    , m_book(std::move(book))
    , m_name(std::move(name))
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &RunFollower::poll);
}

void RunFollower::start(qint64 offset)
{
    m_offset = offset;
    m_settledSeen = false;
    m_timer.start();
    poll();
}

void RunFollower::stop()
{
    m_timer.stop();
}

void RunFollower::poll()
{
    if (m_reading)
        return; // a slow disk: the next tick reads what this one would have
    m_reading = true;
    const RunBook book = m_book;
    const QString name = m_name;
    const qint64 offset = m_offset;
    // The record first: its driver writes run.json before the line, so a final record read
    // here is followed by one more read of the log before ended().
    background::run<Polled>(this, [book, name, offset] {
        Polled polled;
        polled.record = book.show(name);
        polled.log = book.readLog(name, offset);
        return polled;
    }, [this](Polled polled) {
        m_reading = false;
        if (!m_timer.isActive())
            return;
        if (!polled.record) {
            m_timer.stop();
            emit failed(polled.record.error().message);
            return;
        }
        if (polled.log) {
            m_offset = polled.log->next;
            if (!polled.log->lines.isEmpty())
                emit lines(polled.log->lines);
        }
        emit record(*polled.record);
        if (!RunBook::settled(*polled.record))
            return;
        if (m_settledSeen) {
            m_timer.stop();
            emit ended(*polled.record);
        }
        m_settledSeen = true;
    });
}

} // namespace gantry::runs
