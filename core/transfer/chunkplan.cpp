#include "core/transfer/chunkplan.h"

#include <QtGlobal>

#include <atomic>
#include <cstdlib>

namespace gantry::transfer {

ChunkPlan::ChunkPlan(JournalStore &store, QString key, FileJournal journal, const Clock &clock)
    : m_store(store)
    , m_clock(clock)
    , m_key(std::move(key))
    , m_journal(std::move(journal))
{
    for (int i = 0; i < m_journal.chunkCount(); ++i) {
        if (!m_journal.done[i]) m_pending.append(i);
    }
}

int ChunkPlan::take()
{
    std::lock_guard lock(m_mutex);
    if (m_error || m_pending.isEmpty()) return -1;
    return m_pending.takeFirst();
}

void ChunkPlan::done(int chunk, const QByteArray &hash)
{
    std::lock_guard lock(m_mutex);
    m_journal.done[chunk] = true;
    m_journal.chunkHashes[chunk] = hash;
    // Not saved on every chunk: on a fast link chunks end every few milliseconds, and each save
    // (a write and a rename, a synchronous discard on filesystems mounted with it) held up this
    // worker and, through the mutex, the others.
    const qint64 now = m_clock.monotonicMs();
    const bool exitDue = testExitDue();
    if (!m_savedAtMs || now - *m_savedAtMs >= kSaveIntervalMs || exitDue) {
        (void)m_store.save(m_key, m_journal);
        m_savedAtMs = now;
    }
    if (exitDue) std::_Exit(137);
}

bool ChunkPlan::testExitDue()
{
    // Crash tests: GANTRY_TEST_EXIT_AFTER_CHUNKS=N ends the process right after the N-th chunk
    // was journaled, without flushing anything (as SIGKILL would), so a test can check that
    // every byte the journal counts is in the file.
    static const int exitAfter = qEnvironmentVariableIntValue("GANTRY_TEST_EXIT_AFTER_CHUNKS");
    static std::atomic_int completed{0};
    return exitAfter > 0 && ++completed >= exitAfter;
}

bool ChunkPlan::isDone(int chunk) const
{
    std::lock_guard lock(m_mutex);
    return m_journal.done.value(chunk, false);
}

void ChunkPlan::fail(const Error &error)
{
    std::lock_guard lock(m_mutex);
    if (!m_error) m_error = error;
}

void ChunkPlan::addWire(quint64 bytes)
{
    std::lock_guard lock(m_mutex);
    m_journal.wireBytes += bytes;
}

std::optional<Error> ChunkPlan::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

FileJournal ChunkPlan::journal() const
{
    std::lock_guard lock(m_mutex);
    return m_journal;
}

void ChunkPlan::save()
{
    std::lock_guard lock(m_mutex);
    (void)m_store.save(m_key, m_journal);
}

} // namespace gantry::transfer
