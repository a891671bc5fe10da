#include "core/sync/remotetree.h"
#include "core/sync/synctext.h"

#include "core/sync/localscan.h"
#include "core/transfer/batchrunner.h"
#include "core/transfer/remoteops.h"

#include <QCoreApplication>

#include <algorithm>

namespace gantry::sync {

namespace {

QByteArray dotSlashList(const QList<QByteArray> &paths)
{
    QByteArray input;
    for (const QByteArray &p : paths) input += "./" + p + '\0';
    return input;
}

// The first path a command's stderr names ("rm: cannot remove './x': Permission denied").
QString firstProblem(const QByteArray &err)
{
    return QString::fromUtf8(err.trimmed().split('\n').value(0)).left(300);
}

} // namespace

QString listingCommand(const QString &remoteDir)
{
    // Markers start with a NUL: the login shell's start-up files may print before them.
    return QStringLiteral("d=%1; if [ -e \"$d\" ] || [ -L \"$d\" ]; then [ -d \"$d\" ] || { printf '\\0gantry-notdir\\0'; exit 0; }; fi; "
                          "printf '\\0gantry-begin\\0'; "
                          "command -v tar >/dev/null 2>&1 && command -v sha256sum >/dev/null 2>&1 && printf 'gantry-tar\\0'; %2"
                          "if cd -- \"$d\" 2>/dev/null; then printf 'gantry-dir\\0'; "
                          "find . -mindepth 1 -printf '%y\\t%s\\t%T@\\t%m\\t%P\\0%l\\0' 2>/dev/null; fi; printf 'gantry-end\\0'")
        .arg(ssh::shellQuote(remoteDir), transfer::BatchRunner::probeSnippet());
}

Result<RemoteListing> parseListing(const QByteArray &out, const QString &host, const QString &remoteDir)
{
    RemoteListing listing;
    const QList<QByteArray> records = out.split('\0');
    qsizetype i = 0;
    while (i < records.size() && records[i] != "gantry-begin" && records[i] != "gantry-notdir") ++i;
    if (i < records.size() && records[i] == "gantry-notdir") {
        listing.exists = true;
        listing.notDir = true;
        return listing;
    }
    if (i >= records.size() || !records.contains("gantry-end")) {
        return Error{ErrorCode::RemoteFailed, SyncText::tr("%1 did not list %2 (it needs a POSIX shell and GNU find). "
                                                           "Check that `find --version` works there.").arg(host, remoteDir)};
    }
    for (++i; i < records.size() && records[i] != "gantry-end"; ++i) {
        const QByteArray &r = records[i];
        if (r == "gantry-tar") {
            listing.haveTar = true;
            continue;
        }
        if (r == transfer::BatchRunner::probeToken) {
            listing.haveRunner = true;
            continue;
        }
        if (r == "gantry-dir") {
            listing.exists = true;
            continue;
        }
        const QList<QByteArray> f = r.split('\t');
        if (f.size() < 5 || i + 1 >= records.size()) continue;
        const QByteArray target = records[++i];
        SyncEntry e;
        const char type = f[0].isEmpty() ? '\0' : f[0].at(0);
        if (type != 'f' && type != 'd' && type != 'l') continue; // sockets, pipes: treated as absent
        e.type = SyncEntry::Type(type);
        e.size = f[1].toULongLong();
        e.mtime = f[2].left(f[2].indexOf('.')).toLongLong();
        e.mode = f[3].toUInt(nullptr, 8);
        e.path = r.mid(f[0].size() + f[1].size() + f[2].size() + f[3].size() + 4); // a name may hold tabs
        if (e.type == SyncEntry::Link) e.linkTarget = target;
        listing.entries.append(e);
    }
    std::sort(listing.entries.begin(), listing.entries.end(), [](const SyncEntry &a, const SyncEntry &b) { return a.path < b.path; });
    return listing;
}

namespace {

// runRemote on a command already started on `channel`.
Result<QByteArray> collectRemote(ssh::Session &session, ssh::Channel &channel, const QByteArray &input, QByteArray *err)
{
    ssh::Session::ExecOptions options;
    QByteArray out;
    options.onStdout = [&out](const QByteArray &d) { out += d; };
    options.onStderr = [err](const QByteArray &d) {
        if (err->size() < 64 * 1024) *err += d;
    };
    options.stdinData = input;
    options.timeoutMs = 10 * 60 * 1000;
    options.maxOutputBytes = transfer::checksumListingLimit(session.limits());
    auto status = session.execOn(channel, options);
    if (!status) return status.error();
    if (*status != 0) {
        return Error{ErrorCode::RemoteFailed, firstProblem(*err)};
    }
    return out;
}

} // namespace

Result<QByteArray> runRemote(ssh::Session &session, const QString &command, const QByteArray &input, QByteArray *err)
{
    auto channel = session.openExec(command);
    if (!channel) return channel.error();
    return collectRemote(session, **channel, input, err);
}

Result<RemoteListing> listRemote(ssh::Session &session, const QString &host, const QString &remoteDir,
                                 std::unique_ptr<ssh::Channel> *runner)
{
    QByteArray err;
    Result<QByteArray> out = QByteArray();
    if (runner) {
        auto opened = session.openExecs({listingCommand(remoteDir), transfer::BatchRunner::command()});
        if (opened[1]) *runner = std::move(*opened[1]);
        out = opened[0] ? collectRemote(session, **opened[0], {}, &err) : Result<QByteArray>(opened[0].error());
    } else {
        out = runRemote(session, listingCommand(remoteDir), {}, &err);
    }
    if (!out) {
        if (out.error().code != ErrorCode::RemoteFailed) return out.error();
        return Error{ErrorCode::RemoteFailed, SyncText::tr("Listing %1 on %2 failed: %3").arg(remoteDir, host, out.error().message)};
    }
    auto listing = parseListing(*out, host, remoteDir);
    if (listing) {
        if (auto r = transfer::checkEntryCount(session, host, remoteDir, listing->entries.size()); !r) return r.error();
    }
    return listing;
}

Result<QHash<QByteArray, QByteArray>> remoteChecksums(ssh::Session &session, const QString &host, const QString &remoteDir,
                                                      const QList<QByteArray> &paths)
{
    if (paths.isEmpty()) return QHash<QByteArray, QByteArray>{};
    QByteArray err;
    auto out = runRemote(session, QStringLiteral("cd -- %1 && t=$(mktemp) && trap 'rm -f -- \"$t\"' EXIT && cat > \"$t\" && %2")
                             .arg(ssh::shellQuote(remoteDir), transfer::digestNamesCommand(QStringLiteral("\"$t\""))),
                         dotSlashList(paths), &err);
    if (!out) {
        return Error{out.error().code, SyncText::tr("Checksumming files in %1 on %2 failed: %3. Run without --checksum to compare "
                                                    "sizes and times.").arg(remoteDir, host, out.error().message)};
    }
    return transfer::parseDigestLines(*out);
}

Result<void> removeRemote(ssh::Session &session, const QString &host, const QString &remoteDir, const QList<QByteArray> &files,
                          const QList<QByteArray> &dirs)
{
    const QString cd = QStringLiteral("cd -- %1 && ").arg(ssh::shellQuote(remoteDir));
    QByteArray err;
    if (!files.isEmpty()) {
        auto r = runRemote(session, cd + QStringLiteral("xargs -0 rm -f --"), dotSlashList(files), &err);
        if (!r) {
            return Error{r.error().code == ErrorCode::RemoteFailed ? ErrorCode::PermissionDenied : r.error().code,
                         SyncText::tr("Deleting in %1 on %2 failed: %3. Fix the permissions there, or run without --delete.")
                             .arg(remoteDir, host, r.error().message)};
        }
    }
    if (!dirs.isEmpty()) {
        QList<QByteArray> deepestFirst = dirs;
        std::sort(deepestFirst.begin(), deepestFirst.end(), [](const QByteArray &a, const QByteArray &b) { return a > b; });
        // A folder that still holds something (run outputs) stays: rmdir refuses, and that is fine.
        (void)runRemote(session, cd + QStringLiteral("xargs -0 rmdir -- 2>/dev/null; true"), dotSlashList(deepestFirst), &err);
    }
    return {};
}

Result<void> setRemoteTimes(ssh::Session &session, const QString &host, const QString &remoteDir, const QList<SyncEntry> &files)
{
    if (files.isEmpty()) return {};
    QString script = QStringLiteral("cd -- %1").arg(ssh::shellQuote(remoteDir));
    for (const SyncEntry &e : files) {
        const QString name = ssh::shellQuote(QStringLiteral("./") + QString::fromUtf8(e.path));
        script += QStringLiteral(" && touch -m -d @%1 -- %2 && chmod %3 -- %2").arg(e.mtime).arg(name).arg(e.mode, 0, 8);
    }
    QByteArray err;
    auto r = runRemote(session, script, {}, &err);
    if (!r) {
        return Error{r.error().code, SyncText::tr("Setting times in %1 on %2 failed: %3. The files are there; the next sync sends "
                                                  "them again.").arg(remoteDir, host, r.error().message)};
    }
    return {};
}

} // namespace gantry::sync
