// SPDX-License-Identifier: Apache-2.0
#include "core/transfer/hashahead.h"
#include "core/transfer/chunkworkers.h"
#include "core/transfer/sha256.h"

#include <QDateTime>
#include <QFileInfo>

#include <chrono>

namespace gantry::transfer {

HashAhead::HashAhead(QString path)
    : m_path(std::move(path)), m_result(cancelledError())
{
    const QFileInfo info(m_path);
    m_size = quint64(info.size());
    m_mtimeMs = info.lastModified().toMSecsSinceEpoch();
    m_thread = std::thread([this] {
        Result<QByteArray> hash = sha256OfFile(m_path, &m_stop);
        std::lock_guard lock(m_mutex);
        m_result = std::move(hash);
        m_done = true;
        m_ready.notify_all();
    });
}

HashAhead::~HashAhead()
{
    drop();
    m_thread.join();
}

void HashAhead::drop()
{
    m_stop = true;
}

Result<QByteArray> HashAhead::take(const std::atomic_bool *cancel)
{
    std::unique_lock lock(m_mutex);
    while (!m_ready.wait_for(lock, std::chrono::milliseconds(50), [this] { return m_done; })) {
        if (cancel && cancel->load()) {
            drop();
            return cancelledError();
        }
    }
    return m_result;
}

} // namespace gantry::transfer
