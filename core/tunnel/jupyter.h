#pragma once

#include <QList>
#include <QString>
#include <QUrl>

namespace gantry::tunnel {

// One running Jupyter server as `jupyter server list` / `jupyter notebook list` print it.
struct JupyterServer
{
    QUrl url;          // as the server sees itself: http://localhost:8888/lab?token=…
    int port = 0;
    QString token;     // empty when it uses a password or no auth
    QString basePath;  // "/" or "/user/x/"
    QString rootDir;

    // The same server through a local forward: http://127.0.0.1:LOCAL/base?token=…
    QUrl localUrl(int localPort) const;
};

// A remote command that lists running servers (tries the usual install places; never fails).
QString jupyterListCommand();
// Parses its output: text lines "URL :: DIR" and JSON lines ({"port":…,"token":…}) alike.
QList<JupyterServer> parseJupyterList(const QByteArray &output);

} // namespace gantry::tunnel
