#pragma once

#include "ssh/session.h"
#include "transfer/sftpclient.h"
#include "util/result.h"

#include <QString>

namespace gantry::transfer {

// SHA-256 of a remote file by running sha256sum (or openssl, which is faster) on the host.
// RemoteFailed when the host runs no commands (sftp-only accounts).
Result<QByteArray> remoteSha256(ssh::Session &session, const QString &path);

// A remote sha256 started before the data is there: the login shell (and its start-up files,
// seconds with conda/pyenv init) starts while the transfer runs; finish() lets it hash.
class PendingRemoteHash final
{
public:
    PendingRemoteHash(ssh::Session &session, const QString &path);
    Result<QByteArray> finish();

private:
    Result<std::unique_ptr<ssh::Channel>> m_channel;
    QString m_path;
};

// SHA-256 of a remote file read back over SFTP (pipelined). Used for small files, where starting
// a remote command (and the login shell's start-up files) costs more than reading the file.
Result<QByteArray> sftpSha256(SftpClient &sftp, const QString &path);
constexpr quint64 kReadBackLimit = 8ull * 1024 * 1024;

// Turns a failed write into the most specific error: disk full (with the space needed), quota,
// or the server's own message.
Error classifyWriteFailure(SftpClient &sftp, const Error &original, const QString &partialPath, quint64 bytesStillNeeded);

QString remoteParent(const QString &path);
QString remoteJoin(const QString &dir, const QString &name);
QString remoteBaseName(const QString &path);
// "name (1).ext", "name (2).ext"… the first that does not exist.
QString firstFreeName(const QString &path, const std::function<bool(const QString &)> &exists);
QString formatBytes(quint64 bytes);

} // namespace gantry::transfer
