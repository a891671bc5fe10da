// sync: a local folder sent to a folder on a machine, only what changed; --watch keeps it so.

#include "cliconnect.h"
#include "clicommand.h"
#include "interruptscope.h"

#include "core/sync/syncengine.h"
#include "core/sync/syncholder.h"
#include "core/sync/syncpairs.h"
#include "core/sync/syncwatch.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/remotespec.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <mutex>

using namespace gantry;
using namespace gantry::sync;

namespace gantry::cli {
namespace {

struct SyncArgs
{
    SyncOptions options;
    bool watch = false;
    bool list = false;   // --list [HOST]: the pairs the GUI remembers
    bool forget = false; // --forget LOCAL_DIR HOST:REMOTE_DIR
    bool release = false; // --release [LOCAL_DIR HOST:REMOTE_DIR]: end held connections
    int holdSeconds = 0;  // --hold SECONDS: keep the connection for the next sync
    int debounceMs = 200;
    QStringList positional;
};

Result<SyncArgs> syncArgs(const Args &args)
{
    SyncArgs out;
    out.options.deleteGone = args.has("delete");
    out.options.dryRun = args.has("dry-run");
    out.options.checksum = args.has("checksum");
    out.watch = args.has("watch");
    out.list = args.has("list");
    out.forget = args.has("forget");
    out.options.scan.ignoreFiles = !args.has("no-ignore-files");
    out.options.scan.skipGit = !args.has("include-git");
    for (const QString &pattern : args.values("exclude")) out.options.scan.excludes.addPattern({}, pattern.toUtf8());
    const Result<std::optional<qint64>> parallel = args.integer("parallel", 1, 16);
    if (!parallel) return parallel.error();
    out.options.parallel = int(parallel->value_or(out.options.parallel));
    const Result<std::optional<qint64>> debounce = args.integer("debounce-ms", 0, 60000);
    if (!debounce) return debounce.error();
    out.debounceMs = int(debounce->value_or(out.debounceMs));
    const Result<std::optional<qint64>> hold = args.integer("hold", 1, 7 * 24 * 3600);
    if (!hold) return hold.error();
    out.holdSeconds = int(hold->value_or(0));
    out.release = args.has("release");
    out.positional = args.positional();
    if (out.holdSeconds > 0 && (out.watch || out.options.dryRun || out.list || out.forget || out.release)) {
        return Error{ErrorCode::Usage, QStringLiteral("--hold goes with a plain sync only (not --watch, --dry-run, --list, --forget or --release)")};
    }
    if (out.release && (out.watch || out.list || out.forget)) {
        return Error{ErrorCode::Usage, QStringLiteral("--release does not go with --watch, --list or --forget")};
    }
    if (out.watch && out.options.dryRun) return Error{ErrorCode::Usage, QStringLiteral("--watch and --dry-run do not go together")};
    if (out.list && out.forget) return Error{ErrorCode::Usage, QStringLiteral("--list and --forget do not go together")};
    if ((out.list || out.forget) && out.watch) return Error{ErrorCode::Usage, QStringLiteral("--watch does not go with --list or --forget")};
    return out;
}

// Human-readable lines for one event (--json prints eventToJson instead).
void printEvent(const Context &context, const SyncEvent &e)
{
    const QString path = text::printable(displayPath(e.path));
    switch (e.kind) {
    case SyncEvent::Scan:
        context.err << QStringLiteral("Scanned %1 files (%2), %3 ignored").arg(e.files).arg(transfer::formatBytes(e.bytes)).arg(e.ignored)
                    << Qt::endl;
        break;
    case SyncEvent::Plan:
        context.out << QStringLiteral("%1%2 new, %3 changed, %4 unchanged, %5 to delete; %6 to send")
                           .arg(e.dryRun ? QStringLiteral("Dry run: ") : QString())
                           .arg(e.newFiles).arg(e.changedFiles).arg(e.unchanged).arg(e.toDelete)
                           .arg(transfer::formatBytes(e.bytes))
                    << Qt::endl;
        break;
    case SyncEvent::Sent:
        context.out << (e.dryRun ? QStringLiteral("would send %1 (%2, %3)") : QStringLiteral("sent %1 (%2, %3)"))
                           .arg(path, e.changed ? QStringLiteral("changed") : QStringLiteral("new"), transfer::formatBytes(e.bytes))
                    << Qt::endl;
        break;
    case SyncEvent::Deleted:
        context.out << (e.dryRun ? QStringLiteral("would delete %1") : QStringLiteral("deleted %1")).arg(path) << Qt::endl;
        break;
    case SyncEvent::Done:
        if (!e.dryRun) {
            context.out << QStringLiteral("Synced: %1 sent (%2), %3 deleted in %4 s")
                               .arg(e.files).arg(transfer::formatBytes(e.bytes)).arg(e.deleted).arg(e.seconds, 0, 'f', 2)
                        << Qt::endl;
        }
        break;
    case SyncEvent::Note:
    case SyncEvent::Reconnecting:
        context.warn(e.message);
        break;
    }
}

// --watch: runs until Ctrl+C (SIGINT) or SIGTERM, then ends the running sync and exits 0.
int watchLoop(Context &context, const transfer::SessionFactory &factory, const SyncTarget &target, const SyncArgs &args,
              const SyncEventSink &sink, std::mutex &printMutex)
{
    InterruptScope interrupt;
    interrupt.onInterrupt([] { QCoreApplication::quit(); });
    SyncWatch watch(factory, target, args.options, sink, [&](const Error &e) {
        std::lock_guard lock(printMutex);
        if (context.json) context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("error")}, {QStringLiteral("message"), e.message}});
        context.warn(e.message + QStringLiteral(" Still watching for changes."));
    }, args.debounceMs);
    if (auto r = watch.start(); !r) return context.fail(r.error());
    if (!context.json) context.err << QStringLiteral("Watching %1 (Ctrl+C to stop)…").arg(text::printable(target.localDir)) << Qt::endl;
    QCoreApplication::exec();
    watch.stop();
    if (context.json) context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("stopped")}, {QStringLiteral("syncs"), watch.syncsRun()}});
    return ExitOk;
}

// --list [HOST]: the folder pairs the GUI remembers (Keep in sync), all machines or one.
int listPairs(Context &context, const QStringList &positional)
{
    if (positional.size() > 1) return context.usage(QStringLiteral("sync --list takes at most one HOST"));
    const auto loaded = SyncPairStore(context.configDir).load();
    if (!loaded) return context.fail(loaded.error());
    const QList<SyncPair> pairs = pairsOf(*loaded, positional.value(0));
    if (context.json) {
        QJsonArray array;
        for (const SyncPair &p : pairs) array.append(pairToJson(p, context.configDir));
        context.printJson(QJsonObject{{QStringLiteral("pairs"), array}});
        return ExitOk;
    }
    if (pairs.isEmpty()) {
        context.out << (positional.isEmpty() ? QStringLiteral("No sync pairs remembered.")
                                             : QStringLiteral("No sync pairs remembered for %1.").arg(text::printable(positional[0])))
                    << Qt::endl;
        return ExitOk;
    }
    for (const SyncPair &p : pairs) {
        const QJsonObject o = pairToJson(p, context.configDir);
        const QString last = o.value(QStringLiteral("lastSynced")).isNull() ? QStringLiteral("never synced")
                                                                            : QStringLiteral("last synced %1").arg(o.value(QStringLiteral("lastSynced")).toString());
        context.out << QStringLiteral("%1  %2 -> %3  keep in sync: %4, delete: %5, %6")
                           .arg(text::printable(p.host), text::printable(p.localDir), text::printable(p.remoteDir),
                                p.keepInSync ? QStringLiteral("on") : QStringLiteral("off"), p.deleteGone ? QStringLiteral("yes") : QStringLiteral("no"),
                                last)
                    << Qt::endl;
    }
    return ExitOk;
}

// --forget LOCAL_DIR HOST:REMOTE_DIR: the GUI no longer remembers (nor keeps in sync) that pair.
int forgetPair(Context &context, const QStringList &positional)
{
    if (positional.size() != 2) return context.usage(QStringLiteral("sync --forget needs LOCAL_DIR HOST:REMOTE_DIR"));
    const auto dest = transfer::parseRemoteSpec(positional[1]);
    if (!dest || dest->path.isEmpty()) return context.usage(QStringLiteral("the destination must be HOST:REMOTE_DIR"));
    // A folder that is gone locally can still be forgotten: its pair was stored by absolute path.
    const QFileInfo local(positional[0]);
    const QString canonical = local.exists() ? QDir(local.absoluteFilePath()).canonicalPath() : QDir::cleanPath(local.absoluteFilePath());
    const SyncPair pair{dest->host, canonical, normalRemoteDir(dest->path)};
    if (auto r = SyncPairStore(context.configDir).forget(pair); !r) return context.fail(r.error());
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("forgotten"), pairToJson(pair, context.configDir)}});
    } else {
        context.out << QStringLiteral("Forgot %1 -> %2:%3 (files on both sides are left as they are).")
                           .arg(text::printable(pair.localDir), text::printable(pair.host), text::printable(pair.remoteDir))
                    << Qt::endl;
    }
    return ExitOk;
}

// What makes two syncs the same for a held connection: this program, the config, the pair and
// every option that changes what a round does or how it connects.
// A saved host is resolved, so a changed address, user or key is another connection.
Result<QByteArray> holdKey(const Context &context, const Args &parsed, const QString &hostSpec, const SyncTarget &target)
{
    const auto resolved = resolveHost(context, hostSpec, parsed.host());
    if (!resolved) return resolved.error();
    const QFileInfo program(QCoreApplication::applicationFilePath());
    QStringList key{program.absoluteFilePath(), QString::number(program.lastModified().toMSecsSinceEpoch()),
                    QDir(context.configDir).absolutePath(), hostSpec, resolved->display(), resolved->proxyJump,
                    QString::number(int(resolved->auth)), target.localDir, target.remoteDir};
    for (const QString &file : resolved->identityFiles) key << QFileInfo(file).absoluteFilePath();
    for (const char *flag : {"delete", "checksum", "no-ignore-files", "include-git", "accept-new-host-key"})
        key << QString::number(parsed.has(flag));
    for (const char *option : {"parallel", "password-env", "connect-timeout", "max-output-mib", "max-entries"})
        key << parsed.value(option);
    key << parsed.values("exclude").join(QLatin1Char('\x1f'));
    if (parsed.has("known-hosts")) key << QFileInfo(parsed.value("known-hosts")).absoluteFilePath();
    return key.join(QLatin1Char('\n')).toUtf8();
}

// --release with no pair: every held connection of this user.
int releaseAll(Context &context)
{
    const Result<QString> any = holdSocketPath("-");
    if (!any) return context.fail(any.error());
    const int ended = releaseAllHolders(*any);
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("released")}, {QStringLiteral("count"), ended}});
    } else {
        context.out << QStringLiteral("Ended %1 held connection(s).").arg(ended) << Qt::endl;
    }
    return ExitOk;
}

int releaseOne(Context &context, const QString &socket)
{
    const bool ended = releaseHolder(socket);
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("released")}, {QStringLiteral("count"), ended ? 1 : 0}});
    } else if (ended) {
        context.out << QStringLiteral("Ended the connection held for this sync.") << Qt::endl;
    } else {
        context.out << QStringLiteral("No connection was held for this sync: --release needs the folders and options the sync "
                                      "held with (-i and --known-hosts too); sync --release alone ends every one.")
                    << Qt::endl;
    }
    return ExitOk;
}

// A sync through the held connection; nullopt when none answers (sync here and start one).
std::optional<int> syncHeld(Context &context, const SyncArgs &args, const QString &socket, std::mutex &printMutex)
{
    const InterruptScope interrupt;
    const auto held = runHeldRound(socket, args.holdSeconds, [&](const QJsonObject &line) {
        std::lock_guard lock(printMutex);
        if (context.json) {
            context.printJson(line);
        } else {
            printEvent(context, eventFromJson(line));
        }
    }, [&] {
        if (!context.json) context.err << QStringLiteral("Waiting for the held connection…") << Qt::endl;
    }, interrupt.token());
    if (!held || interrupt.interrupted()) return interrupt.interrupted() ? interrupt.exitCode() : context.fail(held.error());
    if (!*held) return std::nullopt;
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("hold")}, {QStringLiteral("reused"), true},
                                      {QStringLiteral("seconds"), args.holdSeconds}});
    }
    return ExitOk;
}

void startHolding(Context &context, const SyncArgs &args, const QString &socket, bool typedSecret)
{
    if (typedSecret) {
        context.warn(QStringLiteral("Not holding the connection: it logged in with a typed password or passphrase, which a "
                                    "background process cannot type. Use a key, ssh-agent or --password-env VAR."));
        return;
    }
    const auto started = startHolder(QCoreApplication::applicationFilePath(), QCoreApplication::arguments().mid(1), socket);
    if (!started) {
        context.warn(started.error().message + QStringLiteral(" The next sync connects again."));
        return;
    }
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("hold")}, {QStringLiteral("reused"), false},
                                      {QStringLiteral("seconds"), args.holdSeconds}});
    } else {
        context.err << QStringLiteral("Holding the connection for %1 s in the background: the next sync of this folder with "
                                      "the same options starts at once (sync --release ends it).").arg(args.holdSeconds)
                    << Qt::endl;
    }
}

int syncCommand(Context &context, const Args &parsed)
{
    auto args = syncArgs(parsed);
    if (!args) return context.fail(args.error());
    if (args->list) return listPairs(context, args->positional);
    if (args->forget) return forgetPair(context, args->positional);
    if (args->release && args->positional.isEmpty()) return releaseAll(context);
    if (args->positional.size() != 2) return context.usage(QStringLiteral("sync needs LOCAL_DIR HOST:REMOTE_DIR"));
    const auto dest = transfer::parseRemoteSpec(args->positional[1]);
    if (!dest || dest->path.isEmpty()) {
        return context.usage(QStringLiteral("the destination must be HOST:REMOTE_DIR (a port is written user@host:port:/path)"));
    }
    const QFileInfo local(args->positional[0]);
    if (!local.isDir()) {
        return context.fail(Error{local.exists() ? ErrorCode::Usage : ErrorCode::NotFound,
                                  local.exists() ? QStringLiteral("%1 is not a folder: sync sends a folder's content. Give the folder "
                                                               "that holds it, or use gantry-cli upload for one file.").arg(args->positional[0])
                                                 : QStringLiteral("The local folder %1 does not exist. Check the path.").arg(args->positional[0])});
    }
    QString remoteDir = dest->path;
    while (remoteDir.size() > 1 && remoteDir.endsWith(QLatin1Char('/'))) remoteDir.chop(1);
    // "~" and relative paths are the home's, as with upload (remote commands start there).
    if (remoteDir.startsWith(QLatin1String("~/"))) remoteDir = remoteDir.mid(2);
    if (remoteDir == QLatin1String("~")) remoteDir = QStringLiteral(".");
    const SyncTarget target{dest->host, QDir(local.absoluteFilePath()).canonicalPath(), remoteDir, context.configDir};
    std::mutex printMutex;
    QString socket;
    if (args->holdSeconds > 0 || args->release) {
        const Result<QByteArray> key = holdKey(context, parsed, dest->host, target);
        if (!key) return context.fail(key.error());
        const Result<QString> path = holdSocketPath(*key);
        if (!path && args->release) return context.fail(path.error());
        // Without a place for the socket the sync still runs, only not held.
        if (!path) context.warn(path.error().message);
        socket = path ? *path : QString();
    }
    if (args->release) return releaseOne(context, socket);
    const bool holder = args->holdSeconds > 0 && qEnvironmentVariableIsSet(kHolderVariable);
    // A holder started for another key (the program was rebuilt meanwhile) must not sync unseen.
    if (holder && qEnvironmentVariable(kHolderVariable) != socket) return ExitOk;
    if (!socket.isEmpty() && !holder) {
        if (const std::optional<int> done = syncHeld(context, *args, socket, printMutex)) return *done;
    }
    const auto typed = std::make_shared<std::atomic_bool>(false);
    auto factory = makeCliFactory(context, dest->host, parsed.host(), typed);
    if (!factory) return context.fail(factory.error());
    if (holder) {
        qunsetenv(kHolderVariable);
        holdSync(*factory, target, args->options, socket, std::chrono::seconds(args->holdSeconds));
        return ExitOk;
    }
    const SyncEventSink sink = [&](const SyncEvent &e) {
        std::lock_guard lock(printMutex);
        if (context.json) {
            context.printJson(eventToJson(e));
        } else {
            printEvent(context, e);
        }
    };
    if (args->watch) return watchLoop(context, *factory, target, *args, sink, printMutex);
    {
        const InterruptScope interrupt;
        SyncEngine engine(*factory, target, args->options, sink, interrupt.token());
        if (const auto r = engine.run(); !r) return interrupt.interrupted() ? interrupt.exitCode() : context.fail(r.error());
    } // the connection closes before a holder starts
    if (!socket.isEmpty()) startHolding(context, *args, socket, typed->load());
    return ExitOk;
}

const Registrar syncRegistrar(Command{
    .name = "sync",
    .summary = "send what changed in a local folder to a folder on a machine; --watch keeps sending",
    .options = {
        {.name = "delete", .help = "delete on the machine what was deleted here (only files an earlier sync sent)"},
        {.name = "dry-run", .help = "say what would be sent and deleted, change nothing", .shortName = 'n'},
        {.name = "exclude", .value = "PATTERN", .help = "leave out what matches PATTERN (.gitignore syntax; repeatable)", .repeatable = true},
        {.name = "checksum", .help = "compare content (SHA-256), not size and modification time", .shortName = 'c'},
        {.name = "watch", .help = "keep watching and send each change until Ctrl+C or SIGTERM (exit 0)"},
        {.name = "debounce-ms", .value = "MS", .help = "with --watch: wait for MS quiet milliseconds before sending (default 200)"},
        {.name = "parallel", .value = "N", .help = "sessions at once, 1 to 16 (default: by size and round trip)"},
        {.name = "no-ignore-files", .help = "do not read .gitignore and .gantryignore"},
        {.name = "include-git", .help = "send the .git folder too"},
        {.name = "list", .help = "list the folder pairs the GUI remembers (all machines, or HOST's)"},
        {.name = "forget", .help = "forget the pair LOCAL_DIR HOST:REMOTE_DIR (its files stay as they are)"},
        {.name = "hold", .value = "SECONDS", .help = "keep the connection SECONDS after the sync (as ssh's ControlPersist): the next "
                                                    "sync of this folder with the same options starts at once"},
        {.name = "release", .help = "end the connection --hold keeps for this sync (with no folders: every one held)"},
    },
    .arguments = {{"LOCAL_DIR", Argument::Optional, Complete::Directory}, {"HOST:REMOTE_DIR", Argument::Optional, Complete::HostPath}},
    .groups = Connection,
    .usage = {"[OPTIONS] LOCAL_DIR HOST:REMOTE_DIR", "--list [HOST]", "--forget LOCAL_DIR HOST:REMOTE_DIR",
              "--release [LOCAL_DIR HOST:REMOTE_DIR]"},
    .notes = {"Honours .gitignore and .gantryignore; --delete removes only files an earlier sync sent.",
              "--hold: a later sync with the same folders and options runs over the held connection and its started "
              "login shell, in about one round trip when nothing changed; the connection ends after SECONDS without a "
              "sync. It logs in as this sync did, without asking (a key, ssh-agent or --password-env)."},
    .run = syncCommand,
});

} // namespace
} // namespace gantry::cli
