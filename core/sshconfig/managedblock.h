#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace gantry::sshconfig {

// One Host entry Gantry writes for a machine it knows.
struct HostEntry
{
    QString alias;          // what the user types: `ssh ALIAS`
    QString hostName;
    int port = 22;
    QString user;
    QStringList identityFiles;
    QString proxyJump;

    bool operator==(const HostEntry &other) const = default;
};

inline constexpr char kBlockBegin[] = "# >>> gantry managed >>>";
inline constexpr char kBlockEnd[] = "# <<< gantry managed <<<";

// Why an entry cannot be written safely: an alias that is not a plain word, or a host, user, port,
// key path or ProxyJump that ssh::checkTarget refuses (a newline would start a new directive, a
// quote would leave the line unclosed). Ok when it can be written.
Result<void> checkEntry(const HostEntry &entry);
// The block's text for these entries (empty entries: no block at all); entries checkEntry refuses
// are left out.
QByteArray renderBlock(const QList<HostEntry> &entries);
// config with the managed block replaced by one for entries (or removed when entries is empty).
// Bytes outside the block are kept as they are; a new block goes first so its entries win over
// the user's wildcard sections, and it ends with "Host *" so the user's leading global options
// still apply to every host.
QByteArray applyBlock(const QByteArray &config, const QList<HostEntry> &entries);
// The aliases currently in the block.
QStringList managedAliases(const QByteArray &config);
bool hasBlock(const QByteArray &config);

// A Host alias from a saved host's name: no spaces or characters ssh_config treats specially.
QString aliasFor(const QString &hostName);

} // namespace gantry::sshconfig
