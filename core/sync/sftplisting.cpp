// SPDX-License-Identifier: Apache-2.0
#include "core/sync/sftplisting.h"
#include "core/sync/synctext.h"

#include "core/transfer/listingstream.h"
#include "core/transfer/sftpclient.h"

#include <QHash>

#include <deque>

namespace gantry::sync {

namespace {

using transfer::SftpClient;
using namespace transfer::sftpwire;

// Requests in flight at once: a level of a few hundred folders (three requests each, and a CLOSE
// whose answer no one waits for) goes in one or two round trips; sftp-server answers them in
// turn, a few microseconds each.
constexpr int kMaxInFlight = 512;
// Folders open at once: servers keep a handle for each.
constexpr int kMaxOpenFolders = 256;
// READDIRs sent at once per folder: most folders fit in one answer (sftp-server sends 100 names),
// and the second one's end-of-folder comes in the same round trip instead of the next.
constexpr int kReaddirsAhead = 2;

// Breadth-first over the folders, every request pipelined; one instance per listing.
class SftpTreeWalk
{
public:
    SftpTreeWalk(SftpClient &sftp, const ssh::OutputLimits &limits, const QString &host, const QString &remoteDir)
        : m_sftp(sftp), m_meter(limits, host, remoteDir), m_host(host), m_remoteDir(remoteDir), m_root(remoteDir.toUtf8())
    {
        while (m_root.size() > 1 && m_root.endsWith('/')) m_root.chop(1);
    }

    Result<RemoteListing> run()
    {
        if (auto top = lookAtTop(); !top || m_listing.notDir || !m_listing.exists) {
            return top ? Result<RemoteListing>(m_listing) : top.error();
        }
        m_folders.push_back(Folder{});
        m_toOpen.push_back(0);
        for (;;) {
            if (auto s = sendWhatCan(); !s) return s.error();
            if (m_pending.isEmpty()) break;
            auto reply = m_sftp.next();
            if (!reply) return reply.error();
            if (auto t = take(*reply); !t) return t.error();
        }
        std::sort(m_listing.entries.begin(), m_listing.entries.end(),
                  [](const SyncEntry &a, const SyncEntry &b) { return a.path < b.path; });
        return m_listing;
    }

private:
    enum class Ask { Opendir, Readdir, Readlink };
    struct Pending
    {
        Ask ask;
        int index; // the folder's (Opendir, Readdir) or the entry's (Readlink)
    };
    struct Folder
    {
        QByteArray path; // relative; empty at the top
        QByteArray handle;
        int readdirsOut = 0;
        bool ended = false;
    };

    QByteArray remotePath(const QByteArray &relative) const
    {
        if (relative.isEmpty()) return m_root;
        if (m_root.endsWith('/')) return QByteArray(m_root + relative);
        return QByteArray(m_root + '/' + relative);
    }

    // As the listing command: a folder (or a link to one) is listed; anything else standing there,
    // a dangling link included, is "not a folder"; nothing there is an empty listing.
    Result<void> lookAtTop()
    {
        auto top = m_sftp.stat(m_remoteDir);
        m_sftp.settleAhead();
        if (top) {
            m_listing.exists = true;
            m_listing.notDir = !top->isDir();
            return {};
        }
        if (top.error().code != ErrorCode::NotFound) return top.error();
        m_listing.notDir = m_sftp.lstat(m_remoteDir).ok(); // a link to nothing
        m_listing.exists = m_listing.notDir;
        return {};
    }

    Result<void> ask(quint8 type, const QByteArray &body, Pending pending)
    {
        auto id = m_sftp.send(type, body);
        if (!id) return id.error();
        m_pending.insert(*id, pending);
        return {};
    }

    Result<void> sendWhatCan()
    {
        for (int f : m_openFolders) {
            Folder &folder = m_folders[f];
            while (!folder.ended && folder.readdirsOut < kReaddirsAhead && m_pending.size() < kMaxInFlight) {
                if (auto a = ask(SftpClient::Readdir, stringBody(folder.handle), {Ask::Readdir, f}); !a) return a;
                ++folder.readdirsOut;
            }
        }
        while (!m_toOpen.empty() && m_pending.size() < kMaxInFlight && m_openFolders.size() + m_opening < kMaxOpenFolders) {
            const int f = m_toOpen.front();
            m_toOpen.pop_front();
            if (auto a = ask(SftpClient::Opendir, stringBody(remotePath(m_folders[f].path)), {Ask::Opendir, f}); !a) return a;
            ++m_opening;
        }
        while (!m_toReadlink.empty() && m_pending.size() < kMaxInFlight) {
            const int e = m_toReadlink.front();
            m_toReadlink.pop_front();
            if (auto a = ask(SftpClient::Readlink, stringBody(remotePath(m_listing.entries[e].path)), {Ask::Readlink, e}); !a) return a;
        }
        return {};
    }

    Result<void> take(const SftpClient::Reply &reply)
    {
        const auto it = m_pending.constFind(reply.id);
        if (it == m_pending.constEnd()) {
            return Error{ErrorCode::RemoteFailed, SyncText::tr("%1 answered an SFTP request that was never sent while %2 was "
                                                               "listed.").arg(m_host, m_remoteDir)};
        }
        const Pending pending = it.value();
        m_pending.erase(it);
        switch (pending.ask) {
        case Ask::Opendir: return opened(pending.index, reply);
        case Ask::Readdir: return names(pending.index, reply);
        case Ask::Readlink: return linkTarget(pending.index, reply);
        }
        return {};
    }

    Result<void> opened(int f, const SftpClient::Reply &reply)
    {
        --m_opening;
        const QString where = QString::fromUtf8(remotePath(m_folders[f].path));
        if (reply.type != SftpClient::Handle) {
            // A folder that cannot be read (or is gone since) is listed without its content, as
            // find lists it; the top one must be readable. Anything else (a server out of
            // handles) would list a full folder as empty: the listing command does it instead.
            const quint32 status = reply.type == SftpClient::Status ? reply.status() : SftpClient::StatusFailure;
            if (f != 0 && (status == SftpClient::StatusPermissionDenied || status == SftpClient::StatusNoSuchFile)) return {};
            if (auto st = m_sftp.checkStatus(reply, SyncText::tr("Listing"), where); !st) return st;
            return Error{ErrorCode::RemoteFailed, SyncText::tr("%1 gave no handle for the folder %2.").arg(m_host, where)};
        }
        QByteArray &handle = m_folders[f].handle;
        // SFTP handles are at most 256 bytes; each is sent again with every READDIR.
        if (!Reader(reply.body).string(&handle) || handle.isEmpty() || handle.size() > 256) {
            return Error{ErrorCode::RemoteFailed, SyncText::tr("%1 gave an invalid handle for the folder %2.").arg(m_host, where)};
        }
        m_openFolders.append(f);
        return {};
    }

    Result<void> names(int f, const SftpClient::Reply &reply)
    {
        Folder &folder = m_folders[f];
        --folder.readdirsOut;
        if (reply.type != SftpClient::Name) {
            folder.ended = true; // its end, or an error reading it (find goes on too)
        } else if (auto read = entries(folder.path, reply); !read) {
            return read;
        }
        if (folder.ended && folder.readdirsOut == 0) {
            m_openFolders.removeOne(f);
            const QByteArray handle = std::exchange(folder.handle, QByteArray());
            // Its answer is not waited for: the listing's last CLOSEs cost a round trip.
            auto id = m_sftp.send(SftpClient::Close, stringBody(handle));
            if (!id) return id.error();
            m_sftp.forget(*id);
        }
        return {};
    }

    Result<void> entries(const QByteArray &parent, const SftpClient::Reply &reply)
    {
        Reader rd(reply.body);
        quint32 count = 0;
        rd.u32(&count);
        // Every answer counts, and every name left out: a host that answers forever (empty, or
        // only with names that are dropped) meets the entry limit.
        if (!m_meter.add(0)) return *m_meter.error();
        const QString where = QString::fromUtf8(remotePath(parent));
        for (quint32 i = 0; i < count; ++i) {
            QByteArray name, longname;
            transfer::SftpAttrs attrs;
            if (!rd.string(&name) || !rd.string(&longname) || !rd.attrs(&attrs)) break;
            if (auto kept = m_sftp.checkListedName(name, where, &m_nameBytes); !kept) return kept;
            // A real server never lists a name with '/': one that does would lead out of the folder.
            if (name == "." || name == ".." || name.isEmpty() || name.contains('/') || name.contains('\0')) {
                if (!m_meter.add(0)) return *m_meter.error();
                continue;
            }
            if (auto e = entry(parent.isEmpty() ? name : QByteArray(parent + '/' + name), attrs); !e) return e;
        }
        return {};
    }

    Result<void> entry(const QByteArray &path, const transfer::SftpAttrs &attrs)
    {
        SyncEntry e;
        if (attrs.isDir()) e.type = SyncEntry::Dir;
        else if (attrs.isRegular()) e.type = SyncEntry::File;
        else if (attrs.isLink()) e.type = SyncEntry::Link;
        else return {}; // pipes, sockets, devices: treated as absent, as in the listing command's
        e.path = path;
        e.size = attrs.size.value_or(0);
        // SFTP v3 carries whole seconds as an unsigned 32-bit number: a file dated before 1970
        // (or after 2106) differs from find's time and is sent again at each sync.
        e.mtime = qint64(attrs.mtime.value_or(0));
        e.mode = attrs.permissions.value_or(0) & 07777;
        if (!m_meter.add(qint64(sizeof(SyncEntry)) + 48 + path.size())) return *m_meter.error();
        m_listing.entries.append(e);
        if (e.type == SyncEntry::Dir) {
            m_folders.push_back(Folder{path, {}, 0, false});
            m_toOpen.push_back(int(m_folders.size() - 1));
        } else if (e.type == SyncEntry::Link) {
            m_toReadlink.push_back(int(m_listing.entries.size() - 1));
        }
        return {};
    }

    Result<void> linkTarget(int e, const SftpClient::Reply &reply)
    {
        if (reply.type != SftpClient::Name) return {}; // unreadable: compared as an empty target
        Reader rd(reply.body);
        quint32 count = 0;
        QByteArray target;
        if (rd.u32(&count) && count >= 1 && rd.string(&target)) m_listing.entries[e].linkTarget = target;
        return {};
    }

    SftpClient &m_sftp;
    transfer::ListingMeter m_meter;
    const QString m_host;
    const QString m_remoteDir;
    QByteArray m_root;
    RemoteListing m_listing;
    std::deque<Folder> m_folders; // a deque: a folder found while its parent's names are read keeps that one in place
    QList<int> m_openFolders;
    std::deque<int> m_toOpen;
    std::deque<int> m_toReadlink;
    QHash<quint32, Pending> m_pending;
    qint64 m_nameBytes = 0;
    qsizetype m_opening = 0; // OPENDIRs not answered yet
};

} // namespace

Result<RemoteListing> listOverSftp(transfer::SftpClient &sftp, const ssh::OutputLimits &limits, const QString &host,
                                   const QString &remoteDir)
{
    return SftpTreeWalk(sftp, limits, host, remoteDir).run();
}

bool sftpListingPays(qint64 shellStartMs, qint64 roundTripMs, const QList<QByteArray> &folders, qint64 sftpStartMs)
{
    if (shellStartMs < 0 || roundTripMs < 0) return false;
    int depth = 1;
    for (const QByteArray &folder : folders) {
        if (!folder.isEmpty()) depth = std::max(depth, int(folder.count('/')) + 2);
    }
    // SFTP: its channel, subsystem and handshake (three round trips), then an OPENDIR and a
    // READDIR per level (the CLOSEs are not waited for), more where the folders (three requests
    // each) are more than the requests in flight. A shell:
    // its channel and command (two), its start-up, then find (which costs no round trips).
    const qint64 sftpMs = (3 + 2 * qint64(depth) + qint64(folders.size()) / (kMaxInFlight / 3)) * roundTripMs
                          + std::max<qint64>(0, sftpStartMs);
    const qint64 shellMs = 2 * roundTripMs + shellStartMs;
    return sftpMs + 50 < shellMs;
}

} // namespace gantry::sync
