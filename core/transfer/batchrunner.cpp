#include "core/transfer/batchrunner.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/remoteops.h"
#include "core/transfer/tarbatch.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <libssh/libssh.h>

namespace gantry::transfer {

namespace {

constexpr QByteArrayView kReportTag = "\ngantry-report ";

// One line of sh without single quotes, so shellQuote() leaves it as it is for any login shell.
// x and y are a batch's two steps; r is extract's status (finish reads it), p the finish running
// in the background. A background job's stdin is /dev/null: it cannot eat the next frame.
// L runs x with its output straight to stdout, after the last report is out (wait "$p").
constexpr char kScript[] =
    "p=; while IFS=\" \" read -r t id n m; do "
    "if [ \"$t\" = L ]; then [ -z \"$p\" ] || wait \"$p\"; p=; x=$(head -c \"$n\"); (eval \"$x\") </dev/null 2>/dev/null; continue; fi; "
    "[ \"$t\" = B ] || break; "
    "x=$(head -c \"$n\"); y=$(head -c \"$m\"); "
    "xo=$(while IFS=\" \" read -r t k && [ \"$t\" = C ]; do head -c \"$k\"; done "
    "| { (eval \"$x\") 2>&1; r=$?; cat >/dev/null; exit $r; }); r=$?; "
    "[ -z \"$p\" ] || wait \"$p\"; "
    "{ yo=$( (eval \"$y\") 2>&1 ); s=$?; o=\"$xo$yo\"; "
    "printf \"\\ngantry-report %s %s %s\\n%s\" \"$id\" \"$s\" \"$(printf %s \"$o\" | wc -c)\" \"$o\"; } & p=$!; "
    "done; [ -z \"$p\" ] || wait \"$p\"";

} // namespace

QString BatchRunner::command()
{
    return QStringLiteral("exec sh -c %1").arg(ssh::shellQuote(widenStdinPipe() + QString::fromLatin1(kScript)));
}

QString BatchRunner::probeSnippet()
{
    return QStringLiteral("[ \"$(printf ab | { head -c 1 >/dev/null; cat; })\" = b ] && printf '%1\\0'; ")
        .arg(QLatin1String(probeToken));
}

BatchRunner::BatchRunner(std::unique_ptr<ssh::Channel> channel)
    : m_channel(std::move(channel))
{
}

BatchRunner::~BatchRunner()
{
    // The last report has been read (or the upload stopped): the runner has nothing left to do.
    if (m_channel && !m_abandoned) {
        (void)m_channel->write(QByteArrayLiteral("Q\n"));
        (void)m_channel->sendEof();
    }
}

bool BatchRunner::pumpIdle()
{
    return ssh_channel_poll_timeout(m_channel->handle(), 0, 0) != SSH_ERROR && !m_channel->isEof();
}

void BatchRunner::abandon()
{
    if (m_abandoned) return;
    m_abandoned = true;
    (void)m_channel->sendEof();
}

Result<void> BatchRunner::begin(int id, const BatchScript &script)
{
    const QByteArray x = script.extract.toUtf8();
    const QByteArray y = script.finish.toUtf8();
    return m_channel->write("B " + QByteArray::number(id) + ' ' + QByteArray::number(x.size()) + ' '
                            + QByteArray::number(y.size()) + '\n' + x + y);
}

Result<void> BatchRunner::beginFrame(quint64 bytes)
{
    return m_channel->write("C " + QByteArray::number(bytes) + '\n');
}

Result<void> BatchRunner::writeData(const QByteArray &data)
{
    return m_channel->write(data);
}

Result<void> BatchRunner::endStream()
{
    return m_channel->write(QByteArrayLiteral("E\n"));
}

std::optional<BatchRunner::Report> BatchRunner::takeReport(int id)
{
    const qsizetype at = m_pending.indexOf(kReportTag);
    if (at < 0) return std::nullopt;
    const qsizetype start = at + kReportTag.size();
    const qsizetype eol = m_pending.indexOf('\n', start);
    if (eol < 0) return std::nullopt;
    const QList<QByteArray> f = m_pending.mid(start, eol - start).simplified().split(' ');
    const qsizetype length = f.size() == 3 ? f[2].toLongLong() : -1;
    if (length < 0 || m_pending.size() - (eol + 1) < length) return std::nullopt;
    Report report;
    report.status = f[1].toInt();
    report.output = m_pending.mid(eol + 1, length);
    if (f[0].toInt() != id) { // out of step: never the verdict on this batch
        report.status = -1;
        report.output = "batch runner out of step: a report on batch " + f[0] + " while batch " + QByteArray::number(id) + " was due";
    }
    m_pending.remove(0, eol + 1 + length);
    return report;
}

Result<BatchRunner::Report> BatchRunner::waitReport(int id, int timeoutMs, const ssh::Session &session)
{
    QElapsedTimer quiet;
    quiet.start();
    while (true) {
        if (auto r = takeReport(id)) return *r;
        if (m_channel->isEof() || quiet.elapsed() > timeoutMs) break;
        QByteArray err;
        auto r = m_channel->read(200, &err);
        if (!r) return r.error();
        if (!r->isEmpty()) {
            m_pending += *r;
            quiet.restart();
        }
        // A report carries a few lines of tar's or sha256sum's complaints, never megabytes.
        if (outputLimitReached(session, m_pending.size())) {
            return Error{ErrorCode::RemoteFailed, TransferText::tr("The remote unpacking shell sent more than %1 of output for one "
                                                                   "batch; the upload stopped.")
                                                      .arg(formatBytes(quint64(session.limits().maxOutputBytes)))};
        }
    }
    return Error{ErrorCode::ConnectFailed, TransferText::tr("The remote unpacking shell stopped before it reported on a batch. "
                                                            "Retry to resume from the last verified batch.")};
}

Result<void> BatchRunner::runRaw(const QString &script, const std::function<bool(const QByteArray &)> &take, int timeoutMs)
{
    const QByteArray x = script.toUtf8();
    if (auto w = m_channel->write("L 0 " + QByteArray::number(x.size()) + " 0\n" + x); !w) return w.error();
    m_pending.clear(); // what came before the frame (a login shell's greeting) is not its output
    QElapsedTimer quiet;
    quiet.start();
    while (!m_channel->isEof() && quiet.elapsed() <= timeoutMs) {
        QByteArray err;
        auto r = m_channel->read(200, &err);
        if (!r) return r.error();
        if (r->isEmpty()) continue;
        quiet.restart();
        if (take(*r)) return {};
    }
    return Error{ErrorCode::ConnectFailed, TransferText::tr("The remote shell that Gantry keeps for batches stopped answering; "
                                                            "a new one starts at the next sync.")};
}

} // namespace gantry::transfer
