#pragma once

#include "core/transfer/journal.h"
#include "core/transfer/transfertypes.h"

#include <QElapsedTimer>
#include <QSet>

#include <memory>
#include <mutex>

namespace gantry::ssh {
class Channel;
}

namespace gantry::transfer {

class HashAhead;
class SessionPrefetch;

// Everything one running transfer shares between its worker threads: how to open more sessions,
// the cancel flag, the journal store, and the progress totals (reported at most every 100 ms).
class TransferContext final
{
public:
    TransferContext(SessionFactory factory, const std::atomic_bool *cancel, JournalStore *journals,
                    QString host, TransferOptions options, ProgressSink sink = {}, ConflictResolver resolver = {});
    TransferContext(const TransferContext &) = delete;
    TransferContext &operator=(const TransferContext &) = delete;

    const SessionFactory &factory() const { return m_factory; }
    const std::atomic_bool *cancel() const { return m_cancel; }
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    // Whether a cancel ends the transfer for good (the queue's Cancel): a file's .partial and its
    // journal are then removed. Without it (Pause, the CLI's Ctrl+C) they stay, and the same
    // transfer resumes where it stopped.
    void setDiscardOnCancel(std::function<bool()> discard) { m_discardOnCancel = std::move(discard); }
    bool discardsOnCancel() const { return m_discardOnCancel && m_discardOnCancel(); }
    JournalStore &journals() const { return *m_journals; }
    const QString &host() const { return m_host; }
    const TransferOptions &options() const { return m_options; }
    const ConflictResolver &resolver() const { return m_resolver; }
    // The extra sessions runTransfer started connecting for this attempt, or null.
    SessionPrefetch *prefetch() const { return m_prefetch; }
    void setPrefetch(SessionPrefetch *prefetch) { m_prefetch = prefetch; }
    // The local file's SHA-256 being read since the attempt began (one large upload), or null.
    HashAhead *hashAhead() const { return m_hashAhead; }
    void setHashAhead(HashAhead *ahead) { m_hashAhead = ahead; }
    // The first session's python started ahead for the host's check of one large upload
    // (waitingPythonCommand), held by runTransfer; the check takes it, else it closes unused.
    // Only the first session's thread may take it (the channel is that session's).
    void setWaitingPython(std::unique_ptr<ssh::Channel> *held) { m_waitingPython = held; }
    std::unique_ptr<ssh::Channel> takeWaitingPython() { return m_waitingPython ? std::move(*m_waitingPython) : nullptr; }
    // Random, one per transfer attempt: names the attempt's remote staging folders, so a batch an
    // earlier (killed) attempt left running never shares a folder with this one.
    const QString &attemptToken() const { return m_attemptToken; }
    // Files an attempt staged on the host (tarstage.h) and could not remove, its link gone: the
    // next attempt removes them with its own. Only the attempt's first session's thread uses them.
    const QStringList &strayStaged() const { return m_strayStaged; }
    void setStrayStaged(const QStringList &paths) { m_strayStaged = paths; }
    // True the first time it is asked for `folder` on the host: the batch that clears stale
    // staging leftovers there (once per attempt is enough: they are half a day old). Any thread.
    bool claimSweep(const QString &folder)
    {
        std::lock_guard lock(m_mutex);
        if (m_swept.contains(folder)) return false;
        m_swept.insert(folder);
        return true;
    }

    void addTotals(quint64 bytes, int files);
    void addDone(quint64 payload, quint64 wire);
    void addResumed(quint64 bytes);
    void addFilesDone(int files);
    // A new attempt of the transfer (after a dropped link) counts its files and what is already
    // there again: totals and what is done start over; the bytes on the wire keep adding up.
    void restartProgress();
    void setCurrentFile(const QString &name);
    void setDestination(const QString &path);
    // The local folder an attempt of this transfer began downloading into (once the files
    // already there had passed the conflict policy), and that policy: a later attempt (after a
    // dropped link) goes on there.
    void setFolderWrittenInto(const QString &path, ConflictPolicy policy)
    {
        m_folderWrittenInto = path;
        m_folderPolicy = policy;
    }
    const QString &folderWrittenInto() const { return m_folderWrittenInto; }
    ConflictPolicy folderPolicy() const { return m_folderPolicy; }
    TransferProgress snapshot() const;
    void flush(); // report now

private:
    void maybeReport(std::unique_lock<std::mutex> &lock);

    SessionFactory m_factory;
    const std::atomic_bool *m_cancel;
    JournalStore *m_journals;
    QString m_host;
    QString m_folderWrittenInto;
    ConflictPolicy m_folderPolicy = ConflictPolicy::Ask;
    TransferOptions m_options;
    ProgressSink m_sink;
    ConflictResolver m_resolver;
    QString m_attemptToken;
    QStringList m_strayStaged;
    QSet<QString> m_swept; // under m_mutex
    SessionPrefetch *m_prefetch = nullptr;
    HashAhead *m_hashAhead = nullptr;
    std::unique_ptr<ssh::Channel> *m_waitingPython = nullptr;
    std::function<bool()> m_discardOnCancel;
    mutable std::mutex m_mutex;
    TransferProgress m_progress;
    QElapsedTimer m_lastReport;
};

} // namespace gantry::transfer
