#pragma once

#include <csignal>

namespace gantry::cli {

// Handles one signal (Ctrl+C's SIGINT, SIGTERM) while in scope, then puts back what was there.
// A signal this process started with ignored stays ignored: a shell without job control starts
// background commands with SIGINT ignored, so a Ctrl+C typed for the program in the foreground
// must not stop a `gantry-cli sync --watch &` behind it.
class ScopedSignal
{
public:
    ScopedSignal(int signal, void (*handler)(int))
        : m_signal(signal)
    {
        struct sigaction current{};
        m_ignored = ::sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
        if (!m_ignored) m_previous = std::signal(signal, handler);
    }
    ~ScopedSignal()
    {
        if (!m_ignored) std::signal(m_signal, m_previous == SIG_ERR ? SIG_DFL : m_previous);
    }
    ScopedSignal(const ScopedSignal &) = delete;
    ScopedSignal &operator=(const ScopedSignal &) = delete;

private:
    int m_signal;
    bool m_ignored = false;
    void (*m_previous)(int) = SIG_DFL;
};

} // namespace gantry::cli
