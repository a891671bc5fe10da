// SPDX-License-Identifier: Apache-2.0
// The Jobs tab's Open box (Terminal, VS Code) hands off through core/handoff: what it starts is what
// `gantry-cli open HOST [--editor terminal] --print --json` prints for the same machine, and a
// missing program is a status naming the command to run instead. The Files tab's "Open terminal
// here" is checked against the same core in test_files_actions. HOME is the test's own, so
// ~/.ssh/config is never the user's; programs are only recorded, never started.
#include "clirun.h"
#include "sshdfixture.h"

#include "core/hosts/hoststore.h"
#include "core/jobs/jobservice.h"
#include "core/tunnel/tunnelmanager.h"
#include "ui/jobs/jobstab.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;

class TestHandoffTabs final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    QTemporaryDir m_config;
    QTemporaryDir m_bin;
    std::unique_ptr<HostStore> m_hosts;

    // gantry-cli's command for the machine, as it would start it.
    QJsonObject cliOpen(const QString &host, const QString &editor)
    {
        test::RunOptions options;
        options.env = QProcessEnvironment::systemEnvironment();
        options.env.insert(QStringLiteral("HOME"), m_home.path());
        options.env.insert(QStringLiteral("PATH"), m_bin.path() + QStringLiteral(":/usr/bin:/bin"));
        options.env.remove(QStringLiteral("TERMINAL"));
        const test::CliRun run = test::runCli(m_config.path(), {QStringLiteral("--json"), QStringLiteral("open"), host,
                                                                QStringLiteral("--editor"), editor, QStringLiteral("--print")},
                                              options);
        [&] { QCOMPARE(run.code, 0); }();
        return QJsonDocument::fromJson(run.out).object();
    }

    handoff::Desktop desktop(QString *program, QStringList *arguments) const
    {
        handoff::Desktop d;
        d.env = QProcessEnvironment();
        d.env.insert(QStringLiteral("HOME"), m_home.path());
        d.env.insert(QStringLiteral("PATH"), m_bin.path() + QStringLiteral(":/usr/bin:/bin"));
        d.start = [program, arguments](const QString &p, const QStringList &a) {
            *program = p;
            *arguments = a;
            return true;
        };
        return d;
    }

private slots:
    void initTestCase()
    {
        qputenv("HOME", m_home.path().toUtf8());
        m_hosts = std::make_unique<HostStore>(m_config.path());
        QVERIFY(m_hosts->load());
        SavedHost lab; // the user's own ~/.ssh/config Host: VS Code reaches it by that name
        lab.name = QStringLiteral("lab");
        lab.target.host = QStringLiteral("lab.example.org");
        lab.target.user = QStringLiteral("me");
        lab.source = QStringLiteral("ssh-config");
        QVERIFY(m_hosts->add(lab));
        SavedHost box; // no alias: a terminal gets its whole ssh command, VS Code a reason
        box.name = QStringLiteral("box");
        box.target.host = QStringLiteral("10.0.0.7");
        box.target.port = 2222;
        box.target.user = QStringLiteral("ubuntu");
        box.source = QStringLiteral("manual");
        QVERIFY(m_hosts->add(box));
        for (const char *name : {"code", "xterm"})
            QVERIFY(test::writeScript(m_bin.filePath(QString::fromLatin1(name)), QStringLiteral("#!/bin/sh\nexit 0\n")));
    }

    void jobsTabOpensWhatTheCliOpens_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("editor");
        QTest::newRow("VS Code on an ssh config host") << QStringLiteral("lab") << QStringLiteral("code");
        QTest::newRow("terminal on an ssh config host") << QStringLiteral("lab") << QStringLiteral("terminal");
        QTest::newRow("terminal on a host without alias") << QStringLiteral("box") << QStringLiteral("terminal");
    }

    void jobsTabOpensWhatTheCliOpens()
    {
        QFETCH(QString, host);
        QFETCH(QString, editor);
        jobs::JobService service([](const QString &, ssh::Target *, ssh::ConnectOptions *) { return false; });
        tunnel::TunnelManager tunnels;
        ui::AppContext context;
        context.configDir = m_config.path();
        context.hosts = m_hosts.get();
        ui::JobsTab tab(context, &service, &tunnels);
        QString program;
        QStringList arguments;
        tab.setDesktop(desktop(&program, &arguments));
        tab.setMachine(*m_hosts->find(host), nullptr);
        if (editor == QLatin1String("code"))
            tab.openVsCode();
        else
            tab.openTerminal();
        QTRY_VERIFY_WITH_TIMEOUT(!program.isEmpty(), 5000);
        const QJsonObject cli = cliOpen(host, editor);
        QCOMPARE(program, cli.value(QLatin1String("program")).toString());
        QCOMPARE(QJsonArray::fromStringList(arguments), cli.value(QLatin1String("arguments")).toArray());
        // The status shows the command the user could type.
        QVERIFY2(tab.statusText().contains(cli.value(QLatin1String("command")).toString()), qPrintable(tab.statusText()));
    }

    void vsCodeWithoutAnAliasSaysWhatToTurnOn()
    {
        jobs::JobService service([](const QString &, ssh::Target *, ssh::ConnectOptions *) { return false; });
        tunnel::TunnelManager tunnels;
        ui::AppContext context;
        context.configDir = m_config.path();
        context.hosts = m_hosts.get();
        ui::JobsTab tab(context, &service, &tunnels);
        QString program;
        QStringList arguments;
        tab.setDesktop(desktop(&program, &arguments));
        tab.setMachine(*m_hosts->find(QStringLiteral("box")), nullptr);
        tab.openVsCode();
        QTRY_VERIFY_WITH_TIMEOUT(tab.statusText().contains(QLatin1String("~/.ssh/config")), 5000);
        QVERIFY(program.isEmpty());
        QVERIFY2(!tab.statusText().contains(QLatin1String("gantry-cli")), qPrintable(tab.statusText()));
    }
};

QTEST_MAIN(TestHandoffTabs)
#include "test_handoff_tabs.moc"
