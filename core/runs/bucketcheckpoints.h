// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/runs/foldermirror.h"
#include "core/storage/s3client.h"
#include "core/util/canceltoken.h"
#include "core/util/result.h"

#include <QJsonObject>
#include <QString>

namespace gantry::ssh { class Session; }

namespace gantry::runs {

// Checkpoints kept in a bucket (`checkpoint: {path: ckpt/, store: s3://NAME/PREFIX}`): mirrored from
// the machine straight into the bucket and restored from it onto the next machine — whatever its
// provider — with presigned URLs made here, so no storage key reaches a machine and no byte goes
// through this computer. Each file has two slots (PREFIX/a/FILE and PREFIX/b/FILE): a changed file
// goes up into the slot that does not hold its last complete copy, and only when the machine reads
// the same hash in it after the upload as before does the manifest (PREFIX/gantry-checkpoint.json)
// point at the new slot — and only in a pass where every changed file went up whole, so the files
// of one checkpoint are restored together. A checkpoint rewritten while it goes up, even in parts,
// never replaces its last complete copy. The key needs ListBucket on the prefix, so that a
// checkpoint not there yet reads as missing (404), not forbidden. Blocking: worker threads, one
// call at a time.
class BucketCheckpoints
{
public:
    // `scratchDir`: a folder of this computer for the manifest on its way (the run's own).
    BucketCheckpoints(storage::S3Client client, QString prefix, QString scratchDir);

    // The new or changed complete files of remoteDir into the bucket; `busy` names the files that
    // changed while they went up (their last complete copy stays).
    Result<MirrorOutcome> mirror(ssh::Session &session, const QString &remoteDir, const CancelToken &cancel);
    // The last complete copy of every file onto the machine, into remoteDir; the number of files
    // (0: no checkpoint yet).
    Result<int> restore(ssh::Session &session, const QString &remoteDir, const CancelToken &cancel);

private:
    QString key(const QString &slot, const QString &relative) const;
    Result<QJsonObject> readManifest(const CancelToken &cancel);
    Result<void> writeManifest(const QJsonObject &files, const CancelToken &cancel);

    storage::S3Client m_client;
    QString m_prefix; // "" or ends in '/'
    QString m_scratch;
    std::optional<QJsonObject> m_files; // the manifest's files as last read or written
};

} // namespace gantry::runs
