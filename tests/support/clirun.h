#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

// Runs gantry-cli (or any program) as a user would, and keeps what it said: the exit code (-1
// when it crashed or had to be killed), stdout and stderr. Shared by the suites that drive the CLI.
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

inline CliRun runProgram(const QString &program, const QStringList &args, const QProcessEnvironment &env,
                         int timeoutMs = 120000)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(program, args);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    CliRun run;
    run.code = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

} // namespace gantry::test
