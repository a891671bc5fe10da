// SPDX-License-Identifier: Apache-2.0
#include "core/transfer/partialcleanup.h"

#include "core/transfer/sftpclient.h"

#include <QFile>
#include <QFileInfo>

namespace gantry::transfer {

void discardUploadPartial(const SessionFactory &sessions, const JournalStore &journals, const QString &host,
                          const QString &localPath, const QString &remoteFinal)
{
    journals.remove(JournalStore::key(Direction::Upload, host, QFileInfo(localPath).absoluteFilePath(), remoteFinal));
    if (!sessions || remoteFinal.isEmpty()) return;
    Result<std::unique_ptr<ssh::Session>> session = sessions(nullptr);
    if (!session) return;
    auto sftp = SftpClient::start((*session)->handle(), (*session)->target().display(), nullptr);
    if (!sftp) return;
    const QString partial = JournalStore::stagingPath(Direction::Upload, host, remoteFinal);
    if (auto st = (*sftp)->lstat(partial); st && st->isRegular()) (void)(*sftp)->remove(partial);
}

void discardDownloadPartial(const JournalStore &journals, const QString &host, const QString &remotePath,
                            const QString &localFinal)
{
    if (!remotePath.isEmpty())
        journals.remove(JournalStore::key(Direction::Download, host, remotePath, QFileInfo(localFinal).absoluteFilePath()));
    const QString partial = JournalStore::stagingPath(Direction::Download, host, QFileInfo(localFinal).absoluteFilePath());
    if (!localFinal.isEmpty() && QFileInfo(partial).isFile() && !QFileInfo(partial).isSymLink()) QFile::remove(partial);
}

} // namespace gantry::transfer
