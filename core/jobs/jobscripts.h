#pragma once

#include "core/jobs/jobspec.h"

#include <QString>

namespace gantry::jobs {

// The remote side of jobs, as bash scripts run over an exec channel. Everything a job is lives in
// ~/.gantry/jobs/<name>/ so its state survives Gantry, the connection and the tmux server:
//   command, cwd   what the user asked for (for listing and rerun)
//   cmd.sh         environment, activation, cd, then the command
//   main.sh        runs cmd.sh in its own process group, records "<status> [SIGNAL]" in exit_code
//   run.sh         the wrapper tmux/screen/nohup start: spawns main.sh, writes pid and started,
//                  and records exit_code itself when main.sh was SIGKILLed
//   log            stdout and stderr of the whole run, appended, never truncated while it runs
//   pid            the process group of the job; started (epoch s); boot_id (detects reboots)
//   stop_log       "SIGNAL epoch" per signal Stop sent
// Each script prints machine-readable "@@" lines that JobRunner parses.
namespace scripts {

// Scripts take the jobs directory on the instance; empty means jobsRoot(). "~/" is expanded there.
QString jobsRoot(); // "~/.gantry/jobs"
QString launch(const QString &root, const JobSpec &spec, JobMethod method);
QString rerun(const QString &root, const QString &name, JobMethod method);
QString list(const QString &root, const QString &nameOrEmpty); // one record per job, or just that job
// With wait, the script itself waits for the job to go and prints its final record.
QString stop(const QString &root, const QString &name, int intGraceMs, int termGraceMs, bool wait);
QString remove(const QString &root, const QString &name);
QString tailLines(const QString &root, const QString &name, int lines);
// Prints the log from byte offset (0-based); with follow it keeps printing until the job ends.
QString readLog(const QString &root, const QString &name, qint64 offset, bool follow);

// The contents of cmd.sh for a spec (tests read it).
QString commandScript(const JobSpec &spec);

// Wraps a bash script so the remote login shell (bash, zsh, fish…) hands it to bash unchanged.
QString bashCommand(const QString &script);

} // namespace scripts
} // namespace gantry::jobs
