// SPDX-License-Identifier: Apache-2.0
#include "core/storage/machinetomachine.h"

#include "core/ssh/keygen.h"
#include "core/storage/machinecopy.h"
#include "core/storage/storagetext.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <libssh/libssh.h>

#include <functional>

namespace gantry::storage {
namespace {

// The source's parent folder and name: tar runs in the parent, so the copy keeps its name.
struct SourceParts
{
    QString parent;
    QString name;
};

SourceParts split(const QString &path)
{
    QString clean = machinePath(path);
    while (clean.size() > 1 && clean.endsWith(QLatin1Char('/')))
        clean.chop(1);
    const qsizetype slash = clean.lastIndexOf(QLatin1Char('/'));
    if (slash < 0)
        return {QStringLiteral("."), clean};
    return {slash == 0 ? QStringLiteral("/") : clean.left(slash), clean.mid(slash + 1)};
}

QString tarOut(const MachineToMachine &copy)
{
    const SourceParts from = split(copy.sourcePath);
    return QStringLiteral("cd -- %1 && tar -cf - -- %2").arg(ssh::shellQuote(from.parent), ssh::shellQuote(from.name));
}

QString tarIn(const MachineToMachine &copy)
{
    const QString dir = ssh::shellQuote(machinePath(copy.targetDir));
    // -v: the target names each member as it lands, which is the copy's progress.
    return QStringLiteral("mkdir -p -- %1 && tar -C %1 -xvf - --no-same-owner").arg(dir);
}

// What the target holds of the copy: targetDir/NAME.
QString landed(const MachineToMachine &copy)
{
    QString dir = machinePath(copy.targetDir);
    if (!dir.endsWith(QLatin1Char('/')))
        dir += QLatin1Char('/');
    return dir + split(copy.sourcePath).name;
}

Result<QString> runChecked(ssh::Session &session, const QString &command, const QByteArray &input, const CancelToken &cancel,
                           qint64 maxOutputBytes = -1, const std::function<void(const QByteArray &)> &onStdout = {})
{
    QByteArray out, err;
    ssh::Session::ExecOptions options;
    options.stdinData = input;
    options.cancel = cancel.flag();
    options.maxOutputBytes = maxOutputBytes;
    options.onStdout = [&out, &onStdout](const QByteArray &data) {
        if (onStdout)
            onStdout(data);
        else
            out += data;
    };
    options.onStderr = [&err](const QByteArray &data) { err += data; };
    Result<int> status = session.exec(command, options);
    if (!status)
        return status.error();
    if (*status != 0)
        return Error{ErrorCode::RemoteFailed, QString::fromUtf8(err.trimmed().left(300))};
    return QString::fromUtf8(out);
}

// The target tar's listing (-v), read as it comes: each member that is not a folder is a file landed.
struct LandedFiles
{
    std::atomic<int> *count = nullptr;
    QByteArray partial;

    void feed(const QByteArray &data)
    {
        if (!count)
            return;
        partial += data;
        qsizetype start = 0;
        for (qsizetype nl = partial.indexOf('\n'); nl >= 0; nl = partial.indexOf('\n', start)) {
            if (nl > start && partial.at(nl - 1) != '/')
                count->fetch_add(1);
            start = nl + 1;
        }
        partial.remove(0, start);
        if (partial.size() > 64 * 1024)
            partial.clear(); // a name without an end: not a listing
    }
};

// Both ends hold the same files with the same SHA-256.
Result<int> compare(ssh::Session &source, ssh::Session &target, const MachineToMachine &copy, const CancelToken &cancel)
{
    Result<QMap<QString, QByteArray>> sent = machineDigests(source, copy.sourcePath, cancel);
    if (!sent)
        return sent.error();
    Result<QMap<QString, QByteArray>> arrived = machineDigests(target, landed(copy), cancel);
    if (!arrived)
        return arrived.error();
    for (auto it = sent->cbegin(); it != sent->cend(); ++it) {
        if (arrived->value(it.key()) != it.value())
            return Error{ErrorCode::RemoteFailed, StorageText::tr("%1 arrived different from its source (SHA-256); run the copy again.")
                                                      .arg(landed(copy) + QLatin1Char('/') + it.key())};
    }
    return int(sent->size());
}

// The target's host key as this computer verified it, as a known_hosts line for the source.
Result<QString> knownHostsEntry(ssh::Session &target)
{
    char *entry = nullptr;
    if (ssh_session_export_known_hosts_entry(target.handle(), &entry) != SSH_OK || !entry)
        return Error{ErrorCode::HostKeyUnknown, StorageText::tr("The target's host key could not be read back.")};
    const QString line = QString::fromUtf8(entry).trimmed();
    ssh_string_free_char(entry);
    return line;
}

// What the source runs: the one-time key from stdin into a private folder its trap removes, the
// target's host key as this computer knows it, and tar into ssh to the target.
QString sendCommand(const QString &hostLine, const ssh::Target &to, const MachineToMachine &copy)
{
    const QString login = to.user.isEmpty() ? to.host : to.user + QLatin1Char('@') + to.host;
    return QStringLiteral("d=$(mktemp -d) && trap 'rm -rf \"$d\"' EXIT && trap 'exit 130' INT TERM HUP && cat > \"$d/key\" && chmod 600 \"$d/key\" && "
                          "printf '%s\\n' %1 > \"$d/known_hosts\" && %2 | "
                          "ssh -F /dev/null -i \"$d/key\" -o IdentitiesOnly=yes -o BatchMode=yes -o ConnectTimeout=15 "
                          "-o ServerAliveInterval=15 -o ServerAliveCountMax=4 "
                          "-o StrictHostKeyChecking=yes -o UserKnownHostsFile=\"$d/known_hosts\" -o GlobalKnownHostsFile=/dev/null "
                          "-p %3 %4 %5")
        .arg(ssh::shellQuote(hostLine), tarOut(copy))
        .arg(to.port)
        .arg(ssh::shellQuote(login), ssh::shellQuote(tarIn(copy)));
}

} // namespace

Result<int> machineFileCount(ssh::Session &session, const QString &path, const CancelToken &cancel)
{
    // machinePath() makes a leading '-' "./-…", so find takes it for a path, not an option.
    Result<QString> counted = runChecked(session, QStringLiteral("find %1 ! -type d | wc -l").arg(ssh::shellQuote(machinePath(path))), {}, cancel);
    if (!counted)
        return counted.error();
    return counted->trimmed().toInt();
}

Result<QMap<QString, QByteArray>> machineDigests(ssh::Session &session, const QString &path, const CancelToken &cancel)
{
    const QString p = ssh::shellQuote(machinePath(path));
    const QString script = QStringLiteral("if [ -d %1 ]; then cd -- %1 && find . -type f -print0 | xargs -0 -r sha256sum --; "
                                          "elif [ -f %1 ]; then cd -- \"$(dirname -- %1)\" && sha256sum -- \"./$(basename -- %1)\"; "
                                          "else echo \"no such file or folder\" >&2; exit 3; fi").arg(p);
    Result<QString> listed = runChecked(session, script, {}, cancel, 0); // a large tree lists a lot: streamed, not capped
    if (!listed)
        return Error{listed.error().code, StorageText::tr("Cannot check %1 on %2: %3").arg(path, session.target().display(), listed.error().message)};
    QMap<QString, QByteArray> digests;
    for (const QString &line : listed->split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        // "HASH  ./rel"; sha256sum starts a line with '\' when it had to escape the name.
        if (line.startsWith(QLatin1Char('\\')) || line.size() < 68 || !line.mid(64, 4).startsWith(QLatin1String("  ./")))
            continue;
        digests.insert(line.mid(68), line.left(64).toLatin1());
    }
    return digests;
}

Result<MachineCopyOutcome> copyDirect(ssh::Session &source, ssh::Session &target, const ssh::Target &targetAddress,
                                      const MachineToMachine &copy, const CancelToken &cancel, std::atomic<int> *filesLanded)
{
    Result<QString> hostLine = knownHostsEntry(target);
    if (!hostLine)
        return hostLine.error();
    QTemporaryDir keys;
    const QString marker = QStringLiteral("gantry-copy-%1").arg(QRandomGenerator::system()->generate64(), 16, 16, QLatin1Char('0'));
    Result<ssh::GeneratedKey> key = keys.isValid() ? ssh::generateEd25519Key(keys.filePath(QStringLiteral("key")), marker)
                                                   : Result<ssh::GeneratedKey>(Error{ErrorCode::Io, keys.errorString()});
    if (!key)
        return key.error();
    QFile privateKey(key->privateKeyPath);
    if (!privateKey.open(QIODevice::ReadOnly))
        return Error{ErrorCode::Io, privateKey.errorString()};
    const QByteArray secret = privateKey.readAll();
    // Authorised for this copy only: `restrict` (no forwarding, no pty), removed afterwards. The
    // line goes on a line of its own (a file without a final newline would swallow it into the
    // user's last key) and only that exact line is removed, in place (same file, mode and owner).
    const QByteArray line = "restrict " + key->publicKey.toUtf8();
    const QString authorize = QStringLiteral("sh -c %1").arg(ssh::shellQuote(QStringLiteral(
        "umask 077 && mkdir -p \"$HOME/.ssh\" && f=\"$HOME/.ssh/authorized_keys\" && "
        "{ [ ! -s \"$f\" ] || [ -z \"$(tail -c 1 \"$f\")\" ] || echo >> \"$f\"; } && cat >> \"$f\"")));
    const QString revoke = QStringLiteral("sh -c %1 sh %2").arg(ssh::shellQuote(QStringLiteral(
        "f=\"$HOME/.ssh/authorized_keys\"; [ -f \"$f\" ] || exit 0; t=$(mktemp) || exit 1; "
        "grep -v -x -F -e \"$1\" \"$f\" > \"$t\"; s=$?; [ $s -le 1 ] && cat \"$t\" > \"$f\"; rm -f \"$t\"; [ $s -le 1 ]")),
        ssh::shellQuote(QString::fromUtf8(line)));
    Result<QString> added = runChecked(target, authorize, line + '\n', cancel);
    LandedFiles landedFiles{filesLanded, {}};
    Result<QString> sent = added ? runChecked(source, sendCommand(*hostLine, targetAddress, copy), secret, cancel, -1,
                                              [&landedFiles](const QByteArray &data) { landedFiles.feed(data); })
                                 : Result<QString>(added.error());
    // Whatever happened — a stop during the authorisation too — the line goes again.
    Result<QString> revoked = runChecked(target, revoke, {}, {});
    if (!revoked)
        return Error{ErrorCode::Conflict, StorageText::tr("The copy's key could not be removed from %1 (%2): remove the line ending in %3 "
                                                          "from its ~/.ssh/authorized_keys.").arg(target.target().display(), revoked.error().message, marker)};
    if (!added)
        return Error{added.error().code, StorageText::tr("Cannot authorise the copy on %1: %2").arg(target.target().display(), added.error().message)};
    if (!sent)
        return Error{sent.error().code, StorageText::tr("%1 could not send to %2 itself: %3").arg(source.target().display(), target.target().display(),
                                                                                              sent.error().message)};
    Result<int> files = compare(source, target, copy, cancel);
    if (!files)
        return files.error();
    return MachineCopyOutcome{*files, true, {}};
}

Result<MachineCopyOutcome> copyThroughHere(ssh::Session &source, ssh::Session &target, const MachineToMachine &copy, const CancelToken &cancel,
                                           std::atomic<int> *filesLanded)
{
    LandedFiles landedFiles{filesLanded, {}};
    Result<std::unique_ptr<ssh::Channel>> in = target.openExec(tarIn(copy));
    if (!in)
        return in.error();
    Result<std::unique_ptr<ssh::Channel>> out = source.openExec(tarOut(copy));
    if (!out)
        return out.error();
    QByteArray outErr, inErr;
    while (!(*out)->isEof()) {
        if (cancel.isCancelled())
            return Error{ErrorCode::Cancelled, StorageText::tr("The copy was stopped.")};
        Result<QByteArray> chunk = (*out)->read(200, &outErr);
        if (!chunk)
            return chunk.error();
        if (!chunk->isEmpty()) {
            if (Result<void> written = (*in)->write(*chunk); !written)
                return written.error();
        }
        if (Result<QByteArray> listed = (*in)->read(0, &inErr); listed) // keeps the target's window and stderr moving
            landedFiles.feed(*listed);
    }
    if (Result<void> eof = (*in)->sendEof(); !eof)
        return eof.error();
    // Both tars' ends: the target's once it has unpacked everything (bounded: a wedged host fails).
    QElapsedTimer waited;
    waited.start();
    while ((!(*in)->exitStatus() || !(*out)->exitStatus()) && waited.elapsed() < 600000 && !cancel.isCancelled()) {
        Result<QByteArray> rest = (*in)->read(100, &inErr);
        if (!rest)
            return rest.error();
        landedFiles.feed(*rest);
        if (!(*out)->exitStatus())
            (void)(*out)->read(10, &outErr);
    }
    // What the target printed before its exit status came (asking for that status reads ahead).
    for (Result<QByteArray> rest = (*in)->read(0, &inErr); rest && !rest->isEmpty(); rest = (*in)->read(0, &inErr))
        landedFiles.feed(*rest);
    if (cancel.isCancelled())
        return Error{ErrorCode::Cancelled, StorageText::tr("The copy was stopped.")};
    if ((*out)->exitStatus().value_or(1) != 0 || (*in)->exitStatus().value_or(1) != 0)
        return Error{ErrorCode::RemoteFailed, StorageText::tr("tar failed: %1").arg(QString::fromUtf8(QByteArray(outErr + inErr).trimmed().left(300)))};
    Result<int> files = compare(source, target, copy, cancel);
    if (!files)
        return files.error();
    return MachineCopyOutcome{*files, false, {}};
}

Result<MachineCopyOutcome> copyBetweenMachines(ssh::Session &source, ssh::Session &target, const ssh::Target &targetAddress,
                                               const MachineToMachine &copy, const CancelToken &cancel, std::atomic<int> *filesLanded)
{
    // A source that is not there is said so at once: no key is made, nothing is authorised.
    const QString path = ssh::shellQuote(machinePath(copy.sourcePath));
    if (Result<QString> there = runChecked(source, QStringLiteral("test -e %1 || { echo \"no such file or folder\" >&2; exit 3; }").arg(path), {}, cancel);
        !there)
        return Error{there.error().code, StorageText::tr("Cannot check %1 on %2: %3").arg(copy.sourcePath, source.target().display(), there.error().message)};
    const int before = filesLanded ? filesLanded->load() : 0;
    Result<MachineCopyOutcome> direct = copyDirect(source, target, targetAddress, copy, cancel, filesLanded);
    // Stopped, or its key left on the target (the user must hear of it): no second way.
    if (direct || direct.error().code == ErrorCode::Cancelled || direct.error().code == ErrorCode::Conflict)
        return direct;
    if (filesLanded)
        filesLanded->store(before); // the second way counts from the start again
    Result<MachineCopyOutcome> relayed = copyThroughHere(source, target, copy, cancel, filesLanded);
    if (relayed)
        relayed->note = direct.error().message;
    return relayed;
}

} // namespace gantry::storage
