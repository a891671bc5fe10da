#pragma once

#include "core/transfer/journal.h"
#include "core/util/clock.h"

#include <mutex>
#include <optional>

namespace gantry::transfer {

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
    static bool testExitDue();
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
