#include "core/sync/localscan.h"
#include "core/sync/synctext.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gantry::sync {

namespace {

QByteArray join(const QByteArray &dir, const QByteArray &name)
{
    return dir.isEmpty() ? name : dir + '/' + name;
}

QByteArray readSmallFile(const QByteArray &path)
{
    QFile f(QFile::decodeName(path));
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || !f.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        if (fd >= 0) ::close(fd);
        return {};
    }
    return f.read(1 << 20); // an ignore file, not a data set
}

class Walker
{
public:
    Walker(const QByteArray &root, const ScanOptions &options) : m_root(root), m_options(options) {}

    Result<void> walk(const QByteArray &rel)
    {
        const QByteArray abs = rel.isEmpty() ? m_root : m_root + '/' + rel;
        if (m_options.ignoreFiles) {
            for (const char *name : {".gitignore", ".gantryignore"}) {
                const QByteArray content = readSmallFile(abs + '/' + name);
                if (!content.isEmpty()) m_rules.addFile(rel, content);
            }
        }
        DIR *dir = ::opendir(abs.constData());
        if (!dir) {
            return Error{ErrorCode::PermissionDenied,
                         SyncText::tr("Cannot read the local folder %1: %2. Fix its permissions or add it to .gantryignore.")
                             .arg(displayPath(abs), QString::fromLocal8Bit(std::strerror(errno)))};
        }
        QList<QByteArray> subdirs;
        while (const dirent *d = ::readdir(dir)) {
            const QByteArray name(d->d_name);
            if (name == "." || name == "..") continue;
            if (auto r = visit(abs, rel, name, &subdirs); !r) {
                ::closedir(dir);
                return r;
            }
        }
        ::closedir(dir);
        for (const QByteArray &sub : std::as_const(subdirs)) {
            if (auto r = walk(sub); !r) return r;
        }
        return {};
    }

    LocalScan take()
    {
        std::sort(m_scan.entries.begin(), m_scan.entries.end(),
                  [](const SyncEntry &a, const SyncEntry &b) { return a.path < b.path; });
        return std::move(m_scan);
    }

private:
    bool isIgnored(const QByteArray &path, bool isDir) const
    {
        const auto verdict = m_options.excludes.matchSelf(path, isDir);
        if (verdict != IgnoreRules::Verdict::None) return verdict == IgnoreRules::Verdict::Ignored;
        return m_rules.matchSelf(path, isDir) == IgnoreRules::Verdict::Ignored;
    }

    Result<void> visit(const QByteArray &absDir, const QByteArray &relDir, const QByteArray &name, QList<QByteArray> *subdirs)
    {
        const QByteArray rel = join(relDir, name);
        const QByteArray abs = absDir + '/' + name;
        if (m_options.skipGit && name == ".git") return {};
        struct stat st{};
        if (::lstat(abs.constData(), &st) != 0) return {}; // removed since readdir: not there
        const bool isDir = S_ISDIR(st.st_mode);
        if (isIgnored(rel, isDir)) {
            m_scan.ignored += 1;
            return {};
        }
        SyncEntry e;
        e.path = rel;
        e.mtime = qint64(st.st_mtim.tv_sec);
        e.mtimeNsec = qint64(st.st_mtim.tv_nsec);
        e.mode = quint32(st.st_mode & 07777);
        if (isDir) {
            e.type = SyncEntry::Dir;
            subdirs->append(rel);
        } else if (S_ISLNK(st.st_mode)) {
            e.type = SyncEntry::Link;
            QByteArray target(qsizetype(st.st_size > 0 ? st.st_size : 4096) + 1, '\0');
            const ssize_t n = ::readlink(abs.constData(), target.data(), size_t(target.size()));
            if (n < 0) return {};
            target.truncate(qsizetype(n));
            e.linkTarget = target;
        } else if (S_ISREG(st.st_mode)) {
            if (::access(abs.constData(), R_OK) != 0) {
                return Error{ErrorCode::PermissionDenied,
                             SyncText::tr("Cannot read the local file %1: permission denied. Fix its permissions or add it to .gantryignore.")
                                 .arg(displayPath(abs))};
            }
            e.size = quint64(st.st_size);
            m_scan.bytes += e.size;
            m_scan.files += 1;
        } else {
            m_scan.notes.append(SyncText::tr("Skipped %1: not a regular file (device, socket or pipe).").arg(displayPath(rel)));
            return {};
        }
        m_scan.entries.append(e);
        return {};
    }

    QByteArray m_root;
    const ScanOptions &m_options;
    IgnoreRules m_rules;
    LocalScan m_scan;
};

} // namespace

QByteArray nativePath(const QString &path)
{
    return QFile::encodeName(path);
}

QString displayPath(const QByteArray &path)
{
    const QString text = QString::fromUtf8(path);
    if (text.toUtf8() == path) return text;
    QString shown;
    for (const char c : path) {
        const auto u = static_cast<unsigned char>(c);
        shown += u < 0x80 ? QString(QLatin1Char(c)) : QStringLiteral("\\x%1").arg(u, 2, 16, QLatin1Char('0'));
    }
    return shown;
}

Result<LocalScan> scanLocal(const QByteArray &folder, const ScanOptions &options)
{
    struct stat st{};
    if (::stat(folder.constData(), &st) != 0) {
        return Error{ErrorCode::NotFound, SyncText::tr("The local folder %1 does not exist. Check the path.").arg(displayPath(folder))};
    }
    if (!S_ISDIR(st.st_mode)) {
        return Error{ErrorCode::Usage,
                     SyncText::tr("%1 is not a folder: sync sends a folder's content. Give the folder that holds it.").arg(displayPath(folder))};
    }
    QByteArray root = folder;
    while (root.size() > 1 && root.endsWith('/')) root.chop(1);
    Walker walker(root, options);
    if (auto r = walker.walk({}); !r) return r.error();
    return walker.take();
}

} // namespace gantry::sync
