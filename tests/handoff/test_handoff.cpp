// SPDX-License-Identifier: Apache-2.0
// The hand-offs' commands without launching a real application: VS Code, Cursor and terminals are
// looked up on a PATH the test controls, and a fake `code` records the arguments it was started with.

#include "sshdfixture.h"

#include "core/handoff/editor.h"
#include "core/handoff/handoff.h"
#include "core/sshconfig/sshconfigfile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gantry;
using namespace gantry::handoff;

namespace {

// A desktop whose PATH is one folder of the test's, nothing else.
Desktop desktopWith(const QString &bin, const QHash<QString, QString> &vars = {})
{
    Desktop desktop;
    desktop.env = QProcessEnvironment();
    desktop.env.insert(QStringLiteral("PATH"), bin);
    for (auto it = vars.begin(); it != vars.end(); ++it)
        desktop.env.insert(it.key(), it.value());
    return desktop;
}

// A program that writes its arguments, one a line, to OUT.
bool writeRecorder(const QString &path, const QString &out)
{
    return test::writeScript(path, QStringLiteral("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '%1.tmp'\n"
                                                  "mv '%1.tmp' '%1'\n").arg(out));
}

QStringList readLines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll()).split(u'\n', Qt::SkipEmptyParts);
}

SavedHost manualHost(const QString &name, const QString &address, int port = 22)
{
    SavedHost host;
    host.name = name;
    host.target.host = address;
    host.target.port = port;
    host.target.user = QStringLiteral("root");
    host.source = QStringLiteral("manual");
    return host;
}

} // namespace

class TestHandoff : public QObject
{
    Q_OBJECT

private slots:
    void editorsGetTheAliasAndThePath()
    {
        QTemporaryDir bin;
        QVERIFY(writeRecorder(bin.filePath(QStringLiteral("code")), bin.filePath(QStringLiteral("argv"))));
        const Desktop desktop = desktopWith(bin.path());
        auto code = launchFor(Tool::VsCode, QStringLiteral("a100"), QStringLiteral("/root/my proj"), desktop);
        QVERIFY(code);
        QVERIFY(code->found);
        QCOMPARE(code->program, bin.filePath(QStringLiteral("code")));
        QCOMPARE(code->arguments, (QStringList{QStringLiteral("--remote"), QStringLiteral("ssh-remote+a100"), QStringLiteral("/root/my proj")}));
        QCOMPARE(code->commandLine, QStringLiteral("code --remote ssh-remote+a100 '/root/my proj'"));
        // Started for real: the fake code saw exactly these arguments (no shell in between).
        QVERIFY(start(*code, desktop));
        QTRY_COMPARE_WITH_TIMEOUT(readLines(bin.filePath(QStringLiteral("argv"))), code->arguments, 10000);

        // No path: the remote window opens without a folder.
        QCOMPARE(launchFor(Tool::VsCode, QStringLiteral("a100"), {}, desktop)->arguments,
                 (QStringList{QStringLiteral("--remote"), QStringLiteral("ssh-remote+a100")}));
    }

    void aMissingEditorSaysSoAndGivesTheCommand()
    {
        QTemporaryDir bin; // empty: no cursor here
        const Desktop desktop = desktopWith(bin.path());
        auto cursor = launchFor(Tool::Cursor, QStringLiteral("h100-box"), QStringLiteral("/workspace"), desktop);
        QVERIFY(cursor);
        QVERIFY(!cursor->found);
        QCOMPARE(cursor->commandLine, QStringLiteral("cursor --remote ssh-remote+h100-box /workspace"));
        const Result<void> started = start(*cursor, desktop);
        QVERIFY(!started);
        QCOMPARE(started.error().code, ErrorCode::NotFound);
        QVERIFY2(started.error().message.contains(QStringLiteral("not on PATH")), qPrintable(started.error().message));
        QVERIFY2(started.error().message.contains(cursor->commandLine), qPrintable(started.error().message));
    }

    void terminalsRunSshWithTheAlias()
    {
        QTemporaryDir bin;
        for (const char *name : {"xterm", "konsole", "gnome-terminal", "kitty"})
            QVERIFY(test::writeScript(bin.filePath(QString::fromLatin1(name)), QStringLiteral("#!/bin/sh\nexit 0\n")));
        // $TERMINAL wins over the list; kitty takes the command as it is.
        auto kitty = launchFor(Tool::Terminal, QStringLiteral("a100"), {}, desktopWith(bin.path(), {{QStringLiteral("TERMINAL"), QStringLiteral("kitty")}}));
        QCOMPARE(kitty->program, bin.filePath(QStringLiteral("kitty")));
        QCOMPARE(kitty->arguments, (QStringList{QStringLiteral("ssh"), QStringLiteral("a100")}));
        QCOMPARE(kitty->commandLine, QStringLiteral("ssh a100"));
        // Else the first of the list that is there: gnome-terminal before konsole and xterm.
        auto gnome = launchFor(Tool::Terminal, QStringLiteral("a100"), QStringLiteral("/data/run 1"), desktopWith(bin.path()));
        QCOMPARE(gnome->program, bin.filePath(QStringLiteral("gnome-terminal")));
        QCOMPARE(gnome->arguments, (QStringList{QStringLiteral("--"), QStringLiteral("ssh"), QStringLiteral("-t"), QStringLiteral("a100"),
                                                QStringLiteral("cd -- '/data/run 1' && exec \"$SHELL\" -l")}));
        // None at all: the ssh line to copy.
        QTemporaryDir empty;
        auto none = launchFor(Tool::Terminal, QStringLiteral("a100"), {}, desktopWith(empty.path()));
        QVERIFY(!none->found);
        const Result<void> started = start(*none);
        QVERIFY(!started);
        QVERIFY2(started.error().message.contains(QStringLiteral("Run this in a terminal instead: ssh a100")), qPrintable(started.error().message));
    }

    void hostsAndPathsThatCouldBeOptionsAreRefused()
    {
        for (const QString &bad : {QStringLiteral("-oProxyCommand=touch /tmp/x"), QStringLiteral("a b"), QStringLiteral("a\nb"),
                                   QStringLiteral("a\tb"), QString(), QStringLiteral("a\x1b[2Jb")}) {
            QVERIFY2(!checkAlias(bad), qPrintable(bad));
            QVERIFY(!launchFor(Tool::VsCode, bad, {}, desktopWith(QDir::tempPath())));
        }
        QVERIFY(checkAlias(QStringLiteral("gpu-box.1")));
        QVERIFY(checkAlias(QStringLiteral("root@10.0.0.1")));
        for (const QString &bad : {QStringLiteral("--folder-uri=x"), QStringLiteral("relative/path"), QStringLiteral("/a\nb"),
                                   QStringLiteral("/a\rb")})
            QVERIFY2(!launchFor(Tool::Terminal, QStringLiteral("a100"), bad, desktopWith(QDir::tempPath())), qPrintable(bad));
        QVERIFY(checkRemotePath(QStringLiteral("/root/-rf")));
    }

    void theAliasIsTheManagedEntryOfThisVeryHost()
    {
        QTemporaryDir config;
        QTemporaryDir home;
        const QString sshConfig = home.filePath(QStringLiteral("config"));
        const SavedHost a100 = manualHost(QStringLiteral("a100 box"), QStringLiteral("10.0.0.1"), 2222);
        const SavedHost twin = manualHost(QStringLiteral("a100-box"), QStringLiteral("10.0.0.2")); // the same alias
        SavedHost imported = manualHost(QStringLiteral("lab"), QStringLiteral("lab.example.org"));
        imported.source = QStringLiteral("ssh-config");
        const QList<SavedHost> all{a100, twin, imported};
        // Imported hosts are the user's own Host entries; the others need the block, which is off.
        QCOMPARE(sshAlias(imported, all, config.path(), sshConfig).value_or(QString()), QStringLiteral("lab"));
        QVERIFY(!sshAlias(a100, all, config.path(), sshConfig));
        QVERIFY(sshconfig::setSyncEnabled(config.path(), true));
        QVERIFY(sshconfig::syncIfEnabled(config.path(), all, sshConfig));
        QCOMPARE(sshAlias(a100, all, config.path(), sshConfig).value_or(QString()), QStringLiteral("a100-box"));
        // The twin maps to the same alias, which points at a100's address: not its to use.
        QVERIFY(!sshAlias(twin, all, config.path(), sshConfig));
        // No alias: a terminal still gets the whole ssh command, VS Code says what to turn on.
        const Desktop desktop = desktopWith(QDir::tempPath());
        auto terminal = launchForHost(Tool::Terminal, twin, std::nullopt, {}, desktop);
        QVERIFY(terminal);
        QCOMPARE(terminal->commandLine, QStringLiteral("ssh root@10.0.0.2"));
        auto code = launchForHost(Tool::VsCode, twin, std::nullopt, {}, desktop);
        QVERIFY(!code);
        QVERIFY2(code.error().message.contains(QStringLiteral("~/.ssh/config")), qPrintable(code.error().message));
    }

    void theLocalEditorComesFromVisualThenEditor()
    {
        QTemporaryDir bin;
        for (const char *name : {"vim", "code", "kate", "nano", "xterm"})
            QVERIFY(test::writeScript(bin.filePath(QString::fromLatin1(name)), QStringLiteral("#!/bin/sh\nexit 0\n")));
        auto editor = editorFromEnvironment(desktopWith(bin.path(), {{QStringLiteral("VISUAL"), QStringLiteral("code")},
                                                                     {QStringLiteral("EDITOR"), QStringLiteral("vim")}}));
        QVERIFY(editor);
        QCOMPARE(editor->program, bin.filePath(QStringLiteral("code")));
        QCOMPARE(editor->arguments, QStringList{QStringLiteral("--wait")}); // else it returns at once
        QVERIFY(!editor->terminal);
        // $VISUAL names nothing installed: $EDITOR, with its words split but no shell.
        editor = editorFromEnvironment(desktopWith(bin.path(), {{QStringLiteral("VISUAL"), QStringLiteral("nosuch")},
                                                                {QStringLiteral("EDITOR"), QStringLiteral("kate -n")}}));
        QCOMPARE(editor->arguments, (QStringList{QStringLiteral("-n"), QStringLiteral("--block")}));
        // A terminal editor from the GUI runs in a terminal window.
        editor = editorFromEnvironment(desktopWith(bin.path(), {{QStringLiteral("EDITOR"), QStringLiteral("vim")}}));
        QVERIFY(editor->terminal);
        auto windowed = windowedEditor(*editor, QStringLiteral("/tmp/x/train.py"), desktopWith(bin.path()));
        QCOMPARE(windowed->program, bin.filePath(QStringLiteral("xterm")));
        QCOMPARE(windowed->arguments, (QStringList{QStringLiteral("-e"), bin.filePath(QStringLiteral("vim")), QStringLiteral("/tmp/x/train.py")}));
        // Nothing set: the GUI uses the desktop's default, the CLI a terminal editor.
        QVERIFY(!editorFromEnvironment(desktopWith(bin.path())));
        QCOMPARE(fallbackTerminalEditor(desktopWith(bin.path()))->program, bin.filePath(QStringLiteral("nano")));
    }
};

QTEST_GUILESS_MAIN(TestHandoff)
#include "test_handoff.moc"
