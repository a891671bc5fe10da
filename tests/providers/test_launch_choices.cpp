// SPDX-License-Identifier: Apache-2.0
// What a launch offers the user before and after the provider answers: the SSH key preselected
// (one whose private half is on this computer; the others marked) and, after a marketplace offer
// was taken, the equivalent offers. Real key pairs on disk, written by Gantry's one generator.
#include "core/providers/gantrykey.h"
#include "core/providers/keychoice.h"
#include "core/providers/pricegroups.h"
#include "core/ssh/keygen.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::providers;

namespace {

QString makePair(const QString &path)
{
    Result<ssh::GeneratedKey> key = ssh::generateEd25519Key(path, QStringLiteral("someone@laptop"));
    return key ? key->publicKey : QString();
}

InstanceType offer(const QString &id, const QString &gpu, int count, double price, bool available = true)
{
    InstanceType type;
    type.provider = QStringLiteral("vast");
    type.name = id;
    type.gpuModel = gpu;
    type.gpuCount = count;
    type.pricePerHour = price;
    if (available)
        type.regionsWithCapacity = {Region{QStringLiteral("Texas, US"), {}}};
    return type;
}

QStringList names(const QList<InstanceType> &types)
{
    QStringList out;
    for (const InstanceType &type : types)
        out.append(type.name);
    return out;
}

} // namespace

class TestLaunchChoices final : public QObject
{
    Q_OBJECT

private slots:
    void keyMaterialIgnoresCommentAndOptions()
    {
        QCOMPARE(keyMaterial(QStringLiteral("ssh-ed25519 AAAAC3Nz laptop")), QStringLiteral("ssh-ed25519 AAAAC3Nz"));
        QCOMPARE(keyMaterial(QStringLiteral("  ssh-rsa AAAAB3 my key with spaces \n")), QStringLiteral("ssh-rsa AAAAB3"));
        QCOMPARE(keyMaterial(QStringLiteral("no-pty,from=\"10.0.0.1\" ecdsa-sha2-nistp256 AAAAE2 x")),
                 QStringLiteral("ecdsa-sha2-nistp256 AAAAE2"));
        QVERIFY(keyMaterial(QStringLiteral("not a key")).isEmpty());
        QVERIFY(keyMaterial(QString()).isEmpty());
    }

    // The provider's own key ("console-key") has no private half here; the user's default key and
    // Gantry's own do: Gantry's is preselected, the user's is usable, the console key is marked.
    void preselectsAKeyWhosePrivateHalfIsHere()
    {
        QTemporaryDir config;
        QTemporaryDir home;
        const QString sshDir = home.filePath(QStringLiteral(".ssh"));
        QVERIFY(QDir().mkpath(sshDir));
        const QString userKey = makePair(sshDir + QStringLiteral("/id_ed25519"));
        const QString otherKey = makePair(sshDir + QStringLiteral("/a_work_key"));
        QVERIFY(!userKey.isEmpty() && !otherKey.isEmpty());
        // A public half whose private half is gone (copied from another computer) counts for nothing.
        const QString orphan = makePair(sshDir + QStringLiteral("/old"));
        QVERIFY(QFile::remove(sshDir + QStringLiteral("/old")));
        QVERIFY(ensureGantryKey(config.path()));
        const QString gantryKey = *readPublicKey(gantryKeyPath(config.path()));

        const QList<LocalKeyPair> local = localKeyPairs(config.path(), sshDir);
        QCOMPARE(local.size(), 3);
        QCOMPARE(local.at(0).privateKeyPath, gantryKeyPath(config.path()));
        QCOMPARE(local.at(1).privateKeyPath, sshDir + QStringLiteral("/id_ed25519")); // default names before the rest
        QCOMPARE(local.at(2).privateKeyPath, sshDir + QStringLiteral("/a_work_key"));

        // The account's names and comments differ from the files': only the key material matches.
        const QString renamed = keyMaterial(userKey) + QStringLiteral(" uploaded-from-console");
        const QList<SshKey> account{SshKey{QStringLiteral("k1"), QStringLiteral("console-key"),
                                           QStringLiteral("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeFakeFake laptop"), {}},
                                    SshKey{QStringLiteral("k2"), QStringLiteral("orphan"), orphan, {}},
                                    SshKey{QStringLiteral("k3"), QStringLiteral("my-laptop"), renamed, {}},
                                    SshKey{QStringLiteral("k4"), QStringLiteral("gantry-box"), gantryKey, {}}};
        KeyChoice choice = chooseKey(account, local);
        QCOMPARE(choice.options.size(), 4);
        QVERIFY(!choice.options.at(0).usable());
        QVERIFY(!choice.options.at(1).usable());
        QCOMPARE(choice.options.at(2).privateKeyPath, sshDir + QStringLiteral("/id_ed25519"));
        QCOMPARE(choice.preferred, 3); // Gantry's own pair, made for this
        QCOMPARE(findKeyOption(choice, QStringLiteral("k3"))->key.name, QStringLiteral("my-laptop"));
        QVERIFY(!findKeyOption(choice, QStringLiteral("nope")));

        // Without Gantry's key at the provider, the user's default key is the choice.
        choice = chooseKey(account.mid(0, 3), local);
        QCOMPARE(choice.preferred, 2);
        // Only keys from elsewhere: nothing to preselect (the dialog offers to generate and upload).
        choice = chooseKey(account.mid(0, 2), local);
        QCOMPARE(choice.preferred, -1);
        QVERIFY(chooseKey({}, local).options.isEmpty());
    }

    // After offer 302 was taken: the same GPU model and count, rentable, cheapest first; not the
    // taken ones, not another count, not another H100 form factor.
    void equivalentOffersAreTheSameGpuAndCount()
    {
        const QList<InstanceType> offers{offer(QStringLiteral("301"), QStringLiteral("H100 SXM"), 1, 2.25),
                                         offer(QStringLiteral("302"), QStringLiteral("H100 SXM"), 1, 1.95),
                                         offer(QStringLiteral("303"), QStringLiteral("H100 PCIE"), 1, 1.69),
                                         offer(QStringLiteral("304"), QStringLiteral("H100 SXM"), 2, 4.10),
                                         offer(QStringLiteral("305"), QStringLiteral("H100 SXM"), 1, 2.10),
                                         offer(QStringLiteral("306"), QStringLiteral("H100 SXM"), 1, 1.80, false),
                                         offer(QStringLiteral("307"), QStringLiteral("NVIDIA H100 80GB HBM3"), 1, 2.40),
                                         offer(QStringLiteral("308"), QStringLiteral("H100 SXM"), 1, 2.30)};
        const InstanceType taken = offers.at(1);
        QCOMPARE(names(equivalentOffers(offers, taken, {QStringLiteral("302")})),
                 (QStringList{QStringLiteral("305"), QStringLiteral("301"), QStringLiteral("308"), QStringLiteral("307")}));
        QCOMPARE(names(equivalentOffers(offers, taken, {QStringLiteral("302"), QStringLiteral("305")}, 2)),
                 (QStringList{QStringLiteral("301"), QStringLiteral("308")}));
        // A group row ("H100 SXMx1", the dialog's entry) finds the same offers.
        const QList<InstanceType> rows = groupRows(offers);
        const auto row = std::find_if(rows.cbegin(), rows.cend(), [](const InstanceType &t) {
            return t.name == QLatin1String("H100 SXMx1");
        });
        QVERIFY(row != rows.cend());
        QCOMPARE(equivalentOffers(offers, *row, {QStringLiteral("302")}).size(), 4);
        QVERIFY(equivalentOffers(offers, offers.at(3), {QStringLiteral("304")}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLaunchChoices)
#include "test_launch_choices.moc"
