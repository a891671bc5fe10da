// SPDX-License-Identifier: Apache-2.0
#include "core/providers/keychoice.h"

#include "core/providers/gantrykey.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace gantry::providers {
namespace {

// Where a pair's file name puts it in the launch's preference (lower first).
int defaultRank(const QString &fileName)
{
    static const QStringList defaults{QStringLiteral("id_ed25519"), QStringLiteral("id_ecdsa"), QStringLiteral("id_rsa")};
    const qsizetype index = defaults.indexOf(fileName);
    return index < 0 ? int(defaults.size()) : int(index);
}

QList<LocalKeyPair> pairsIn(const QString &dir, bool gantry)
{
    QList<LocalKeyPair> pairs;
    const QStringList pubs = QDir(dir).entryList({QStringLiteral("*.pub")}, QDir::Files, QDir::Name);
    for (const QString &pub : pubs) {
        const QString privatePath = QDir(dir).absoluteFilePath(pub.chopped(4));
        if (!QFileInfo(privatePath).isFile())
            continue;
        QFile file(QDir(dir).absoluteFilePath(pub));
        if (file.size() > 64 * 1024 || !file.open(QIODevice::ReadOnly))
            continue;
        const QString material = keyMaterial(QString::fromUtf8(file.readAll()));
        if (!material.isEmpty())
            pairs.append(LocalKeyPair{privatePath, material, gantry});
    }
    return pairs;
}

} // namespace

QString keyMaterial(const QString &publicKeyLine)
{
    const QStringList fields = publicKeyLine.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    // An authorized_keys line may start with options; the type is the field before the blob.
    for (qsizetype i = 0; i + 1 < fields.size(); ++i) {
        const QString &type = fields.at(i);
        if (type.startsWith(QLatin1String("ssh-")) || type.startsWith(QLatin1String("ecdsa-"))
            || type.startsWith(QLatin1String("sk-")))
            return type + QLatin1Char(' ') + fields.at(i + 1);
    }
    return {};
}

QList<LocalKeyPair> localKeyPairs(const QString &configDir, const QString &sshDir)
{
    QList<LocalKeyPair> pairs;
    if (!configDir.isEmpty())
        pairs = pairsIn(QFileInfo(gantryKeyPath(configDir)).absolutePath(), true);
    QList<LocalKeyPair> user = pairsIn(sshDir, false);
    std::stable_sort(user.begin(), user.end(), [](const LocalKeyPair &a, const LocalKeyPair &b) {
        return defaultRank(QFileInfo(a.privateKeyPath).fileName()) < defaultRank(QFileInfo(b.privateKeyPath).fileName());
    });
    // Gantry's own pair before the other files in its folder (those are throw-away pairs a provider made).
    std::stable_partition(pairs.begin(), pairs.end(), [&configDir](const LocalKeyPair &pair) {
        return pair.privateKeyPath == QFileInfo(gantryKeyPath(configDir)).absoluteFilePath();
    });
    return pairs + user;
}

KeyChoice chooseKey(const QList<SshKey> &accountKeys, const QList<LocalKeyPair> &local)
{
    KeyChoice choice;
    int bestRank = int(local.size());
    for (const SshKey &key : accountKeys) {
        KeyOption option{key, {}};
        const QString material = keyMaterial(key.publicKey);
        for (qsizetype rank = 0; !material.isEmpty() && rank < local.size(); ++rank) {
            if (local.at(rank).material != material)
                continue;
            option.privateKeyPath = local.at(rank).privateKeyPath;
            if (rank < bestRank) {
                bestRank = int(rank);
                choice.preferred = int(choice.options.size());
            }
            break;
        }
        choice.options.append(option);
    }
    return choice;
}

const KeyOption *findKeyOption(const KeyChoice &choice, const QString &name)
{
    for (const KeyOption &option : choice.options) {
        if (option.key.name == name || (!option.key.id.isEmpty() && option.key.id == name))
            return &option;
    }
    return nullptr;
}

} // namespace gantry::providers
