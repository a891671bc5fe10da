// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/ssh/session.h"
#include "core/transfer/localtree.h"
#include "core/transfer/tarbatchwarmup.h"
#include "core/transfer/transfercontext.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSet>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <memory>
#include <optional>
#include <vector>

// Tar batches staged on the host over SFTP while its login shells start (#33).
//
// A folder's batches are unpacked by a batch runner, a shell on the host; where ~/.bashrc runs a
// conda or pyenv init (most GPU images) that shell takes a second or more to start, and a sync's
// first batch waited for it after the listing, which pays the same start-up. The SFTP subsystem
// starts no shell: each helper session writes the first batches of what the round will likely
// send, as tar files under ~/.cache/gantry-stage, while its runner's shell starts. Once the plan
// is known and is the tree staged for, the runners unpack those files (then remove them) instead
// of receiving the bytes; any other plan leaves them to be removed. Batches are numbered and
// sized as the upload will number them (sizes()), so a staged file is exactly the stream the
// runner would have read.
namespace gantry::transfer {

class SftpClient;

// At most this much is staged on the host while its shells start: the staging only fills that
// wait, and the staged copies take disk there until unpacked.
inline constexpr quint64 kMaxStagedBytes = 512ull * 1024 * 1024;

class TarStage
{
public:
    // Stages tree's batches for an upload over `sessions` sessions, at most maxBytes of them.
    // `host` names it in messages; verify as the upload's option (the manifest member).
    TarStage(LocalTree tree, int sessions, QString host, bool verify, const std::atomic_bool *cancel, quint64 maxBytes);
    ~TarStage();
    TarStage(const TarStage &) = delete;
    TarStage &operator=(const TarStage &) = delete;

    // On a helper's thread, with its session (used by nothing else meanwhile): starts `count`
    // `command`s there into `channels` (the first in the round trips of SFTP's start), then stages
    // batches in order until stop(), the limit, the last batch or a failure.
    void run(ssh::Session &session, const QString &command, int count, std::vector<std::unique_ptr<ssh::Channel>> &channels);
    // run() as a BatchWarmup's helpers call it.
    BatchWarmup::Meanwhile meanwhile()
    {
        return [this](ssh::Session &s, const QString &command, int count, std::vector<std::unique_ptr<ssh::Channel>> &channels) {
            run(s, command, count, channels);
        };
    }
    // The primary session starts listing the folder: staging begins only once that has taken
    // longer than a listing through a shell that starts at once would (where it is quick the
    // runners are soon ready, and the helpers should not be busy staging then).
    void listingStarts(qint64 roundTripMs);
    // The runners take over: no batch begins, and the batches being written are left to them.
    void stop();

    // Whether `tree` (what the round sends) is, entry by entry, the tree staged for.
    bool matches(const LocalTree &tree) const;
    // The batch limits the staged batches were cut with: the upload cuts the same.
    int batchFiles() const { return m_batchFiles; }
    quint64 batchBytes() const { return m_batchBytes; }
    // Batch b's staged file (absolute path on the host), handed out once; waits while a helper
    // is still writing it. Nothing where it was not staged.
    std::optional<QString> take(int batch);
    // Batch b's report came: the runner that took its file has removed it.
    void reported(int batch);
    // Staged files no one took, files of batches left unstaged, and files taken whose batch never
    // reported (its link dropped mid-unpack); call once every run() has returned.
    QStringList leftovers() const;
    // How long the quickest helper's SFTP took to start, round trips included (-1: none did).
    qint64 sftpStartedMs() const;
    // Where no helper's SFTP had started when stop() gave them up (sshd runs SFTP through the
    // login shell the listing waited for), how long the longest had waited; else -1.
    qint64 sftpGaveUpAfterMs() const;

    // Removes `paths` on the host over `sftp`, all requests in flight at once (one round trip),
    // even where the transfer was cancelled (sftp's cancel is set aside meanwhile, for at most
    // kRemoveBudget). false: the link is gone or stalled (not every request went out, or an answer
    // did not come in time); the caller keeps them for later.
    static constexpr std::chrono::milliseconds kRemoveBudget{3000};
    static bool remove(SftpClient &sftp, const QStringList &paths);

private:
    class Writer;
    bool waitForSlowListing();
    int claim();
    // Batch `batch` is written (staged at `path`) or not (path empty; `discarded` names a file it
    // left, removed with the leftovers).
    void finish(int batch, const QString &path, const QString &discarded = QString());

    const LocalTree m_tree;
    TransferContext m_ctx;
    int m_batchFiles = 0;
    quint64 m_batchBytes = 0;
    QList<QPair<int, int>> m_batches;
    const quint64 m_maxBytes;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::atomic_bool m_stopped = false;
    QElapsedTimer m_listing;
    qint64 m_slowListingMs = 0;
    qint64 m_sftpStartedMs = -1;
    qint64 m_sftpGaveUpAfterMs = -1;
    int m_next = 0;
    quint64 m_claimedBytes = 0;
    QSet<int> m_writing;
    QHash<int, QString> m_staged;
    QHash<int, QString> m_taken; // handed to a runner, its report not yet in
    QStringList m_discarded;
};

} // namespace gantry::transfer
