#include "core/providers/restprovider.h"
#include "core/providers/providerstext.h"

#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <curl/curl.h>

namespace gantry::providers {

Result<QUrl> checkEndpoint(const QString &url, const QString &providerName)
{
    const QUrl parsed(url.trimmed(), QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty()) {
        return Error{ErrorCode::Usage,
                     ProvidersText::tr("The %1 endpoint \"%2\" is not a valid URL (expected https://host[:port]).")
                         .arg(providerName, url)};
    }
    const QString scheme = parsed.scheme().toLower();
    if (scheme == QLatin1String("https"))
        return parsed;
    if (scheme == QLatin1String("http")) {
        const QString host = parsed.host();
        const QHostAddress address(host);
        if (host == QLatin1String("localhost") || (!address.isNull() && address.isLoopback()))
            return parsed;
        return Error{ErrorCode::Usage,
                     ProvidersText::tr("Refusing plain http:// for the %1 endpoint %2: the API key would travel "
                                 "unencrypted. Use https://, or http:// only on 127.0.0.1/localhost.")
                         .arg(providerName, host)};
    }
    return Error{ErrorCode::Usage,
                 ProvidersText::tr("The %1 endpoint must start with https:// (got \"%2\").").arg(providerName, url)};
}

namespace {
// The request reached the server (or may have) and the answer that says what it did is missing.
bool answerLost(const HttpResponse &response)
{
    if (!response.transportFailed())
        return response.status >= 500;
    switch (response.curlCode) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_ABORTED_BY_CALLBACK:
        return false; // never sent
    default:
        return true;
    }
}
} // namespace

RestProvider::RestProvider(RestConfig config, QObject *parent)
    : Provider(parent)
    , m_config(std::move(config))
    , m_http(this)
{
    m_http.setRetryPolicy(m_config.retry);
}

RestProvider::~RestProvider() = default;

void RestProvider::callRaw(const QByteArray &method, const QString &path, const QJsonValue &body, bool idempotent,
                           std::function<void(const HttpResponse &)> done)
{
    HttpRequest request;
    request.method = method;
    QString base = m_config.baseUrl.toString();
    if (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    request.url = QUrl(base + path);
    request.idempotent = idempotent;
    request.timeoutMs = m_config.timeoutMs;
    authorize(request);
    request.headers.append({QByteArray("Accept"), QByteArray("application/json")});
    if (!body.isNull() && !body.isUndefined()) {
        request.headers.append({QByteArray("Content-Type"), QByteArray("application/json")});
        request.body = body.isArray() ? QJsonDocument(body.toArray()).toJson(QJsonDocument::Compact)
                                      : QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact);
    }
    m_http.send(std::move(request), [this, idempotent, done = std::move(done)](const HttpResponse &response) {
        if (!idempotent && answerLost(response))
            ++m_lostUnsafeReplies;
        done(response);
    });
}

void RestProvider::call(const QByteArray &method, const QString &path, const QJsonValue &body,
                        bool idempotent, JsonCallback done)
{
    callRaw(method, path, body, idempotent, [this, done = std::move(done)](const HttpResponse &response) {
        if (response.transportFailed()) {
            done(transportError(response));
        } else if (response.status < 200 || response.status >= 300) {
            done(httpError(response));
        } else {
            done(unwrap(response));
        }
    });
}

void RestProvider::fetchInstances(const QString &path, const QString &listKey,
                                  std::function<Instance(const QJsonObject &)> parse, Callback<QList<Instance>> done)
{
    call("GET", path, QJsonValue(), true,
         [this, listKey, parse = std::move(parse), done = std::move(done)](Result<QJsonValue> data) {
             if (!data)
                 return done(data.error());
             const QJsonValue list = data->isArray() ? *data : data->toObject().value(listKey);
             if (!list.isArray())
                 return done(malformed(tr("no \"%1\" list in the reply").arg(listKey)));
             QList<Instance> instances;
             const QJsonArray array = list.toArray();
             for (const QJsonValue &value : array) {
                 Instance instance = parse(value.toObject());
                 if (!instance.id.isEmpty())
                     instances.append(instance);
             }
             done(instances);
         });
}

RestProvider::JsonCallback RestProvider::ignoreBody(Callback<void> done)
{
    return [done = std::move(done)](Result<QJsonValue> data) { done(data ? Result<void>() : Result<void>(data.error())); };
}

void RestProvider::authorize(HttpRequest &request) const
{
    request.headers.append({QByteArray("Authorization"), "Bearer " + m_config.apiKey.toUtf8()});
}

Result<QJsonValue> RestProvider::unwrap(const HttpResponse &response) const
{
    if (response.status == 204 || response.body.trimmed().isEmpty())
        return QJsonValue(QJsonObject{});
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(response.body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return malformed(parseError.errorString());
    if (document.isArray())
        return QJsonValue(document.array());
    return QJsonValue(document.object());
}

Error RestProvider::malformed(const QString &detail) const
{
    return Error{ErrorCode::Provider,
                 tr("%1 sent a reply Gantry cannot read (%2). The service may be having problems; try "
                    "again in a minute.")
                     .arg(info().displayName, detail)};
}

QString RestProvider::rateLimitHint(const HttpResponse &response) const
{
    const int retryAfter = HttpClient::parseRetryAfter(response.header("retry-after"));
    if (retryAfter >= 0)
        return tr("Rate limited by %1 after %2 attempts; try again in %3 s.")
            .arg(info().displayName).arg(response.attempts).arg(retryAfter);
    return tr("Rate limited by %1 after %2 attempts; wait a minute and try again.")
        .arg(info().displayName).arg(response.attempts);
}

Error RestProvider::transportError(const HttpResponse &response) const
{
    const QString name = info().displayName;
    const QString where = m_config.baseUrl.toDisplayString();
    switch (response.curlCode) {
    case CURLE_COULDNT_CONNECT:
        return Error{ErrorCode::ConnectFailed,
                     tr("Cannot connect to %1 at %2 (connection refused). Check your network, or the "
                        "endpoint if you set one.").arg(name, where)};
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
        return Error{ErrorCode::ConnectFailed,
                     tr("Cannot resolve the host of %1 (%2). Check your network connection and DNS.")
                         .arg(name, where)};
    case CURLE_OPERATION_TIMEDOUT:
        return Error{ErrorCode::Timeout,
                     tr("%1 did not answer in time (%2). The service may be slow; try again.")
                         .arg(name, response.transportError)};
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_USE_SSL_FAILED:
        return Error{ErrorCode::ConnectFailed,
                     tr("Secure connection to %1 at %2 failed: %3. Gantry never sends your API key "
                        "without verified TLS; check the endpoint URL, your clock and any proxy.")
                         .arg(name, where, response.transportError)};
    case CURLE_ABORTED_BY_CALLBACK:
        return Error{ErrorCode::Cancelled, tr("The request to %1 was cancelled.").arg(name)};
    case CURLE_WRITE_ERROR:
        if (response.bodyTooLarge) {
            return Error{ErrorCode::Provider, tr("%1 at %2 sent an answer larger than %3 MiB, more than any answer Gantry reads; none of "
                                                 "it was used. Try again; if it repeats, check the endpoint.")
                                                  .arg(name, where)
                                                  .arg(kMaxResponseBytes / (1024 * 1024))};
        }
        break;
    default:
        break;
    }
    return Error{ErrorCode::ConnectFailed, tr("Talking to %1 at %2 failed: %3.").arg(name, where, response.transportError)};
}

} // namespace gantry::providers
