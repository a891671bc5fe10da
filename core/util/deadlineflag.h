// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace gantry {

// A cancel flag that sets itself once `after` has passed: it bounds work that must still run
// after the user cancelled (removing what a cancelled transfer staged on the host) without letting
// a link that went dead hang the way out. Its thread ends with it (at once when destroyed early).
class DeadlineFlag final
{
public:
    explicit DeadlineFlag(std::chrono::milliseconds after)
        : m_thread([this, after] {
            std::unique_lock lock(m_mutex);
            if (!m_wake.wait_for(lock, after, [this] { return m_ended; })) m_flag.store(true);
        })
    {
    }
    ~DeadlineFlag()
    {
        {
            std::lock_guard lock(m_mutex);
            m_ended = true;
        }
        m_wake.notify_one();
        m_thread.join();
    }
    DeadlineFlag(const DeadlineFlag &) = delete;
    DeadlineFlag &operator=(const DeadlineFlag &) = delete;

    const std::atomic_bool *flag() const { return &m_flag; }

private:
    std::atomic_bool m_flag{false};
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_ended = false;
    std::thread m_thread; // last: it starts once the members it uses are built
};

} // namespace gantry
