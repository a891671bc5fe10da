// sync: a local folder sent to a folder on a machine, only what changed; --watch keeps it so.

#include "cliconnect.h"
#include "clicommand.h"
#include "scopedsignal.h"

#include "core/sync/syncengine.h"
#include "core/sync/syncpairs.h"
#include "core/sync/syncwatch.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/remotespec.h"
#include "core/util/printable.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QSocketNotifier>

#include <csignal>
#include <mutex>
#include <unistd.h>

using namespace gantry;
using namespace gantry::sync;

namespace gantry::cli {
namespace {

// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CliText
{
    Q_DECLARE_TR_FUNCTIONS(cli)
};

struct SyncArgs
{
    HostOptions host;
    SyncOptions options;
    bool watch = false;
    bool list = false;   // --list [HOST]: the pairs the GUI remembers
    bool forget = false; // --forget LOCAL_DIR HOST:REMOTE_DIR
    int debounceMs = 200;
    QStringList positional;
};

Result<int> intValue(const QString &name, const QString &text, int lo, int hi)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < lo || v > hi) return Error{ErrorCode::Usage, CliText::tr("%1 takes a number from %2 to %3").arg(name).arg(lo).arg(hi)};
    return v;
}

Result<SyncArgs> parseSyncArgs(QStringList args)
{
    SyncArgs out;
    auto host = takeHostOptions(args);
    if (!host) return host.error();
    out.host = *host;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString a = args[i];
        auto value = [&](const QString &name) -> Result<QString> {
            if (a.startsWith(name + QLatin1Char('='))) return a.mid(name.size() + 1);
            if (i + 1 >= args.size()) return Error{ErrorCode::Usage, CliText::tr("%1 needs a value").arg(name)};
            return args[++i];
        };
        const auto is = [&](const char *name) { return a == QLatin1String(name) || a.startsWith(QLatin1String(name) + QLatin1Char('=')); };
        if (a == QLatin1String("--delete")) {
            out.options.deleteGone = true;
        } else if (a == QLatin1String("--dry-run") || a == QLatin1String("-n")) {
            out.options.dryRun = true;
        } else if (a == QLatin1String("--checksum") || a == QLatin1String("-c")) {
            out.options.checksum = true;
        } else if (a == QLatin1String("--watch")) {
            out.watch = true;
        } else if (a == QLatin1String("--list")) {
            out.list = true;
        } else if (a == QLatin1String("--forget")) {
            out.forget = true;
        } else if (a == QLatin1String("--no-ignore-files")) {
            out.options.scan.ignoreFiles = false;
        } else if (a == QLatin1String("--include-git")) {
            out.options.scan.skipGit = false;
        } else if (is("--exclude")) {
            auto v = value(QStringLiteral("--exclude"));
            if (!v) return v.error();
            out.options.scan.excludes.addPattern({}, v->toUtf8());
        } else if (is("--parallel") || is("--debounce-ms")) {
            const QString name = a.section(QLatin1Char('='), 0, 0);
            auto v = value(name);
            if (!v) return v.error();
            auto n = name == QLatin1String("--parallel") ? intValue(name, *v, 1, 16) : intValue(name, *v, 0, 60000);
            if (!n) return n.error();
            (name == QLatin1String("--parallel") ? out.options.parallel : out.debounceMs) = *n;
        } else if (a == QLatin1String("--")) {
            out.positional += args.mid(i + 1);
            break;
        } else if (a.startsWith(QLatin1String("--"))) {
            return Error{ErrorCode::Usage, CliText::tr("unknown option %1").arg(a)};
        } else {
            out.positional.append(a);
        }
    }
    if (out.watch && out.options.dryRun) return Error{ErrorCode::Usage, CliText::tr("--watch and --dry-run do not go together")};
    if (out.list && out.forget) return Error{ErrorCode::Usage, CliText::tr("--list and --forget do not go together")};
    if ((out.list || out.forget) && out.watch) return Error{ErrorCode::Usage, CliText::tr("--watch does not go with --list or --forget")};
    return out;
}

// Human-readable lines for one event (--json prints eventToJson instead).
void printEvent(const Context &context, const SyncEvent &e)
{
    const QString path = text::printable(displayPath(e.path));
    switch (e.kind) {
    case SyncEvent::Scan:
        context.err << CliText::tr("Scanned %1 files (%2), %3 ignored").arg(e.files).arg(transfer::formatBytes(e.bytes)).arg(e.ignored)
                    << Qt::endl;
        break;
    case SyncEvent::Plan:
        context.out << CliText::tr("%1%2 new, %3 changed, %4 unchanged, %5 to delete; %6 to send")
                           .arg(e.dryRun ? CliText::tr("Dry run: ") : QString())
                           .arg(e.newFiles).arg(e.changedFiles).arg(e.unchanged).arg(e.toDelete)
                           .arg(transfer::formatBytes(e.bytes))
                    << Qt::endl;
        break;
    case SyncEvent::Sent:
        context.out << (e.dryRun ? CliText::tr("would send %1 (%2, %3)") : CliText::tr("sent %1 (%2, %3)"))
                           .arg(path, e.changed ? CliText::tr("changed") : CliText::tr("new"), transfer::formatBytes(e.bytes))
                    << Qt::endl;
        break;
    case SyncEvent::Deleted:
        context.out << (e.dryRun ? CliText::tr("would delete %1") : CliText::tr("deleted %1")).arg(path) << Qt::endl;
        break;
    case SyncEvent::Done:
        if (!e.dryRun) {
            context.out << CliText::tr("Synced: %1 sent (%2), %3 deleted in %4 s")
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

std::atomic_bool g_syncCancel{false};
int g_syncWakeFd = -1;

void onSyncSigint(int)
{
    g_syncCancel = true;
    if (g_syncWakeFd >= 0) {
        const char c = 1;
        (void)!::write(g_syncWakeFd, &c, 1);
    }
}

// The pipe the signal handler writes to so that the event loop wakes up; closed on every return.
struct WakePipe
{
    int fds[2] = {-1, -1};
    bool open()
    {
        if (::pipe(fds) != 0) return false;
        g_syncWakeFd = fds[1];
        return true;
    }
    ~WakePipe()
    {
        g_syncWakeFd = -1;
        for (int fd : fds) {
            if (fd >= 0) ::close(fd);
        }
    }
};

// --watch: runs until Ctrl+C (SIGINT) or SIGTERM, then ends the running sync and exits 0.
int watchLoop(Context &context, const transfer::SessionFactory &factory, const SyncTarget &target, const SyncArgs &args,
              const SyncEventSink &sink, std::mutex &printMutex)
{
    WakePipe wake;
    if (!wake.open()) return context.fail(Error{ErrorCode::Io, CliText::tr("Cannot set up the Ctrl+C handler.")});
    const ScopedSignal ctrlC(SIGINT, onSyncSigint);
    const ScopedSignal sigterm(SIGTERM, onSyncSigint);
    SyncWatch watch(factory, target, args.options, sink, [&](const Error &e) {
        std::lock_guard lock(printMutex);
        if (context.json) context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("error")}, {QStringLiteral("message"), e.message}});
        context.warn(e.message + CliText::tr(" Still watching for changes."));
    }, args.debounceMs);
    QSocketNotifier stopper(wake.fds[0], QSocketNotifier::Read);
    QObject::connect(&stopper, &QSocketNotifier::activated, qApp, [] { QCoreApplication::quit(); });
    if (auto r = watch.start(); !r) return context.fail(r.error());
    if (!context.json) context.err << CliText::tr("Watching %1 (Ctrl+C to stop)…").arg(text::printable(target.localDir)) << Qt::endl;
    QCoreApplication::exec();
    watch.stop();
    if (context.json) context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("stopped")}, {QStringLiteral("syncs"), watch.syncsRun()}});
    return ExitOk;
}

// --list [HOST]: the folder pairs the GUI remembers (Keep in sync), all machines or one.
int listPairs(Context &context, const QStringList &positional)
{
    if (positional.size() > 1) return context.usage(CliText::tr("sync --list takes at most one HOST"));
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
        context.out << (positional.isEmpty() ? CliText::tr("No sync pairs remembered.")
                                             : CliText::tr("No sync pairs remembered for %1.").arg(text::printable(positional[0])))
                    << Qt::endl;
        return ExitOk;
    }
    for (const SyncPair &p : pairs) {
        const QJsonObject o = pairToJson(p, context.configDir);
        const QString last = o.value(QStringLiteral("lastSynced")).isNull() ? CliText::tr("never synced")
                                                                            : CliText::tr("last synced %1").arg(o.value(QStringLiteral("lastSynced")).toString());
        context.out << CliText::tr("%1  %2 -> %3  keep in sync: %4, delete: %5, %6")
                           .arg(text::printable(p.host), text::printable(p.localDir), text::printable(p.remoteDir),
                                p.keepInSync ? CliText::tr("on") : CliText::tr("off"), p.deleteGone ? CliText::tr("yes") : CliText::tr("no"),
                                last)
                    << Qt::endl;
    }
    return ExitOk;
}

// --forget LOCAL_DIR HOST:REMOTE_DIR: the GUI no longer remembers (nor keeps in sync) that pair.
int forgetPair(Context &context, const QStringList &positional)
{
    if (positional.size() != 2) return context.usage(CliText::tr("sync --forget needs LOCAL_DIR HOST:REMOTE_DIR"));
    const auto dest = transfer::parseRemoteSpec(positional[1]);
    if (!dest || dest->path.isEmpty()) return context.usage(CliText::tr("the destination must be HOST:REMOTE_DIR"));
    // A folder that is gone locally can still be forgotten: its pair was stored by absolute path.
    const QFileInfo local(positional[0]);
    const QString canonical = local.exists() ? QDir(local.absoluteFilePath()).canonicalPath() : QDir::cleanPath(local.absoluteFilePath());
    const SyncPair pair{dest->host, canonical, normalRemoteDir(dest->path)};
    if (auto r = SyncPairStore(context.configDir).forget(pair); !r) return context.fail(r.error());
    if (context.json) {
        context.printJson(QJsonObject{{QStringLiteral("forgotten"), pairToJson(pair, context.configDir)}});
    } else {
        context.out << CliText::tr("Forgot %1 -> %2:%3 (files on both sides are left as they are).")
                           .arg(text::printable(pair.localDir), text::printable(pair.host), text::printable(pair.remoteDir))
                    << Qt::endl;
    }
    return ExitOk;
}

int syncCommand(Context &context, const QStringList &raw)
{
    auto args = parseSyncArgs(raw);
    if (!args) return context.fail(args.error());
    if (args->list) return listPairs(context, args->positional);
    if (args->forget) return forgetPair(context, args->positional);
    if (args->positional.size() != 2) return context.usage(CliText::tr("sync needs LOCAL_DIR HOST:REMOTE_DIR"));
    const auto dest = transfer::parseRemoteSpec(args->positional[1]);
    if (!dest || dest->path.isEmpty()) {
        return context.usage(CliText::tr("the destination must be HOST:REMOTE_DIR (a port is written user@host:port:/path)"));
    }
    const QFileInfo local(args->positional[0]);
    if (!local.isDir()) {
        return context.fail(Error{local.exists() ? ErrorCode::Usage : ErrorCode::NotFound,
                                  local.exists() ? CliText::tr("%1 is not a folder: sync sends a folder's content. Give the folder "
                                                               "that holds it, or use gantry-cli upload for one file.").arg(args->positional[0])
                                                 : CliText::tr("The local folder %1 does not exist. Check the path.").arg(args->positional[0])});
    }
    auto factory = makeCliFactory(context, dest->host, args->host);
    if (!factory) return context.fail(factory.error());
    QString remoteDir = dest->path;
    while (remoteDir.size() > 1 && remoteDir.endsWith(QLatin1Char('/'))) remoteDir.chop(1);
    // "~" and relative paths are the home's, as with upload (remote commands start there).
    if (remoteDir.startsWith(QLatin1String("~/"))) remoteDir = remoteDir.mid(2);
    if (remoteDir == QLatin1String("~")) remoteDir = QStringLiteral(".");
    const SyncTarget target{dest->host, QDir(local.absoluteFilePath()).canonicalPath(), remoteDir, context.configDir};
    std::mutex printMutex;
    const SyncEventSink sink = [&](const SyncEvent &e) {
        std::lock_guard lock(printMutex);
        if (context.json) {
            context.printJson(eventToJson(e));
        } else {
            printEvent(context, e);
        }
    };
    if (args->watch) return watchLoop(context, *factory, target, *args, sink, printMutex);
    SyncEngine engine(*factory, target, args->options, sink, &g_syncCancel);
    const auto r = [&] {
        const ScopedSignal ctrlC(SIGINT, onSyncSigint);
        return engine.run();
    }();
    if (!r) return context.fail(r.error());
    return ExitOk;
}

const Registrar syncRegistrar(
    "sync",
    "sync [--delete] [--dry-run] [--exclude PATTERN]… [--checksum] [--watch] [--debounce-ms N] [--parallel N] "
    "[--no-ignore-files] [--include-git] LOCAL_DIR HOST:REMOTE_DIR   send what changed (honours .gitignore and "
    ".gantryignore; --delete removes only files an earlier sync sent); sync --list [HOST] lists the pairs the GUI "
    "remembers, sync --forget LOCAL_DIR HOST:REMOTE_DIR drops one",
    syncCommand);

} // namespace
} // namespace gantry::cli
