#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QThreadPool>
#include <QUrl>

#include <atomic>
#include <functional>
#include <memory>

namespace gantry::providers {

struct HttpRequest
{
    QByteArray method = "GET";
    QUrl url;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    int connectTimeoutMs = 10000;
    int timeoutMs = 30000;
    // Safe to repeat after a 5xx (GET, DELETE, terminate). A 429 is always retried: the server
    // did not act on the request.
    bool idempotent = true;
};

// No provider answer Gantry reads comes near this (the largest, Vast's offer search, is a few
// MiB): a body past it is dropped instead of growing without bound.
constexpr qsizetype kMaxResponseBytes = 64 * 1024 * 1024;

struct HttpResponse
{
    int status = 0;              // 0 when the transport failed
    QByteArray body;
    QByteArray contentType;
    QList<QPair<QByteArray, QByteArray>> headers; // names lowercased
    int curlCode = 0;
    QString transportError;      // curl's explanation when curlCode != 0
    bool bodyTooLarge = false;   // the answer passed kMaxResponseBytes and was dropped (curlCode set)
    int attempts = 0;

    bool transportFailed() const { return curlCode != 0; }
    QByteArray header(const QByteArray &lowercaseName) const;
};

struct RetryPolicy
{
    int maxAttempts = 4;
    int baseDelayMs = 1000;      // doubled each attempt when the server gives no Retry-After
    int maxDelayMs = 20000;
    int maxRetryAfterMs = 60000; // a longer Retry-After is reported, not waited for
};

// libcurl on a private thread pool. TLS peers are always verified. Replies come back queued on
// the context object's thread; the destructor aborts transfers and waits for the workers.
class HttpClient final
{
public:
    explicit HttpClient(QObject *context);
    ~HttpClient();
    HttpClient(const HttpClient &) = delete;
    HttpClient &operator=(const HttpClient &) = delete;

    void setRetryPolicy(const RetryPolicy &policy) { m_policy = policy; }
    const RetryPolicy &retryPolicy() const { return m_policy; }

    void send(HttpRequest request, std::function<void(HttpResponse)> done);

    // One transfer with retries, blocking the calling thread (worker threads and tests only).
    static HttpResponse performWithRetries(const HttpRequest &request, const RetryPolicy &policy,
                                           const std::atomic_bool *cancel);
    static HttpResponse performOnce(const HttpRequest &request, const std::atomic_bool *cancel);
    // Seconds from a Retry-After value (delta-seconds or an HTTP date); -1 when absent or invalid.
    static int parseRetryAfter(const QByteArray &value);

private:
    QObject *m_context;
    RetryPolicy m_policy;
    std::shared_ptr<std::atomic_bool> m_cancel;
    QThreadPool m_pool;
};

} // namespace gantry::providers
