#pragma once

#include "core/providers/httpclient.h"
#include "core/providers/provider.h"

#include <QJsonValue>
#include <QPointer>
#include <QThreadPool>
#include <QUrl>

namespace gantry::providers {

// Where a REST provider lives and how to authenticate. The key is held only in memory.
struct RestConfig
{
    QUrl baseUrl;          // validated with checkEndpoint()
    QString apiKey;
    RetryPolicy retry;
    int timeoutMs = 30000;
};

// Accepts https:// anywhere and http:// only on a loopback host (emulators), so an API key never
// crosses a network in clear text.
Result<QUrl> checkEndpoint(const QString &url, const QString &providerName);

// Shared plumbing of the HTTP providers: authenticated JSON calls, transport error messages.
class RestProvider : public Provider
{
    Q_OBJECT

public:
    RestProvider(RestConfig config, QObject *parent);
    ~RestProvider() override;

    const RestConfig &config() const { return m_config; }
    HttpClient &http() { return m_http; }
    int lostUnsafeReplies() const override { return m_lostUnsafeReplies; }

protected:
    using JsonCallback = std::function<void(Result<QJsonValue>)>;
    // path is appended to the base URL (it may carry a query). body null = no body.
    void call(const QByteArray &method, const QString &path, const QJsonValue &body, bool idempotent,
              JsonCallback done);
    // Like call(), but a 2xx body is handed to parse on a worker thread (big listings: a thousand
    // Vast offers must not stall the GUI). parse must be thread-safe (static, no members).
    template<typename T>
    void callParsed(const QByteArray &method, const QString &path, const QJsonValue &body, bool idempotent,
                    std::function<Result<T>(const QByteArray &)> parse, Callback<T> done);
    void callRaw(const QByteArray &method, const QString &path, const QJsonValue &body, bool idempotent,
                 std::function<void(const HttpResponse &)> done);
    // Turns a non-2xx reply into the provider's message.
    virtual Error httpError(const HttpResponse &response) const = 0;
    // Unwraps a 2xx reply (Lambda's {"data": …}); malformed bodies become Provider errors.
    virtual Result<QJsonValue> unwrap(const HttpResponse &response) const;

    // GET path, read the array under listKey (or a bare array), parse each item, keep those with an id.
    void fetchInstances(const QString &path, const QString &listKey, std::function<Instance(const QJsonObject &)> parse,
                        Callback<QList<Instance>> done);
    // For calls whose reply body does not matter.
    static JsonCallback ignoreBody(Callback<void> done);

    // Adds the credentials; Bearer by default (Shadeform wants X-API-KEY instead).
    virtual void authorize(HttpRequest &request) const;

    Error transportError(const HttpResponse &response) const;
    Error malformed(const QString &detail) const;
    QString rateLimitHint(const HttpResponse &response) const;

private:
    RestConfig m_config;
    HttpClient m_http;
    int m_lostUnsafeReplies = 0;
};

template<typename T>
void RestProvider::callParsed(const QByteArray &method, const QString &path, const QJsonValue &body, bool idempotent,
                              std::function<Result<T>(const QByteArray &)> parse, Callback<T> done)
{
    callRaw(method, path, body, idempotent, [this, parse = std::move(parse), done = std::move(done)](const HttpResponse &response) {
        if (response.transportFailed())
            return done(transportError(response));
        if (response.status < 200 || response.status >= 300)
            return done(httpError(response));
        QPointer<RestProvider> self(this);
        QThreadPool::globalInstance()->start([self, parse, done, payload = response.body]() {
            Result<T> result = parse(payload);
            if (self)
                QMetaObject::invokeMethod(self.data(), [self, done, result = std::move(result)]() mutable {
                    if (self)
                        done(std::move(result));
                }, Qt::QueuedConnection);
        });
    });
}

} // namespace gantry::providers
