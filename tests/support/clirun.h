#pragma once

#include <QByteArray>
#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include <functional>
#include <optional>

// Runs gantry-cli (or any program) as a user would, and keeps what it said: the exit code (-1
// when it crashed or had to be killed), stdout and stderr. The one runner of the suites that drive
// the CLI: runCli() for a command that ends, startCli() + finish() for one a test talks to while it
// runs (reads its output, signals it).
namespace gantry::test {

struct CliRun
{
    int code = -1;
    QByteArray out;
    QByteArray err;

    // The last line of stdout as JSON (a --json command's result).
    QJsonObject json() const { return QJsonDocument::fromJson(out.trimmed().split('\n').constLast()).object(); }
    // Each line of stdout as JSON (a --json command's events; a line that is not JSON is {}).
    QList<QJsonObject> lines() const
    {
        QList<QJsonObject> objects;
        for (const QByteArray &line : out.trimmed().split('\n'))
            objects.append(QJsonDocument::fromJson(line).object());
        return objects;
    }
};

// How the program runs: its environment and folder, what it reads on stdin, in the child before
// it starts (e.g. a signal disposition), and how long it may take.
struct RunOptions
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QString workingDirectory = {};
    std::optional<QByteArray> input = std::nullopt; // written to stdin, which then closes; none: /dev/null
    std::function<void()> inChild = {};            // QProcess::setChildProcessModifier
    int timeoutMs = 120000;
};

inline void startProgram(QProcess &process, const QString &program, const QStringList &args, const RunOptions &options = {})
{
    process.setProcessEnvironment(options.env);
    if (!options.workingDirectory.isEmpty())
        process.setWorkingDirectory(options.workingDirectory);
    if (!options.input)
        process.setStandardInputFile(QProcess::nullDevice());
    if (options.inChild)
        process.setChildProcessModifier(options.inChild);
    process.start(program, args);
    if (options.input && process.waitForStarted()) {
        process.write(*options.input);
        process.closeWriteChannel();
    }
}

// Waits for a started program (killed after timeoutMs) and collects what it said.
inline CliRun finish(QProcess &process, int timeoutMs = 120000)
{
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    CliRun run;
    run.code = process.exitStatus() == QProcess::NormalExit && process.error() != QProcess::FailedToStart ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

inline CliRun runProgram(const QString &program, const QStringList &args, const RunOptions &options)
{
    QProcess process;
    startProgram(process, program, args, options);
    return finish(process, options.timeoutMs);
}

inline CliRun runProgram(const QString &program, const QStringList &args, const QProcessEnvironment &env, int timeoutMs = 120000)
{
    RunOptions options;
    options.env = env;
    options.timeoutMs = timeoutMs;
    return runProgram(program, args, options);
}

// gantry-cli --config-dir CONFIG ARGS… (no --config-dir when configDir is empty).
inline QStringList cliArguments(const QString &configDir, const QStringList &args)
{
    return configDir.isEmpty() ? args : QStringList{QStringLiteral("--config-dir"), configDir} + args;
}

#ifdef GANTRY_CLI_PATH
inline CliRun runCli(const QString &configDir, const QStringList &args, const RunOptions &options = {})
{
    return runProgram(QStringLiteral(GANTRY_CLI_PATH), cliArguments(configDir, args), options);
}

inline void startCli(QProcess &process, const QString &configDir, const QStringList &args, const RunOptions &options = {})
{
    startProgram(process, QStringLiteral(GANTRY_CLI_PATH), cliArguments(configDir, args), options);
}
#endif

// Reads a running program's stdout into `seen` until it holds `needle`, the program ends or
// timeoutMs pass; true when the needle came.
inline bool waitForOutput(QProcess &process, QByteArray &seen, const QByteArray &needle, int timeoutMs = 60000)
{
    const QDeadlineTimer deadline(timeoutMs);
    for (;;) {
        seen += process.readAllStandardOutput();
        if (seen.contains(needle))
            return true;
        if (deadline.hasExpired() || (process.state() == QProcess::NotRunning && process.bytesAvailable() == 0))
            return false;
        process.waitForReadyRead(int(qMax<qint64>(1, qMin<qint64>(deadline.remainingTime(), 1000))));
    }
}

} // namespace gantry::test
