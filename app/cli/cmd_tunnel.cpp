#include "clicommand.h"
#include "cliconnect.h"
#include "interruptscope.h"
#include "core/tunnel/jupyter.h"
#include "core/tunnel/tunnel.h"
#include "core/util/printable.h"

#include <QEventLoop>
#include <QJsonObject>

namespace gantry::cli {
namespace {

// The host and the forward's spec from the arguments; errors are usage errors.
Result<std::pair<QString, tunnel::Tunnel::Spec>> tunnelSpec(const Args &args)
{
    tunnel::Tunnel::Spec spec;
    spec.hostName = args.arg("HOST");
    bool ok = false;
    spec.remotePort = args.arg("REMOTE_PORT").toInt(&ok);
    if (!ok || spec.remotePort <= 0 || spec.remotePort > 65535)
        return Error{ErrorCode::Usage, QStringLiteral("REMOTE_PORT must be a port number (1–65535), e.g. 8888 for Jupyter")};
    if (const std::optional<QString> local = args.optional("local-port")) {
        spec.localPort = local->toInt(&ok);
        if (!ok || spec.localPort <= 0 || spec.localPort > 65535)
            return Error{ErrorCode::Usage, QStringLiteral("--local-port must be a port number (1–65535)")};
    }
    spec.probe = !args.has("no-probe");
    if (const std::optional<QString> remoteHost = args.optional("remote-host"))
        spec.remoteHost = *remoteHost;
    return std::pair{spec.hostName, spec};
}

// A running Jupyter's token turns the plain URL into one that logs straight in.
std::optional<tunnel::JupyterServer> jupyterOn(ssh::Session &session, int remotePort)
{
    std::optional<tunnel::JupyterServer> jupyter;
    if (auto listed = session.run(tunnel::jupyterListCommand(), 20000); listed) {
        for (const tunnel::JupyterServer &server : tunnel::parseJupyterList(listed->out)) {
            if (server.port == remotePort)
                jupyter = server;
        }
    }
    return jupyter;
}

void printOpened(const Context &context, const tunnel::Tunnel::Spec &spec, int port, const QUrl &url)
{
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("local_port"), port},
                                      {QStringLiteral("remote_port"), spec.remotePort},
                                      {QStringLiteral("url"), url.toString()}});
        return;
    }
    context.out << text::printable(url.toString()) << Qt::endl;
    context.err << QStringLiteral("Forwarding 127.0.0.1:%1 to port %2 on %3; press Ctrl-C to stop.")
                       .arg(port)
                       .arg(spec.remotePort)
                       .arg(text::printable(spec.hostName))
                << Qt::endl;
}

// Until Ctrl-C (or SIGTERM), a failure or a lost connection.
int forwardUntilInterrupted(Context &context, tunnel::Tunnel &forward, const std::optional<tunnel::JupyterServer> &jupyter)
{
    QEventLoop loop;
    int code = ExitOk;
    QObject::connect(&forward, &tunnel::Tunnel::opened, &loop, [&](int port) {
        printOpened(context, forward.spec(), port, jupyter ? jupyter->localUrl(port) : forward.localUrl());
    });
    QObject::connect(&forward, &tunnel::Tunnel::failed, &loop, [&](const QString &message) {
        code = context.fail(Error{ErrorCode::RemoteFailed, message});
        loop.quit();
    });
    QObject::connect(&forward, &tunnel::Tunnel::connectionFailed, &loop,
                     [&](const QString &message) { context.warn(message); });
    InterruptScope interrupt;
    QObject::connect(&forward, &tunnel::Tunnel::closed, &loop, [&](const QString &reason) {
        if (!interrupt.interrupted()) {
            code = context.fail(Error{ErrorCode::ConnectFailed, reason});
        }
        loop.quit();
    });
    interrupt.onInterrupt([&loop] { loop.quit(); });
    forward.open();
    loop.exec();
    return code;
}

int tunnelCommand(Context &context, const Args &args)
{
    auto parsed = tunnelSpec(args);
    if (!parsed)
        return context.usage(parsed.error().message);
    const auto &[hostName, spec] = *parsed;
    auto session = connectHost(context, hostName, args.host());
    if (!session)
        return context.fail(session.error());
    const std::optional<tunnel::JupyterServer> jupyter = jupyterOn(**session, spec.remotePort);
    tunnel::Tunnel forward(std::move(*session), spec);
    return forwardUntilInterrupted(context, forward, jupyter);
}

const Registrar registrar(Command{
    .name = "tunnel",
    .summary = "forward a port of the machine (Jupyter 8888, TensorBoard 6006…) to 127.0.0.1 until interrupted; prints the local URL",
    .options = {{.name = "local-port", .value = "PORT", .help = "the local port to listen on (default: a free one)"},
                {.name = "remote-host", .value = "ADDRESS", .help = "forward to ADDRESS as the machine sees it (default 127.0.0.1)"},
                {.name = "no-probe", .help = "open the forward without checking first that something listens on the port"}},
    .arguments = {{"HOST", Argument::One, Complete::Host}, {"REMOTE_PORT"}},
    .groups = Connection,
    .notes = {"A running Jupyter's token makes the printed URL log straight in. Ctrl+C or SIGTERM closes the forward (exit 0)."},
    .run = tunnelCommand,
});

} // namespace
} // namespace gantry::cli
