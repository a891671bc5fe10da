#include "core/sync/remotetree.h"
#include "core/sync/synctext.h"

#include "core/sync/localscan.h"
#include "core/transfer/batchrunner.h"
#include "core/transfer/listingstream.h"
#include "core/transfer/remoteops.h"

#include <QCoreApplication>
#include <QElapsedTimer>

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

namespace {

// The listing command's records as they arrive: markers, then an entry record and its link
// target in turn. Only what is kept costs memory (issue 31).
class ListingReader
{
public:
    explicit ListingReader(transfer::ListingMeter &meter) : m_meter(meter) {}

    bool record(const QByteArray &r)
    {
        switch (m_stage) {
        case Stage::Before: // what the login shell printed, then a marker
            if (r == "gantry-notdir") {
                m_listing.exists = true;
                m_listing.notDir = true;
                m_stage = Stage::Done;
            } else if (r == "gantry-begin") {
                m_stage = Stage::Entries;
            }
            return true;
        case Stage::Entries:
            return entryOrMarker(r);
        case Stage::Target:
            if (m_keep) {
                if (m_pending.type == SyncEntry::Link) m_pending.linkTarget = QByteArray(r.constData(), r.size());
                m_listing.entries.append(std::move(m_pending));
            }
            m_pending = {};
            m_stage = Stage::Entries;
            return true;
        case Stage::Done:
            return true;
        }
        return true;
    }

    Result<RemoteListing> finish(const QString &host, const QString &remoteDir)
    {
        if (m_stage != Stage::Done) {
            return Error{ErrorCode::RemoteFailed, SyncText::tr("%1 did not list %2 (it needs a POSIX shell and GNU find). "
                                                               "Check that `find --version` works there.").arg(host, remoteDir)};
        }
        std::sort(m_listing.entries.begin(), m_listing.entries.end(),
                  [](const SyncEntry &a, const SyncEntry &b) { return a.path < b.path; });
        return std::move(m_listing);
    }
    // The listing's last marker came (its end, or "not a folder").
    bool done() const { return m_stage == Stage::Done; }
    // Its first marker came: the login shell has started.
    bool begun() const { return m_stage != Stage::Before; }

private:
    enum class Stage { Before, Entries, Target, Done };

    bool entryOrMarker(const QByteArray &r)
    {
        if (r == "gantry-end") {
            m_stage = Stage::Done;
        } else if (r == "gantry-tar") {
            m_listing.haveTar = true;
        } else if (r == transfer::BatchRunner::probeToken) {
            m_listing.haveRunner = true;
        } else if (r == "gantry-dir") {
            m_listing.exists = true;
        } else {
            return entry(r);
        }
        return true;
    }

    // "TYPE\tSIZE\tMTIME\tMODE\tPATH" (a name may hold tabs); its link target comes next.
    bool entry(const QByteArray &r)
    {
        qsizetype tabs[4];
        qsizetype from = 0;
        for (qsizetype &tab : tabs) {
            tab = r.indexOf('\t', from);
            if (tab < 0) return true;
            from = tab + 1;
        }
        m_stage = Stage::Target;
        const char type = tabs[0] == 0 ? '\0' : r.at(0);
        m_pending = {};
        m_keep = type == 'f' || type == 'd' || type == 'l'; // sockets, pipes: treated as absent
        if (!m_keep) return true;
        m_pending.type = SyncEntry::Type(type);
        m_pending.size = QByteArrayView(r.constData() + tabs[0] + 1, tabs[1] - tabs[0] - 1).toULongLong();
        const QByteArrayView mtime(r.constData() + tabs[1] + 1, tabs[2] - tabs[1] - 1);
        const qsizetype dot = mtime.indexOf('.');
        m_pending.mtime = (dot < 0 ? mtime : mtime.first(dot)).toLongLong();
        m_pending.mode = QByteArrayView(r.constData() + tabs[2] + 1, tabs[3] - tabs[2] - 1).toUInt(nullptr, 8);
        m_pending.path = r.mid(tabs[3] + 1);
        return m_meter.add(qint64(sizeof(SyncEntry)) + 48 + m_pending.path.size());
    }

    transfer::ListingMeter &m_meter;
    Stage m_stage = Stage::Before;
    RemoteListing m_listing;
    SyncEntry m_pending;
    bool m_keep = false;
};

} // namespace

Result<RemoteListing> parseListing(const QByteArray &out, const QString &host, const QString &remoteDir)
{
    transfer::ListingMeter meter(ssh::OutputLimits{}, host, remoteDir);
    ListingReader reader(meter);
    transfer::NulRecords records(transfer::maxListingRecordBytes());
    records.feed(out, [&reader](const QByteArray &r) { return reader.record(r); });
    if (meter.error()) return *meter.error();
    return reader.finish(host, remoteDir);
}

namespace {

// runRemote on a command already started on `channel`.
Result<QByteArray> collectRemote(ssh::Session &session, ssh::Channel &channel, const QByteArray &input, QByteArray *err,
                                 const std::atomic_bool *abandon)
{
    ssh::Session::ExecOptions options;
    options.abandon = abandon;
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

Result<QByteArray> runRemote(ssh::Session &session, const QString &command, const QByteArray &input, QByteArray *err,
                             const std::atomic_bool *abandon)
{
    auto channel = session.openExec(command);
    if (!channel) return channel.error();
    return collectRemote(session, **channel, input, err, abandon);
}

Result<RemoteListing> listRemote(ssh::Session &session, const QString &host, const QString &remoteDir,
                                 std::unique_ptr<ssh::Channel> *runner, qint64 *begunMs, const std::atomic_bool *cancel)
{
    QByteArray err;
    transfer::ListingMeter meter(session.limits(), host, remoteDir);
    ListingReader reader(meter);
    QElapsedTimer started;
    started.start();
    const auto onRecord = [&reader, &started, begunMs](const QByteArray &r) {
        const bool before = !reader.begun();
        const bool more = reader.record(r);
        if (before && reader.begun() && begunMs) *begunMs = started.elapsed();
        return more;
    };
    Result<int> status = -1;
    if (runner) {
        auto opened = session.openExecs({listingCommand(remoteDir), transfer::BatchRunner::command()});
        if (opened[1]) *runner = std::move(*opened[1]);
        status = opened[0] ? transfer::execListing(session, opened[0]->get(), {}, 10 * 60 * 1000, meter, onRecord, &err, cancel)
                           : Result<int>(opened[0].error());
    } else {
        status = transfer::execListing(session, nullptr, listingCommand(remoteDir), 10 * 60 * 1000, meter, onRecord, &err, cancel);
    }
    if (status && *status != 0) status = Error{ErrorCode::RemoteFailed, firstProblem(err)};
    if (!status) {
        if (status.error().code != ErrorCode::RemoteFailed || meter.error()) return status.error();
        return Error{ErrorCode::RemoteFailed, SyncText::tr("Listing %1 on %2 failed: %3").arg(remoteDir, host, status.error().message)};
    }
    return reader.finish(host, remoteDir);
}

Result<RemoteListing> listThroughRunner(const ssh::Session &session, transfer::BatchRunner &runner, const QString &host,
                                        const QString &remoteDir)
{
    transfer::ListingMeter meter(session.limits(), host, remoteDir);
    ListingReader reader(meter);
    transfer::NulRecords records(transfer::maxListingRecordBytes());
    const qint64 limit = transfer::checksumListingLimit(session.limits());
    qint64 received = 0;
    bool refused = false;
    const auto take = [&](const QByteArray &data) {
        received += data.size();
        if (received > limit || !records.feed(data, [&reader](const QByteArray &r) { return reader.record(r); })) {
            if (records.overlong()) meter.refuseOverlong();
            refused = true;
        }
        return refused || reader.done();
    };
    // The markers come first, then find's lines as it walks: two quiet minutes mean a dead link.
    if (auto ran = runner.runRaw(listingCommand(remoteDir), take, 2 * 60 * 1000); !ran) return ran.error();
    if (meter.error()) return *meter.error();
    if (refused) {
        return Error{ErrorCode::RemoteFailed, SyncText::tr("Listing %1 on %2 sent more than Gantry reads for one folder.").arg(remoteDir, host)};
    }
    return reader.finish(host, remoteDir);
}

Result<QHash<QByteArray, QByteArray>> remoteChecksums(ssh::Session &session, const QString &host, const QString &remoteDir,
                                                      const QList<QByteArray> &paths, const std::atomic_bool *cancel)
{
    if (paths.isEmpty()) return QHash<QByteArray, QByteArray>{};
    QByteArray err;
    // A cancel closes the channel at once: the temporary file goes with the signals that brings.
    auto out = runRemote(session, QStringLiteral("cd -- %1 && t=$(mktemp) && trap 'rm -f -- \"$t\"' EXIT && "
                                                 "trap 'exit 1' HUP INT TERM PIPE && cat > \"$t\" && %2")
                             .arg(ssh::shellQuote(remoteDir), transfer::digestNamesCommand(QStringLiteral("\"$t\""))),
                         dotSlashList(paths), &err, cancel);
    if (!out && out.error().code == ErrorCode::Cancelled) return out.error();
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
