// SPDX-License-Identifier: Apache-2.0
#include "interruptscope.h"

#include <QSocketNotifier>
#include <QString>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <iostream>
#include <iterator>
#include <mutex>
#include <string>
#include <termios.h>
#include <unistd.h>

namespace gantry::cli {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM};

// Read by the signal handler: lock-free atomics, and a termios written before g_echoOff is set.
std::atomic<InterruptScope *> g_scope{nullptr};
std::atomic_int g_received{0};          // the signal the active scope got, 0 before
std::atomic_bool g_againEnds{false};    // InterruptScope::Again::EndsProgram
std::atomic_int g_questions{0};         // TerminalQuestions open
std::atomic_bool g_echoOff{false};
termios g_echoing{};

// The handler is installed while a scope or a question needs it (either may come first; a prompt
// can run on a transfer's worker thread), and the previous dispositions come back with the last.
std::mutex g_installMutex;
int g_users = 0;
struct sigaction g_previous[std::size(kSignals)]{};
bool g_handled[std::size(kSignals)]{};

void acquireHandlers(void (*handler)(int))
{
    std::lock_guard lock(g_installMutex);
    if (g_users++ > 0)
        return;
    for (size_t i = 0; i < std::size(kSignals); ++i) {
        struct sigaction current{};
        // Ignored when the process started: stays ignored (see the header).
        g_handled[i] = ::sigaction(kSignals[i], nullptr, &current) == 0 && current.sa_handler != SIG_IGN;
        if (!g_handled[i])
            continue;
        struct sigaction ours{};
        ours.sa_handler = handler;
        ours.sa_flags = SA_RESTART;
        sigemptyset(&ours.sa_mask);
        ::sigaction(kSignals[i], &ours, &g_previous[i]);
    }
}

void releaseHandlers()
{
    std::lock_guard lock(g_installMutex);
    if (--g_users > 0)
        return;
    for (size_t i = 0; i < std::size(kSignals); ++i) {
        if (g_handled[i])
            ::sigaction(kSignals[i], &g_previous[i], nullptr);
        g_handled[i] = false;
    }
}

} // namespace

InterruptScope::InterruptScope(Again again)
{
    if (::pipe2(m_wake, O_CLOEXEC | O_NONBLOCK) != 0)
        m_wake[0] = m_wake[1] = -1;
    g_received = 0;
    g_againEnds = again == Again::EndsProgram;
    InterruptScope *expected = nullptr;
    const bool first = g_scope.compare_exchange_strong(expected, this);
    Q_ASSERT_X(first, "InterruptScope", "one scope at a time");
    Q_UNUSED(first);
    acquireHandlers(&InterruptScope::handle);
}

InterruptScope::~InterruptScope()
{
    releaseHandlers();
    g_scope = nullptr;
    m_notifier.reset();
    for (const int fd : m_wake) {
        if (fd >= 0)
            ::close(fd);
    }
}

bool InterruptScope::interrupted() const
{
    return g_received.load() != 0;
}

int InterruptScope::exitCode() const
{
    const int signal = g_received.load();
    return 128 + (signal ? signal : SIGINT);
}

const char *InterruptScope::cause() const
{
    return g_received.load() == SIGTERM ? "SIGTERM" : "Ctrl+C";
}

void InterruptScope::onInterrupt(std::function<void()> then)
{
    m_then = std::move(then);
    if (m_wake[0] < 0 || m_notifier)
        return;
    m_notifier = std::make_unique<QSocketNotifier>(m_wake[0], QSocketNotifier::Read);
    QObject::connect(m_notifier.get(), &QSocketNotifier::activated, m_notifier.get(), [this] {
        char drained[16];
        while (::read(m_wake[0], drained, sizeof drained) > 0) {
        }
        if (m_then)
            m_then();
    });
}

// Async-signal-safe: atomics, write(2), tcsetattr(3), signal(2) and raise(3) only.
void InterruptScope::handle(int signal)
{
    int none = 0;
    const bool again = !g_received.compare_exchange_strong(none, signal);
    if (InterruptScope *scope = g_scope.load()) {
        scope->m_token.cancel();
        if (scope->m_wake[1] >= 0) {
            const char byte = 1;
            (void)!::write(scope->m_wake[1], &byte, 1);
        }
        if (g_questions.load() == 0 && !(again && g_againEnds.load()))
            return;
    }
    // A question waits on the terminal, or this is the second signal where that ends the program:
    // the terminal gets its echo back, and the signal ends the process as if nobody handled it.
    if (g_echoOff.load())
        ::tcsetattr(STDIN_FILENO, TCSANOW, &g_echoing);
    ::signal(signal, SIG_DFL);
    ::raise(signal);
}

TerminalQuestion::TerminalQuestion()
{
    ++g_questions;
    acquireHandlers(&InterruptScope::handle);
    m_installed = true;
}

TerminalQuestion::~TerminalQuestion()
{
    if (m_installed)
        releaseHandlers();
    --g_questions;
}

std::optional<QString> promptHidden(const QString &prompt)
{
    if (!isatty(STDIN_FILENO))
        return std::nullopt;
    const TerminalQuestion question;
    std::fprintf(stderr, "%s ", prompt.toLocal8Bit().constData());
    std::fflush(stderr);
    termios old{};
    ::tcgetattr(STDIN_FILENO, &old);
    g_echoing = old;
    g_echoOff = true;
    termios silent = old;
    silent.c_lflag &= ~tcflag_t(ECHO);
    ::tcsetattr(STDIN_FILENO, TCSANOW, &silent);
    std::string line;
    const bool read = static_cast<bool>(std::getline(std::cin, line));
    ::tcsetattr(STDIN_FILENO, TCSANOW, &old);
    g_echoOff = false;
    std::fprintf(stderr, "\n");
    if (!read)
        return std::nullopt;
    QString text = QString::fromLocal8Bit(line.data(), qsizetype(line.size()));
    while (text.endsWith(QLatin1Char('\r')))
        text.chop(1);
    return text;
}

} // namespace gantry::cli
