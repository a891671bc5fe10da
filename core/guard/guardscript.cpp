#include "core/guard/guardscript.h"

#include "core/ssh/session.h"

namespace gantry::guard {

using providers::SelfStop;

QString methodName(SelfStop method)
{
    switch (method) {
    case SelfStop::RunPodPodKey:
        return QStringLiteral("runpod");
    case SelfStop::VastContainerKey:
        return QStringLiteral("vast");
    case SelfStop::Shutdown:
        return QStringLiteral("shutdown");
    case SelfStop::None:
        break;
    }
    return QStringLiteral("none");
}

QString actionName(GuardAction action)
{
    return action == GuardAction::Terminate ? QStringLiteral("terminate") : QStringLiteral("stop");
}

GuardAction actionFromName(const QString &name)
{
    return name == QLatin1StringView("terminate") ? GuardAction::Terminate : GuardAction::Stop;
}

QString defaultEndpoint(SelfStop method)
{
    if (method == SelfStop::RunPodPodKey)
        return QStringLiteral("https://rest.runpod.io/v1");
    if (method == SelfStop::VastContainerKey)
        return QStringLiteral("https://console.vast.ai/api/v0");
    return {};
}

QString defaultEnvFile(SelfStop method)
{
    // RunPod writes the pod's variables there for SSH logins, which do not inherit the container's.
    return method == SelfStop::RunPodPodKey ? QStringLiteral("/etc/rp_environment") : QString();
}

namespace {

// The program after the assignments. Single-quoted C++ raw text: nothing in it is substituted.
const char *const kBody = R"GUARD(
GUARD_DIR=$(cd "$(dirname "$0")" && pwd)

status() { # state reason idle_seconds [error]
    printf 'state=%s\nreason=%s\nidle_seconds=%s\nthreshold_seconds=%s\nmethod=%s\naction=%s\nerror=%s\nupdated=%s\n' \
        "$1" "$2" "$3" "$IDLE_SECONDS" "$METHOD" "$ACTION" "${4:-}" "$(date +%s)" >"$GUARD_DIR/status.tmp" &&
        mv -f "$GUARD_DIR/status.tmp" "$GUARD_DIR/status"
}

# NAME's value: this process's environment, else the env file, else PID 1's (containers set the
# machine's own variables there; SSH logins do not inherit them). The file is read, never sourced.
env_value() {
    eval "v=\${$1:-}"
    if [ -z "$v" ] && [ -n "$ENV_FILE" ] && [ -r "$ENV_FILE" ]; then
        v=$(sed -n "s/^[[:space:]]*\(export[[:space:]]\{1,\}\)\{0,1\}$1=//p" "$ENV_FILE" | head -n 1 | tr -d "\"'")
    fi
    if [ -z "$v" ] && [ -r /proc/1/environ ]; then
        v=$(tr '\000' '\n' </proc/1/environ | sed -n "s/^$1=//p" | head -n 1)
    fi
    printf '%s' "$v"
}

gpu_busy() {
    command -v nvidia-smi >/dev/null 2>&1 || return 1
    nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits 2>/dev/null |
        awk -v t="$GPU_BUSY_PERCENT" '($1 + 0) > t { b = 1 } END { exit b ? 0 : 1 }'
}

# Gantry's jobs run in tmux or screen sessions named gantry-NAME.
job_busy() {
    if command -v tmux >/dev/null 2>&1 && tmux list-sessions -F '#{session_name}' 2>/dev/null | grep -q '^gantry-'; then
        return 0
    fi
    command -v screen >/dev/null 2>&1 && screen -ls 2>/dev/null | grep -q '[0-9]\.gantry-'
}

# A terminal login (sshd's "user@pts/N" process). Gantry's own exec channels have no terminal:
# a laptop that merely watches does not keep the machine running; its own watcher decides.
ssh_busy() {
    ps -eo args 2>/dev/null | grep -q '^sshd[-a-z]*: [^ ]*@pts/'
}

# The key goes to curl on stdin (-H @-), never on its command line where ps would show it.
api_call() { # method url key [body]
    command -v curl >/dev/null 2>&1 || { echo "curl is not installed on this machine"; return 1; }
    if [ -n "${4:-}" ]; then
        printf 'Authorization: Bearer %s\n' "$3" |
            curl -fsS -m 30 -X "$1" -H @- -H 'Content-Type: application/json' -d "$4" "$2"
    else
        printf 'Authorization: Bearer %s\n' "$3" | curl -fsS -m 30 -X "$1" -H @- "$2"
    fi
}

stop_machine() {
    case "$METHOD" in
    runpod)
        key=$(env_value RUNPOD_API_KEY); id=$(env_value RUNPOD_POD_ID)
        [ -n "$key" ] && [ -n "$id" ] || { echo "RUNPOD_API_KEY or RUNPOD_POD_ID is not set in this pod"; return 1; }
        if [ "$ACTION" = terminate ]; then api_call DELETE "$ENDPOINT/pods/$id" "$key"
        else api_call POST "$ENDPOINT/pods/$id/stop" "$key"; fi ;;
    vast)
        key=$(env_value CONTAINER_API_KEY); id=$(env_value CONTAINER_ID)
        [ -n "$key" ] && [ -n "$id" ] || { echo "CONTAINER_API_KEY or CONTAINER_ID is not set in this instance"; return 1; }
        if [ "$ACTION" = terminate ]; then api_call DELETE "$ENDPOINT/instances/$id/" "$key"
        else api_call PUT "$ENDPOINT/instances/$id/" "$key" '{"state":"stopped"}'; fi ;;
    shutdown)
        shutdown -h now || poweroff ;;
    *)
        echo "no way to stop this machine from inside it"; return 1 ;;
    esac
}

# Replaced, never truncated in place: a status read at that moment would see no pid.
echo $$ >"$GUARD_DIR/pid.tmp" && mv -f "$GUARD_DIR/pid.tmp" "$GUARD_DIR/pid"
idle_since=$(date +%s)
while :; do
    now=$(date +%s)
    reason=idle
    if gpu_busy; then reason=gpu; elif job_busy; then reason=job; elif ssh_busy; then reason=ssh; fi
    [ "$reason" = idle ] || idle_since=$now
    idle=$((now - idle_since))
    if [ "$reason" = idle ] && [ "$idle" -ge "$IDLE_SECONDS" ]; then
        status stopping idle "$idle"
        if out=$(stop_machine 2>&1); then
            status stopped idle "$idle"
            exit 0
        fi
        # Tried again only after another idle period, so a broken key does not hammer the API.
        status failed idle "$idle" "$(printf '%s' "$out" | tr '\n' ' ' | cut -c 1-300)"
        idle_since=$now
    elif [ "$reason" = idle ]; then
        status watching idle "$idle"
    else
        status watching "$reason" 0
    fi
    sleep "$POLL_SECONDS"
done
)GUARD";

} // namespace

QString guardScript(const GuardOptions &options)
{
    using ssh::shellQuote;
    const QString endpoint = options.endpoint.isEmpty() ? defaultEndpoint(options.method) : options.endpoint;
    const QString envFile = options.envFile.isEmpty() ? defaultEnvFile(options.method) : options.envFile;
    QString s = QStringLiteral("#!/bin/sh\n# Gantry idle guard: stops this machine after it has been idle. Remove with "
                               "`gantry-cli guard remove HOST`.\nset -u\n");
    s += QStringLiteral("METHOD=") + shellQuote(methodName(options.method)) + u'\n';
    s += QStringLiteral("ACTION=") + shellQuote(actionName(options.action)) + u'\n';
    s += QStringLiteral("IDLE_SECONDS=%1\n").arg(qMax(1, options.idleSeconds));
    s += QStringLiteral("POLL_SECONDS=%1\n").arg(qMax(1, options.pollSeconds));
    s += QStringLiteral("GPU_BUSY_PERCENT=%1\n").arg(qBound(0, options.gpuBusyPercent, 100));
    s += QStringLiteral("ENDPOINT=") + shellQuote(endpoint) + u'\n';
    s += QStringLiteral("ENV_FILE=") + shellQuote(envFile) + u'\n';
    s += QString::fromUtf8(kBody);
    return s;
}

} // namespace gantry::guard
