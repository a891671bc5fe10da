// SPDX-License-Identifier: Apache-2.0
// Every command's --help, `help COMMAND`, the usage errors, the man page and the shell completions
// of the real gantry-cli. What each command declares comes from the binary itself
// (`gantry-cli --json help`, a dump of the tables everything is written from), never from a list
// kept here.
#include "clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace gantry;

namespace {

// One command or subcommand as the tables describe it.
struct Entry
{
    QStringList words;     // {"upload"}, {"job", "run"}
    QStringList options;   // "--parallel", "-i", … (its groups' included)
    bool hasSubcommands = false;
    bool needsArgument = false; // a required argument, or a required "-- REST"
};

QList<Entry> entriesOf(const QJsonArray &commands, const QStringList &parent = {})
{
    QList<Entry> list;
    for (const QJsonValue &value : commands) {
        const QJsonObject command = value.toObject();
        Entry entry;
        entry.words = parent + QStringList{command.value(QStringLiteral("name")).toString()};
        for (const QJsonValue &option : command.value(QStringLiteral("options")).toArray()) {
            entry.options << option.toObject().value(QStringLiteral("long")).toString();
            if (option.toObject().contains(QStringLiteral("short")))
                entry.options << option.toObject().value(QStringLiteral("short")).toString();
        }
        const QJsonArray subcommands = command.value(QStringLiteral("subcommands")).toArray();
        entry.hasSubcommands = !subcommands.isEmpty();
        for (const QJsonValue &argument : command.value(QStringLiteral("arguments")).toArray()) {
            const QString arity = argument.toObject().value(QStringLiteral("arity")).toString();
            entry.needsArgument = entry.needsArgument || arity == QLatin1String("one") || arity == QLatin1String("one-or-more");
        }
        list.append(entry);
        list += entriesOf(subcommands, entry.words);
    }
    return list;
}

} // namespace

class TestCliHelp final : public QObject
{
    Q_OBJECT

    test::CliRun cli(const QStringList &args, const test::RunOptions &options = {})
    {
        return test::runCli(m_config.path(), args, options);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_config.isValid());
        const test::CliRun tables = cli({QStringLiteral("--json"), QStringLiteral("help")});
        QCOMPARE(tables.code, 0);
        const QJsonObject json = tables.json();
        m_entries = entriesOf(json.value(QStringLiteral("commands")).toArray());
        for (const QJsonValue &option : json.value(QStringLiteral("global_options")).toArray())
            m_globals << option.toObject().value(QStringLiteral("long")).toString();
        for (const Entry &entry : std::as_const(m_entries)) {
            if (entry.words.size() == 1)
                m_commands << entry.words.first();
        }
        // Sanity: the dump describes the real CLI, not an empty table.
        QVERIFY2(m_commands.size() >= 30, qPrintable(m_commands.join(u' ')));
        qsizetype options = 0;
        for (const Entry &entry : std::as_const(m_entries))
            options += entry.options.size();
        QVERIFY2(options > 150, qPrintable(QString::number(options)));
        QVERIFY(m_globals.contains(QStringLiteral("--config-dir")) && m_globals.contains(QStringLiteral("--json")));
    }

    // COMMAND --help and help COMMAND (and COMMAND SUB --help, help COMMAND SUB) exit 0, print the
    // same text, and name every option the command's table declares.
    void everyCommandsHelpNamesEveryOption()
    {
        for (const Entry &entry : std::as_const(m_entries)) {
            const test::CliRun help = cli(entry.words + QStringList{QStringLiteral("--help")});
            const QString name = entry.words.join(u' ');
            QVERIFY2(help.code == 0, qPrintable(name + QStringLiteral(": ") + QString::fromUtf8(help.err)));
            QVERIFY2(help.out.startsWith(QByteArray("Usage: gantry-cli [--config-dir DIR] [--json] ").append(name.toUtf8())), help.out.constData());
            QCOMPARE(cli(QStringList{QStringLiteral("help")} + entry.words).out, help.out);
            for (const QString &option : std::as_const(entry.options))
                QVERIFY2(help.out.contains(option.toUtf8()), qPrintable(name + QStringLiteral(" --help does not name ") + option));
            for (const QString &option : std::as_const(m_globals))
                QVERIFY2(help.out.contains(option.toUtf8()), qPrintable(name + QStringLiteral(" --help does not name ") + option));
        }
        QCOMPARE(cli({QStringLiteral("help"), QStringLiteral("no-such-command")}).code, 2);
        QCOMPARE(cli({QStringLiteral("help"), QStringLiteral("job"), QStringLiteral("no-such-subcommand")}).code, 2);
    }

    // A parent's help also names every option of its subcommands.
    void parentHelpNamesItsSubcommandsOptions()
    {
        for (const Entry &entry : std::as_const(m_entries)) {
            if (entry.words.size() != 2)
                continue;
            const test::CliRun parent = cli({entry.words.first(), QStringLiteral("--help")});
            QVERIFY(parent.out.contains(entry.words.last().toUtf8()));
            for (const QString &option : std::as_const(entry.options))
                QVERIFY2(parent.out.contains(option.toUtf8()), qPrintable(entry.words.join(u' ') + u' ' + option));
        }
    }

    // An unknown option: exit 2, nothing on stdout, the error and the command's usage on stderr.
    // A missing argument likewise. Nothing is run (the config dir stays empty of hosts).
    void usageErrorsPrintTheCommandsUsage()
    {
        for (const Entry &entry : std::as_const(m_entries)) {
            if (entry.hasSubcommands)
                continue;
            const QString name = entry.words.join(u' ');
            const test::CliRun unknown = cli(entry.words + QStringList{QStringLiteral("--no-such-option")});
            QVERIFY2(unknown.code == 2, qPrintable(name + u' ' + QString::number(unknown.code) + u' ' + QString::fromUtf8(unknown.err)));
            QVERIFY2(unknown.out.isEmpty(), unknown.out.constData());
            QVERIFY2(unknown.err.contains("unknown option --no-such-option"), unknown.err.constData());
            QVERIFY2(unknown.err.contains(QByteArray("Usage: gantry-cli ").append(name.toUtf8())), unknown.err.constData());
            QVERIFY2(unknown.err.contains(QByteArray("gantry-cli ").append(name.toUtf8()).append(" --help")), unknown.err.constData());
            if (!entry.needsArgument)
                continue;
            const test::CliRun missing = cli(entry.words);
            QVERIFY2(missing.code == 2, qPrintable(name + QStringLiteral(" without arguments: ") + QString::fromUtf8(missing.err)));
            QVERIFY2(missing.err.contains("missing") && missing.err.contains(QByteArray("Usage: gantry-cli ").append(name.toUtf8())), missing.err.constData());
        }
        // With --json the error is also a JSON line on stdout.
        const test::CliRun json = cli({QStringLiteral("--json"), QStringLiteral("ls"), QStringLiteral("--frobnicate")});
        QCOMPARE(json.code, 2);
        QVERIFY(json.json().value(QStringLiteral("error")).toString().contains(QStringLiteral("--frobnicate")));
        // A parent without its subcommand, or with an unknown one.
        QCOMPARE(cli({QStringLiteral("job")}).code, 2);
        const test::CliRun bogus = cli({QStringLiteral("cluster"), QStringLiteral("bogus")});
        QCOMPARE(bogus.code, 2);
        QVERIFY2(bogus.err.contains("unknown subcommand \"bogus\""), bogus.err.constData());
    }

    // Options take their value as the next word or after '=', in any order with the arguments;
    // "--" ends the options (a name that starts with '-' goes after it).
    void optionForms()
    {
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("a"), QStringLiteral("me@192.0.2.1"),
                      QStringLiteral("--price=1.5"), QStringLiteral("--currency"), QStringLiteral("eur")}).code, 0);
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("--billing=off"), QStringLiteral("b"),
                      QStringLiteral("me@192.0.2.2"), QStringLiteral("--price"), QStringLiteral("2")}).code, 0);
        const test::CliRun names = cli({QStringLiteral("hosts"), QStringLiteral("list"), QStringLiteral("--names")});
        QCOMPARE(names.code, 0);
        QCOMPARE(names.out, QByteArray("a\nb\n"));
        const test::CliRun listed = cli({QStringLiteral("hosts"), QStringLiteral("--json")}); // `hosts` alone is `hosts list`
        QCOMPARE(listed.json().value(QStringLiteral("hosts")).toArray().size(), 2);
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("c"), QStringLiteral("me@192.0.2.3"),
                      QStringLiteral("--price")}).code, 2); // a value is missing
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("list"), QStringLiteral("--names=yes")}).code, 2); // a flag takes none
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("remove"), QStringLiteral("--"), QStringLiteral("b")}).code, 0);
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("list"), QStringLiteral("--names")}).out, QByteArray("a\n"));
    }

    // The man page and the completions name every command and every option of the tables.
    void generatedDocsNameEverything()
    {
        for (const QString &format : {QStringLiteral("man"), QStringLiteral("bash"), QStringLiteral("zsh")}) {
            const test::CliRun generated = cli({QStringLiteral("generate"), format});
            QCOMPARE(generated.code, 0);
            QVERIFY(!generated.out.isEmpty());
            // The man page writes '-' as "\-".
            const QByteArray text = format == QLatin1String("man") ? QByteArray(generated.out).replace("\\-", "-") : generated.out;
            for (const Entry &entry : std::as_const(m_entries)) {
                QVERIFY2(text.contains(entry.words.last().toUtf8()), qPrintable(format + u' ' + entry.words.join(u' ')));
                for (const QString &option : std::as_const(entry.options))
                    QVERIFY2(text.contains(option.toUtf8()), qPrintable(format + u' ' + entry.words.join(u' ') + u' ' + option));
            }
        }
        // --output writes the same text to a file.
        const QString page = m_config.filePath(QStringLiteral("gantry-cli.1"));
        QCOMPARE(cli({QStringLiteral("generate"), QStringLiteral("man"), QStringLiteral("--output"), page}).code, 0);
        QFile file(page);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), cli({QStringLiteral("generate"), QStringLiteral("man")}).out);
        QCOMPARE(cli({QStringLiteral("generate"), QStringLiteral("fish")}).code, 2);
    }

    // What the build generated (and the package installs) is what the binary writes now.
    void buildGeneratedTheDocs()
    {
#ifdef GANTRY_CLI_DOCS_DIR
        const QString dir = QStringLiteral(GANTRY_CLI_DOCS_DIR);
        const std::pair<QString, QString> files[] = {{QStringLiteral("gantry-cli.1"), QStringLiteral("man")},
                                                     {QStringLiteral("gantry-cli.bash"), QStringLiteral("bash")},
                                                     {QStringLiteral("_gantry-cli"), QStringLiteral("zsh")}};
        for (const auto &[name, format] : files) {
            QFile file(dir + u'/' + name);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
            QCOMPARE(file.readAll(), cli({QStringLiteral("generate"), format}).out);
        }
#else
        QSKIP("the docs are not generated in this build (cross-compiling)");
#endif
    }

    // groff reads the page without a warning.
    void manPageIsValidRoff()
    {
        const QString groff = QStandardPaths::findExecutable(QStringLiteral("groff"));
        if (groff.isEmpty())
            QSKIP("groff is not installed");
        const test::CliRun page = cli({QStringLiteral("generate"), QStringLiteral("man")});
        test::RunOptions options;
        options.input = page.out;
        const test::CliRun checked = test::runProgram(groff, {QStringLiteral("-man"), QStringLiteral("-Tutf8"), QStringLiteral("-ww"),
                                                              QStringLiteral("-z")}, options);
        QCOMPARE(checked.code, 0);
        QVERIFY2(checked.err.isEmpty(), checked.err.constData());
    }

    // The bash completion, sourced into a real bash (without the bash-completion package):
    // commands, subcommands, options, fixed values and saved host names.
    void bashCompletes()
    {
        const QString bash = QStandardPaths::findExecutable(QStringLiteral("bash"));
        if (bash.isEmpty())
            QSKIP("bash is not installed");
        const QString script = m_config.filePath(QStringLiteral("gantry-cli.bash"));
        QCOMPARE(cli({QStringLiteral("generate"), QStringLiteral("bash"), QStringLiteral("--output"), script}).code, 0);
        QCOMPARE(test::runProgram(bash, {QStringLiteral("-n"), script}, test::RunOptions{}).code, 0);
        QCOMPARE(cli({QStringLiteral("hosts"), QStringLiteral("add"), QStringLiteral("gpu-box"), QStringLiteral("me@192.0.2.9")}).code, 0);
        auto complete = [&](const QStringList &words) {
            // The line as typed: gantry-cli --config-dir DIR WORDS… (the last word is the one completed).
            QStringList line{QStringLiteral(GANTRY_CLI_PATH), QStringLiteral("--config-dir"), m_config.path()};
            line += words;
            QString array;
            for (const QString &word : std::as_const(line))
                array += QStringLiteral(" '%1'").arg(word);
            const QString program = QStringLiteral("source '%1'; compopt() { :; }; COMP_WORDS=(%2); COMP_CWORD=%3; _gantry_cli; "
                                                   "printf '%s\\n' \"${COMPREPLY[@]}\"")
                                        .arg(script, array)
                                        .arg(line.size() - 1);
            test::RunOptions options;
            options.workingDirectory = m_config.path(); // no file there starts like a host name
            const test::CliRun run = test::runProgram(bash, {QStringLiteral("-c"), program}, options);
            return QString::fromUtf8(run.out).split(u'\n', Qt::SkipEmptyParts);
        };
        QCOMPARE(complete({QStringLiteral("uplo")}), QStringList{QStringLiteral("upload")});
        QVERIFY(complete({QStringLiteral("upload"), QStringLiteral("--par")}).contains(QStringLiteral("--parallel")));
        QCOMPARE(complete({QStringLiteral("upload"), QStringLiteral("--on-conflict"), QStringLiteral("re")}),
                 (QStringList{QStringLiteral("resume"), QStringLiteral("rename")}));
        QCOMPARE(complete({QStringLiteral("exec"), QStringLiteral("gpu")}), QStringList{QStringLiteral("gpu-box")});
        QCOMPARE(complete({QStringLiteral("exec"), QStringLiteral("-i"), QStringLiteral("/nonexistent/key"), QStringLiteral("gpu")}),
                 QStringList{QStringLiteral("gpu-box")});
        QCOMPARE(complete({QStringLiteral("job"), QStringLiteral("re")}), (QStringList{QStringLiteral("rerun"), QStringLiteral("remove")}));
        QVERIFY(complete({QStringLiteral("job"), QStringLiteral("run"), QStringLiteral("--")}).contains(QStringLiteral("--jobs-dir")));
        QCOMPARE(complete({QStringLiteral("job"), QStringLiteral("logs"), QStringLiteral("g")}), QStringList{QStringLiteral("gpu-box")});
        QCOMPARE(complete({QStringLiteral("download"), QStringLiteral("gpu")}), QStringList{QStringLiteral("gpu-box:")});
        QVERIFY(complete({QStringLiteral("launch"), QStringLiteral("--provider"), QStringLiteral("")}).contains(QStringLiteral("sandbox")));
        QCOMPARE(complete({QStringLiteral("help"), QStringLiteral("watch-c")}), QStringList{QStringLiteral("watch-capacity")});
    }

    // zsh reads the completion without a syntax error (where zsh is installed).
    void zshCompletionParses()
    {
        const QString zsh = QStandardPaths::findExecutable(QStringLiteral("zsh"));
        if (zsh.isEmpty())
            QSKIP("zsh is not installed");
        const QString script = m_config.filePath(QStringLiteral("_gantry-cli"));
        QCOMPARE(cli({QStringLiteral("generate"), QStringLiteral("zsh"), QStringLiteral("--output"), script}).code, 0);
        const test::CliRun checked = test::runProgram(zsh, {QStringLiteral("-n"), script}, test::RunOptions{});
        QVERIFY2(checked.code == 0, checked.err.constData());
    }

private:
    QTemporaryDir m_config;
    QList<Entry> m_entries;
    QStringList m_commands;
    QStringList m_globals;
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "test_cli_help.moc"
