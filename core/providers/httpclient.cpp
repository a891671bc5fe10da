#include "core/providers/httpclient.h"

#include <QDateTime>
#include <QMetaObject>
#include <QRandomGenerator>
#include <QThread>

#include <curl/curl.h>

#include <algorithm>
#include <mutex>

namespace gantry::providers {
namespace {

void globalInit()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t writeBody(char *data, size_t size, size_t count, void *userData)
{
    auto *response = static_cast<HttpResponse *>(userData);
    const qsizetype bytes = qsizetype(size * count);
    if (response->body.size() + bytes > kMaxResponseBytes) {
        response->bodyTooLarge = true;
        return 0; // curl ends the transfer with CURLE_WRITE_ERROR
    }
    response->body.append(data, bytes);
    return size * count;
}

size_t writeHeader(char *data, size_t size, size_t count, void *userData)
{
    auto *response = static_cast<HttpResponse *>(userData);
    const QByteArray line = QByteArray(data, qsizetype(size * count)).trimmed();
    if (line.startsWith("HTTP/")) {
        response->headers.clear(); // a new response (after 100-continue or a redirect)
    } else if (const qsizetype colon = line.indexOf(':'); colon > 0) {
        response->headers.append({line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    return size * count;
}

int progress(void *userData, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto *cancel = static_cast<const std::atomic_bool *>(userData);
    return cancel && cancel->load() ? 1 : 0;
}

bool sleepCancellable(int ms, const std::atomic_bool *cancel)
{
    const qint64 until = QDateTime::currentMSecsSinceEpoch() + ms;
    while (QDateTime::currentMSecsSinceEpoch() < until) {
        if (cancel && cancel->load())
            return false;
        QThread::msleep(std::min<qint64>(50, until - QDateTime::currentMSecsSinceEpoch() + 1));
    }
    return true;
}

bool shouldRetry(const HttpResponse &response, const HttpRequest &request)
{
    if (response.transportFailed()) {
        // The request may have reached the server; only idempotent calls are repeated, and only
        // for failures that look transient (not refused connections or TLS errors).
        return request.idempotent
            && (response.curlCode == CURLE_GOT_NOTHING || response.curlCode == CURLE_RECV_ERROR
                || response.curlCode == CURLE_SEND_ERROR || response.curlCode == CURLE_PARTIAL_FILE);
    }
    if (response.status == 429)
        return true;
    return request.idempotent && (response.status == 500 || response.status == 502
                                  || response.status == 503 || response.status == 504);
}

} // namespace

QByteArray HttpResponse::header(const QByteArray &lowercaseName) const
{
    for (const auto &[name, value] : headers) {
        if (name == lowercaseName)
            return value;
    }
    return {};
}

HttpClient::HttpClient(QObject *context)
    : m_context(context)
    , m_cancel(std::make_shared<std::atomic_bool>(false))
{
    globalInit();
    // Retries sleep on their worker; a private pool keeps them from starving QtConcurrent users.
    m_pool.setMaxThreadCount(6);
}

HttpClient::~HttpClient()
{
    m_cancel->store(true);
    m_pool.waitForDone();
}

void HttpClient::send(HttpRequest request, std::function<void(HttpResponse)> done)
{
    QObject *context = m_context;
    const RetryPolicy policy = m_policy;
    std::shared_ptr<std::atomic_bool> cancel = m_cancel;
    m_pool.start([request = std::move(request), done = std::move(done), context, policy, cancel]() mutable {
        HttpResponse response = performWithRetries(request, policy, cancel.get());
        if (cancel->load())
            return;
        QMetaObject::invokeMethod(
            context, [done = std::move(done), response = std::move(response)]() { done(response); },
            Qt::QueuedConnection);
    });
}

int HttpClient::parseRetryAfter(const QByteArray &value)
{
    const QByteArray trimmed = value.trimmed();
    if (trimmed.isEmpty())
        return -1;
    bool ok = false;
    const int seconds = trimmed.toInt(&ok);
    if (ok)
        return seconds >= 0 ? seconds : -1;
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(trimmed), Qt::RFC2822Date);
    if (!when.isValid())
        return -1;
    return int(std::max<qint64>(0, QDateTime::currentDateTimeUtc().secsTo(when)));
}

HttpResponse HttpClient::performWithRetries(const HttpRequest &request, const RetryPolicy &policy,
                                            const std::atomic_bool *cancel)
{
    HttpResponse response;
    for (int attempt = 1;; ++attempt) {
        response = performOnce(request, cancel);
        response.attempts = attempt;
        if (attempt >= policy.maxAttempts || !shouldRetry(response, request))
            return response;
        int delayMs = -1;
        const int retryAfter = parseRetryAfter(response.header("retry-after"));
        if (retryAfter >= 0) {
            delayMs = retryAfter * 1000;
            if (delayMs > policy.maxRetryAfterMs)
                return response; // the caller reports how long to wait
        } else {
            const int exponential = policy.baseDelayMs << std::min(attempt - 1, 10);
            delayMs = std::min(policy.maxDelayMs, exponential);
            delayMs += int(QRandomGenerator::global()->bounded(std::max(1, delayMs / 4 + 1)));
        }
        if (!sleepCancellable(delayMs, cancel))
            return response;
    }
}

HttpResponse HttpClient::performOnce(const HttpRequest &request, const std::atomic_bool *cancel)
{
    globalInit();
    HttpResponse response;
    CURL *curl = curl_easy_init();
    if (!curl) {
        response.curlCode = CURLE_FAILED_INIT;
        response.transportError = QStringLiteral("libcurl could not start a transfer");
        return response;
    }
    char errorBuffer[CURL_ERROR_SIZE] = {};
    const QByteArray url = request.url.toEncoded();
    curl_easy_setopt(curl, CURLOPT_URL, url.constData());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(request.connectTimeoutMs));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(request.timeoutMs));
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "gantry/" GANTRY_VERSION);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, writeBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, writeHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, const_cast<std::atomic_bool *>(cancel));
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.constData());
    // A HEAD answer announces a length but sends no body: without NOBODY curl waits for it.
    if (request.method == "HEAD")
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    if (!request.body.isEmpty() || request.method == "POST" || request.method == "PUT"
        || request.method == "PATCH") {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.constData());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, long(request.body.size()));
    }
    curl_slist *headers = nullptr;
    for (const auto &[name, value] : request.headers)
        headers = curl_slist_append(headers, QByteArray(name + ": " + value).constData());
    headers = curl_slist_append(headers, "Expect:");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

    const CURLcode code = curl_easy_perform(curl);
    if (code != CURLE_OK) {
        response.curlCode = int(code);
        response.transportError = QString::fromUtf8(errorBuffer[0] ? errorBuffer : curl_easy_strerror(code));
        response.body.clear();
    } else {
        long status = 0;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        response.status = int(status);
        char *contentType = nullptr;
        curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &contentType);
        if (contentType)
            response.contentType = QByteArray(contentType);
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return response;
}

} // namespace gantry::providers
