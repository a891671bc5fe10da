#include "clicommand.h"
#include "cliconnect.h"
#include "tunnel/jupyter.h"
#include "tunnel/tunnel.h"
#include "util/printable.h"

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

int tunnelCommand(Context &context, const QStringList &input)
{
    QStringList args = input;
    auto options = takeHostOptions(args);
    if (!options)
        return context.fail(options.error());
    bool hasLocal = false;
    bool hasRemoteHost = false;
    const QString local = takeValue(args, QStringLiteral("--local-port"), &hasLocal);
    const QString remoteHost = takeValue(args, QStringLiteral("--remote-host"), &hasRemoteHost);
    const bool noProbe = args.removeAll(QStringLiteral("--no-probe")) > 0;
    if (args.size() != 2)
        return context.usage(CliText::tr("tunnel HOST REMOTE_PORT [--local-port P]"));
    bool ok = false;
    const int remotePort = args[1].toInt(&ok);
    if (!ok || remotePort <= 0 || remotePort > 65535)
        return context.usage(CliText::tr("REMOTE_PORT must be a port number (1–65535), e.g. 8888 for Jupyter"));
    int localPort = 0;
    if (hasLocal) {
        localPort = local.toInt(&ok);
        if (!ok || localPort <= 0 || localPort > 65535)
            return context.usage(CliText::tr("--local-port must be a port number (1–65535)"));
    }
    auto session = connectHost(context, args.first(), *options);
    if (!session)
        return context.fail(session.error());

    // A running Jupyter's token turns the plain URL into one that logs straight in.
    std::optional<tunnel::JupyterServer> jupyter;
    if (auto listed = (*session)->run(tunnel::jupyterListCommand(), 20000); listed) {
        for (const tunnel::JupyterServer &server : tunnel::parseJupyterList(listed->out)) {
            if (server.port == remotePort)
                jupyter = server;
        }
    }

    tunnel::Tunnel::Spec spec;
    spec.hostName = args.first();
    spec.remotePort = remotePort;
    spec.localPort = localPort;
    spec.probe = !noProbe;
    if (hasRemoteHost)
        spec.remoteHost = remoteHost;
    tunnel::Tunnel forward(std::move(*session), spec);
    QEventLoop loop;
    int code = ExitOk;
    QObject::connect(&forward, &tunnel::Tunnel::opened, &loop, [&](int port) {
        const QUrl url = jupyter ? jupyter->localUrl(port) : forward.localUrl();
        if (context.json) {
            context.printJson(QJsonObject{{QStringLiteral("local_port"), port},
                                          {QStringLiteral("remote_port"), remotePort},
                                          {QStringLiteral("url"), url.toString()}});
        } else {
            context.out << text::printable(url.toString()) << Qt::endl;
            context.err << CliText::tr("Forwarding 127.0.0.1:%1 to port %2 on %3; press Ctrl-C to stop.")
                               .arg(port)
                               .arg(remotePort)
                               .arg(text::printable(spec.hostName))
                        << Qt::endl;
        }
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
    std::signal(SIGINT, onTunnelSignal);
    std::signal(SIGTERM, onTunnelSignal);
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

const Registrar registrar("tunnel",
                          "tunnel HOST REMOTE_PORT [--local-port P]: forward a port of the instance (Jupyter 8888, "
                          "TensorBoard 6006…) to 127.0.0.1 until interrupted; prints the local URL",
                          tunnelCommand);

} // namespace
} // namespace gantry::cli
