#pragma once

#include "core/transfer/transfertypes.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace gantry::transfer {

// What survives a dropped connection or an app restart for one file transfer: the source's
// identity, which fixed-size chunks are known to be on the other side (acknowledged), and the
// SHA-256 of each. A chunk is marked done only after every write in it was acknowledged.
struct FileJournal
{
    Direction direction = Direction::Upload;
    QString host;
    QString source;          // local path (upload) or remote path (download)
    QString destination;     // final path on the other side
    quint64 size = 0;        // source identity: size and mtime
    qint64 mtime = 0;        // seconds (remote) or ms (local)
    quint64 chunkSize = 0;
    QList<bool> done;
    QList<QByteArray> chunkHashes; // hex, empty until done
    quint64 wireBytes = 0;   // all attempts together

    int chunkCount() const { return int(done.size()); }
    quint64 chunkOffset(int index) const { return quint64(index) * chunkSize; }
    quint64 chunkLength(int index) const;
    quint64 doneBytes() const;
    bool complete() const;
};

// Journal for a folder sent as tar batches: batches whose manifest check passed.
struct TreeJournal
{
    QString host;
    QString source;
    QString destination;
    QByteArray fingerprint;  // hash of the sorted (path, size, mtime) list: any change restarts
    QList<int> doneBatches;
    quint64 wireBytes = 0;
    // The batch plan the indices in doneBatches refer to (it depends on the link: kept for resume).
    int batchFiles = 0;
    quint64 batchBytes = 0;
};

// Journals live in <configDir>/transfers/, one JSON file per transfer, keyed by direction, host,
// source and destination. Writes replace the file atomically (rename). Thread-safe for distinct keys.
// Each carries "schema" (util/schemaversion.h).
class JournalStore final
{
public:
    explicit JournalStore(QString configDir);

    QString directory() const { return m_dir; }
    static QString key(Direction direction, const QString &host, const QString &source, const QString &destination);
    // Where a single-file transfer stages its bytes before the checked rename: beside finalPath
    // (same filesystem, so the rename is atomic) under ".NAME.gantry-HASH.partial", HASH from the
    // direction, host and destination. A folder listing cannot make it stand for another file (the
    // old "NAME.partial" was the final name of a file "NAME.partial" beside NAME), and Cancel finds
    // it again without knowing the source (a relative remote path is resolved only on the host).
    static QString stagingPath(Direction direction, const QString &host, const QString &finalPath);

    std::optional<FileJournal> loadFile(const QString &key) const;
    Result<void> save(const QString &key, const FileJournal &journal) const;
    std::optional<TreeJournal> loadTree(const QString &key) const;
    Result<void> save(const QString &key, const TreeJournal &journal) const;
    void remove(const QString &key) const;
    // Ok unless the journal under key was written by a newer Gantry: a transfer checks this before
    // it starts, and refuses rather than replacing a journal it cannot read.
    Result<void> checkReplaceable(const QString &key) const;

private:
    QString pathFor(const QString &key) const;
    QString m_dir;
};

} // namespace gantry::transfer
