// upload / download / ls: the transfer engine from the command line.

#include "cliconnect.h"
#include "clicommand.h"
#include "interruptscope.h"

#include "core/transfer/journal.h"
#include "core/transfer/remoteops.h"
#include "core/transfer/remotespec.h"
#include "core/transfer/sessionfactory.h"
#include "core/transfer/sftpclient.h"
#include "core/transfer/speedmeter.h"
#include "core/transfer/transferjob.h"
#include "core/util/printable.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <iostream>
#include <mutex>
#include <string>
#include <unistd.h>

using namespace gantry;
using namespace gantry::transfer;

namespace gantry::cli {
namespace {

struct TransferArgs
{
    TransferOptions options;
    int retries = 3;
};

Result<TransferArgs> transferArgs(const Args &args)
{
    TransferArgs out;
    const Result<std::optional<qint64>> parallel = args.integer("parallel", 1, 16);
    if (!parallel) return Error{ErrorCode::Usage, QStringLiteral("--parallel takes a number from 1 to 16")};
    out.options.parallel = int(parallel->value_or(out.options.parallel));
    const Result<std::optional<qint64>> channels = args.integer("channels", 1, 8);
    if (!channels) return Error{ErrorCode::Usage, QStringLiteral("--channels takes a number from 1 to 8")};
    out.options.channels = int(channels->value_or(out.options.channels));
    if (const std::optional<QString> policy = args.optional("on-conflict")) {
        auto p = conflictPolicyFromName(*policy);
        if (!p) return Error{ErrorCode::Usage, QStringLiteral("--on-conflict takes ask, overwrite, resume, skip or rename")};
        out.options.onConflict = *p;
    }
    if (const std::optional<QString> retries = args.optional("retries")) out.retries = std::max(0, retries->toInt());
    out.options.verify = !args.has("no-verify");
    out.options.followSymlinks = !args.has("skip-symlinks");
    return out;
}

} // namespace

Result<SessionFactory> makeCliFactory(const Context &context, const QString &hostSpec, const HostOptions &options,
                                      std::shared_ptr<std::atomic_bool> typed)
{
    auto target = resolveHost(context, hostSpec, options);
    if (!target) return target.error();
    const QString envName = options.passwordEnv;
    if (!envName.isEmpty() && qEnvironmentVariableIsEmpty(envName.toLocal8Bit().constData())) {
        return Error{ErrorCode::Usage, QStringLiteral("--password-env %1: that environment variable is empty or not set").arg(envName)};
    }
    struct Cache
    {
        std::mutex mutex;
        QHash<QString, std::optional<QString>> answers;
    };
    auto cache = std::make_shared<Cache>();
    auto secret = [envName, cache, typed](const QString &prompt) -> std::optional<QString> {
        if (!envName.isEmpty()) return qEnvironmentVariable(envName.toLocal8Bit().constData());
        std::lock_guard lock(cache->mutex);
        if (!cache->answers.contains(prompt)) cache->answers.insert(prompt, promptHidden(prompt));
        if (typed && cache->answers.value(prompt)) typed->store(true);
        return cache->answers.value(prompt);
    };
    ssh::ConnectOptions connect;
    connect.knownHostsFile = options.knownHostsFile;
    connect.acceptNewHostKey = options.acceptNewHostKey;
    connect.confirmNewHostKey = vouchedKeyCheck(context, hostSpec);
    connect.connectTimeoutMs = options.connectTimeoutMs;
    connect.limits = options.limits;
    connect.password = secret;
    connect.passphrase = [secret](const QString &file) { return secret(QStringLiteral("Passphrase for %1:").arg(file)); };
    return makeSessionFactory(*target, connect);
}

namespace {

QString humanDuration(qint64 seconds)
{
    if (seconds < 0) return QStringLiteral("?");
    if (seconds < 60) return QStringLiteral("%1s").arg(seconds);
    if (seconds < 3600) return QStringLiteral("%1m%2s").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1h%2m").arg(seconds / 3600).arg((seconds / 60) % 60, 2, 10, QLatin1Char('0'));
}

ConflictPolicy askOnTerminal(const QString &destination, bool isDir)
{
    if (!isatty(STDIN_FILENO)) return ConflictPolicy::Ask;
    const TerminalQuestion asking;
    for (;;) {
        std::fprintf(stderr, "%s",
                     QStringLiteral("%1 already exists%2. [o]verwrite, [r]esume, [s]kip, re[n]ame? ")
                         .arg(text::printable(destination), isDir ? QStringLiteral(" (folder)") : QString())
                         .toLocal8Bit()
                         .constData());
        std::string line;
        if (!std::getline(std::cin, line)) return ConflictPolicy::Ask;
        switch (line.empty() ? ' ' : line[0]) {
        case 'o': return ConflictPolicy::Overwrite;
        case 'r': return ConflictPolicy::Resume;
        case 's': return ConflictPolicy::Skip;
        case 'n': return ConflictPolicy::Rename;
        default: break;
        }
    }
}

struct Totals
{
    quint64 wire = 0;
    quint64 payload = 0;
    quint64 total = 0;
    int files = 0;
    bool resumed = false;
    bool verified = true;
    QStringList sha256;
};

// One progress line: a JSON event, or a line redrawn in place on a terminal.
void printProgress(Context &context, const QString &source, const TransferProgress &p, double speed, qint64 eta, bool tty)
{
    if (context.json) {
        context.printJson(QJsonObject{
            {QStringLiteral("event"), QStringLiteral("progress")},
            {QStringLiteral("source"), source},
            {QStringLiteral("bytes"), qint64(p.bytesDone)},
            {QStringLiteral("total"), qint64(p.bytesTotal)},
            {QStringLiteral("resumedBytes"), qint64(p.resumedBytes)},
            {QStringLiteral("wireBytes"), qint64(p.wireBytes)},
            {QStringLiteral("files"), p.filesDone},
            {QStringLiteral("filesTotal"), p.filesTotal},
            {QStringLiteral("bytesPerSecond"), qint64(speed)},
            {QStringLiteral("etaSeconds"), eta},
        });
    } else if (tty) {
        const int pct = p.bytesTotal ? int(p.bytesDone * 100 / p.bytesTotal) : 0;
        context.err << QStringLiteral("\r%1%  %2 / %3  %4/s  ETA %5   ")
                           .arg(pct, 3)
                           .arg(formatBytes(p.bytesDone), formatBytes(p.bytesTotal),
                                formatBytes(quint64(speed)), humanDuration(eta))
                    << Qt::flush;
    }
}

// One finished item: a JSON event, or its notes and a line saying what arrived where.
void printItem(Context &context, const QString &source, const TransferOutcome &o)
{
    if (context.json) {
        context.printJson(QJsonObject{
            {QStringLiteral("event"), QStringLiteral("item")},
            {QStringLiteral("source"), source},
            {QStringLiteral("destination"), o.destination},
            {QStringLiteral("skipped"), o.skipped},
            {QStringLiteral("resumed"), o.resumed},
            {QStringLiteral("verified"), o.verified},
            {QStringLiteral("sha256"), o.sha256},
            {QStringLiteral("payloadBytes"), qint64(o.payloadBytes)},
            {QStringLiteral("wireBytes"), qint64(o.wireBytes)},
            {QStringLiteral("files"), o.files},
            {QStringLiteral("channels"), o.channels},
            {QStringLiteral("seconds"), o.seconds},
            {QStringLiteral("notes"), QJsonArray::fromStringList(o.notes)},
        });
    } else {
        for (const QString &note : o.notes) context.warn(note);
        if (o.skipped) {
            context.out << QStringLiteral("skipped %1").arg(text::printable(source)) << Qt::endl;
        } else {
            const double rate = o.seconds > 0 ? double(o.payloadBytes) / o.seconds : 0;
            context.out << QStringLiteral("%1 -> %2  %3 in %4 s (%5/s)%6%7%8")
                               .arg(text::printable(source), text::printable(o.destination), formatBytes(o.totalBytes))
                               .arg(o.seconds, 0, 'f', 1)
                               .arg(formatBytes(quint64(rate)))
                               .arg(o.resumed ? QStringLiteral(", resumed") : QString())
                               .arg(o.verified ? QStringLiteral(", verified") : QStringLiteral(", NOT verified"))
                               .arg(o.sha256.isEmpty() ? QString() : QStringLiteral(", sha256 %1").arg(o.sha256))
                        << Qt::endl;
        }
    }
}

void printSummary(Context &context, const Totals &totals, double seconds)
{
    context.printJson(QJsonObject{
        {QStringLiteral("event"), QStringLiteral("summary")},
        {QStringLiteral("wireBytes"), qint64(totals.wire)},
        {QStringLiteral("payloadBytes"), qint64(totals.payload)},
        {QStringLiteral("totalBytes"), qint64(totals.total)},
        {QStringLiteral("files"), totals.files},
        {QStringLiteral("seconds"), seconds},
        {QStringLiteral("sha256"), totals.sha256.size() == 1 ? totals.sha256.first() : QString()},
        {QStringLiteral("resumed"), totals.resumed},
        {QStringLiteral("verified"), totals.verified},
    });
}

int runRequests(Context &context, const QList<TransferRequest> &requests, const TransferArgs &args,
                const SessionFactory &factory, const QString &hostLabel)
{
    JournalStore journals(context.configDir);
    Totals totals;
    QElapsedTimer clock;
    clock.start();
    const bool tty = isatty(STDERR_FILENO);
    // Ctrl+C while files move stops the transfer at its next write; its journal keeps what the
    // other side acknowledged, and the same command resumes it. A second Ctrl+C, or one while a
    // question or a password prompt waits for an answer, ends the program at once.
    const InterruptScope interrupt(InterruptScope::Again::EndsProgram);
    for (const TransferRequest &request : requests) {
        SpeedMeter meter;
        std::mutex printMutex;
        const QString source = request.direction == Direction::Upload ? request.localPath
                                                                      : hostLabel + QLatin1Char(':') + request.remotePath;
        ProgressSink sink = [&](const TransferProgress &p) {
            std::lock_guard lock(printMutex);
            meter.add(clock.elapsed(), p.bytesDone - p.resumedBytes);
            const double speed = meter.bytesPerSecond();
            const qint64 eta = meter.etaSeconds(p.bytesTotal > p.bytesDone ? p.bytesTotal - p.bytesDone : 0);
            printProgress(context, source, p, speed, eta, tty);
        };
        ConflictResolver resolver;
        if (args.options.onConflict == ConflictPolicy::Ask && !context.json) resolver = askOnTerminal;
        TransferContext ctx(factory, interrupt.token().flag(), &journals, hostLabel, request.options, sink, resolver);
        auto result = runTransferWithRetries(request, ctx, args.retries + 1, [&](int attempt, const Error &e) {
            if (context.json) {
                context.printJson(QJsonObject{{QStringLiteral("event"), QStringLiteral("retry")},
                                              {QStringLiteral("attempt"), attempt},
                                              {QStringLiteral("reason"), e.message}});
            } else {
                context.err << (tty ? "\n" : "") << QStringLiteral("gantry-cli: %1 Retrying (%2/%3)…").arg(text::printableLines(e.message)).arg(attempt).arg(args.retries)
                            << Qt::endl;
            }
        });
        if (tty && !context.json) context.err << "\r" << QString(60, QLatin1Char(' ')) << "\r" << Qt::flush;
        if (!result && result.error().code == ErrorCode::Cancelled && interrupt.interrupted()) {
            (void)context.fail(Error{ErrorCode::Cancelled, QStringLiteral("Stopped by %1; what was transferred is kept. Run the "
                                                                          "same command again to resume.").arg(QLatin1String(interrupt.cause()))});
            return interrupt.exitCode();
        }
        if (!result) return context.fail(result.error());
        const TransferOutcome &o = *result;
        totals.wire += o.wireBytes;
        totals.payload += o.payloadBytes;
        totals.total += o.totalBytes;
        totals.files += o.files;
        totals.resumed = totals.resumed || o.resumed;
        totals.verified = totals.verified && (o.verified || o.skipped);
        if (!o.sha256.isEmpty()) totals.sha256.append(o.sha256);
        printItem(context, source, o);
    }
    const double seconds = double(clock.elapsed()) / 1000.0;
    if (context.json) printSummary(context, totals, seconds);
    return ExitOk;
}

int uploadCommand(Context &context, const Args &parsed)
{
    auto args = transferArgs(parsed);
    if (!args) return context.fail(args.error());
    const auto dest = parseRemoteSpec(parsed.arg("HOST:DEST"));
    if (!dest) return context.usage(QStringLiteral("the destination must be HOST:PATH (a port is written user@host:port:/path)"));
    auto factory = makeCliFactory(context, dest->host, parsed.host());
    if (!factory) return context.fail(factory.error());
    QList<TransferRequest> requests;
    const QStringList sources = parsed.list("SRC");
    for (const QString &src : sources) {
        TransferRequest r;
        r.direction = Direction::Upload;
        r.host = dest->host;
        r.localPath = src;
        r.remotePath = dest->path;
        r.destinationIsDir = dest->path.endsWith(QLatin1Char('/')) || sources.size() > 1;
        r.options = args->options;
        requests.append(r);
    }
    return runRequests(context, requests, *args, *factory, dest->host);
}

int downloadCommand(Context &context, const Args &parsed)
{
    auto args = transferArgs(parsed);
    if (!args) return context.fail(args.error());
    const QString local = parsed.arg("DEST");
    QList<TransferRequest> requests;
    QString host;
    const QStringList sources = parsed.list("HOST:SRC");
    for (const QString &s : sources) {
        const auto spec = parseRemoteSpec(s);
        if (!spec) return context.usage(QStringLiteral("%1: a source must be HOST:PATH").arg(s));
        if (!host.isEmpty() && spec->host != host) return context.usage(QStringLiteral("all sources must be on the same host"));
        host = spec->host;
        TransferRequest r;
        r.direction = Direction::Download;
        r.host = spec->host;
        r.remotePath = spec->path;
        r.localPath = local;
        r.destinationIsDir = local.endsWith(QLatin1Char('/')) || sources.size() > 1;
        r.options = args->options;
        requests.append(r);
    }
    auto factory = makeCliFactory(context, host, parsed.host());
    if (!factory) return context.fail(factory.error());
    return runRequests(context, requests, *args, *factory, host);
}

int lsCommand(Context &context, const Args &args)
{
    auto spec = parseRemoteSpec(args.arg("HOST:PATH"));
    if (!spec) spec = RemoteSpec{args.arg("HOST:PATH"), QStringLiteral(".")};
    auto session = connectHost(context, spec->host, args.host());
    if (!session) return context.fail(session.error());
    auto sftp = SftpClient::start((*session)->handle(), (*session)->target().display());
    if (!sftp) return context.fail(sftp.error());
    (*sftp)->setMaxListEntries((*session)->limits().maxListEntries);
    (*sftp)->setMaxListBytes((*session)->limits().maxOutputBytes);
    const QString path = spec->path.isEmpty() ? QStringLiteral(".") : spec->path;
    auto st = (*sftp)->stat(path);
    if (!st) return context.fail(st.error());
    QList<SftpEntry> entries;
    if (st->isDir()) {
        auto listed = (*sftp)->list(path);
        if (!listed) return context.fail(listed.error());
        entries = *listed;
        std::sort(entries.begin(), entries.end(), [](const SftpEntry &a, const SftpEntry &b) { return a.name < b.name; });
    } else {
        entries.append(SftpEntry{remoteBaseName(path), *st});
    }
    QJsonArray array;
    for (const SftpEntry &e : std::as_const(entries)) {
        const QString type = e.attrs.kind();
        const QString mtime = e.attrs.mtime ? QDateTime::fromSecsSinceEpoch(*e.attrs.mtime, Qt::UTC).toString(Qt::ISODate)
                                            : QString();
        if (context.json) {
            array.append(QJsonObject{{QStringLiteral("name"), e.name},
                                     {QStringLiteral("type"), type},
                                     {QStringLiteral("size"), qint64(e.attrs.size.value_or(0))},
                                     {QStringLiteral("mtime"), mtime},
                                     {QStringLiteral("mode"), QString::number(e.attrs.permissions.value_or(0) & 07777, 8)}});
        } else {
            context.out << QStringLiteral("%1  %2  %3  %4%5")
                               .arg(type, -4)
                               .arg(qint64(e.attrs.size.value_or(0)), 14)
                               .arg(mtime, -20)
                               .arg(text::printable(e.name), e.attrs.isDir() ? QStringLiteral("/") : QString())
                        << Qt::endl;
        }
    }
    if (context.json) context.printJson(QJsonObject{{QStringLiteral("path"), path}, {QStringLiteral("entries"), array}});
    return ExitOk;
}

// Channels are an upload's: a download's receive window is Gantry's own, so one channel a session
// is not what limits it, and download takes no --channels rather than ignoring it.
std::vector<Option> transferOptions(bool upload)
{
    std::vector<Option> options = {
        {.name = "parallel", .value = "N", .help = "sessions at once for a large file or a folder, 1 to 16 (default: by size and round trip)"},
        {.name = "on-conflict", .value = "POLICY", .help = "when the destination exists: ask (default on a terminal), overwrite, resume, skip or rename",
         .choices = "ask|overwrite|resume|skip|rename"},
        {.name = "no-verify", .help = "skip the SHA-256 check of what arrived"},
        {.name = "skip-symlinks", .help = "leave symbolic links out of a folder instead of following them"},
        {.name = "retries", .value = "N", .help = "attempts after a dropped connection, each resuming (default 3)"},
    };
    if (upload)
        options.insert(options.begin() + 1, Option{.name = "channels", .value = "N",
                                                   .help = "SFTP channels on each session for a large file, 1 to 8 (default: more on a long link)"});
    return options;
}

const Registrar uploadRegistrar(Command{
    .name = "upload",
    .summary = "upload files and folders (resumable, SHA-256 checked)",
    .options = transferOptions(true),
    .arguments = {{"SRC", Argument::OneOrMore, Complete::File}, {"HOST:DEST", Argument::One, Complete::HostPath}},
    .groups = Connection,
    .notes = {"DEST is a folder when it ends with / or there are several SRCs. Ctrl+C stops and keeps what arrived "
              "(exit 130); the same command resumes it. A second Ctrl+C ends the program at once."},
    .run = uploadCommand,
});
const Registrar downloadRegistrar(Command{
    .name = "download",
    .summary = "download files and folders (resumable, SHA-256 checked)",
    .options = transferOptions(false),
    .arguments = {{"HOST:SRC", Argument::OneOrMore, Complete::HostPath}, {"DEST", Argument::One, Complete::File}},
    .groups = Connection,
    .notes = {"Every SRC is on the same host. DEST is a folder when it ends with / or there are several SRCs."},
    .run = downloadCommand,
});
const Registrar lsRegistrar(Command{
    .name = "ls",
    .summary = "list a remote folder (or one file): type, size, modification time",
    .arguments = {{"HOST:PATH", Argument::One, Complete::HostPath}},
    .groups = Connection,
    .run = lsCommand,
});

} // namespace
} // namespace gantry::cli
