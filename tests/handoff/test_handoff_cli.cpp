// SPDX-License-Identifier: Apache-2.0
// gantry-cli open and edit as a user runs them: commands printed (--print, --json), VS Code
// started through a fake `code` on PATH, and a remote file edited against the real test sshd with a
// fake $EDITOR. HOME is a folder of the test's, so ~/.ssh/config is never the user's.

#include "clirun.h"
#include "sshdfixture.h"

#include "core/hosts/hoststore.h"
#include "core/sshconfig/sshconfigfile.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::test;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

} // namespace

class TestHandoffCli : public QObject
{
    Q_OBJECT

private:
    SshdFixture m_sshd;
    QTemporaryDir m_home;
    QTemporaryDir m_config;
    QTemporaryDir m_bin;

    RunOptions options(const QHash<QString, QString> &vars = {})
    {
        RunOptions o;
        o.env = QProcessEnvironment::systemEnvironment();
        o.env.insert(QStringLiteral("HOME"), m_home.path());
        o.env.insert(QStringLiteral("PATH"), m_bin.path() + QStringLiteral(":/usr/bin:/bin"));
        o.env.remove(QStringLiteral("VISUAL"));
        for (auto it = vars.begin(); it != vars.end(); ++it)
            o.env.insert(it.key(), it.value());
        o.timeoutMs = 60000;
        return o;
    }

private slots:
    void initTestCase()
    {
        GANTRY_REQUIRE_SSHD(m_sshd.start());
        HostStore hosts(m_config.path());
        SavedHost lab;
        lab.name = QStringLiteral("lab");
        lab.target.host = QStringLiteral("lab.example.org");
        lab.target.user = QStringLiteral("me");
        lab.source = QStringLiteral("ssh-config"); // the user's own Host entry
        QVERIFY(hosts.add(lab));
        SavedHost fixture;
        fixture.name = QStringLiteral("fixture box");
        fixture.target = m_sshd.target();
        fixture.source = QStringLiteral("manual");
        QVERIFY(hosts.add(fixture));
        // A fake code that records its arguments.
        QVERIFY(writeScript(m_bin.filePath(QStringLiteral("code")),
                            QStringLiteral("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '%1.tmp'; mv '%1.tmp' '%1'\n")
                                .arg(m_bin.filePath(QStringLiteral("code-argv")))));
    }

    void openPrintsTheCommand()
    {
        CliRun run = runCli(m_config.path(), {QStringLiteral("open"), QStringLiteral("lab"), QStringLiteral("/srv/data"), QStringLiteral("--print")}, options());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out.trimmed(), QByteArray("code --remote ssh-remote+lab /srv/data"));

        run = runCli(m_config.path(), {QStringLiteral("--json"), QStringLiteral("open"), QStringLiteral("lab"), QStringLiteral("--editor"),
                                       QStringLiteral("cursor"), QStringLiteral("--print")}, options());
        QCOMPARE(run.code, 0);
        const QJsonObject json = run.json();
        QCOMPARE(json.value(QStringLiteral("tool")).toString(), QStringLiteral("cursor"));
        QCOMPARE(json.value(QStringLiteral("found")).toBool(), false); // no cursor on this PATH
        QCOMPARE(json.value(QStringLiteral("command")).toString(), QStringLiteral("cursor --remote ssh-remote+lab"));
        QCOMPARE(json.value(QStringLiteral("arguments")).toArray().toVariantList(),
                 (QVariantList{QStringLiteral("--remote"), QStringLiteral("ssh-remote+lab")}));

        run = runCli(m_config.path(), {QStringLiteral("open"), QStringLiteral("lab"), QStringLiteral("/data/run 1"), QStringLiteral("--editor"),
                                       QStringLiteral("terminal"), QStringLiteral("--print")}, options());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out.trimmed(), QByteArray("ssh -t lab 'cd -- '\\''/data/run 1'\\'' && exec \"$SHELL\" -l'"));
    }

    void openStartsTheEditorOrSaysWhatIsMissing()
    {
        CliRun run = runCli(m_config.path(), {QStringLiteral("--json"), QStringLiteral("open"), QStringLiteral("lab"), QStringLiteral("/srv")}, options());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.json().value(QStringLiteral("event")).toString(), QStringLiteral("opened"));
        QTRY_COMPARE_WITH_TIMEOUT(readAll(m_bin.filePath(QStringLiteral("code-argv"))), QByteArray("--remote\nssh-remote+lab\n/srv\n"), 10000);

        run = runCli(m_config.path(), {QStringLiteral("open"), QStringLiteral("lab"), QStringLiteral("--editor"), QStringLiteral("cursor")}, options());
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("is not on PATH") && run.err.contains("cursor --remote ssh-remote+lab"), run.err.constData());

        // A Gantry host with no ~/.ssh/config entry yet: what to run.
        run = runCli(m_config.path(), {QStringLiteral("open"), QStringLiteral("fixture box"), QStringLiteral("--print")}, options());
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains("gantry-cli ssh-config sync"), run.err.constData());
        QCOMPARE(runCli(m_config.path(), {QStringLiteral("ssh-config"), QStringLiteral("sync")}, options()).code, 0);
        run = runCli(m_config.path(), {QStringLiteral("open"), QStringLiteral("fixture box"), QStringLiteral("--print")}, options());
        QCOMPARE(run.code, 0);
        QCOMPARE(run.out.trimmed(), QByteArray("code --remote ssh-remote+fixture-box"));
    }

    void openRefusesWhatCouldBeAnOption()
    {
        CliRun run = runCli(m_config.path(), {QStringLiteral("open"), QStringLiteral("--print"), QStringLiteral("--"),
                                              QStringLiteral("-oProxyCommand=x")}, options());
        QVERIFY(run.code != 0);
        QVERIFY2(run.err.contains("starts with '-'"), run.err.constData());
        run = runCli(m_config.path(), {QStringLiteral("open"), QStringLiteral("lab"), QStringLiteral("relative"), QStringLiteral("--print")}, options());
        QVERIFY(run.code != 0);
        QVERIFY2(run.err.contains("not absolute"), run.err.constData());
        run = runCli(m_config.path(), {QStringLiteral("open"), QStringLiteral("lab"), QStringLiteral("--editor"), QStringLiteral("emacs")}, options());
        QCOMPARE(run.code, 2);
    }

    void editUploadsWhatTheEditorSaved()
    {
        QTemporaryDir remote;
        const QString file = remote.filePath(QStringLiteral("job.sh"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\necho train\n");
        f.close();
        // The editor appends a line and exits, as a user who saves and quits.
        QVERIFY(writeScript(m_bin.filePath(QStringLiteral("append-editor")),
                            QStringLiteral("#!/bin/sh\nprintf 'echo done\\n' >> \"$1\"\n")));
        const CliRun run = runCli(m_config.path(),
                                  {QStringLiteral("--json"), QStringLiteral("edit"), QStringLiteral("fixture box:") + file, QStringLiteral("--known-hosts"),
                                   m_sshd.knownHostsPath()},
                                  options({{QStringLiteral("EDITOR"), QStringLiteral("append-editor")}}));
        QVERIFY2(run.code == 0, QByteArray("exit " + QByteArray::number(run.code) + ": " + run.err + run.out).constData());
        QCOMPARE(readAll(file), QByteArray("#!/bin/sh\necho train\necho done\n"));
        const QList<QJsonObject> events = run.lines();
        QCOMPARE(events.constLast().value(QStringLiteral("event")).toString(), QStringLiteral("ended"));
        QCOMPARE(events.constLast().value(QStringLiteral("uploads")).toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(TestHandoffCli)
#include "test_handoff_cli.moc"
