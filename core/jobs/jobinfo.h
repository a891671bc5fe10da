#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace gantry::jobs {

enum class JobState
{
    Starting, // the directory exists but the wrapper has not recorded its pid yet
    Running,
    Exited,   // ended by itself; exitCode holds its status
    Killed,   // ended by a signal (Stop, kill, OOM killer) or vanished with a reboot
};

QString jobStateName(JobState state); // "starting", "running", "exited", "killed"

// What the remote job directory says about one job.
struct JobInfo
{
    QString name;
    JobState state = JobState::Starting;
    std::optional<int> exitCode;
    QString signal;          // "INT", "TERM", "KILL"… when it ended by a signal
    QDateTime started;       // UTC
    QDateTime ended;         // UTC, when known
    QString command;
    QString workingDir;
    QString method;          // "tmux", "screen", "nohup"
    qint64 pid = 0;          // the job's process group
    qint64 logSize = 0;
    QString stopSignal;      // the last signal Gantry's Stop sent, if any

    bool isActive() const { return state == JobState::Starting || state == JobState::Running; }
    // "running", "exited 0", "killed (SIGTERM)" for tables and messages.
    QString statusText() const;

    bool operator==(const JobInfo &other) const = default;
};

// Parses the records printed by JobScripts::listScript(); records it cannot read are skipped.
QList<JobInfo> parseJobList(const QByteArray &output);

} // namespace gantry::jobs
