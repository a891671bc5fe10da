#pragma once

#include "core/transfer/journal.h"

#include <mutex>
#include <optional>

namespace gantry::transfer {

// The chunks of one file still to move, shared by the workers (one per session) of a transfer.
// The journal is saved each time a chunk completes.
class ChunkPlan final
{
public:
    ChunkPlan(JournalStore &store, QString key, FileJournal journal);

    int take();                                    // -1 when none is left or a worker failed
    void done(int chunk, const QByteArray &hash);
    bool isDone(int chunk) const;
    void fail(const Error &error);                 // first error wins; stops handing out chunks
    void addWire(quint64 bytes);
    std::optional<Error> error() const;
    FileJournal journal() const;
    void save();

private:
    static void exitIfTestAsks();
    JournalStore &m_store;
    QString m_key;
    mutable std::mutex m_mutex;
    FileJournal m_journal;
    QList<int> m_pending;
    std::optional<Error> m_error;
};

} // namespace gantry::transfer
