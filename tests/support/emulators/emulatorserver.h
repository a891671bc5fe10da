#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QTcpServer>
#include <QUrlQuery>

namespace gantry::test {

struct EmuRequest
{
    QByteArray method;
    QString path;
    QUrlQuery query;
    QHash<QByteArray, QByteArray> headers; // lowercased names
    QByteArray body;
};

struct EmuResponse
{
    int status = 200;
    QByteArray body;
    QByteArray contentType = "application/json";
    QList<QPair<QByteArray, QByteArray>> headers;
    int delayMs = 0;
    bool drop = false; // close the connection without answering
};

// A failure the next matching requests get instead of the real answer.
struct Fault
{
    QString pathContains;      // empty: every API request
    QByteArray method;         // empty: any
    int status = 500;
    QByteArray body;           // empty: the provider's usual error for the status
    int retryAfterSeconds = -1;
    int delayMs = 0;           // answer late (with the real answer when status is 0)
    int count = 1;             // how many requests; -1 forever
    bool malformed = false;    // 200 with a truncated JSON body
    bool drop = false;         // close the connection
    bool afterHandling = false; // act on the request first, then answer with the fault: a reply lost after the work was done
};

// The HTTP/1.1 plumbing and fault injection shared by both emulators. Admin endpoints (no auth):
// POST /__admin/fault (Fault as JSON), /__admin/reset-faults, /__admin/config (provider-specific),
// /__admin/vanish/{id} (instance terminated outside Gantry).
class EmulatorServer : public QObject
{
    Q_OBJECT

public:
    explicit EmulatorServer(QObject *parent = nullptr);
    ~EmulatorServer() override;

    bool listen(quint16 port = 0);
    quint16 port() const { return m_server.serverPort(); }
    QString baseUrl() const;

    void addFault(const Fault &fault) { m_faults.append(fault); }
    void clearFaults() { m_faults.clear(); }
    int requestCount(const QString &pathContains = {}) const;
    // Every API request as received (admin requests left out), for checking bodies against the
    // vendors' documents.
    const QList<EmuRequest> &requests() const { return m_requests; }
    QString apiKey() const { return m_apiKey; }
    void setApiKey(const QString &key) { m_apiKey = key; }

    static Fault faultFromJson(const QJsonObject &object);
    // What POST /__admin/config does, for the command line (--config JSON).
    void applyConfig(const QJsonObject &config) { configure(config); }

protected:
    virtual EmuResponse handle(const EmuRequest &request) = 0;
    virtual EmuResponse errorFor(int status, const QString &message) const = 0;
    virtual void configure(const QJsonObject &) {}
    virtual bool vanish(const QString &) { return false; }

    qint64 nowMs() const { return m_clock.elapsed(); }
    static EmuResponse json(int status, const QJsonObject &object);
    static EmuResponse jsonArray(int status, const QJsonArray &array);

private:
    void onNewConnection();
    void serve(class QTcpSocket *socket, const EmuRequest &request);
    EmuResponse admin(const EmuRequest &request);

    QTcpServer m_server;
    QList<Fault> m_faults;
    QList<QString> m_log;
    QList<EmuRequest> m_requests;
    QString m_apiKey = QStringLiteral("test-key");
    QElapsedTimer m_clock;
};

} // namespace gantry::test
