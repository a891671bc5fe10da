// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace gantry::transfer {

// From this size an upload's whole-file hash is read ahead: smaller files go over one session
// on every link but the longest, and are hashed inline.
inline constexpr quint64 kHashAheadFrom = 64ull * 1024 * 1024;

// The SHA-256 of one local file, read on a thread of its own from the start of an upload attempt,
// while its sessions connect and the destination is probed: on a long link those are seconds of
// round trips with idle CPUs, and a file sent over several sessions or channels cannot take its
// whole-file hash from the buffers it sends (they go out of order). Dropped where one session
// sends the file in order and hashes it inline.
class HashAhead final
{
public:
    explicit HashAhead(QString path);
    ~HashAhead();
    HashAhead(const HashAhead &) = delete;
    HashAhead &operator=(const HashAhead &) = delete;

    const QString &path() const { return m_path; }
    // Whether the file read is the one a journal describes: the same size and modification time
    // as when the read began (a file changed just before its upload began is hashed again).
    bool matches(const QString &absolutePath, quint64 size, qint64 mtimeMs) const
    {
        return absolutePath == m_path && size == m_size && mtimeMs == m_mtimeMs;
    }
    // Not wanted after all: the read stops.
    void drop();
    // The hash once read; a set cancel flag stops the wait (and the read) with "Cancelled.".
    Result<QByteArray> take(const std::atomic_bool *cancel);

private:
    const QString m_path;
    quint64 m_size = 0;
    qint64 m_mtimeMs = 0;
    std::atomic_bool m_stop{false};
    std::mutex m_mutex;
    std::condition_variable m_ready;
    bool m_done = false;
    Result<QByteArray> m_result;
    std::thread m_thread;
};

} // namespace gantry::transfer
