#pragma once

#include "core/transfer/journal.h"
#include "core/util/clock.h"

#include <mutex>
#include <optional>

namespace gantry::transfer {

// A fault point for crash tests, never set by Gantry itself: called right after a chunk was
// journaled, and while one is set the journal is saved at every chunk, so a hook that ends the
// process (as SIGKILL would) leaves a journal that counts every chunk it claims. tests/transfer's
// gantry-cli-faults sets it; the gantry-cli that ships has no code that does.
using ChunkJournaledHook = void (*)();
void setChunkJournaledHook(ChunkJournaledHook hook);

// The chunks of one file still to move, shared by the workers (one per session) of a transfer.
// The journal is saved when the first chunk completes, then at most every kSaveIntervalMs, and by
// save() when the transfer ends: a chunk done but not yet journaled is only sent again.
class ChunkPlan final
{
public:
    static constexpr qint64 kSaveIntervalMs = 250;

    ChunkPlan(JournalStore &store, QString key, FileJournal journal, const Clock &clock = Clock::system());

    int take();                                    // -1 when none is left or a worker failed
    void done(int chunk, const QByteArray &hash);
    bool isDone(int chunk) const;
    void fail(const Error &error);                 // first error wins; stops handing out chunks
    void addWire(quint64 bytes);
    std::optional<Error> error() const;
    FileJournal journal() const;
    void save();

private:
    JournalStore &m_store;
    const Clock &m_clock;
    std::optional<qint64> m_savedAtMs; // none until the first chunk's save
    QString m_key;
    mutable std::mutex m_mutex;
    FileJournal m_journal;
    QList<int> m_pending;
    std::optional<Error> m_error;
};

} // namespace gantry::transfer
