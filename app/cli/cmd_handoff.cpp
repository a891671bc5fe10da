// SPDX-License-Identifier: Apache-2.0
// open / edit: the machine menu's hand-offs from the command line (core/handoff): a machine in VS
// Code, Cursor or a terminal through its ~/.ssh/config name, and a remote file in the local editor
// with an upload after each save.

#include "cliconnect.h"
#include "clicommand.h"
#include "interruptscope.h"

#include "core/handoff/editsession.h"
#include "core/handoff/handoff.h"
#include "core/hosts/hoststore.h"
#include "core/transfer/remotefiles.h"
#include "core/transfer/remotespec.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>

using namespace gantry::handoff;

namespace gantry::cli {
namespace {

// The launch for a saved host (its alias, or for a terminal its full ssh command where it has
// none) or for an ssh name the user's own ~/.ssh/config knows.
Result<Launch> hostLaunch(const Context &context, Tool tool, const QString &hostName, const QString &path)
{
    HostStore store(context.configDir);
    if (auto loaded = store.load(); !loaded)
        return loaded.error();
    const std::optional<SavedHost> host = store.find(hostName);
    if (!host) // not one of Gantry's: a Host entry of the user's own ssh config
        return launchFor(tool, hostName, path);
    auto launch = launchForHost(tool, *host, sshAlias(*host, store.hosts(), context.configDir), path);
    if (!launch && launch.error().code == ErrorCode::NotFound)
        return Error{ErrorCode::NotFound, QStringLiteral("%1 reaches %2 only by its name in ~/.ssh/config, and it has none "
                                                         "there; run `gantry-cli ssh-config sync` to write entries for "
                                                         "Gantry's machines, then try again.")
                                              .arg(toolTitle(tool), host->name)};
    return launch;
}

QJsonObject launchJson(const QString &host, const Launch &launch)
{
    return QJsonObject{{QStringLiteral("host"), host},
                       {QStringLiteral("tool"), toolName(launch.tool)},
                       {QStringLiteral("program"), launch.program},
                       {QStringLiteral("arguments"), QJsonArray::fromStringList(launch.arguments)},
                       {QStringLiteral("found"), launch.found},
                       {QStringLiteral("command"), launch.commandLine}};
}

int openCommand(Context &context, const Args &args)
{
    const QString editor = args.value("editor", QStringLiteral("code"));
    const std::optional<Tool> tool = toolNamed(editor);
    if (!tool)
        return context.usage(QStringLiteral("--editor takes code, cursor or terminal, not \"%1\"").arg(text::printable(editor)));
    const QString host = args.arg("HOST");
    auto launch = hostLaunch(context, *tool, host, args.arg("PATH"));
    if (!launch)
        return context.fail(launch.error());
    if (args.has("print")) {
        if (context.json)
            context.printJson(launchJson(host, *launch));
        else
            context.out << launch->commandLine << Qt::endl;
        return ExitOk;
    }
    if (Result<void> started = start(*launch); !started)
        return context.fail(started.error());
    if (context.json) {
        QJsonObject event = launchJson(host, *launch);
        event.insert(QStringLiteral("event"), QStringLiteral("opened"));
        context.printJson(event);
    } else {
        context.out << QStringLiteral("Opened %1 in %2: %3").arg(host, toolTitle(*tool), launch->commandLine) << Qt::endl;
    }
    return ExitOk;
}

void printEvent(const Context &context, const QString &event, const QString &message, int uploads)
{
    if (context.json)
        context.printJson(QJsonObject{{QStringLiteral("event"), event},
                                      {QStringLiteral("message"), message},
                                      {QStringLiteral("uploads"), uploads}});
}

int editCommand(Context &context, const Args &args)
{
    const auto spec = transfer::parseRemoteSpec(args.arg("HOST:PATH"));
    if (!spec || spec->path.isEmpty())
        return context.usage(QStringLiteral("the file to edit must be HOST:PATH"));
    auto factory = makeCliFactory(context, spec->host, args.host());
    if (!factory)
        return context.fail(factory.error());
    transfer::RemoteFiles files([factory = *factory](const QString &) -> Result<transfer::SessionFactory> { return factory; });
    EditSession::Options options;
    options.mode = EditSession::Mode::Terminal;
    EditSession session(&files, spec->host, spec->path, options);
    QEventLoop loop;
    QString failure;
    bool conflicted = false;
    // The editor draws on this terminal: only what must not wait (a conflict, a failure) interrupts it.
    QObject::connect(&session, &EditSession::uploaded, &loop, [&](int n) { printEvent(context, QStringLiteral("uploaded"), {}, n); });
    QObject::connect(&session, &EditSession::conflict, &loop, [&](const QString &message) {
        conflicted = true;
        printEvent(context, QStringLiteral("conflict"), message, session.uploads());
        context.warn(message);
    });
    QObject::connect(&session, &EditSession::failed, &loop, [&](const QString &message) {
        failure = message;
        printEvent(context, QStringLiteral("failed"), message, session.uploads());
        context.warn(message);
    });
    QObject::connect(&session, &EditSession::ended, &loop, [&](const QString &summary) {
        printEvent(context, QStringLiteral("ended"), summary, session.uploads());
        if (!context.json)
            context.err << summary << Qt::endl;
        loop.quit();
    });
    InterruptScope interrupt;
    interrupt.onInterrupt([&session] { session.end(); });
    session.start();
    loop.exec();
    return conflicted || !failure.isEmpty() ? ExitFailure : ExitOk;
}

const Registrar openRegistrar(Command{
    .name = "open",
    .summary = "open a machine in VS Code, Cursor or a terminal through its ~/.ssh/config name",
    .options = {{.name = "editor", .value = "TOOL", .help = "code (default), cursor or terminal", .choices = "code|cursor|terminal"},
                {.name = "print", .help = "print the command instead of running it"}},
    .arguments = {{"HOST", Argument::One, Complete::Host}, {"PATH", Argument::Optional}},
    .notes = {"VS Code and Cursor reach a machine by its Host entry: one imported from ~/.ssh/config, or the one",
              "`gantry-cli ssh-config sync` writes. HOST may also be any Host name of your ssh config.",
              "PATH is an absolute folder or file on the machine (default: the home folder).",
              "Where the program is not installed, the command is printed to run elsewhere (exit 1)."},
    .run = openCommand,
});
const Registrar editRegistrar(Command{
    .name = "edit",
    .summary = "edit a remote file in $VISUAL/$EDITOR, uploading it after each save",
    .arguments = {{"HOST:PATH", Argument::One, Complete::HostPath}},
    .groups = Connection,
    .notes = {"The file is downloaded into a private temporary folder and uploaded after each save until the",
              "editor exits; Ctrl+C ends the edit sooner (exit 0). A file that changed on the machine meanwhile",
              "is not overwritten: the conflict is reported, the local copy kept, and the exit status is 1."},
    .run = editCommand,
});

} // namespace
} // namespace gantry::cli
