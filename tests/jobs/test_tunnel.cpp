#include "sshdfixture.h"

#include "core/tunnel/jupyter.h"
#include "core/tunnel/tunnelmanager.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

using namespace gantry;
using namespace gantry::tunnel;

namespace {

// A minimal HTTP server in this process, on 127.0.0.1: reachable from sshd's direct-tcpip like
// any server started on the instance.
class TinyHttpServer final : public QTcpServer
{
public:
    QByteArray body = "hello through ssh";

    TinyHttpServer()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    m_requests[s] += s->readAll();
                    if (!m_requests[s].contains("\r\n\r\n"))
                        return;
                    // Taken out now: a later socket can be allocated at this one's address once it
                    // is deleted, and must not inherit its request (it got /index.html for /big).
                    const QByteArray path = m_requests.take(s).split(' ').value(1);
                    const QByteArray reply = path == "/big" ? QByteArray(3 << 20, 'x') : body + ' ' + path;
                    s->write("HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(reply.size())
                             + "\r\nConnection: close\r\n\r\n" + reply);
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }

private:
    QHash<QTcpSocket *, QByteArray> m_requests;
};

QByteArray get(QNetworkAccessManager &nam, const QUrl &url, int *status = nullptr)
{
    QNetworkReply *reply = nam.get(QNetworkRequest(url));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    finished.wait(60000);
    if (status)
        *status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray data = reply->readAll();
    reply->deleteLater();
    return data;
}

} // namespace

class TestTunnel final : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    TinyHttpServer m_http;

    Tunnel::Spec spec(int remotePort, int localPort = 0) const
    {
        Tunnel::Spec s;
        s.hostName = QStringLiteral("test");
        s.remotePort = remotePort;
        s.localPort = localPort;
        return s;
    }

private slots:
    void initTestCase()
    {
        const QString error = m_sshd.start();
        GANTRY_REQUIRE_SSHD(error);
        QVERIFY(m_http.listen(QHostAddress::LocalHost));
    }

    void carriesHttp()
    {
        TunnelManager manager;
        auto opened = manager.open(m_sshd.target(), m_sshd.connectOptions(), spec(m_http.serverPort()));
        QVERIFY(opened.ok());
        Tunnel *t = *opened;
        QSignalSpy openSpy(t, &Tunnel::opened);
        QVERIFY2(openSpy.wait(60000), qPrintable(t->lastError()));
        QVERIFY(t->localPort() > 0);
        QCOMPARE(t->localUrl().toString(), QStringLiteral("http://127.0.0.1:%1/").arg(t->localPort()));

        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        int status = 0;
        QCOMPARE(get(nam, t->localUrl().resolved(QUrl(QStringLiteral("/index.html"))), &status),
                 QByteArray("hello through ssh /index.html"));
        QCOMPARE(status, 200);
        // Several connections at once, and a body far larger than one channel window.
        QNetworkReply *a = nam.get(QNetworkRequest(t->localUrl().resolved(QUrl(QStringLiteral("/big")))));
        QNetworkReply *b = nam.get(QNetworkRequest(t->localUrl().resolved(QUrl(QStringLiteral("/b")))));
        QSignalSpy aDone(a, &QNetworkReply::finished);
        QSignalSpy bDone(b, &QNetworkReply::finished);
        QVERIFY(aDone.count() > 0 || aDone.wait(60000));
        QVERIFY(bDone.count() > 0 || bDone.wait(60000));
        QCOMPARE(a->readAll(), QByteArray(3 << 20, 'x'));
        QCOMPARE(b->readAll(), QByteArray("hello through ssh /b"));
        delete a;
        delete b;

        // The same remote port again: refused with the URL of the existing tunnel.
        auto again = manager.open(m_sshd.target(), m_sshd.connectOptions(), spec(m_http.serverPort()));
        QVERIFY(!again.ok());
        QCOMPARE(again.error().code, ErrorCode::Conflict);
        QVERIFY(again.error().message.contains(QString::number(t->localPort())));

        QCOMPARE(manager.tunnels(QStringLiteral("test")).size(), 1);
        const int port = t->localPort();
        manager.closeAll(QStringLiteral("test"));
        QVERIFY(manager.tunnels().isEmpty());
        // The local port is released: by the tunnel's own thread, which nothing here waits for.
        const auto portTaken = [port] {
            QTcpSocket probe;
            probe.connectToHost(QHostAddress::LocalHost, quint16(port));
            return probe.waitForConnected(2000);
        };
        QTRY_VERIFY_WITH_TIMEOUT(!portTaken(), 10000);
    }

    void remotePortClosed()
    {
        TunnelManager manager;
        const int closed = test::SshdFixture::freePort();
        auto opened = manager.open(m_sshd.target(), m_sshd.connectOptions(), spec(closed));
        QVERIFY(opened.ok());
        QSignalSpy ended(&manager, &TunnelManager::tunnelEnded);
        QVERIFY(ended.wait(60000));
        const QString message = ended.first().at(2).toString();
        QVERIFY2(message.contains(QStringLiteral("Nothing listens on port %1").arg(closed)), qPrintable(message));
        QVERIFY(manager.tunnels().isEmpty());
    }

    void localPortInUse()
    {
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost));
        TunnelManager manager;
        auto opened = manager.open(m_sshd.target(), m_sshd.connectOptions(), spec(m_http.serverPort(), squatter.serverPort()));
        QVERIFY(opened.ok());
        QSignalSpy ended(&manager, &TunnelManager::tunnelEnded);
        QVERIFY(ended.wait(60000));
        const QString message = ended.first().at(2).toString();
        QVERIFY2(message.contains(QStringLiteral("Local port %1 is in use").arg(squatter.serverPort())), qPrintable(message));
        QVERIFY(!manager.open(m_sshd.target(), m_sshd.connectOptions(), spec(0)).ok());
    }

    void jupyterList()
    {
        const QByteArray text = "Currently running servers:\n"
                                "http://localhost:8888/?token=abc123 :: /root\n"
                                "http://0.0.0.0:8890/user/x/lab?token=def :: /home/x\n"
                                "{\"base_url\": \"/\", \"hostname\": \"localhost\", \"port\": 8891, \"token\": \"t91\", "
                                "\"url\": \"http://localhost:8891/\", \"root_dir\": \"/data\"}\n"
                                "http://localhost:8888/?token=abc123 :: /root\n";
        const QList<JupyterServer> servers = parseJupyterList(text);
        QCOMPARE(servers.size(), 3);
        QCOMPARE(servers[0].port, 8888);
        QCOMPARE(servers[0].token, QStringLiteral("abc123"));
        QCOMPARE(servers[0].rootDir, QStringLiteral("/root"));
        QCOMPARE(servers[0].localUrl(49152).toString(), QStringLiteral("http://127.0.0.1:49152/?token=abc123"));
        QCOMPARE(servers[1].localUrl(5000).toString(), QStringLiteral("http://127.0.0.1:5000/user/x/lab?token=def"));
        QCOMPARE(servers[2].port, 8891);
        QCOMPARE(servers[2].token, QStringLiteral("t91"));
        QVERIFY(parseJupyterList("").isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTunnel)
#include "test_tunnel.moc"
