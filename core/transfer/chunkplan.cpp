#include "core/transfer/chunkplan.h"

#include <QtGlobal>

#include <atomic>
#include <cstdlib>

namespace gantry::transfer {

ChunkPlan::ChunkPlan(JournalStore &store, QString key, FileJournal journal)
    : m_store(store)
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
    // Saved on every chunk: a chunk acknowledged but not journaled would be sent again.
    (void)m_store.save(m_key, m_journal);
    exitIfTestAsks();
}

void ChunkPlan::exitIfTestAsks()
{
    // Crash tests: GANTRY_TEST_EXIT_AFTER_CHUNKS=N ends the process right after the N-th chunk
    // was journaled, without flushing anything (as SIGKILL would), so a test can check that
    // every byte the journal counts is in the file.
    static const int exitAfter = qEnvironmentVariableIntValue("GANTRY_TEST_EXIT_AFTER_CHUNKS");
    static std::atomic_int journaled{0};
    if (exitAfter > 0 && ++journaled >= exitAfter) std::_Exit(137);
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
