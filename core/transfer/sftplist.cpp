// SPDX-License-Identifier: Apache-2.0
// SftpClient's directory listing: OPENDIR, then READDIR until EOF, bounded by entries, by bytes of
// names and by NAME_MAX, for a host that lists without end.
#include "core/transfer/sftpclient.h"
#include "core/transfer/transfertext.h"

#include <climits>

namespace gantry::transfer {

using namespace sftpwire;

// One name of a listing: no longer than a file name can be here (NAME_MAX), and the listing's
// names together within maxListBytes().
Result<void> SftpClient::checkListedName(const QByteArray &name, const QString &path, qint64 *nameBytes) const
{
    if (name.size() > NAME_MAX) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("%1 listed a name of %2 bytes in %3, longer than any file name here (%4 bytes); "
                                                               "the listing was stopped.")
                                                  .arg(m_label)
                                                  .arg(name.size())
                                                  .arg(path)
                                                  .arg(NAME_MAX)};
    }
    *nameBytes += name.size();
    if (m_maxListBytes > 0 && *nameBytes > m_maxListBytes) {
        return Error{ErrorCode::RemoteFailed, TransferText::tr("%1 sent more than %2 MiB of names for %3; the listing was stopped. If "
                                                               "the folder really holds that many, raise the limit (gantry-cli: "
                                                               "--max-output-mib).")
                                                  .arg(m_label)
                                                  .arg(m_maxListBytes >> 20)
                                                  .arg(path)};
    }
    return {};
}

Result<QList<SftpEntry>> SftpClient::list(const QString &path)
{
    auto r = call(Opendir, stringBody(path.toUtf8()));
    if (!r) return r.error();
    if (r->type != Handle) {
        auto st = checkStatus(*r, TransferText::tr("Listing"), path);
        if (!st) return st.error();
        return Error{ErrorCode::RemoteFailed, QStringLiteral("opendir: no handle")};
    }
    QByteArray handle;
    Reader(r->body).string(&handle);
    QList<SftpEntry> entries;
    qint64 received = 0; // names sent, dropped ones included: a host that never ends a listing is stopped
    qint64 nameBytes = 0; // and the bytes of those names: a few very long names cost as much as many
    for (;;) {
        auto d = call(Readdir, stringBody(handle));
        if (!d) return d.error();
        if (d->type == Status) {
            if (d->status() == StatusEof) break;
            auto st = checkStatus(*d, TransferText::tr("Listing"), path);
            if (!st) return st.error();
            break;
        }
        Reader rd(d->body);
        quint32 count = 0;
        rd.u32(&count);
        received += std::max<quint32>(count, 1); // an empty reply counts too, or none would ever end
        if (m_maxListEntries > 0 && received > m_maxListEntries) {
            (void)close(handle);
            return Error{ErrorCode::RemoteFailed,
                         TransferText::tr("%1 listed more than %2 entries in %3; the listing was "
                                                                 "stopped. If the folder really holds that many, raise "
                                                                 "the limit (gantry-cli: --max-entries).")
                             .arg(m_label).arg(m_maxListEntries).arg(path)};
        }
        for (quint32 i = 0; i < count; ++i) {
            QByteArray name, longname;
            SftpEntry e;
            if (!rd.string(&name) || !rd.string(&longname) || !rd.attrs(&e.attrs)) break;
            if (auto kept = checkListedName(name, path, &nameBytes); !kept) {
                (void)close(handle);
                return kept.error();
            }
            // A real server never lists a name with '/': one that does would lead a download out of its folder.
            if (name == "." || name == ".." || name.isEmpty() || name.contains('/') || name.contains('\0')) continue;
            e.name = QString::fromUtf8(name);
            entries.append(e);
        }
    }
    (void)close(handle);
    return entries;
}

} // namespace gantry::transfer
