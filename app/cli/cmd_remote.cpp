// rename / rm: the Files tab's remote operations from the command line (transfer/remotefileops).

#include "cliconnect.h"
#include "clicommand.h"

#include "core/transfer/remotefileops.h"
#include "core/transfer/remotespec.h"
#include "core/transfer/sftpclient.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

using namespace gantry;
using namespace gantry::transfer;

namespace gantry::cli {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class RemoteText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

struct RemoteArgs
{
    HostOptions host;
    bool recursive = false;
    bool yes = false;
    QStringList positional;
};

// Flags before "--"; after it (or for anything not starting with '-') a path or name, so
// `rm HOST:-rf` and `rename HOST:x -- -rf` name files.
Result<RemoteArgs> parseRemoteArgs(QStringList args, bool takesRecursive)
{
    RemoteArgs out;
    auto host = takeHostOptions(args);
    if (!host) return host.error();
    out.host = *host;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == QLatin1String("--")) {
            out.positional += args.mid(i + 1);
            break;
        }
        if (takesRecursive && (a == QLatin1String("-r") || a == QLatin1String("--recursive"))) {
            out.recursive = true;
        } else if (takesRecursive && (a == QLatin1String("-y") || a == QLatin1String("--yes"))) {
            out.yes = true;
        } else if (a.startsWith(QLatin1Char('-')) && a.size() > 1) {
            return Error{ErrorCode::Usage, RemoteText::tr("unknown option %1 (a name that starts with '-' goes after --)").arg(a)};
        } else {
            out.positional.append(a);
        }
    }
    return out;
}

struct Remote
{
    std::unique_ptr<ssh::Session> session;
    std::unique_ptr<SftpClient> sftp;
};

Result<Remote> openRemote(Context &context, const QString &host, const HostOptions &options)
{
    auto session = connectHost(context, host, options);
    if (!session) return session.error();
    auto sftp = SftpClient::start((*session)->handle(), (*session)->target().display());
    if (!sftp) return sftp.error();
    return Remote{std::move(*session), std::move(*sftp)};
}

int renameCommand(Context &context, const QStringList &raw)
{
    auto args = parseRemoteArgs(raw, false);
    if (!args) return context.fail(args.error());
    if (args->positional.size() != 2) return context.usage(RemoteText::tr("rename needs HOST:PATH NEWNAME"));
    const auto spec = parseRemoteSpec(args->positional[0]);
    if (!spec || spec->path.isEmpty()) return context.usage(RemoteText::tr("the entry to rename must be HOST:PATH"));
    auto remote = openRemote(context, spec->host, args->host);
    if (!remote) return context.fail(remote.error());
    auto renamed = renameRemote(*remote->sftp, spec->path, args->positional[1]);
    if (!renamed) return context.fail(renamed.error());
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("renamed")},
                                      {QStringLiteral("host"), spec->host},
                                      {QStringLiteral("from"), spec->path},
                                      {QStringLiteral("to"), *renamed}});
    } else {
        context.out << text::printable(spec->path) << " -> " << text::printable(*renamed) << Qt::endl;
    }
    return ExitOk;
}

// Asked on a terminal only; a script says --yes.
bool confirmOnTerminal(const QString &question)
{
    std::fprintf(stderr, "%s [y/N] ", question.toLocal8Bit().constData());
    std::string line;
    if (!std::getline(std::cin, line)) return false;
    return !line.empty() && (line[0] == 'y' || line[0] == 'Y');
}

QString describe(const QString &path, const RemoteTreeCount &count)
{
    if (!count.isDir) return text::printable(path);
    return RemoteText::tr("the folder %1 with %2 file(s) and %3 folder(s) in it")
        .arg(text::printable(path))
        .arg(count.files)
        .arg(count.folders - 1);
}

int rmCommand(Context &context, const QStringList &raw)
{
    auto args = parseRemoteArgs(raw, true);
    if (!args) return context.fail(args.error());
    if (args->positional.size() != 1) return context.usage(RemoteText::tr("rm needs one HOST:PATH"));
    const auto spec = parseRemoteSpec(args->positional[0]);
    if (!spec || spec->path.isEmpty()) return context.usage(RemoteText::tr("the entry to delete must be HOST:PATH"));
    if (!args->yes && !isatty(STDIN_FILENO)) {
        return context.usage(RemoteText::tr("rm asks before deleting; add --yes where nobody can answer"));
    }
    auto remote = openRemote(context, spec->host, args->host);
    if (!remote) return context.fail(remote.error());
    auto count = countRemoteTree(*remote->session, *remote->sftp, spec->path);
    if (!count) return context.fail(count.error());
    if (count->isDir && !args->recursive) {
        return context.fail(Error{ErrorCode::Usage, RemoteText::tr("%1 is a folder; add -r to delete it with everything in it")
                                                        .arg(text::printable(spec->path))});
    }
    const QString what = describe(spec->path, *count);
    if (!args->yes && !confirmOnTerminal(RemoteText::tr("Delete %1 on %2? This cannot be undone.").arg(what, spec->host))) {
        return context.fail(Error{ErrorCode::Cancelled, RemoteText::tr("nothing deleted")});
    }
    if (auto removed = removeRemote(*remote->session, *remote->sftp, spec->path, args->recursive); !removed) {
        return context.fail(removed.error());
    }
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("removed")},
                                      {QStringLiteral("host"), spec->host},
                                      {QStringLiteral("path"), spec->path},
                                      {QStringLiteral("folder"), count->isDir},
                                      {QStringLiteral("files"), count->files},
                                      {QStringLiteral("folders"), count->folders}});
    } else {
        context.out << RemoteText::tr("deleted %1").arg(what) << Qt::endl;
    }
    return ExitOk;
}

const Registrar renameRegistrar("rename", "rename HOST:PATH NEWNAME   rename a remote file or folder (never replaces one)",
                                renameCommand);
const Registrar rmRegistrar("rm", "rm [-r] [--yes] HOST:PATH   delete a remote file, or a folder with -r (asks first without --yes)",
                            rmCommand);

} // namespace
} // namespace gantry::cli
