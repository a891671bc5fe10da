// gantry-cli rename / rm against the real test sshd, hostile names included (a file called
// "-rf", one with a newline), and the shell quoting they rely on.

#include "clirun.h"
#include "sshdfixture.h"

#include "core/transfer/remotefileops.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;

namespace {
void writeText(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}
} // namespace

class TestRemoteCli : public QObject
{
    Q_OBJECT

private:
    test::SshdFixture m_sshd;
    QTemporaryDir m_remote;
    QTemporaryDir m_config;

    struct Run
    {
        int code = -1;
        QJsonObject json;
        QString err;
    };

    QString at(const QString &path) const
    {
        return QStringLiteral("%1@127.0.0.1:%2:%3").arg(m_sshd.user()).arg(m_sshd.port()).arg(path);
    }

    Run cli(const QStringList &args)
    {
        // The host options go right after the command, before any "--".
        QStringList full{QStringLiteral("--json"), args.first(), QStringLiteral("-i"), m_sshd.clientKeyPath(), QStringLiteral("--known-hosts"),
                         m_sshd.knownHostsPath()};
        full += args.mid(1);
        test::RunOptions options; // stdin is /dev/null, not a terminal: nobody to ask
        options.timeoutMs = 60000;
        const test::CliRun run = test::runCli(m_config.path(), full, options);
        Run r;
        r.code = run.code;
        r.err = QString::fromUtf8(run.err);
        for (const QByteArray &line : run.out.split('\n')) {
            const auto doc = QJsonDocument::fromJson(line);
            if (doc.isObject()) r.json = doc.object();
        }
        return r;
    }

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(QStringLiteral(GANTRY_CLI_PATH))) QSKIP("gantry-cli not built");
        const QString why = m_sshd.start();
        GANTRY_REQUIRE_SSHD(why);
    }

    void shellArgumentsAreNeverOptions()
    {
        QCOMPARE(transfer::shellPathArg(QStringLiteral("-rf")), QStringLiteral("./-rf"));
        QCOMPARE(transfer::shellPathArg(QStringLiteral("/data/-rf")), QStringLiteral("/data/-rf"));
        QVERIFY(!transfer::checkNewName(QStringLiteral("a/b")));
        QVERIFY(!transfer::checkNewName(QStringLiteral("..")));
        QVERIFY(transfer::checkNewName(QStringLiteral("-rf")));
        QVERIFY(transfer::checkNewName(QStringLiteral("line\nbreak")));
    }

    void renameHostileNames()
    {
        const QString base = m_remote.filePath(QStringLiteral("rename"));
        writeText(base + QStringLiteral("/-rf"), "dash");
        writeText(base + QStringLiteral("/other"), "other");

        Run r = cli({QStringLiteral("rename"), at(base + QStringLiteral("/-rf")), QStringLiteral("line\nbreak")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.json.value(QStringLiteral("event")).toString(), QStringLiteral("renamed"));
        QCOMPARE(r.json.value(QStringLiteral("to")).toString(), base + QStringLiteral("/line\nbreak"));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/line\nbreak")));

        // A new name that starts with '-' goes after "--".
        r = cli({QStringLiteral("rename"), at(base + QStringLiteral("/line\nbreak")), QStringLiteral("--"), QStringLiteral("-rf")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/-rf")));

        // Never replaces; never moves out of the folder.
        r = cli({QStringLiteral("rename"), at(base + QStringLiteral("/-rf")), QStringLiteral("other")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QStringLiteral("already exists")), qPrintable(r.err));
        QCOMPARE(QFileInfo(base + QStringLiteral("/other")).size(), 5);
        r = cli({QStringLiteral("rename"), at(base + QStringLiteral("/-rf")), QStringLiteral("../out")});
        QCOMPARE(r.code, 2);
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/-rf")));
    }

    void rmHostileNames()
    {
        const QString base = m_remote.filePath(QStringLiteral("rm"));
        writeText(base + QStringLiteral("/-rf/a.txt"), "a");
        writeText(base + QStringLiteral("/-rf/sub/b.txt"), "b");
        writeText(base + QStringLiteral("/keep.txt"), "keep");
        writeText(base + QStringLiteral("/new\nline.txt"), "n");

        // Nobody to ask and no --yes: nothing happens.
        Run r = cli({QStringLiteral("rm"), QStringLiteral("-r"), at(base + QStringLiteral("/-rf"))});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--yes")), qPrintable(r.err));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/-rf/a.txt")));

        // A folder needs -r.
        r = cli({QStringLiteral("rm"), QStringLiteral("--yes"), at(base + QStringLiteral("/-rf"))});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("-r")), qPrintable(r.err));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/-rf/a.txt")));

        r = cli({QStringLiteral("rm"), QStringLiteral("-r"), QStringLiteral("--yes"), at(base + QStringLiteral("/-rf"))});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.json.value(QStringLiteral("event")).toString(), QStringLiteral("removed"));
        QCOMPARE(r.json.value(QStringLiteral("files")).toInteger(), 2);
        QCOMPARE(r.json.value(QStringLiteral("folders")).toInteger(), 2);
        QVERIFY(!QFileInfo::exists(base + QStringLiteral("/-rf")));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/keep.txt")));

        r = cli({QStringLiteral("rm"), QStringLiteral("--yes"), at(base + QStringLiteral("/new\nline.txt"))});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(base + QStringLiteral("/new\nline.txt")));
        QVERIFY(QFileInfo::exists(base + QStringLiteral("/keep.txt")));

        r = cli({QStringLiteral("rm"), QStringLiteral("--yes"), at(base + QStringLiteral("/no-such-file"))});
        QCOMPARE(r.code, 1);
        QVERIFY(r.json.contains(QStringLiteral("error")));
    }
};

QTEST_MAIN(TestRemoteCli)
#include "test_remote_cli.moc"
