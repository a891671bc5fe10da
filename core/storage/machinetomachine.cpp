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
    return QStringLiteral("mkdir -p -- %1 && tar -C %1 -xf - --no-same-owner").arg(dir);
}

// What the target holds of the copy: targetDir/NAME.
QString landed(const MachineToMachine &copy)
{
    QString dir = machinePath(copy.targetDir);
    if (!dir.endsWith(QLatin1Char('/')))
        dir += QLatin1Char('/');
    return dir + split(copy.sourcePath).name;
}

Result<QString> runChecked(ssh::Session &session, const QString &command, const QByteArray &input, const CancelToken &cancel)
{
    QByteArray out, err;
    ssh::Session::ExecOptions options;
    options.stdinData = input;
    options.cancel = cancel.flag();
    options.onStdout = [&out](const QByteArray &data) { out += data; };
    options.onStderr = [&err](const QByteArray &data) { err += data; };
    Result<int> status = session.exec(command, options);
    if (!status)
        return status.error();
    if (*status != 0)
        return Error{ErrorCode::RemoteFailed, QString::fromUtf8(err.trimmed().left(300))};
    return QString::fromUtf8(out);
}

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

} // namespace

Result<QMap<QString, QByteArray>> machineDigests(ssh::Session &session, const QString &path, const CancelToken &cancel)
{
    const QString p = ssh::shellQuote(machinePath(path));
    const QString script = QStringLiteral("if [ -d %1 ]; then cd -- %1 && find . -type f -print0 | xargs -0 -r sha256sum --; "
                                          "elif [ -f %1 ]; then cd -- \"$(dirname -- %1)\" && sha256sum -- \"./$(basename -- %1)\"; "
                                          "else echo \"no such file or folder\" >&2; exit 3; fi").arg(p);
    Result<QString> listed = runChecked(session, script, {}, cancel);
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
                                      const MachineToMachine &copy, const CancelToken &cancel)
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
    // Authorised for this copy only: `restrict` (no forwarding, no pty), removed afterwards.
    const QString authorize = QStringLiteral("umask 077 && mkdir -p ~/.ssh && cat >> ~/.ssh/authorized_keys");
    if (Result<QString> added = runChecked(target, authorize, "restrict " + key->publicKey.toUtf8() + '\n', cancel); !added)
        return Error{added.error().code, StorageText::tr("Cannot authorise the copy on %1: %2").arg(target.target().display(), added.error().message)};
    const QString remote = tarIn(copy);
    const QString send = QStringLiteral("d=$(mktemp -d) && trap 'rm -rf \"$d\"' EXIT && trap 'exit 130' INT TERM HUP && cat > \"$d/key\" && chmod 600 \"$d/key\" && "
                                        "printf '%s\\n' %1 > \"$d/known_hosts\" && %2 | "
                                        "ssh -F /dev/null -i \"$d/key\" -o IdentitiesOnly=yes -o BatchMode=yes -o ConnectTimeout=15 "
                                        "-o StrictHostKeyChecking=yes -o UserKnownHostsFile=\"$d/known_hosts\" -o GlobalKnownHostsFile=/dev/null "
                                        "-p %3 %4 %5")
                             .arg(ssh::shellQuote(*hostLine), tarOut(copy))
                             .arg(targetAddress.port)
                             .arg(ssh::shellQuote(targetAddress.user.isEmpty() ? targetAddress.host : targetAddress.user + QLatin1Char('@') + targetAddress.host),
                                  ssh::shellQuote(remote));
    Result<QString> sent = runChecked(source, send, secret, cancel);
    const QString revoke = QStringLiteral("f=~/.ssh/authorized_keys; t=$(mktemp \"$f.XXXXXX\") && { grep -v -F -- %1 \"$f\" > \"$t\"; "
                                          "mv -f -- \"$t\" \"$f\"; }").arg(ssh::shellQuote(marker));
    Result<QString> revoked = runChecked(target, revoke, {}, {}); // even after a stop: the key must not stay
    if (!sent)
        return Error{sent.error().code, StorageText::tr("%1 could not send to %2 itself: %3").arg(source.target().display(), target.target().display(),
                                                                                              sent.error().message)};
    if (!revoked)
        return Error{revoked.error().code, StorageText::tr("The copy's key could not be removed from %1 (%2): remove the line ending in %3 "
                                                           "from its ~/.ssh/authorized_keys.").arg(target.target().display(), revoked.error().message, marker)};
    Result<int> files = compare(source, target, copy, cancel);
    if (!files)
        return files.error();
    return MachineCopyOutcome{*files, true, {}};
}

Result<MachineCopyOutcome> copyThroughHere(ssh::Session &source, ssh::Session &target, const MachineToMachine &copy, const CancelToken &cancel)
{
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
        (void)(*in)->read(0, &inErr); // keep the target's window and stderr moving
    }
    if (Result<void> eof = (*in)->sendEof(); !eof)
        return eof.error();
    // Both tars' ends: the target's once it has unpacked everything (bounded: a wedged host fails).
    QElapsedTimer waited;
    waited.start();
    while ((!(*in)->exitStatus() || !(*out)->exitStatus()) && waited.elapsed() < 600000 && !cancel.isCancelled()) {
        if (Result<QByteArray> rest = (*in)->read(100, &inErr); !rest)
            return rest.error();
        if (!(*out)->exitStatus())
            (void)(*out)->read(10, &outErr);
    }
    if ((*out)->exitStatus().value_or(1) != 0 || (*in)->exitStatus().value_or(0) != 0)
        return Error{ErrorCode::RemoteFailed, StorageText::tr("tar failed: %1").arg(QString::fromUtf8(QByteArray(outErr + inErr).trimmed().left(300)))};
    Result<int> files = compare(source, target, copy, cancel);
    if (!files)
        return files.error();
    return MachineCopyOutcome{*files, false, {}};
}

Result<MachineCopyOutcome> copyBetweenMachines(ssh::Session &source, ssh::Session &target, const ssh::Target &targetAddress,
                                               const MachineToMachine &copy, const CancelToken &cancel)
{
    // A source that is not there is said so at once: no key is made, nothing is authorised.
    if (Result<QMap<QString, QByteArray>> there = machineDigests(source, copy.sourcePath, cancel); !there)
        return there.error();
    Result<MachineCopyOutcome> direct = copyDirect(source, target, targetAddress, copy, cancel);
    if (direct || direct.error().code == ErrorCode::Cancelled)
        return direct;
    Result<MachineCopyOutcome> relayed = copyThroughHere(source, target, copy, cancel);
    if (relayed)
        relayed->note = direct.error().message;
    return relayed;
}

} // namespace gantry::storage
