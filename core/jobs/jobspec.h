#pragma once

#include "core/util/result.h"

#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace gantry::jobs {

// How the job is kept alive on the instance after the SSH connection closes.
enum class JobMethod
{
    Auto,   // tmux, else screen, else nohup + setsid
    Tmux,
    Screen,
    Nohup,
};

QString jobMethodName(JobMethod method);
JobMethod jobMethodFromName(const QString &name); // unknown → Auto

// What the user asked to run.
struct JobSpec
{
    QString name;                          // empty: derived from the command
    QString command;                       // one shell command line (or script), run by bash
    QString workingDir;                    // empty: the login directory; "~/x" is expanded remotely
    QList<QPair<QString, QString>> env;    // exported before the command (CUDA_VISIBLE_DEVICES…)
    QString venv;                          // a virtualenv directory to activate (bin/activate)
    QString condaEnv;                      // a conda environment to activate
};

// Names become directory and tmux session names: [A-Za-z0-9][A-Za-z0-9._-]{0,63}, no "..".
Result<void> validateJobName(const QString &name);
// "train-20261130-164500" from "python train.py …" and the time.
QString defaultJobName(const QString &command, const QDateTime &now);
// "KEY=VALUE" → pair; KEY must be a shell identifier.
Result<QPair<QString, QString>> parseEnvAssignment(const QString &assignment);
Result<void> validateSpec(const JobSpec &spec);

} // namespace gantry::jobs
