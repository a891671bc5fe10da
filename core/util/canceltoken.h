#pragma once

#include <atomic>
#include <memory>

namespace gantry {

// The cancellation of one operation, never of a host or a connection: whoever starts an operation
// makes a token, hands a copy to the operation and keeps one to cancel it. Copies share the flag,
// so the token outlives whichever side finishes first (the operation on a worker thread, the tab
// that started it). Thread-safe; cancel() is async-signal-safe (a lock-free store), so a SIGINT
// handler may call it.
class CancelToken final
{
public:
    CancelToken()
        : m_flag(std::make_shared<std::atomic_bool>(false))
    {
    }

    void cancel() const { m_flag->store(true); }
    bool isCancelled() const { return m_flag->load(); }
    // For the engines that poll a flag in their inner loops (ssh::Session::ExecOptions::cancel,
    // ConnectOptions::cancel, the transfer engine's sessions and contexts); valid while a copy of
    // this token lives. Operations that a front end calls take the token itself.
    const std::atomic_bool *flag() const { return m_flag.get(); }

private:
    std::shared_ptr<std::atomic_bool> m_flag;
};

} // namespace gantry
