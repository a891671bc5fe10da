#include "core/tunnel/jupyter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUrlQuery>

namespace gantry::tunnel {

QUrl JupyterServer::localUrl(int localPort) const
{
    QUrl local;
    local.setScheme(url.scheme().isEmpty() ? QStringLiteral("http") : url.scheme());
    local.setHost(QStringLiteral("127.0.0.1"));
    local.setPort(localPort);
    local.setPath(basePath.isEmpty() ? QStringLiteral("/") : basePath);
    if (!token.isEmpty())
        local.setQuery(QStringLiteral("token=") + token);
    return local;
}

QString jupyterListCommand()
{
    // ssh exec shells often lack the conda/pip user bin dirs in PATH.
    return QStringLiteral(
        "for j in jupyter \"$HOME/.local/bin/jupyter\" /opt/conda/bin/jupyter \"$HOME/miniconda3/bin/jupyter\" "
        "\"$HOME/anaconda3/bin/jupyter\"; do command -v \"$j\" >/dev/null 2>&1 && "
        "{ \"$j\" server list 2>/dev/null; \"$j\" notebook list 2>/dev/null; break; }; done; exit 0");
}

QList<JupyterServer> parseJupyterList(const QByteArray &output)
{
    static const QRegularExpression line(QStringLiteral("^(https?://\\S+)\\s+::\\s*(.*)$"));
    QList<JupyterServer> servers;
    auto add = [&servers](JupyterServer server) {
        for (const JupyterServer &known : servers) {
            if (known.port == server.port)
                return; // `server list` and `notebook list` both show a classic server
        }
        servers.append(std::move(server));
    };
    const QList<QByteArray> lines = output.split('\n');
    for (const QByteArray &raw : lines) {
        const QByteArray trimmed = raw.trimmed();
        if (trimmed.startsWith('{')) {
            const QJsonObject o = QJsonDocument::fromJson(trimmed).object();
            if (o.isEmpty())
                continue;
            JupyterServer s;
            s.url = QUrl(o.value(QStringLiteral("url")).toString());
            s.port = o.value(QStringLiteral("port")).toInt(s.url.port());
            s.token = o.value(QStringLiteral("token")).toString();
            s.basePath = o.value(QStringLiteral("base_url")).toString(QStringLiteral("/"));
            s.rootDir = o.value(QStringLiteral("root_dir")).toString(o.value(QStringLiteral("notebook_dir")).toString());
            if (s.port > 0)
                add(s);
            continue;
        }
        const auto match = line.match(QString::fromUtf8(trimmed));
        if (!match.hasMatch())
            continue;
        JupyterServer s;
        s.url = QUrl(match.captured(1));
        s.port = s.url.port(s.url.scheme() == u"https" ? 443 : 80);
        s.token = QUrlQuery(s.url).queryItemValue(QStringLiteral("token"));
        s.basePath = s.url.path().isEmpty() ? QStringLiteral("/") : s.url.path();
        s.rootDir = match.captured(2).trimmed();
        add(s);
    }
    return servers;
}

} // namespace gantry::tunnel
