#include "clicommand.h"
#include "cliconnect.h"
#include "scopedsignal.h"
#include "core/tunnel/jupyter.h"
#include "core/tunnel/tunnel.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonObject>
#include <QTimer>

#include <csignal>

namespace gantry::cli {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

std::atomic_bool g_tunnelInterrupted{false};

void onTunnelSignal(int)
{
    g_tunnelInterrupted = true;
}

QString takeValue(QStringList &args, const QString &name, bool *present)
{
    *present = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == name && i + 1 < args.size()) {
            const QString value = args[i + 1];
            args.remove(i, 2);
            *present = true;
            return value;
        }
        if (args[i].startsWith(name + u'=')) {
            const QString value = args[i].mid(name.size() + 1);
            args.remove(i);
            *present = true;
            return value;
        }
    }
    return {};
}

// The host and the forward's spec from the arguments; errors are usage errors.
Result<std::pair<QString, tunnel::Tunnel::Spec>> takeTunnelArgs(QStringList &args)
{
    bool hasLocal = false;
    bool hasRemoteHost = false;
    const QString local = takeValue(args, QStringLiteral("--local-port"), &hasLocal);
    const QString remoteHost = takeValue(args, QStringLiteral("--remote-host"), &hasRemoteHost);
    const bool noProbe = args.removeAll(QStringLiteral("--no-probe")) > 0;
    if (args.size() != 2)
        return Error{ErrorCode::Usage, CliText::tr("tunnel HOST REMOTE_PORT [--local-port P]")};
    bool ok = false;
    tunnel::Tunnel::Spec spec;
    spec.hostName = args.first();
    spec.remotePort = args[1].toInt(&ok);
    if (!ok || spec.remotePort <= 0 || spec.remotePort > 65535)
        return Error{ErrorCode::Usage, CliText::tr("REMOTE_PORT must be a port number (1–65535), e.g. 8888 for Jupyter")};
    if (hasLocal) {
        spec.localPort = local.toInt(&ok);
        if (!ok || spec.localPort <= 0 || spec.localPort > 65535)
            return Error{ErrorCode::Usage, CliText::tr("--local-port must be a port number (1–65535)")};
    }
    spec.probe = !noProbe;
    if (hasRemoteHost)
        spec.remoteHost = remoteHost;
    return std::pair{args.first(), spec};
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
    context.err << CliText::tr("Forwarding 127.0.0.1:%1 to port %2 on %3; press Ctrl-C to stop.")
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
    QObject::connect(&forward, &tunnel::Tunnel::closed, &loop, [&](const QString &reason) {
        if (!g_tunnelInterrupted) {
            code = context.fail(Error{ErrorCode::ConnectFailed, reason});
        }
        loop.quit();
    });
    const ScopedSignal ctrlC(SIGINT, onTunnelSignal);
    const ScopedSignal sigterm(SIGTERM, onTunnelSignal);
    QTimer interrupt;
    QObject::connect(&interrupt, &QTimer::timeout, &loop, [&] {
        if (g_tunnelInterrupted)
            loop.quit();
    });
    interrupt.start(100);
    forward.open();
    loop.exec();
    return code;
}

int tunnelCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    auto options = takeHostOptions(args);
    if (!options)
        return context.fail(options.error());
    auto parsed = takeTunnelArgs(args);
    if (!parsed)
        return context.usage(parsed.error().message);
    const auto &[hostName, spec] = *parsed;
    auto session = connectHost(context, hostName, *options);
    if (!session)
        return context.fail(session.error());
    const std::optional<tunnel::JupyterServer> jupyter = jupyterOn(**session, spec.remotePort);
    tunnel::Tunnel forward(std::move(*session), spec);
    return forwardUntilInterrupted(context, forward, jupyter);
}

const Registrar registrar("tunnel",
                          "tunnel HOST REMOTE_PORT [--local-port P]: forward a port of the instance (Jupyter 8888, "
                          "TensorBoard 6006…) to 127.0.0.1 until interrupted; prints the local URL",
                          tunnelCommand);

} // namespace
} // namespace gantry::cli
