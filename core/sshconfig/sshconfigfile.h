#pragma once

#include "core/hosts/hoststore.h"
#include "core/sshconfig/managedblock.h"
#include "core/util/result.h"

#include <QString>

namespace gantry::sshconfig {

// The user's ssh config file with Gantry's managed block. Writes are atomic (QSaveFile), change
// nothing outside the block, keep the file's mode, and the first write saves a backup next to it.
class SshConfigFile final
{
public:
    explicit SshConfigFile(QString path = {}); // empty: ~/.ssh/config
    QString path() const { return m_path; }
    QString backupPath() const { return m_path + QStringLiteral(".gantry-backup"); }

    // Writes the block for entries; the value says whether the file changed (idempotent).
    Result<bool> sync(const QList<HostEntry> &entries);
    // Removes the whole block (turning the feature off).
    Result<bool> removeBlock();
    Result<QStringList> aliases() const;

private:
    Result<QByteArray> read() const;
    Result<bool> write(const QByteArray &before, const QByteArray &after);

    QString m_path;
};

// The entries for Gantry's hosts. Hosts imported from ~/.ssh/config are skipped: they are there.
HostEntry entryFor(const SavedHost &host);
QList<HostEntry> entriesFor(const QList<SavedHost> &hosts);

// The opt-in, remembered in <configDir>/sshconfig.json.
bool isSyncEnabled(const QString &configDir);
Result<void> setSyncEnabled(const QString &configDir, bool enabled);
// For the app: rewrites the block from the saved hosts when the user turned the feature on
// (call it after hosts change and after an instance is terminated); does nothing otherwise.
Result<bool> syncIfEnabled(const QString &configDir, const QList<SavedHost> &hosts, const QString &sshConfigPath = {});

} // namespace gantry::sshconfig
