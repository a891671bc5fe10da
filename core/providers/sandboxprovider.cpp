#include "core/providers/sandboxprovider.h"
#include "core/providers/providerstext.h"

#include "core/providers/gantrykey.h"
#include "core/providers/sandboxproviderhome.h"
#include "core/ssh/knownhosts.h"
#include "core/ssh/target.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <pwd.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

namespace gantry::providers {
namespace {

int freeLoopbackPort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

bool portAnswers(int port, int timeoutMs)
{
    const qint64 until = QDateTime::currentMSecsSinceEpoch() + timeoutMs;
    while (QDateTime::currentMSecsSinceEpoch() < until) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, quint16(port));
        if (socket.waitForConnected(500) && socket.waitForReadyRead(1000)
            && socket.peek(4) == QByteArray("SSH-"))
            return true;
        QThread::msleep(100);
    }
    return false;
}

Result<void> writeFile(const QString &path, const QByteArray &data, QFileDevice::Permissions permissions = {})
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size() || !file.commit())
        return Error{ErrorCode::Io, ProvidersText::tr("Cannot write %1: %2").arg(path, file.errorString())};
    if (permissions)
        QFile::setPermissions(path, permissions);
    return {};
}

} // namespace

SandboxProvider::SandboxProvider(QString configDir, SandboxOptions options, QObject *parent)
    : Provider(parent)
    , m_configDir(QDir(configDir).absolutePath())
    , m_options(std::move(options))
{
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1);
}

SandboxProvider::~SandboxProvider()
{
    m_pool.waitForDone();
}

ProviderInfo SandboxProvider::info() const
{
    ProviderInfo info;
    info.id = QStringLiteral("sandbox");
    info.displayName = tr("Local sandbox");
    info.capabilities = Capability::Restart | Capability::GenerateSshKey | Capability::Images
        | Capability::RegionsPerType | Capability::ImagesByFamily | Capability::Local;
    info.billingGranularitySeconds = 60;
    info.defaultRegion = QStringLiteral("local");
    info.statusPollMs = 300;
    info.sshUser = ssh::localUserName();
    info.billingNote = tr("Nothing is charged: instances are sshd processes on this machine. Prices are "
                          "pretend, to try budgets and meters.");
    return info;
}

QString SandboxProvider::stateDir() const
{
    return QDir(m_configDir).absoluteFilePath(QStringLiteral("sandbox"));
}

QString SandboxProvider::instanceDir(const QString &id) const
{
    return stateDir() + QStringLiteral("/instances/") + id;
}

template<typename T>
void SandboxProvider::runJob(std::function<Result<T>()> job, Callback<T> done)
{
    m_pool.start([this, job = std::move(job), done = std::move(done)]() mutable {
        Result<T> result = job();
        deliver<T>(std::move(done), std::move(result));
    });
}

void SandboxProvider::listInstanceTypes(Callback<QList<InstanceType>> done)
{
    deliver<QList<InstanceType>>(std::move(done), instanceTypes());
}

void SandboxProvider::listInstances(Callback<QList<Instance>> done)
{
    runJob<QList<Instance>>([this] { return refreshAll(); }, std::move(done));
}

void SandboxProvider::getInstance(const QString &id, Callback<Instance> done)
{
    runJob<Instance>([this, id] { return refreshOne(id); }, std::move(done));
}

void SandboxProvider::launch(const LaunchRequest &request, Callback<QString> done)
{
    runJob<QString>([this, request] { return createInstance(request); }, std::move(done));
}

void SandboxProvider::restart(const QString &id, Callback<void> done)
{
    runJob<void>([this, id] { return restartInstance(id); }, std::move(done));
}

void SandboxProvider::terminate(const QString &id, Callback<void> done)
{
    runJob<void>([this, id] { return destroyInstance(id); }, std::move(done));
}

void SandboxProvider::listSshKeys(Callback<QList<SshKey>> done)
{
    runJob<QList<SshKey>>([this] { return loadKeys(); }, std::move(done));
}

void SandboxProvider::addSshKey(const QString &name, const QString &publicKey, Callback<SshKey> done)
{
    runJob<SshKey>([this, name, publicKey] { return storeKey(name, publicKey); }, std::move(done));
}

void SandboxProvider::deleteSshKey(const QString &idOrName, Callback<void> done)
{
    runJob<void>([this, idOrName] { return removeKey(idOrName); }, std::move(done));
}

void SandboxProvider::listImages(Callback<QList<Image>> done)
{
    deliver<QList<Image>>(std::move(done),
                          QList<Image>{Image{QStringLiteral("sandbox-local"), tr("This machine"), QStringLiteral("local"),
                                             tr("The operating system Gantry runs on"), QStringLiteral("local")}});
}

// ---- worker side ----

Result<QJsonObject> SandboxProvider::loadRecord(const QString &id) const
{
    QFile file(instanceDir(id) + QStringLiteral("/instance.json"));
    if (id.isEmpty() || id.contains(QLatin1Char('/')) || !file.open(QIODevice::ReadOnly)) {
        return Error{ErrorCode::Provider,
                     tr("Local sandbox: Specified instance does not exist. [global/object-does-not-exist] (%1)").arg(id)};
    }
    const QJsonObject record = QJsonDocument::fromJson(file.readAll()).object();
    if (record.value(QLatin1String("id")).toString() != id)
        return Error{ErrorCode::Provider, tr("Local sandbox: the record of instance %1 is damaged; terminate it.").arg(id)};
    return record;
}

Result<void> SandboxProvider::saveRecord(const QString &id, const QJsonObject &record) const
{
    return writeFile(instanceDir(id) + QStringLiteral("/instance.json"), QJsonDocument(record).toJson());
}

Instance SandboxProvider::toInstance(const QJsonObject &record) const
{
    Instance instance;
    instance.provider = QStringLiteral("sandbox");
    instance.id = record.value(QLatin1String("id")).toString();
    instance.name = record.value(QLatin1String("name")).toString();
    instance.typeName = record.value(QLatin1String("type")).toString();
    instance.region = record.value(QLatin1String("region")).toString();
    instance.providerStatus = record.value(QLatin1String("status")).toString();
    instance.state = instance.providerStatus == QLatin1String("active") ? InstanceState::Running : InstanceState::Booting;
    instance.pricePerHour = record.value(QLatin1String("price")).toDouble();
    instance.createdAt = QDateTime::fromString(record.value(QLatin1String("createdAt")).toString(), Qt::ISODateWithMs);
    instance.sshKeyNames = QStringList{record.value(QLatin1String("sshKey")).toString()};
    for (const InstanceType &type : instanceTypes()) {
        if (type.name == instance.typeName)
            instance.gpuDescription = type.description;
    }
    instance.sshUser = ssh::localUserName();
    if (instance.state == InstanceState::Running) {
        instance.sshHost = QStringLiteral("127.0.0.1");
        instance.sshPort = record.value(QLatin1String("port")).toInt();
    }
    // Gantry generated this sshd's host key itself: nothing for the user to compare.
    QFile hostKey(instanceDir(instance.id) + QStringLiteral("/host_ed25519.pub"));
    if (hostKey.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> fields = hostKey.readAll().simplified().split(' ');
        if (fields.size() >= 2)
            instance.hostKeyFingerprint = ssh::sha256Fingerprint(QByteArray::fromBase64(fields.at(1)));
    }
    return instance;
}

Result<QList<Instance>> SandboxProvider::refreshAll()
{
    QList<Instance> list;
    const QStringList ids = QDir(stateDir() + QStringLiteral("/instances")).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
    for (const QString &id : ids) {
        Result<Instance> instance = refreshOne(id);
        if (instance)
            list.append(*instance);
    }
    return list;
}

Result<Instance> SandboxProvider::refreshOne(const QString &id)
{
    Result<QJsonObject> record = loadRecord(id);
    if (!record)
        return record.error();
    if (record->value(QLatin1String("status")).toString() == QLatin1String("preempted"))
        return reportReclaimed(id, *record);
    Result<void> up = bringUp(id, &*record);
    Instance instance = toInstance(*record);
    if (!up) {
        instance.state = InstanceState::Unhealthy;
        instance.providerStatus = up.error().message;
        instance.sshHost.clear();
    }
    return instance;
}

Result<void> SandboxProvider::bringUp(const QString &id, QJsonObject *record)
{
    const QString status = record->value(QLatin1String("status")).toString();
    if (status == QLatin1String("booting")) {
        const QDateTime created = QDateTime::fromString(record->value(QLatin1String("createdAt")).toString(), Qt::ISODateWithMs);
        if (created.msecsTo(QDateTime::currentDateTimeUtc()) < m_options.bootDelayMs)
            return {};
    } else if (sshdAlive(id) || record->value(QLatin1String("unreachable")).toBool()) {
        return {};
    }
    Result<void> started = startSshd(id, record);
    if (!started)
        return started;
    record->insert(QStringLiteral("status"), QStringLiteral("active"));
    return saveRecord(id, *record);
}

bool SandboxProvider::sshdAlive(const QString &id) const
{
    QFile pidFile(instanceDir(id) + QStringLiteral("/sshd.pid"));
    if (!pidFile.open(QIODevice::ReadOnly))
        return false;
    const pid_t pid = pid_t(pidFile.readAll().trimmed().toInt());
    if (pid <= 0 || ::kill(pid, 0) != 0)
        return false;
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    return !cmdline.open(QIODevice::ReadOnly) || cmdline.readAll().contains("sshd");
}

void SandboxProvider::killSshd(const QString &id) const
{
    QFile pidFile(instanceDir(id) + QStringLiteral("/sshd.pid"));
    if (!pidFile.open(QIODevice::ReadOnly) || !sshdAlive(id))
        return;
    const pid_t pid = pid_t(pidFile.readAll().trimmed().toInt());
    ::kill(pid, SIGTERM);
    for (int i = 0; i < 50 && ::kill(pid, 0) == 0; ++i)
        QThread::msleep(20);
    QFile::remove(pidFile.fileName());
}

Result<void> SandboxProvider::startSshd(const QString &id, QJsonObject *record)
{
    const QString dir = instanceDir(id);
    const sandbox::InstanceHome home(dir, id);
    if (Result<void> prepared = home.prepare(gpuProfileOf(record->value(QLatin1String("type")).toString()),
                                             sandbox::findSftpServer(m_options.sshdPath));
        !prepared)
        return prepared;
    if (geteuid() == 0)
        QDir().mkpath(QStringLiteral("/run/sshd")); // privilege separation dir sshd insists on as root
    for (int attempt = 0; attempt < 3; ++attempt) {
        int port = record->value(QLatin1String("port")).toInt();
        if (attempt > 0 || port <= 0) {
            port = freeLoopbackPort();
            record->insert(QStringLiteral("port"), port);
            if (Result<void> saved = saveRecord(id, *record); !saved)
                return saved;
        }
        const QString config = QStringLiteral(
            "Port %1\nListenAddress 127.0.0.1\nHostKey %2/host_ed25519\nPidFile %2/sshd.pid\n"
            // The instance's own ~/.ssh/authorized_keys counts too, as on a rented machine (a
            // machine-to-machine copy authorises its one-time key there).
            "AuthorizedKeysFile %2/authorized_keys %4/.ssh/authorized_keys\nUsePAM no\nStrictModes no\nPubkeyAuthentication yes\n"
            "PasswordAuthentication no\nKbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
            "%3").arg(port).arg(dir, home.sshdConfig(), home.home());
        if (Result<void> written = writeFile(dir + QStringLiteral("/sshd_config"), config.toUtf8()); !written)
            return written;
        QProcess sshd;
        // Marked, so its sessions' sshd processes are found and ended with the instance.
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QLatin1StringView(sandbox::kInstanceMarker), id);
        sshd.setProcessEnvironment(environment);
        // Without -D sshd daemonises, so the instance survives this process (CLI and app restarts).
        sshd.start(m_options.sshdPath, {QStringLiteral("-f"), dir + QStringLiteral("/sshd_config"),
                                        QStringLiteral("-E"), dir + QStringLiteral("/sshd.log")});
        if (!sshd.waitForFinished(10000)) {
            return Error{ErrorCode::Provider, tr("Local sandbox: cannot run %1 (%2). Install openssh-server.")
                                                  .arg(m_options.sshdPath, sshd.errorString())};
        }
        if (sshd.exitCode() == 0 && portAnswers(port, 5000))
            return {};
    }
    QFile log(dir + QStringLiteral("/sshd.log"));
    log.open(QIODevice::ReadOnly);
    return Error{ErrorCode::Provider, tr("Local sandbox: sshd did not start: %1")
                                          .arg(QString::fromLocal8Bit(log.readAll()).trimmed().right(300))};
}

Result<QString> SandboxProvider::createInstance(const LaunchRequest &request)
{
    InstanceType type;
    for (const InstanceType &candidate : instanceTypes()) {
        if (candidate.name == request.typeName)
            type = candidate;
    }
    if (type.name.isEmpty()) {
        return Error{ErrorCode::Provider, tr("Local sandbox: unknown instance type \"%1\" (try sandbox-cpu). "
                                             "[global/invalid-parameters]").arg(request.typeName)};
    }
    if (!request.region.isEmpty() && request.region != QLatin1String("local")) {
        return Error{ErrorCode::Provider, tr("Local sandbox: Not enough capacity to fulfill launch request in "
                                             "region \"%1\"; the only region is \"local\". "
                                             "[instance-operations/launch/insufficient-capacity]").arg(request.region)};
    }
    Result<QString> gantryKey = ensureGantryKey(m_configDir);
    if (!gantryKey)
        return gantryKey.error();
    Result<QString> gantryPublic = readPublicKey(*gantryKey);
    if (!gantryPublic)
        return gantryPublic.error();
    QStringList authorized{*gantryPublic};
    const QString keyName = request.sshKeyName.isEmpty() ? QStringLiteral("gantry") : request.sshKeyName;
    Result<QList<SshKey>> keys = loadKeys();
    if (!keys)
        return keys.error();
    bool found = false;
    for (const SshKey &key : *keys) {
        if (key.name == keyName || key.id == keyName) {
            authorized.append(key.publicKey);
            found = true;
        }
    }
    if (!found) {
        return Error{ErrorCode::Provider, tr("Local sandbox: no SSH key named \"%1\". Add it with gantry-cli keys "
                                             "add --provider sandbox. [global/object-does-not-exist]").arg(keyName)};
    }

    const QString id = QString::fromLatin1(
        QCryptographicHash::hash(QByteArray(QByteArray::number(QRandomGenerator::global()->generate64())
                                                + QByteArray::number(QDateTime::currentMSecsSinceEpoch())),
                                 QCryptographicHash::Md5).toHex());
    const QString dir = instanceDir(id);
    if (!QDir().mkpath(dir))
        return Error{ErrorCode::Io, tr("Cannot create %1.").arg(dir)};
    auto fail = [&dir](const Error &error) -> Result<QString> {
        QDir(dir).removeRecursively();
        return error;
    };
    if (Result<void> hostKey = generateKeyPair(dir + QStringLiteral("/host_ed25519"), QStringLiteral("sandbox-host")); !hostKey)
        return fail(hostKey.error());
    authorized.removeDuplicates();
    if (Result<void> written = writeFile(dir + QStringLiteral("/authorized_keys"),
                                         (authorized.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8(),
                                         QFileDevice::ReadOwner | QFileDevice::WriteOwner); !written)
        return fail(written.error());
    const QJsonObject record{
        {QStringLiteral("id"), id},
        {QStringLiteral("name"), request.name.isEmpty() ? QStringLiteral("sandbox-") + id.left(6) : request.name},
        {QStringLiteral("type"), type.name},
        {QStringLiteral("region"), QStringLiteral("local")},
        {QStringLiteral("price"), type.pricePerHour},
        {QStringLiteral("status"), QStringLiteral("booting")},
        {QStringLiteral("sshKey"), keyName},
        {QStringLiteral("port"), 0},
        {QStringLiteral("createdAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
    };
    if (Result<void> saved = saveRecord(id, record); !saved)
        return fail(saved.error());
    return id;
}

Result<void> SandboxProvider::destroyInstance(const QString &id)
{
    Result<QJsonObject> record = loadRecord(id);
    if (!record)
        return record.error();
    killSshd(id);
    const sandbox::InstanceHome home(instanceDir(id), id);
    home.stopSessions(); // its jobs go with it, and then its home
    // Whatever a session or a job left running (a server under nohup, a setsid daemon, the sshd
    // of a session still open) ends with the instance, as it would on a cloud machine.
    home.endProcesses();
    if (!QDir(instanceDir(id)).removeRecursively())
        return Error{ErrorCode::Io, tr("Cannot delete %1.").arg(instanceDir(id))};
    return {};
}

Result<void> SandboxProvider::restartInstance(const QString &id)
{
    Result<QJsonObject> record = loadRecord(id);
    if (!record)
        return record.error();
    if (record->value(QLatin1String("status")).toString() != QLatin1String("active")) {
        return Error{ErrorCode::Provider, tr("Local sandbox: The request conflicts with the current state of the "
                                             "resource (it is still booting). [global/conflict]")};
    }
    killSshd(id);
    return startSshd(id, &*record);
}

Result<QList<SshKey>> SandboxProvider::loadKeys()
{
    QList<SshKey> keys;
    QFile file(stateDir() + QStringLiteral("/ssh_keys.json"));
    if (file.open(QIODevice::ReadOnly)) {
        const QJsonArray array = QJsonDocument::fromJson(file.readAll()).array();
        for (const QJsonValue &value : array) {
            const QJsonObject object = value.toObject();
            keys.append(SshKey{object.value(QLatin1String("id")).toString(), object.value(QLatin1String("name")).toString(),
                               object.value(QLatin1String("public_key")).toString(), {}});
        }
    }
    bool hasGantry = false;
    for (const SshKey &key : keys)
        hasGantry = hasGantry || key.name == QLatin1String("gantry");
    if (!hasGantry) {
        // The user's Gantry key is always registered, so a first launch needs no key setup.
        Result<QString> path = ensureGantryKey(m_configDir);
        if (!path)
            return path.error();
        Result<QString> publicKey = readPublicKey(*path);
        if (!publicKey)
            return publicKey.error();
        keys.prepend(SshKey{QStringLiteral("gantry"), QStringLiteral("gantry"), *publicKey, {}});
        if (Result<void> saved = saveKeys(keys); !saved)
            return saved.error();
    }
    return keys;
}

Result<void> SandboxProvider::saveKeys(const QList<SshKey> &keys)
{
    QJsonArray array;
    for (const SshKey &key : keys)
        array.append(QJsonObject{{QStringLiteral("id"), key.id}, {QStringLiteral("name"), key.name},
                                 {QStringLiteral("public_key"), key.publicKey}});
    QDir().mkpath(stateDir());
    return writeFile(stateDir() + QStringLiteral("/ssh_keys.json"), QJsonDocument(array).toJson());
}

Result<SshKey> SandboxProvider::storeKey(const QString &name, const QString &publicKey)
{
    if (name.trimmed().isEmpty() || name.size() > 64)
        return Error{ErrorCode::Usage, tr("An SSH key name must have 1 to 64 characters.")};
    Result<QList<SshKey>> keys = loadKeys();
    if (!keys)
        return keys.error();
    for (const SshKey &key : *keys) {
        if (key.name == name)
            return Error{ErrorCode::Provider, tr("Local sandbox: an SSH key named \"%1\" already exists. [global/duplicate]").arg(name)};
    }
    SshKey key;
    key.name = name;
    key.id = QString::fromLatin1(QCryptographicHash::hash(QByteArray(name.toUtf8() + QByteArray::number(QDateTime::currentMSecsSinceEpoch())),
                                                          QCryptographicHash::Md5).toHex());
    if (publicKey.trimmed().isEmpty()) {
        // Like Lambda: generate a pair, keep only the public half, hand the private one back once.
        const QString tmp = stateDir() + QStringLiteral("/keygen-") + key.id;
        if (Result<void> made = generateKeyPair(tmp, name); !made)
            return made.error();
        QFile privateFile(tmp);
        privateFile.open(QIODevice::ReadOnly);
        key.privateKey = QString::fromUtf8(privateFile.readAll());
        key.publicKey = readPublicKey(tmp).valueOr(QString());
        QFile::remove(tmp);
        QFile::remove(tmp + QStringLiteral(".pub"));
    } else {
        key.publicKey = publicKey.trimmed();
    }
    QList<SshKey> next = *keys;
    SshKey stored = key;
    stored.privateKey.clear();
    next.append(stored);
    if (Result<void> saved = saveKeys(next); !saved)
        return saved.error();
    return key;
}

Result<void> SandboxProvider::removeKey(const QString &idOrName)
{
    Result<QList<SshKey>> keys = loadKeys();
    if (!keys)
        return keys.error();
    QList<SshKey> next;
    for (const SshKey &key : *keys) {
        if (key.id != idOrName && key.name != idOrName)
            next.append(key);
    }
    if (next.size() == keys->size())
        return Error{ErrorCode::NotFound, tr("Local sandbox has no SSH key named \"%1\".").arg(idOrName)};
    return saveKeys(next);
}

} // namespace gantry::providers
