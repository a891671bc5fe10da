#pragma once

#include "core/util/result.h"

#include <QString>

namespace gantry::providers::sandbox {

// What the instance's nvidia-smi shows: no GPU at all (the CPU type), or a simulated H100 at
// idle or under a (data-loader-bound) training load.
enum class GpuProfile
{
    None,
    Idle,
    Training,
};
QString gpuProfileName(GpuProfile profile); // "", "idle", "training"
GpuProfile gpuProfileFromName(const QString &name);

// The environment variable every process of a sandbox instance carries (sshd, sessions, jobs),
// set to the instance id: how a terminate finds what the instance started.
inline constexpr char kInstanceMarker[] = "GANTRY_SANDBOX_INSTANCE";

// The files that give a sandbox instance a machine of its own inside <dir>: a home (exec, shells
// and SFTP start there, so instances never see each other's ~/.gantry/jobs, uploads or results),
// its own tmux server (TMUX_TMPDIR, since jobs are tmux sessions named after the job) and, for a
// GPU type, the simulated nvidia-smi on PATH. Every session goes through the `login` wrapper
// (sshd's ForceCommand). Rewritten at each sshd start, so an older instance gains them too.
class InstanceHome
{
public:
    InstanceHome(QString dir, QString id);

    QString home() const;
    QString binDir() const;
    QString tmuxDir() const;

    // sftpServer: the external sftp-server binary (internal-sftp cannot run behind ForceCommand).
    Result<void> prepare(GpuProfile profile, const QString &sftpServer) const;
    // The sshd_config lines that route sessions and the sftp subsystem through the wrapper.
    QString sshdConfig() const;
    // Ends the instance's tmux server (its jobs) and removes what lives outside <dir>.
    void stopSessions() const;
    // Ends every process that carries the instance's marker — sshd and its sessions, jobs, anything
    // they started in the background or in a session of its own (setsid, nohup): SIGTERM, then
    // SIGKILL after graceMs. Blocks the calling (worker) thread until none is left.
    void endProcesses(int graceMs = 2000) const;

private:
    QString m_dir;
    QString m_id;
};

// The OpenSSH sftp-server next to sshd's installation; empty when none is found.
QString findSftpServer(const QString &sshdPath);

} // namespace gantry::providers::sandbox
