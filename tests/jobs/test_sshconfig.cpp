#include "core/sshconfig/managedblock.h"
#include "core/sshconfig/sshconfigfile.h"
#include "core/sshconfig/terminal.h"

#include "core/util/paths.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace gantry;
using namespace gantry::sshconfig;

Q_DECLARE_METATYPE(gantry::sshconfig::HostEntry)

// Never touches the real ~/.ssh/config: every file is in a temp dir.
class TestSshConfig final : public QObject
{
    Q_OBJECT

    static QByteArray readAll(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    static void write(const QString &path, const QByteArray &data)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    }

    static QList<HostEntry> entries()
    {
        HostEntry a{QStringLiteral("a100"), QStringLiteral("1.2.3.4"), 2222, QStringLiteral("root"),
                    {QStringLiteral("~/.ssh/id_ed25519")}, {}};
        HostEntry b{QStringLiteral("h100-box"), QStringLiteral("gpu.example.com"), 22, QStringLiteral("ubuntu"), {}, QStringLiteral("jump@bastion")};
        return {a, b};
    }

private slots:
    void roundTripKeepsUserBytes()
    {
        const QByteArray user = "# my config\r\nServerAliveInterval 30\nHost work\n    HostName w.example.com\n\tUser me\n\nHost *\n  ForwardAgent no";
        const QByteArray with = applyBlock(user, entries());
        QVERIFY(with.startsWith(kBlockBegin));
        QVERIFY(with.endsWith(user));
        QCOMPARE(managedAliases(with), (QStringList{QStringLiteral("a100"), QStringLiteral("h100-box")}));
        QVERIFY(with.contains("Host a100\n    HostName 1.2.3.4\n    Port 2222\n    User root\n    IdentityFile ~/.ssh/id_ed25519\n"));
        QVERIFY(with.contains("    ProxyJump jump@bastion\n"));
        QVERIFY(!with.contains("Port 22\n"));
        // Idempotent, replaced in place, removed cleanly.
        QCOMPARE(applyBlock(with, entries()), with);
        const QByteArray one = applyBlock(with, entries().mid(0, 1));
        QCOMPARE(managedAliases(one), QStringList{QStringLiteral("a100")});
        QVERIFY(one.endsWith(user));
        QCOMPARE(applyBlock(one, {}), user);
        QCOMPARE(applyBlock(user, {}), user);
        // A block the user moved to the end stays there.
        const QByteArray moved = user + "\n" + renderBlock(entries());
        QCOMPARE(applyBlock(moved, entries().mid(1)), user + "\n" + renderBlock(entries().mid(1)));
    }

    void fileWriterIsAtomicAndBacksUp()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ssh/config"));
        QDir().mkpath(dir.filePath(QStringLiteral("ssh")));
        const QByteArray user = "Host old\n  HostName o\n";
        write(path, user);
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        SshConfigFile file(path);
        auto changed = file.sync(entries());
        QVERIFY(changed.ok());
        QVERIFY(*changed);
        QCOMPARE(readAll(file.backupPath()), user);
        QVERIFY(readAll(path).endsWith(user));
        QCOMPARE(QFile::permissions(path) & (QFileDevice::ReadGroup | QFileDevice::ReadOther), QFileDevice::Permissions());
        QCOMPARE(*file.sync(entries()), false); // nothing to do
        QCOMPARE(*file.aliases(), (QStringList{QStringLiteral("a100"), QStringLiteral("h100-box")}));
        // The backup is the file as it was before Gantry first touched it, kept afterwards.
        QVERIFY(*file.removeBlock());
        QCOMPARE(readAll(path), user);
        QCOMPARE(readAll(file.backupPath()), user);
        // A new file is created with 0600.
        SshConfigFile fresh(dir.filePath(QStringLiteral("new/config")));
        QVERIFY(*fresh.sync(entries()));
        QCOMPARE(QFile::permissions(fresh.path()) & (QFileDevice::ReadOther | QFileDevice::ReadGroup), QFileDevice::Permissions());
        QVERIFY(!QFile::exists(fresh.backupPath()));
    }

    // Values that would end a line or leave a quote open in ssh_config are never written.
    void refusesWhatTheBlockCannotExpress_data()
    {
        QTest::addColumn<HostEntry>("entry");
        const HostEntry ok = entries().first();
        HostEntry e = ok;
        e.hostName = QStringLiteral("1.2.3.4\nProxyCommand=touch${IFS}~/pwned");
        QTest::newRow("newline in host") << e;
        e = ok;
        e.hostName = QStringLiteral("1.2.3.4 ProxyCommand=x");
        QTest::newRow("space in host") << e;
        e = ok;
        e.user = QStringLiteral("root\"\nProxyCommand x");
        QTest::newRow("quote in user") << e;
        e = ok;
        e.identityFiles = {QStringLiteral("/keys/my key\nProxyCommand x")};
        QTest::newRow("space and newline in key") << e;
        e = ok;
        e.identityFiles = {QStringLiteral("/keys/my \"key")};
        QTest::newRow("quote in key") << e;
        e = ok;
        e.proxyJump = QStringLiteral("jump@bastion\rProxyCommand x");
        QTest::newRow("CR in ProxyJump") << e;
        e = ok;
        e.alias = QStringLiteral("a\nb");
        QTest::newRow("newline in alias") << e;
        e = ok;
        e.port = 70000;
        QTest::newRow("port") << e;
    }

    void refusesWhatTheBlockCannotExpress()
    {
        QFETCH(HostEntry, entry);
        QVERIFY(!checkEntry(entry));
        QVERIFY2(checkEntry(entry).error().message.contains(QStringLiteral("hosts remove")), qPrintable(checkEntry(entry).error().message));
        // The renderer leaves it out; every line it writes has balanced quotes and is one directive.
        const QByteArray block = renderBlock({entries().first(), entry});
        QVERIFY(!block.contains("ProxyCommand"));
        for (const QByteArray &line : block.split('\n'))
            QVERIFY2(line.count('"') % 2 == 0, line.constData());
        QTemporaryDir dir;
        SshConfigFile file(dir.filePath(QStringLiteral("config")));
        auto synced = file.sync({entries().first(), entry});
        QVERIFY(!synced);
        QVERIFY(!QFile::exists(file.path()));
    }

    void writesSpacesAndPercentsSafely()
    {
        HostEntry e = entries().first();
        e.identityFiles = {QStringLiteral("/keys/my key%d")};
        QVERIFY(checkEntry(e));
        QVERIFY(renderBlock({e}).contains("    IdentityFile \"/keys/my key%%d\"\n"));
    }

    // Only what Gantry creates gets 0700: a shared 1777 directory keeps its mode.
    void modesOnlyOnWhatItCreates()
    {
        QTemporaryDir dir;
        const QByteArray shared = QFile::encodeName(dir.filePath(QStringLiteral("shared")));
        QVERIFY(::mkdir(shared.constData(), 0755) == 0);
        QVERIFY(::chmod(shared.constData(), 01777) == 0);
        struct stat st {};
        SshConfigFile file(QString::fromUtf8(shared) + QStringLiteral("/config"));
        QVERIFY(*file.sync(entries()));
        QVERIFY(::stat(shared.constData(), &st) == 0);
        QCOMPARE(int(st.st_mode & 07777), 01777);
        QCOMPARE(paths::configDir(QString::fromUtf8(shared)), QString::fromUtf8(shared));
        QVERIFY(::stat(shared.constData(), &st) == 0);
        QCOMPARE(int(st.st_mode & 07777), 01777);
        // What it does create is private.
        const QString created = QString::fromUtf8(shared) + QStringLiteral("/gantry-new");
        paths::configDir(created);
        QVERIFY(::stat(QFile::encodeName(created).constData(), &st) == 0);
        QCOMPARE(int(st.st_mode & 07777), 0700);
    }

    void entriesFromHostsAndOptIn()
    {
        SavedHost manual;
        manual.name = QStringLiteral("my box");
        manual.target.host = QStringLiteral("10.0.0.1");
        manual.target.user = QStringLiteral("root");
        SavedHost imported = manual;
        imported.name = QStringLiteral("imported");
        imported.source = QStringLiteral("ssh-config");
        const QList<HostEntry> list = entriesFor({manual, imported});
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.first().alias, QStringLiteral("my-box"));

        QTemporaryDir config;
        QTemporaryDir home;
        const QString path = home.filePath(QStringLiteral("config"));
        QCOMPARE(*syncIfEnabled(config.path(), {manual}, path), false);
        QVERIFY(!QFile::exists(path));
        QVERIFY(setSyncEnabled(config.path(), true).ok());
        QVERIFY(isSyncEnabled(config.path()));
        QCOMPARE(*syncIfEnabled(config.path(), {manual}, path), true);
        // The instance is terminated: its entry goes.
        QCOMPARE(*syncIfEnabled(config.path(), {}, path), true);
        QCOMPARE(readAll(path), QByteArray());
    }

    void terminalAndVsCode()
    {
        ssh::Target t;
        t.host = QStringLiteral("1.2.3.4");
        t.port = 2222;
        t.user = QStringLiteral("root");
        t.identityFiles = {QStringLiteral("/home/me/my keys/id")};
        QCOMPARE(sshCommandLine(t), (QStringList{QStringLiteral("ssh"), QStringLiteral("-p"), QStringLiteral("2222"), QStringLiteral("-i"),
                                                 QStringLiteral("/home/me/my keys/id"), QStringLiteral("root@1.2.3.4")}));
        QCOMPARE(sshCommandString(t), QStringLiteral("ssh -p 2222 -i '/home/me/my keys/id' root@1.2.3.4"));
        QProcessEnvironment env;
        auto only = [](const QString &name) { return [name](const QString &p) { return p == name ? QStringLiteral("/usr/bin/") + p : QString(); }; };
        auto konsole = terminalLaunch(t, env, only(QStringLiteral("konsole")));
        QVERIFY(konsole);
        QCOMPARE(konsole->program, QStringLiteral("/usr/bin/konsole"));
        QCOMPARE(konsole->arguments.mid(0, 2), (QStringList{QStringLiteral("-e"), QStringLiteral("ssh")}));
        auto gnome = terminalLaunch(t, env, only(QStringLiteral("gnome-terminal")));
        QCOMPARE(gnome->arguments.first(), QStringLiteral("--"));
        env.insert(QStringLiteral("TERMINAL"), QStringLiteral("kitty"));
        QCOMPARE(terminalLaunch(t, env, only(QStringLiteral("kitty")))->arguments.first(), QStringLiteral("ssh"));
        QVERIFY(!terminalLaunch(t, QProcessEnvironment(), [](const QString &) { return QString(); }));
        QCOMPARE(vscodeUri(QStringLiteral("a100"), QStringLiteral("/root/proj")).toString(),
                 QStringLiteral("vscode://vscode-remote/ssh-remote+a100/root/proj"));
        QCOMPARE(vscodeHost(t, {}), QStringLiteral("root@1.2.3.4"));
    }
};

QTEST_GUILESS_MAIN(TestSshConfig)
#include "test_sshconfig.moc"
