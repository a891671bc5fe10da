// SPDX-License-Identifier: Apache-2.0
#include "core/transfer/tarbatchwarmup.h"

namespace gantry::transfer {

BatchWarmup::BatchWarmup(SessionPool &pool, QString command, int helpers, int channels, Meanwhile meanwhile)
    : m_pool(pool), m_command(std::move(command)), m_channels(channels), m_meanwhile(std::move(meanwhile))
{
    for (int k = 0; k < helpers; ++k)
        m_threads.emplace_back([this, k] { helper(k); });
}

BatchWarmup::~BatchWarmup()
{
    {
        std::lock_guard lock(m_mutex);
        m_released = true;
    }
    m_wake.notify_all();
    join();
}

void BatchWarmup::helper(int k)
{
    WarmSession warm;
    std::vector<std::unique_ptr<ssh::Channel>> running; // what the prefetch started as it connected
    if (auto taken = m_pool.take(k, &running)) {
        warm.session = std::move(*taken);
        // Only a folder upload's prefetch starts one, its batch runner: this warm-up's command.
        for (auto &channel : running) {
            if (int(warm.channels.size()) < m_channels) warm.channels.push_back(std::move(channel));
        }
        running.clear();
        if (m_meanwhile)
            m_meanwhile(*warm.session, m_command, m_channels, warm.channels);
        else
            topUp(*warm.session, m_command, m_channels, warm.channels);
    }
    std::function<void(WarmSession &)> work;
    {
        std::unique_lock lock(m_mutex);
        m_wake.wait(lock, [this] { return m_released; });
        work = m_work;
    }
    if (work && warm.session)
        work(warm);
    warm.channels.clear(); // a channel dies before its session, on the thread that used them
    warm.session.reset();
}

void BatchWarmup::topUp(ssh::Session &session, const QString &command, int count, std::vector<std::unique_ptr<ssh::Channel>> &channels)
{
    for (auto &opened : session.openExecs(QStringList(std::max(0, count - int(channels.size())), command))) {
        if (opened)
            channels.push_back(std::move(*opened));
    }
}

int BatchWarmup::start(std::function<void(WarmSession &)> work)
{
    {
        std::lock_guard lock(m_mutex);
        m_work = std::move(work);
        m_released = true;
    }
    m_wake.notify_all();
    return int(m_threads.size());
}

void BatchWarmup::join()
{
    for (std::thread &t : m_threads) {
        if (t.joinable())
            t.join();
    }
}

} // namespace gantry::transfer
