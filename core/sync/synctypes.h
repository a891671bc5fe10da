#pragma once

#include <QByteArray>
#include <QList>
#include <QStringList>

// What a sync compares: entries of the local folder and of the remote one, by path relative to
// the folder. Paths are raw bytes ('/'-separated): a name that is not valid UTF-8 is kept and
// sent byte for byte.
namespace gantry::sync {

struct SyncEntry
{
    enum Type : char
    {
        File = 'f',
        Dir = 'd',
        Link = 'l',
    };
    QByteArray path;
    Type type = File;
    quint64 size = 0;
    qint64 mtime = 0;        // whole seconds: what tar keeps and what find prints
    qint64 mtimeNsec = 0;    // local only: tells a rewrite within the same second
    quint32 mode = 0644;     // permission bits
    QByteArray linkTarget;   // links: what the link says, never followed
};

struct LocalScan
{
    QList<SyncEntry> entries; // sorted by path; folders before their content
    quint64 bytes = 0;
    int files = 0;
    int ignored = 0;          // files and folders left out by ignore rules (folders counted once)
    QStringList notes;        // skipped sockets, pipes and devices
};

struct RemoteListing
{
    bool exists = false;      // the remote folder is there
    bool notDir = false;      // a file (or something else) stands where the folder should be
    bool haveTar = false;
    bool haveRunner = false; // the host can run a transfer::BatchRunner
    QList<SyncEntry> entries; // sorted by path
};

// Whether a raw path is valid UTF-8 (then a QString, as SFTP paths here are, carries it unchanged).
inline bool isValidUtf8(const QByteArray &path)
{
    return QString::fromUtf8(path).toUtf8() == path;
}

// "a/b" and "a/bc" both below "a": a path's parent folder, empty at the top.
inline QByteArray parentPath(const QByteArray &path)
{
    const qsizetype slash = path.lastIndexOf('/');
    return slash < 0 ? QByteArray() : path.left(slash);
}

} // namespace gantry::sync
