#include "core/transfer/chunkplan.h"

#include <atomic>

namespace gantry::transfer {
namespace {
std::atomic<ChunkJournaledHook> g_chunkJournaled{nullptr};
} // namespace

void setChunkJournaledHook(ChunkJournaledHook hook)
{
    g_chunkJournaled.store(hook);
}

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
    const ChunkJournaledHook hook = g_chunkJournaled.load();
    if (!m_savedAtMs || now - *m_savedAtMs >= kSaveIntervalMs || hook) {
        (void)m_store.save(m_key, m_journal);
        m_savedAtMs = now;
    }
    if (hook) hook();
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
