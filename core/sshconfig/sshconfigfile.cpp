#include "core/sshconfig/sshconfigfile.h"
#include "core/sshconfig/sshconfigtext.h"

#include "core/util/paths.h"
#include "core/util/schemaversion.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QSaveFile>

namespace gantry::sshconfig {

SshConfigFile::SshConfigFile(QString path) : m_path(std::move(path))
{
    if (m_path.isEmpty())
        m_path = QDir(paths::userSshDir()).filePath(QStringLiteral("config"));
    // Dotfile managers symlink ~/.ssh/config: write the file the link points to, keep the link.
    const QFileInfo info(m_path);
    if (info.isSymLink())
        m_path = info.symLinkTarget();
}

Result<QByteArray> SshConfigFile::read() const
{
    QFile file(m_path);
    if (!file.exists())
        return QByteArray();
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, SshconfigText::tr("Cannot read %1: %2.").arg(m_path, file.errorString()));
    return file.readAll();
}

Result<bool> SshConfigFile::write(const QByteArray &before, const QByteArray &after)
{
    if (before == after)
        return false;
    const QFileInfo info(m_path);
    const bool existed = info.exists();
    // Only a directory Gantry creates gets 0700: `--file /tmp/x` must not lock up /tmp.
    if (!paths::makePrivateDir(info.absolutePath()))
        return makeError(ErrorCode::Io, SshconfigText::tr("Cannot create %1.").arg(info.absolutePath()));
    if (existed && !QFile::exists(backupPath())) {
        if (!QFile::copy(m_path, backupPath()))
            return makeError(ErrorCode::Io,
                             SshconfigText::tr("Cannot save a backup of %1 to %2; nothing was changed.").arg(m_path, backupPath()));
    }
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, SshconfigText::tr("Cannot write %1: %2.").arg(m_path, file.errorString()));
    // ssh refuses a config others can write; a new file is 0600 from its first byte (its temporary
    // file gets the mode before anything is written, not after the rename); an existing one keeps its own.
    if (!existed)
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(after);
    if (!file.commit())
        return makeError(ErrorCode::Io, SshconfigText::tr("Cannot write %1: %2.").arg(m_path, file.errorString()));
    return true;
}

Result<bool> SshConfigFile::sync(const QList<HostEntry> &entries)
{
    for (const HostEntry &entry : entries) {
        if (Result<void> checked = checkEntry(entry); !checked)
            return checked.error();
    }
    auto before = read();
    if (!before)
        return before.error();
    return write(*before, applyBlock(*before, entries));
}

Result<bool> SshConfigFile::removeBlock()
{
    return sync({});
}

Result<QStringList> SshConfigFile::aliases() const
{
    auto content = read();
    if (!content)
        return content.error();
    return managedAliases(*content);
}

HostEntry entryFor(const SavedHost &host)
{
    HostEntry e;
    e.alias = aliasFor(host.name);
    e.hostName = host.target.host;
    e.port = host.target.port;
    e.user = host.target.user;
    e.identityFiles = host.target.identityFiles;
    e.proxyJump = host.target.proxyJump;
    return e;
}

QList<HostEntry> entriesFor(const QList<SavedHost> &hosts)
{
    QList<HostEntry> entries;
    QStringList seen;
    for (const SavedHost &host : hosts) {
        if (host.source == u"ssh-config" || host.target.host.isEmpty())
            continue;
        HostEntry e = entryFor(host);
        if (seen.contains(e.alias))
            continue;
        seen.append(e.alias);
        entries.append(e);
    }
    return entries;
}

namespace {
constexpr int kSyncSettingsSchema = 1; // sshconfig.json's format; 1: every file so far

QString settingsPath(const QString &configDir)
{
    return QDir(configDir).filePath(QStringLiteral("sshconfig.json"));
}
} // namespace

bool isSyncEnabled(const QString &configDir)
{
    QFile file(settingsPath(configDir));
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // Read from a newer Gantry's file too (as far as it is understood): setSyncEnabled() will not replace it.
    const QJsonObject stored = QJsonDocument::fromJson(file.readAll()).object();
    return schema::upgrade(stored, kSyncSettingsSchema, file.fileName()).valueOr(stored).value(QStringLiteral("enabled")).toBool();
}

Result<void> setSyncEnabled(const QString &configDir, bool enabled)
{
    if (Result<void> replaceable = schema::checkReplaceable(settingsPath(configDir), kSyncSettingsSchema); !replaceable)
        return replaceable;
    QDir().mkpath(configDir);
    QSaveFile file(settingsPath(configDir));
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, SshconfigText::tr("Cannot write %1: %2.").arg(file.fileName(), file.errorString()));
    file.write(QJsonDocument(schema::stamped(QJsonObject{{QStringLiteral("enabled"), enabled}}, kSyncSettingsSchema)).toJson());
    if (!file.commit())
        return makeError(ErrorCode::Io, SshconfigText::tr("Cannot write %1: %2.").arg(file.fileName(), file.errorString()));
    return {};
}

Result<bool> syncIfEnabled(const QString &configDir, const QList<SavedHost> &hosts, const QString &sshConfigPath)
{
    if (!isSyncEnabled(configDir))
        return false;
    return SshConfigFile(sshConfigPath).sync(entriesFor(hosts));
}

} // namespace gantry::sshconfig
