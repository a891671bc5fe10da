// rename / rm: the Files tab's remote operations from the command line (transfer/remotefileops).

#include "cliconnect.h"
#include "clicommand.h"
#include "interruptscope.h"

#include "core/transfer/remotefileops.h"
#include "core/transfer/remotespec.h"
#include "core/transfer/sftpclient.h"
#include "core/util/printable.h"

#include <QJsonObject>

#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

using namespace gantry;
using namespace gantry::transfer;

namespace gantry::cli {
namespace {

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

int renameCommand(Context &context, const Args &args)
{
    const auto spec = parseRemoteSpec(args.arg("HOST:PATH"));
    if (!spec || spec->path.isEmpty()) return context.usage(QStringLiteral("the entry to rename must be HOST:PATH"));
    auto remote = openRemote(context, spec->host, args.host());
    if (!remote) return context.fail(remote.error());
    auto renamed = renameRemote(*remote->sftp, spec->path, args.arg("NEWNAME"));
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
    const TerminalQuestion asking;
    std::fprintf(stderr, "%s [y/N] ", question.toLocal8Bit().constData());
    std::string line;
    if (!std::getline(std::cin, line)) return false;
    return !line.empty() && (line[0] == 'y' || line[0] == 'Y');
}

QString describe(const QString &path, const RemoteTreeCount &count)
{
    if (!count.isDir) return text::printable(path);
    return QStringLiteral("the folder %1 with %2 file(s) and %3 folder(s) in it")
        .arg(text::printable(path))
        .arg(count.files)
        .arg(count.folders - 1);
}

int rmCommand(Context &context, const Args &args)
{
    const bool yes = args.has("yes");
    const bool recursive = args.has("recursive");
    const auto spec = parseRemoteSpec(args.arg("HOST:PATH"));
    if (!spec || spec->path.isEmpty()) return context.usage(QStringLiteral("the entry to delete must be HOST:PATH"));
    if (!yes && !isatty(STDIN_FILENO)) {
        return context.usage(QStringLiteral("rm asks before deleting; add --yes where nobody can answer"));
    }
    auto remote = openRemote(context, spec->host, args.host());
    if (!remote) return context.fail(remote.error());
    auto count = countRemoteTree(*remote->session, *remote->sftp, spec->path);
    if (!count) return context.fail(count.error());
    if (count->isDir && !recursive) {
        return context.fail(Error{ErrorCode::Usage, QStringLiteral("%1 is a folder; add -r to delete it with everything in it")
                                                        .arg(text::printable(spec->path))});
    }
    const QString what = describe(spec->path, *count);
    if (!yes && !confirmOnTerminal(QStringLiteral("Delete %1 on %2? This cannot be undone.").arg(what, spec->host))) {
        return context.fail(Error{ErrorCode::Cancelled, QStringLiteral("nothing deleted")});
    }
    if (auto removed = removeRemote(*remote->session, *remote->sftp, spec->path, recursive); !removed) {
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
        context.out << QStringLiteral("deleted %1").arg(what) << Qt::endl;
    }
    return ExitOk;
}

// Options stop at "--": after it a word is a path or a name, so `rm HOST:-rf` and
// `rename HOST:x -- -rf` name files.
const Registrar renameRegistrar(Command{
    .name = "rename",
    .summary = "rename a remote file or folder (never replaces one)",
    .arguments = {{"HOST:PATH", Argument::One, Complete::HostPath}, {"NEWNAME"}},
    .groups = Connection,
    .notes = {"A NEWNAME that starts with '-' goes after --."},
    .run = renameCommand,
});
const Registrar rmRegistrar(Command{
    .name = "rm",
    .summary = "delete a remote file, or a folder with -r (asks first without --yes)",
    .options = {{.name = "recursive", .help = "delete a folder with everything in it", .shortName = 'r'},
                {.name = "yes", .help = "do not ask (needed where nobody can answer)", .shortName = 'y'}},
    .arguments = {{"HOST:PATH", Argument::One, Complete::HostPath}},
    .groups = Connection,
    .run = rmCommand,
});

} // namespace
} // namespace gantry::cli
