#include "emulatorserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>
#include <QUrl>

#include <cctype>

namespace gantry::test {
namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 409: return "Conflict";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}

// Parses one complete request from buffer; false while more bytes are needed.
bool parseRequest(QByteArray &buffer, EmuRequest *request)
{
    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return false;
    const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    request->method = requestLine.value(0);
    const QUrl url(QString::fromLatin1(requestLine.value(1)));
    request->path = url.path();
    request->query = QUrlQuery(url.query());
    request->headers.clear();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        if (colon > 0)
            request->headers.insert(lines.at(i).left(colon).trimmed().toLower(), lines.at(i).mid(colon + 1).trimmed());
    }
    const qsizetype length = request->headers.value("content-length", "0").toLongLong();
    if (buffer.size() < headerEnd + 4 + length)
        return false;
    request->body = buffer.mid(headerEnd + 4, length);
    buffer.remove(0, headerEnd + 4 + length);
    return true;
}

} // namespace

EmulatorServer::EmulatorServer(QObject *parent)
    : QObject(parent)
{
    m_clock.start();
    connect(&m_server, &QTcpServer::newConnection, this, &EmulatorServer::onNewConnection);
}

EmulatorServer::~EmulatorServer() = default;

bool EmulatorServer::listen(quint16 port)
{
    return m_server.listen(QHostAddress::LocalHost, port);
}

QString EmulatorServer::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(port());
}

int EmulatorServer::requestCount(const QString &pathContains) const
{
    int count = 0;
    for (const QString &entry : m_log)
        count += entry.contains(pathContains) ? 1 : 0;
    return count;
}

EmuResponse EmulatorServer::json(int status, const QJsonObject &object)
{
    EmuResponse response;
    response.status = status;
    response.body = QJsonDocument(object).toJson(QJsonDocument::Compact);
    return response;
}

EmuResponse EmulatorServer::jsonArray(int status, const QJsonArray &array)
{
    EmuResponse response;
    response.status = status;
    response.body = QJsonDocument(array).toJson(QJsonDocument::Compact);
    return response;
}

Fault EmulatorServer::faultFromJson(const QJsonObject &object)
{
    Fault fault;
    fault.pathContains = object.value(QLatin1String("path")).toString();
    fault.method = object.value(QLatin1String("method")).toString().toLatin1();
    fault.status = object.value(QLatin1String("status")).toInt(500);
    fault.body = object.value(QLatin1String("body")).toString().toUtf8();
    fault.retryAfterSeconds = object.value(QLatin1String("retryAfter")).toInt(-1);
    fault.delayMs = object.value(QLatin1String("delayMs")).toInt(0);
    fault.count = object.value(QLatin1String("count")).toInt(1);
    fault.malformed = object.value(QLatin1String("malformed")).toBool(false);
    fault.drop = object.value(QLatin1String("drop")).toBool(false);
    fault.afterHandling = object.value(QLatin1String("afterHandling")).toBool(false);
    return fault;
}

EmuResponse EmulatorServer::admin(const EmuRequest &request)
{
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    if (request.path == QLatin1String("/__admin/fault")) {
        addFault(faultFromJson(body));
        return json(200, {});
    }
    if (request.path == QLatin1String("/__admin/reset-faults")) {
        clearFaults();
        return json(200, {});
    }
    if (request.path == QLatin1String("/__admin/config")) {
        configure(body);
        return json(200, {});
    }
    if (request.path.startsWith(QLatin1String("/__admin/vanish/"))) {
        const bool found = vanish(request.path.mid(int(qstrlen("/__admin/vanish/"))));
        return json(found ? 200 : 404, {});
    }
    return json(404, {});
}

void EmulatorServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        auto buffer = std::make_shared<QByteArray>();
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
            buffer->append(socket->readAll());
            if (!buffer->isEmpty() && !std::isalpha(static_cast<unsigned char>(buffer->at(0)))) {
                // Not HTTP (a TLS ClientHello, say): answer like a plain HTTP server does.
                socket->write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                socket->disconnectFromHost();
                buffer->clear();
                return;
            }
            EmuRequest request;
            if (parseRequest(*buffer, &request))
                serve(socket, request);
        });
    }
}

void EmulatorServer::serve(QTcpSocket *socket, const EmuRequest &request)
{
    EmuResponse response;
    if (request.path.startsWith(QLatin1String("/__admin/"))) {
        response = admin(request);
    } else {
        m_log.append(QString::fromLatin1(request.method) + QLatin1Char(' ') + request.path);
        m_requests.append(request);
        bool faulted = false;
        for (qsizetype i = 0; i < m_faults.size(); ++i) {
            Fault &fault = m_faults[i];
            if ((!fault.pathContains.isEmpty() && !request.path.contains(fault.pathContains))
                || (!fault.method.isEmpty() && fault.method != request.method))
                continue;
            if (fault.afterHandling)
                handle(request); // done, but the answer below is what the client gets
            if (fault.status == 0 && !fault.malformed && !fault.drop) {
                response = handle(request); // slow but otherwise normal
            } else if (fault.malformed) {
                response.status = 200;
                response.body = "{\"data\": [{\"id\": \"trunc";
            } else if (!fault.body.isEmpty()) {
                response.status = fault.status;
                response.body = fault.body;
            } else {
                response = errorFor(fault.status, QString());
            }
            response.drop = fault.drop;
            response.delayMs = fault.delayMs;
            if (fault.retryAfterSeconds >= 0)
                response.headers.append({QByteArray("Retry-After"), QByteArray::number(fault.retryAfterSeconds)});
            if (fault.count > 0 && --fault.count == 0)
                m_faults.removeAt(i);
            faulted = true;
            break;
        }
        if (!faulted)
            response = handle(request);
    }

    QPointer<QTcpSocket> guard(socket);
    auto write = [guard, response] {
        if (!guard)
            return;
        if (response.drop) {
            guard->abort();
            return;
        }
        QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reasonPhrase(response.status) + "\r\n";
        if (response.status != 204) {
            out += "Content-Type: " + response.contentType + "\r\n";
            out += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n";
        }
        for (const auto &[name, value] : response.headers)
            out += name + ": " + value + "\r\n";
        out += "Connection: close\r\n\r\n";
        if (response.status != 204)
            out += response.body;
        guard->write(out);
        guard->disconnectFromHost();
    };
    if (response.delayMs > 0)
        QTimer::singleShot(response.delayMs, this, write);
    else
        write();
}

} // namespace gantry::test
