// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/util/canceltoken.h"

#include <QtGlobal>

#include <functional>
#include <memory>
#include <optional>

class QSocketNotifier;
class QString;

namespace gantry::cli {

// Ctrl+C (SIGINT) and SIGTERM while a command runs become the cancellation of its token, which the
// command hands to its operation (token().flag() where a core API still polls a flag); the
// operation stops at its next check and the command ends as it documents (exitCode(): 130 after
// Ctrl+C). One scope at a time; the handlers that were there come back when it ends.
// A signal the process started with ignored stays ignored: a shell without job control starts
// background commands with SIGINT ignored, so a Ctrl+C typed for the program in the foreground
// must not stop a `gantry-cli sync --watch &` behind it.
class InterruptScope final
{
    Q_DISABLE_COPY_MOVE(InterruptScope)

public:
    enum class Again
    {
        Waits,       // a second signal changes nothing: the operation is already stopping
        EndsProgram, // a second signal ends the program at once (upload/download)
    };

    explicit InterruptScope(Again again = Again::Waits);
    ~InterruptScope();

    const CancelToken &token() const { return m_token; }
    // A signal arrived (the command may also cancel the token itself, e.g. monitor --count).
    bool interrupted() const;
    // 128 + the signal, as a shell reports a program the signal ended: 130 for Ctrl+C, 143 for SIGTERM.
    int exitCode() const;
    // What stopped it, for a message: "Ctrl+C" or "SIGTERM".
    const char *cause() const;
    // Calls `then` from the calling thread's event loop once a signal has arrived, for commands that
    // wait in an event loop rather than polling the token (tunnel, sync --watch).
    void onInterrupt(std::function<void()> then);

private:
    friend class TerminalQuestion;
    static void handle(int signal);

    CancelToken m_token;
    int m_wake[2] = {-1, -1}; // the handler writes a byte: the event loop wakes up
    std::unique_ptr<QSocketNotifier> m_notifier;
    std::function<void()> m_then;
};

// Reads one line from the terminal with its echo off (a password, a passphrase); nullopt when stdin
// is not a terminal. Ctrl+C or SIGTERM meanwhile ends the program at once, the echo put back first.
std::optional<QString> promptHidden(const QString &prompt);

// While a question waits for its answer on the terminal, Ctrl+C or SIGTERM ends the program at
// once (inside an InterruptScope too: there is nothing left to stop gracefully).
class TerminalQuestion final
{
    Q_DISABLE_COPY_MOVE(TerminalQuestion)

public:
    TerminalQuestion();
    ~TerminalQuestion();

private:
    bool m_installed = false;
};

} // namespace gantry::cli
