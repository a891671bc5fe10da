#pragma once

#include "core/ssh/session.h"
#include "core/transfer/sftpclient.h"
#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QString>

#include <atomic>
#include <functional>

namespace gantry::transfer {

// SHA-256 of a remote file by running sha256sum (or openssl, which is faster) on the host.
// RemoteFailed when the host runs no commands (sftp-only accounts).
Result<QByteArray> remoteSha256(ssh::Session &session, const QString &path);

// A remote sha256 of a complete file, started when a download starts: the host hashes the file
// (and its login shell's start-up files run) while it is being read; finish() collects the digest.
class PendingRemoteHash final
{
public:
    PendingRemoteHash(ssh::Session &session, const QString &path);
    Result<QByteArray> finish();

private:
    Result<std::unique_ptr<ssh::Channel>> m_channel;
    QString m_path;
};

// The host's python3 started before its program is known, so that the login shell's start-up
// files (a conda or pyenv init: a second on many GPU images) run while the transfer starts; it
// waits for its program and arguments on its input (RemoteChunkHasher's second constructor).
QString waitingPythonCommand();

// Verifies an upload on the host: each chunk, once acknowledged, is announced to one remote
// python3 process that reads it back (pread, from the page cache). In Chunks mode it prints each
// chunk's SHA-256, compared at the end with the hash computed here while reading: announced while
// the upload runs, the check leaves no pass over the file for the end; announced all at once at
// the end, the host hashes on all its cores. In WholeFile mode the chunks, announced in order,
// feed one SHA-256 of the whole file, read on to its end once the last is announced: one pass on each side instead
// of three, for fresh uploads on short links, where the CPUs rather than the link set the pace.
// Hosts without python3 answer nothing, and the caller falls back to the whole-file sha256. Use it
// on the session's own thread.
class RemoteChunkHasher final
{
public:
    enum class Mode { Chunks, WholeFile };
    // `cancel`, when set, ends the wait for the host's answer at finish.
    RemoteChunkHasher(ssh::Session &session, const QString &path, quint64 chunkSize, int chunkCount, Mode mode = Mode::Chunks,
                      const std::atomic_bool *cancel = nullptr);
    // The same on a python started ahead (waitingPythonCommand), whose login shell ran meanwhile.
    RemoteChunkHasher(std::unique_ptr<ssh::Channel> waiting, const QString &path, quint64 chunkSize, int chunkCount, Mode mode,
                      const std::atomic_bool *cancel);
    Mode mode() const { return m_mode; }
    // Announces the chunks from the next unannounced one up to the first not yet done; after the
    // last one, ends the input at once, so that the host's answer is on its way before finish.
    void advance(const std::function<bool(int chunk)> &isDone);
    // Chunks mode: announces the rest and returns the hex SHA-256 of every chunk, or an error when
    // the host could not do it (no python3, the channel failed).
    Result<QList<QByteArray>> finish(const std::function<bool(int chunk)> &isDone);
    // WholeFile mode: announces the rest and returns the hex SHA-256 of the whole remote file.
    Result<QByteArray> finishWhole(const std::function<bool(int chunk)> &isDone);

private:
    void announce(int chunk);
    void endInput();
    void collect(int timeoutMs);
    Error failure(const QString &why) const;
    // Announces the rest, ends the input and reads everything the host prints.
    Result<void> drain(const std::function<bool(int chunk)> &isDone);

    Result<std::unique_ptr<ssh::Channel>> m_channel;
    QString m_path;
    int m_chunkCount;
    Mode m_mode;
    const std::atomic_bool *m_cancel;
    int m_next = 0;
    bool m_broken = false;
    bool m_ended = false;
    QByteArray m_out;
    QByteArray m_err;
};

// A sh prefix that widens the command's stdin pipe to 1 MiB (F_SETPIPE_SZ on Linux), for commands
// fed a stream (tar batches, the batch runner). sshd writes a command's stdin at most a pipe's
// worth (64 KiB) per turn of its loop, and when more arrives meanwhile it grows its buffer for
// the channel by copying it whole for each packet: a window's worth (2 MiB) arriving at once kept
// the command starved for a third of a second at the start of every stream (#33). perl is in
// every Debian and Ubuntu (perl-base is essential), python3 in most ML images; with neither, or
// on another kernel, the pipe stays as it was. No single quotes: it goes inside `sh -c '…'`.
QString widenStdinPipe();

// A shell command that prints the SHA-256 of each NUL-separated name in the file `namesFile` (a
// shell word such as "$t"): `openssl dgst -r` where it works (SHA-NI: three times cheaper than
// coreutils' sha256sum, which dominated the host's CPU in folder downloads), else sha256sum.
// Names should start with "./" so none reads as an option.
QString digestNamesCommand(const QString &namesFile);
// Digest lines of sha256sum ("HASH  NAME", "\HASH  ESCAPED") and of `openssl dgst -sha256 -r`
// ("HASH *NAME", "\HASH *NAME" with only newlines escaped), keyed by name without a leading
// "./"; other lines (complaints) are left out.
QHash<QByteArray, QByteArray> parseDigestLines(const QByteArray &out);

// SHA-256 of a remote file read back over SFTP (pipelined). Used for small files, where starting
// a remote command (and the login shell's start-up files) costs more than reading the file.
Result<QByteArray> sftpSha256(SftpClient &sftp, const QString &path);
constexpr quint64 kReadBackLimit = 8ull * 1024 * 1024;

// Turns a failed write into the most specific error: disk full (with the space needed), quota,
// or the server's own message.
Error classifyWriteFailure(SftpClient &sftp, const Error &original, const QString &partialPath, quint64 bytesStillNeeded);

// Output allowed to a folder's size-and-checksum listing: two lines a file (a size record and a
// sha256sum line), so maxListEntries files of ordinary path lengths fit; never below the
// session's general output limit.
qint64 checksumListingLimit(const ssh::OutputLimits &limits);
// True once a host sent more than the session's maxOutputBytes (never when that is 0: no limit).
bool outputLimitReached(const ssh::Session &session, qint64 bytes);

QString remoteParent(const QString &path);
QString remoteJoin(const QString &dir, const QString &name);
QString remoteBaseName(const QString &path);
// True when something created or changed at `changedPath` shows in a listing of `shownDir`: the
// folder itself, anything in it, or a folder above it (a sync into a parent). Absolute paths.
bool changeShowsIn(const QString &shownDir, const QString &changedPath);
// "name (1).ext", "name (2).ext"… the first that does not exist.
QString firstFreeName(const QString &path, const std::function<bool(const QString &)> &exists);
QString formatBytes(quint64 bytes);

} // namespace gantry::transfer
