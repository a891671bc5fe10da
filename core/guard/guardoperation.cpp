#include "core/guard/guardoperation.h"
#include "core/guard/guardtext.h"

#include "core/jobs/sessionworker.h"
#include "core/providers/providerregistry.h"
#include "core/providers/restprovider.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace gantry::guard {
namespace {

constexpr int kSchema = 1;

} // namespace

Result<GuardOptions> guardOptionsFor(const QString &providerId, int idleMinutes, GuardAction action, const QString &endpoint)
{
    GuardOptions options;
    options.method = selfStopFor(providerId);
    if (options.method == providers::SelfStop::None)
        return Error::make(ErrorCode::Usage, noSelfStopReason(providerId));
    if (idleMinutes < 1)
        return Error::make(ErrorCode::Usage, GuardText::tr("The idle threshold must be at least one minute."));
    if (action == GuardAction::Terminate && options.method == providers::SelfStop::Shutdown)
        return Error::make(ErrorCode::Usage, GuardText::tr("This machine can only power itself off, which stops it; "
                                                                    "choose stop, or terminate it from Gantry."));
    options.action = action;
    options.idleSeconds = idleMinutes * 60;
    // Ten looks per threshold, at most one a minute: a stop comes at most a minute late.
    options.pollSeconds = qBound(1, options.idleSeconds / 10, 60);
    // The instance's scoped key travels to this URL from the instance: the providers' rule applies
    // (https, plain http only on loopback), or the key crosses the network in clear.
    if (!endpoint.trimmed().isEmpty()) {
        const Result<QUrl> checked = providers::checkEndpoint(endpoint, providers::providerDisplayName(providerId));
        if (!checked)
            return checked.error();
    }
    options.endpoint = endpoint.trimmed();
    return options;
}

GuardStore::GuardStore(QString configDir)
    : m_configDir(std::move(configDir))
{
}

QString GuardStore::filePath() const
{
    return QDir(m_configDir).filePath(QStringLiteral("guards.json"));
}

QHash<QString, GuardStore::Entry> GuardStore::load() const
{
    QHash<QString, Entry> entries;
    QFile file(filePath());
    if (!file.open(QIODevice::ReadOnly))
        return entries;
    const QJsonObject guards = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("guards")).toObject();
    for (auto it = guards.constBegin(); it != guards.constEnd(); ++it) {
        const QJsonObject o = it.value().toObject();
        entries.insert(it.key(), Entry{o.value(QStringLiteral("idle_minutes")).toInt(30), o.value(QStringLiteral("method")).toString(),
                                       actionFromName(o.value(QStringLiteral("action")).toString())});
    }
    return entries;
}

Result<void> GuardStore::save(const QHash<QString, Entry> &entries) const
{
    QJsonObject guards;
    for (auto it = entries.constBegin(); it != entries.constEnd(); ++it)
        guards.insert(it.key(), QJsonObject{{QStringLiteral("idle_minutes"), it->idleMinutes}, {QStringLiteral("method"), it->method},
                                            {QStringLiteral("action"), actionName(it->action)}});
    QDir().mkpath(m_configDir);
    QSaveFile file(filePath());
    if (!file.open(QIODevice::WriteOnly))
        return Error::make(ErrorCode::Io, GuardText::tr("Cannot write %1: %2. Check that the folder is writable.")
                                                   .arg(filePath(), file.errorString()));
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("schema"), kSchema}, {QStringLiteral("guards"), guards}}).toJson());
    if (!file.commit())
        return Error::make(ErrorCode::Io, GuardText::tr("Cannot write %1: %2. Check that the folder is writable.")
                                                   .arg(filePath(), file.errorString()));
    return {};
}

Result<void> GuardStore::remember(const QString &host, const Entry &entry)
{
    QHash<QString, Entry> entries = load();
    if (entries.value(host) == entry && entries.contains(host))
        return {};
    entries.insert(host, entry);
    return save(entries);
}

Result<void> GuardStore::forget(const QString &host)
{
    QHash<QString, Entry> entries = load();
    if (entries.remove(host) == 0)
        return {};
    return save(entries);
}

GuardOperation::GuardOperation(ssh::Target target, ssh::ConnectOptions options, QString configDir, QObject *parent)
    : QObject(parent)
    , m_target(target)
    , m_configDir(std::move(configDir))
    , m_worker(std::make_unique<jobs::SessionWorker>(std::move(target), std::move(options)))
{
}

GuardOperation::~GuardOperation()
{
    m_worker.reset(); // retired, not joined: the command in flight ends on its own; its result is dropped
}

void GuardOperation::run(std::function<Result<void>(ssh::Session &)> change, std::function<void()> remember, Done done)
{
    const QString remoteDir = m_remoteDir;
    m_worker->post([self = QPointer<GuardOperation>(this), change, remember, done, remoteDir](ssh::Session *session, const Error *connectError) {
        Result<GuardStatus> result = connectError ? Result<GuardStatus>(*connectError)
            : !session ? Result<GuardStatus>(Error::make(ErrorCode::ConnectFailed, GuardText::tr("Not connected to the machine; connect and try again.")))
                       : Result<GuardStatus>(GuardStatus{});
        if (result && change) {
            if (auto changed = change(*session); !changed)
                result = changed.error();
        }
        if (result)
            result = guardStatus(*session, remoteDir);
        if (result && remember)
            remember();
        background::deliver(self, [done, result = std::move(result)] { done(result); });
    });
}

void GuardOperation::install(const QString &hostName, const GuardOptions &options, Done done)
{
    const QString remoteDir = m_remoteDir;
    const QString configDir = m_configDir;
    run([options, remoteDir](ssh::Session &session) { return installGuard(session, options, remoteDir); },
        [configDir, hostName, options] {
            if (!configDir.isEmpty())
                (void)GuardStore(configDir).remember(hostName, {options.idleSeconds / 60, methodName(options.method), options.action});
        },
        std::move(done));
}

void GuardOperation::status(Done done)
{
    run({}, {}, std::move(done));
}

void GuardOperation::remove(const QString &hostName, Done done)
{
    const QString remoteDir = m_remoteDir;
    const QString configDir = m_configDir;
    run([remoteDir](ssh::Session &session) { return removeGuard(session, remoteDir); },
        [configDir, hostName] {
            if (!configDir.isEmpty())
                (void)GuardStore(configDir).forget(hostName);
        },
        std::move(done));
}

} // namespace gantry::guard
