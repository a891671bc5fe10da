#pragma once

#include "core/ssh/session.h"

#include <functional>
#include <memory>

// One remote shell per session that unpacks batch after batch from a single channel. Each exec
// channel pays for a login shell's start-up files (pyenv or conda init on GPU images: a tenth of a
// second of CPU or more, every time); a sync of a few thousand files sends dozens of batches.
namespace gantry::transfer {

struct BatchScript;

// The runner's framing on its stdin, one batch after another:
//   "B <id> <extract bytes> <finish bytes>\n" <extract> <finish>
//   "C <n>\n" <n bytes of the tar stream>, any number of times, then "E\n"
// and "Q\n" (or EOF) to end; "L 0 <n> 0\n" <n bytes of sh> runs a command with its output raw on
// stdout, once every batch before it has reported (a sync's listing, NUL-separated). extract reads the tar stream; once it has, the next batch is read
// while finish runs (one at a time, in order). Each batch is answered on stdout with
//   "\ngantry-report <id> <finish's exit status> <n>\n" <n bytes: both steps' output>
class BatchRunner
{
public:
    // The exec command that starts a runner (sh, whatever the login shell is).
    static QString command();
    // Prints probeToken and a NUL when the host can run one: `head -c` must stop reading at its
    // count on a pipe (GNU and BSD head do; a head that reads ahead would eat the next frame).
    static QString probeSnippet();
    static constexpr char probeToken[] = "gantry-runner";

    explicit BatchRunner(std::unique_ptr<ssh::Channel> channel);
    ~BatchRunner();
    BatchRunner(const BatchRunner &) = delete;
    BatchRunner &operator=(const BatchRunner &) = delete;

    Result<void> begin(int id, const BatchScript &script);
    // A frame of the tar stream: its "C <bytes>" line, then writeData() calls that add up to
    // exactly bytes. The host starts a `head` per frame, so a frame may be announced before its
    // bytes exist, as long as they are sure to follow.
    Result<void> beginFrame(quint64 bytes);
    Result<void> writeData(const QByteArray &data);
    Result<void> endStream();
    // Ends the runner's input where it stands (EOF, no "Q"): for a frame that cannot be completed.
    void abandon();
    bool abandoned() const { return m_abandoned; }

    struct Report
    {
        int status = -1;
        QByteArray output;
    };
    // Batch id's report; an error when the runner ended, nothing came for timeoutMs, or more than
    // session's output limit came first.
    Result<Report> waitReport(int id, int timeoutMs, const ssh::Session &session);

    // Runs `script` on the runner, its stdout raw (the "L" frame): `take` gets the output as it
    // comes and returns true once it has seen its end (or wants no more). A sync that holds its
    // connection between rounds lists through the runner it kept: one round trip, no login shell.
    // An error when the runner ended or said nothing for timeoutMs; the runner is unusable then,
    // and also when take stopped before the end.
    Result<void> runRaw(const QString &script, const std::function<bool(const QByteArray &)> &take, int timeoutMs);

    // Reads what the host sent while the runner waits between rounds (its keepalive requests are
    // answered on the way); false when the link is gone.
    bool pumpIdle();

private:
    std::optional<Report> takeReport(int id);

    std::unique_ptr<ssh::Channel> m_channel;
    QByteArray m_pending;
    bool m_abandoned = false;
};

} // namespace gantry::transfer
