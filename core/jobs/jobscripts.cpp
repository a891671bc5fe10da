#include "core/jobs/jobscripts.h"

#include "core/ssh/session.h"

namespace gantry::jobs::scripts {
QString jobsRoot()
{
    return QStringLiteral("~/.gantry/jobs");
}

namespace {

using ssh::shellQuote;

QString remotePath(const QString &path);

QString rootVar(const QString &root)
{
    return QStringLiteral("root=") + remotePath(root.isEmpty() ? jobsRoot() : root) + u'\n';
}

QString dirVar(const QString &root, const QString &name)
{
    return rootVar(root) + QStringLiteral("d=\"$root\"/") + shellQuote(name) + u'\n';
}

// A remote path with a leading "~/" must stay outside the quotes to be expanded.
QString remotePath(const QString &path)
{
    if (path == u"~")
        return QStringLiteral("\"$HOME\"");
    if (path.startsWith(u"~/"))
        return QStringLiteral("\"$HOME\"/") + shellQuote(path.mid(2));
    return shellQuote(path);
}

QString writeFile(const QString &file, const QString &contents)
{
    return QStringLiteral("printf '%s' ") + shellQuote(contents) + QStringLiteral(" > ") + file + u'\n';
}

// main.sh: traps keep this shell alive through INT/TERM/HUP so it can record how the job ended;
// cmd.sh and the user's programs get the default dispositions (traps are reset in children).
const char kMainScript[] = R"sh(#!/bin/bash
sig=
trap 'sig=INT' INT
trap 'sig=TERM' TERM
trap 'sig=HUP' HUP
bash ./cmd.sh
rc=$?
# The signal that ended cmd.sh, else the one this shell received (a program that handled SIGINT).
if [ "$rc" -gt 128 ]; then s=$(kill -l $((rc - 128)) 2>/dev/null) && sig=$s; fi
printf '%s %s\n' "$rc" "$sig" > exit_code.tmp && mv -f exit_code.tmp exit_code
)sh";

// run.sh: job control (set -m) gives main.sh its own process group, so Stop can signal the whole
// job without touching this wrapper, which then records a SIGKILL nobody else could.
const char kRunScript[] = R"sh(#!/bin/bash
cd "$(dirname "$0")" || exit 1
date +%s > started
cat /proc/sys/kernel/random/boot_id > boot_id 2>/dev/null
set -m
bash ./main.sh < /dev/null >> log 2>&1 &
child=$!
echo "$child" > pid.tmp && mv -f pid.tmp pid
trap ':' HUP INT TERM
rc=0
while kill -0 "$child" 2>/dev/null; do wait "$child"; rc=$?; done
if [ ! -e exit_code ]; then
  s=
  if [ "$rc" -gt 128 ]; then s=$(kill -l $((rc - 128)) 2>/dev/null); fi
  printf '%s %s\n' "$rc" "${s:-KILL}" > exit_code
fi
echo "gantry: job $(basename "$PWD") ended: $(cat exit_code). Its output is in $PWD/log"
)sh";

// Prints one job's record; $1 is its directory.
const char kRecordFunction[] = R"sh(rec() {
  local d=${1%/} p b
  echo "@@job ${d##*/}"
  if [ -f "$d/pid" ]; then
    p=$(cat "$d/pid")
    echo "pid=$p"
    if kill -0 "$p" 2>/dev/null; then echo alive=1; else echo alive=0; fi
  fi
  [ -f "$d/started" ] && echo "started=$(cat "$d/started")"
  if [ -f "$d/exit_code" ]; then
    echo "exit=$(cat "$d/exit_code")"
    echo "ended=$(stat -c %Y "$d/exit_code" 2>/dev/null)"
  fi
  if [ -f "$d/boot_id" ]; then
    b=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
    if [ -z "$b" ] || [ "$b" = "$(cat "$d/boot_id")" ]; then echo sameboot=1; else echo sameboot=0; fi
  fi
  echo "method=$(cat "$d/method" 2>/dev/null)"
  echo "logsize=$(stat -c %s "$d/log" 2>/dev/null || echo 0)"
  [ -f "$d/stop_log" ] && echo "stop=$(tail -n 1 "$d/stop_log" | cut -d' ' -f1)"
  echo "cmd=$(base64 -w0 < "$d/command" 2>/dev/null)"
  echo "cwd=$(base64 -w0 < "$d/cwd" 2>/dev/null)"
  echo "@@end"
}
)sh";

// Picks the method (or checks the forced one) and starts run.sh detached from this channel.
QString startPart(JobMethod method, const QString &name)
{
    QString s;
    s += QStringLiteral("method=") + jobMethodName(method) + u'\n';
    s += QStringLiteral(R"sh(if [ "$method" = auto ]; then
  if command -v tmux >/dev/null 2>&1; then method=tmux
  elif command -v screen >/dev/null 2>&1; then method=screen
  else method=nohup; fi
fi
case "$method" in
  tmux|screen) command -v "$method" >/dev/null 2>&1 || { echo "@@missing $method"; exit 21; } ;;
  nohup) command -v nohup >/dev/null 2>&1 || { echo "@@missing nohup"; exit 21; } ;;
esac
)sh");
    s += QStringLiteral("session=") + shellQuote(QStringLiteral("gantry-") + name) + u'\n';
    s += QStringLiteral(R"sh(printf '%s\n' "$method" > "$d/method"
case "$method" in
  tmux)
    tmux kill-session -t "=$session" 2>/dev/null
    # A tmux server whose last session just ended may still be exiting: retry once after it is gone.
    tmux new-session -d -s "$session" "bash $(printf %q "$d/run.sh")" || { sleep 0.5; tmux new-session -d -s "$session" "bash $(printf %q "$d/run.sh")"; } || { echo "@@error tmux could not start a session"; exit 23; } ;;
  screen)
    screen -S "$session" -X quit >/dev/null 2>&1
    screen -dmS "$session" bash "$d/run.sh" || { echo "@@error screen could not start a session"; exit 23; } ;;
  nohup)
    # Job control on, or the background job would start with SIGINT ignored for good (and Stop's
    # SIGINT, e.g. Python's KeyboardInterrupt, would never reach the command).
    set -m
    if command -v setsid >/dev/null 2>&1; then
      nohup setsid bash "$d/run.sh" > /dev/null 2>&1 < /dev/null &
    else
      nohup bash "$d/run.sh" > /dev/null 2>&1 < /dev/null &
    fi
    set +m ;;
esac
# Wait for the pid, then a moment more so a command that fails at once is reported as such.
i=0
while [ $i -lt 100 ] && [ ! -f "$d/pid" ]; do sleep 0.05; i=$((i + 1)); done
[ -f "$d/pid" ] || { echo "@@error the job did not start within 5 s (see $d)"; exit 24; }
i=0
while [ $i -lt 5 ] && [ ! -f "$d/exit_code" ]; do sleep 0.1; i=$((i + 1)); done
rec "$d"
if [ -f "$d/exit_code" ]; then echo "@@tail"; tail -n 20 "$d/log" 2>/dev/null; fi
)sh");
    return s;
}

} // namespace


QString bashCommand(const QString &script)
{
    return QStringLiteral("bash -c ") + shellQuote(script);
}

QString commandScript(const JobSpec &spec)
{
    QString s = QStringLiteral("#!/bin/bash\n# Written by Gantry: the job's environment and command.\n");
    // The PATH of a plain SSH login, not the tmux server's (which may be older).
    s += QStringLiteral("export PATH=__GANTRY_PATH__\n");
    for (const auto &[key, value] : spec.env)
        s += QStringLiteral("export ") + key + u'=' + shellQuote(value) + u'\n';
    if (!spec.venv.isEmpty()) {
        s += QStringLiteral("source ") + remotePath(spec.venv + QStringLiteral("/bin/activate"))
             + QStringLiteral(" || { echo 'gantry: cannot activate the virtualenv' >&2; exit 126; }\n");
    }
    if (!spec.condaEnv.isEmpty()) {
        s += QStringLiteral("for c in conda \"$HOME/miniconda3/bin/conda\" \"$HOME/anaconda3/bin/conda\" /opt/conda/bin/conda; do "
                            "command -v \"$c\" >/dev/null 2>&1 && { eval \"$(\"$c\" shell.bash hook)\"; break; }; done\n");
        s += QStringLiteral("conda activate ") + shellQuote(spec.condaEnv)
             + QStringLiteral(" || { echo 'gantry: cannot activate the conda environment' >&2; exit 126; }\n");
    }
    if (!spec.workingDir.isEmpty()) {
        s += QStringLiteral("cd -- ") + remotePath(spec.workingDir)
             + QStringLiteral(" || { echo 'gantry: the working directory does not exist' >&2; exit 126; }\n");
    } else {
        s += QStringLiteral("cd \"$HOME\"\n");
    }
    s += spec.command;
    if (!spec.command.endsWith(u'\n'))
        s += u'\n';
    return s;
}

QString launch(const QString &root, const JobSpec &spec, JobMethod method)
{
    QString s = QStringLiteral("set -u\n") + QString::fromLatin1(kRecordFunction) + dirVar(root, spec.name);
    // The job's files hold its command and --env values (tokens): 0700/0600 while they are written;
    // the job itself runs with the login's own umask again.
    s += QStringLiteral("gantry_umask=$(umask); umask 077\n");
    s += QStringLiteral("mkdir -p \"$root\" || { echo \"@@error cannot create $root\"; exit 20; }\n");
    s += QStringLiteral("mkdir -m 700 \"$d\" 2>/dev/null || { echo @@exists; rec \"$d\"; exit 22; }\n");
    // From here on a failure must not leave a half-made job that blocks the name.
    s += QStringLiteral("trap 'if [ ! -f \"$d/pid\" ]; then rm -rf \"$d\"; fi' EXIT\n");
    s += writeFile(QStringLiteral("\"$d/command\""), spec.command);
    s += writeFile(QStringLiteral("\"$d/cwd\""), spec.workingDir);
    QString cmd = commandScript(spec);
    const qsizetype at = cmd.indexOf(QStringLiteral("__GANTRY_PATH__"));
    const QString before = cmd.left(at);
    const QString after = cmd.mid(at + qsizetype(qstrlen("__GANTRY_PATH__")));
    s += QStringLiteral("{ printf '%s' ") + shellQuote(before) + QStringLiteral("; printf '%q' \"$PATH\"; printf '%s' ")
         + shellQuote(after) + QStringLiteral("; } > \"$d/cmd.sh\"\n");
    s += writeFile(QStringLiteral("\"$d/main.sh\""), QString::fromLatin1(kMainScript));
    s += writeFile(QStringLiteral("\"$d/run.sh\""), QString::fromLatin1(kRunScript));
    s += QStringLiteral(": > \"$d/log\"\n");
    s += QStringLiteral("umask \"$gantry_umask\"\n");
    s += startPart(method, spec.name);
    return s;
}

QString rerun(const QString &root, const QString &name, JobMethod method)
{
    QString s = QStringLiteral("set -u\n") + QString::fromLatin1(kRecordFunction) + dirVar(root, name);
    s += QStringLiteral(R"sh([ -f "$d/run.sh" ] || { echo @@notfound; exit 25; }
if [ ! -f "$d/exit_code" ] && [ -f "$d/pid" ] && kill -0 "$(cat "$d/pid")" 2>/dev/null; then echo @@running; rec "$d"; exit 26; fi
[ -f "$d/log" ] && mv -f "$d/log" "$d/log.1"
rm -f "$d/exit_code" "$d/pid" "$d/started" "$d/stop_log" "$d/boot_id"
: > "$d/log"
)sh");
    s += startPart(method, name);
    return s;
}

QString list(const QString &root, const QString &nameOrEmpty)
{
    QString s = QString::fromLatin1(kRecordFunction);
    if (nameOrEmpty.isEmpty()) {
        s += rootVar(root) + QStringLiteral(R"sh(for d in "$root"/*/; do [ -d "$d" ] && rec "$d"; done
exit 0
)sh");
    } else {
        s += dirVar(root, nameOrEmpty) + QStringLiteral("[ -d \"$d\" ] || { echo @@notfound; exit 25; }\nrec \"$d\"\n");
    }
    return s;
}

QString stop(const QString &root, const QString &name, int intGraceMs, int termGraceMs, bool wait)
{
    const int intTicks = qMax(1, intGraceMs / 100);
    const int termTicks = qMax(1, termGraceMs / 100);
    // The escalation runs detached so it finishes even if this connection drops.
    QString escalate = QStringLiteral(R"sh(gone() { ! kill -0 -- "-$p" 2>/dev/null; }
waitgone() { local i=0; while [ $i -lt "$1" ]; do gone && return 0; sleep 0.1; i=$((i + 1)); done; gone; }
echo "INT $(date +%s)" >> "$d/stop_log"; kill -INT -- "-$p" 2>/dev/null
)sh");
    escalate += QStringLiteral("waitgone %1 && exit 0\n").arg(intTicks);
    escalate += QStringLiteral("echo \"TERM $(date +%s)\" >> \"$d/stop_log\"; kill -TERM -- \"-$p\" 2>/dev/null\n");
    escalate += QStringLiteral("waitgone %1 && exit 0\n").arg(termTicks);
    escalate += QStringLiteral("echo \"KILL $(date +%s)\" >> \"$d/stop_log\"; kill -KILL -- \"-$p\" 2>/dev/null\n");

    QString s = QString::fromLatin1(kRecordFunction) + dirVar(root, name);
    s += QStringLiteral(R"sh([ -d "$d" ] || { echo @@notfound; exit 25; }
[ -f "$d/pid" ] || { echo @@notstarted; exit 27; }
p=$(cat "$d/pid")
# Only a process group this job started is signalled: never 1 (kill -- -1 is every process of the
# user), 0 (this shell's own group) or a word, and not a pid from before the machine restarted.
case "$p" in ''|*[!0-9]*|0|1) echo @@badpid; exit 28;; esac
if [ -s "$d/boot_id" ] && [ "$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)" != "$(cat "$d/boot_id")" ]; then echo @@ended; rec "$d"; exit 0; fi
if ! kill -0 -- "-$p" 2>/dev/null; then echo @@ended; rec "$d"; exit 0; fi
rm -f "$d/stop_log"
)sh");
    s += QStringLiteral("export d p\n( set -m; nohup setsid bash -c ") + shellQuote(escalate)
         + QStringLiteral(" > /dev/null 2>&1 < /dev/null & )\necho @@stopping\n");
    if (wait) {
        // Waiting here, not from the client, costs one round trip instead of one per poll.
        const int limit = intTicks + termTicks + 50;
        s += QStringLiteral("i=0; while [ $i -lt %1 ] && kill -0 -- \"-$p\" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done\n").arg(limit);
        s += QStringLiteral("i=0; while [ $i -lt 30 ] && [ ! -f \"$d/exit_code\" ]; do sleep 0.1; i=$((i + 1)); done\n");
        s += QStringLiteral("rec \"$d\"\n");
    }
    return s;
}

QString remove(const QString &root, const QString &name)
{
    QString s = dirVar(root, name);
    s += QStringLiteral(R"sh([ -d "$d" ] || { echo @@notfound; exit 25; }
if [ -f "$d/pid" ] && kill -0 -- "-$(cat "$d/pid")" 2>/dev/null; then echo @@running; exit 26; fi
)sh");
    s += QStringLiteral("tmux kill-session -t =") + shellQuote(QStringLiteral("gantry-") + name)
         + QStringLiteral(" >/dev/null 2>&1\n");
    s += QStringLiteral("rm -rf \"$d\" && echo @@removed\n");
    return s;
}

QString tailLines(const QString &root, const QString &name, int lines)
{
    return dirVar(root, name) + QStringLiteral("[ -d \"$d\" ] || { echo @@notfound; exit 25; }\ntail -n %1 \"$d/log\" 2>/dev/null\nexit 0\n").arg(lines);
}

QString readLog(const QString &root, const QString &name, qint64 offset, bool follow)
{
    QString s = dirVar(root, name);
    s += QStringLiteral("[ -f \"$d/log\" ] || { echo \"gantry: no job named $(basename \"$d\")\" >&2; exit 25; }\n");
    const QString from = QString::number(qMax<qint64>(0, offset) + 1);
    if (!follow)
        return s + QStringLiteral("exec tail -c +") + from + QStringLiteral(" \"$d/log\"\n");
    // --pid ends the follow once the job is gone (after printing what is left).
    s += QStringLiteral("p=$(cat \"$d/pid\" 2>/dev/null)\n"
                        "if [ -f \"$d/exit_code\" ] || [ -z \"$p\" ] || ! kill -0 \"$p\" 2>/dev/null; then exec tail -c +")
         + from + QStringLiteral(" \"$d/log\"; fi\nexec tail -c +") + from
         + QStringLiteral(" --pid=\"$p\" -f \"$d/log\"\n");
    return s;
}

} // namespace gantry::jobs::scripts
