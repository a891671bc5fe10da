#include "core/monitor/processkill.h"
#include "core/monitor/monitortext.h"

#include "core/ssh/session.h"
#include "core/util/printable.h"

#include <QCoreApplication>

namespace gantry::monitor {
QString killSignalName(KillSignal signal)
{
    return signal == KillSignal::Kill ? QStringLiteral("KILL") : QStringLiteral("TERM");
}

std::optional<KillSignal> parseKillSignal(const QString &text)
{
    QString s = text.trimmed().toUpper();
    if (s.startsWith(QLatin1StringView("SIG"))) {
        s = s.mid(3);
    }
    if (s == QLatin1StringView("TERM") || s == QLatin1StringView("15")) {
        return KillSignal::Term;
    }
    if (s == QLatin1StringView("KILL") || s == QLatin1StringView("9")) {
        return KillSignal::Kill;
    }
    return std::nullopt;
}

Result<qint64> parsePid(const QString &text)
{
    const QString t = text.trimmed();
    bool digitsOnly = !t.isEmpty() && t.size() <= 10;
    for (QChar c : t) {
        digitsOnly = digitsOnly && c >= QLatin1Char('0') && c <= QLatin1Char('9');
    }
    const qint64 pid = digitsOnly ? t.toLongLong() : 0;
    if (pid < 2 || pid > 0x7fffffff) {
        return Error{ErrorCode::Usage,
                     MonitorText::tr("\"%1\" is not a process id: give the PID the process table shows (a number above 1).").arg(t)};
    }
    return pid;
}

QString killCommand(qint64 pid, KillSignal signal)
{
    return QStringLiteral("kill -s %1 -- %2").arg(killSignalName(signal)).arg(pid);
}

Result<RemoteProcess> describeProcess(ssh::Session &session, const QString &host, qint64 pid)
{
    auto out = session.run(QStringLiteral("ps -ww -o user=,args= -p %1").arg(pid), 15000, 64 * 1024);
    if (!out) {
        return out.error();
    }
    const QString text = QString::fromUtf8(out->out).trimmed();
    if (out->exitStatus != 0 || text.isEmpty()) {
        return Error{ErrorCode::NotFound,
                     MonitorText::tr("Process %1 is not running on %2 (it may have ended already); refresh the process table.").arg(pid).arg(host)};
    }
    RemoteProcess p;
    p.pid = pid;
    p.user = text.section(QLatin1Char(' '), 0, 0);
    p.commandLine = text.section(QLatin1Char(' '), 1).trimmed();
    return p;
}

Result<void> killProcess(ssh::Session &session, const QString &host, qint64 pid, KillSignal signal)
{
    auto out = session.run(killCommand(pid, signal), 15000, 64 * 1024);
    if (!out) {
        return out.error();
    }
    if (out->exitStatus == 0) {
        return {};
    }
    const QString why = QString::fromUtf8(out->err).trimmed();
    if (why.contains(QLatin1StringView("not permitted"), Qt::CaseInsensitive)) {
        return Error{ErrorCode::PermissionDenied,
                     MonitorText::tr("Process %1 on %2 belongs to another user: log in as that user, or run \"sudo %3\" in a terminal on the machine.")
                         .arg(pid).arg(host, killCommand(pid, signal))};
    }
    if (why.contains(QLatin1StringView("No such process"), Qt::CaseInsensitive)) {
        return Error{ErrorCode::NotFound,
                     MonitorText::tr("Process %1 is not running on %2 (it may have ended already); refresh the process table.").arg(pid).arg(host)};
    }
    return Error{ErrorCode::RemoteFailed,
                 MonitorText::tr("kill on %1 failed with status %2 (%3); check the PID and try again.")
                     .arg(host).arg(out->exitStatus).arg(why.isEmpty() ? MonitorText::tr("no message") : text::printable(why.left(300)))};
}

} // namespace gantry::monitor
