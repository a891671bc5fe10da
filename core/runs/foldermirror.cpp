// SPDX-License-Identifier: Apache-2.0
#include "core/runs/foldermirror.h"

#include "core/runs/runstext.h"
#include "core/ssh/session.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <memory>

namespace gantry::runs {

QString openForWritingScript()
{
    // Each fd link of the user's processes that points into the folder, and its open flags
    // (octal; O_WRONLY 1, O_RDWR 2).
    return QStringLiteral(
        "{ r=$(pwd -P); find /proc/[0-9]*/fd -maxdepth 1 -lname \"$r/*\" 2>/dev/null | while IFS= read -r l; do "
        "fl=$(sed -n 's/^flags:[[:space:]]*//p' \"${l%/fd/*}/fdinfo/${l##*/}\" 2>/dev/null); "
        "case \"$fl\" in ''|*[!0-7]*) continue;; esac; "
        "[ $(( 0$fl & 3 )) -ne 0 ] && p=$(readlink \"$l\") && printf '%s\\n' \"${p#\"$r\"/}\"; done; }");
}

namespace {

// The remote side: one line per file (F: complete copy follows, K: unchanged, B: busy), the
// bytes of each complete copy right after its line. The known signatures come on stdin.
// A file some process of the user holds open for writing is busy, whatever its stat says: a
// writer paused in the middle of a rewrite in place (descheduled, or between two writes inside
// one clock tick, which timestamps do not tell apart) left a file whose size and modification
// time stayed put while it was copied, and half of one version came home as a whole one.
QString mirrorScript(const QString &remoteDir)
{
    return QStringLiteral(
               "d=%1\n"
               "t=$(mktemp -d) || exit 3\ntrap 'rm -rf \"$t\"' EXIT\ncat > \"$t/known\"\n"
               "case \"$d\" in '~/'*) d=\"$HOME/${d#\\~/}\";; esac\n"
               "cd \"$d\" 2>/dev/null || exit 0\n"
               "%2 > \"$t/open\"\n"
               "find . -type f -print | while IFS= read -r f; do\n"
               "  f=${f#./}\n"
               "  if grep -Fxq -- \"$f\" \"$t/open\"; then printf 'B\\t%s\\n' \"$f\"; continue; fi\n"
               "  exec 3<\"$f\" 2>/dev/null || continue\n"
               "  a=$(stat -L -c '%s|%y|%i' /proc/self/fd/3)\n"
               "  if grep -Fxq -- \"$a\t$f\" \"$t/known\"; then exec 3<&-; printf 'K\\t%s\\n' \"$f\"; continue; fi\n"
               "  cat <&3 > \"$t/copy\" || { exec 3<&-; continue; }\n"
               "  b=$(stat -L -c '%s|%y|%i' /proc/self/fd/3)\n"
               "  exec 3<&-\n"
               "  n=$(stat -c %s \"$t/copy\")\n"
               "  if [ \"$a\" = \"$b\" ] && [ \"$n\" = \"${a%%|*}\" ]; then\n"
               "    printf 'F\\t%s\\t%s\\t%s\\n' \"$n\" \"$a\" \"$f\"; cat \"$t/copy\"\n"
               "  else printf 'B\\t%s\\n' \"$f\"; fi\n"
               "done\n")
        .arg(ssh::shellQuote(remoteDir), openForWritingScript());
}

// Parses the stream as it arrives, writing each complete copy through a QSaveFile.
class StreamReader
{
public:
    StreamReader(QString localDir, QHash<QString, QString> *known, MirrorOutcome *out)
        : m_localDir(std::move(localDir)), m_known(known), m_out(out) {}

    Result<void> feed(QByteArray data)
    {
        m_buffer += data;
        while (!m_buffer.isEmpty()) {
            if (m_file) {
                const qint64 take = std::min<qint64>(m_left, m_buffer.size());
                if (m_file->write(m_buffer.constData(), take) != take)
                    return ioError();
                m_buffer.remove(0, take);
                m_left -= take;
                if (m_left == 0) {
                    if (Result<void> done = finishFile(); !done)
                        return done;
                }
                continue;
            }
            const qsizetype newline = m_buffer.indexOf('\n');
            if (newline < 0)
                return {};
            const QString line = QString::fromUtf8(m_buffer.left(newline));
            m_buffer.remove(0, newline + 1);
            if (Result<void> handled = header(line); !handled)
                return handled;
        }
        return {};
    }
    bool inFile() const { return m_file != nullptr; }

private:
    Result<void> header(const QString &line)
    {
        const QStringList parts = line.split(QLatin1Char('\t'));
        if (parts.value(0) == QLatin1String("B") && parts.size() >= 2) {
            m_out->busy.append(parts.mid(1).join(QLatin1Char('\t')));
            return {};
        }
        if (parts.value(0) != QLatin1String("F") || parts.size() < 4)
            return {}; // K (unchanged) and anything else: nothing to write
        m_path = parts.mid(3).join(QLatin1Char('\t'));
        m_signature = parts.at(2);
        m_left = parts.at(1).toLongLong();
        if (m_path.startsWith(QLatin1Char('/')) || m_path.split(QLatin1Char('/')).contains(QStringLiteral("..")))
            return Error{ErrorCode::RemoteFailed, RunsText::tr("The machine sent an unsafe path (%1); nothing was written.").arg(m_path)};
        const QString target = QDir(m_localDir).filePath(m_path);
        QDir().mkpath(QFileInfo(target).path());
        m_file = std::make_unique<QSaveFile>(target);
        if (!m_file->open(QIODevice::WriteOnly))
            return ioError();
        return m_left == 0 ? finishFile() : Result<void>{};
    }

    Result<void> finishFile()
    {
        if (!m_file->commit())
            return ioError();
        m_file.reset();
        m_known->insert(m_path, m_signature);
        m_out->received.append(m_path);
        m_out->bytes += QFileInfo(QDir(m_localDir).filePath(m_path)).size();
        return {};
    }

    Error ioError() const
    {
        return Error{ErrorCode::Io, RunsText::tr("Cannot write %1 at home: %2; free some disk space.")
                                        .arg(QDir(m_localDir).filePath(m_path), m_file ? m_file->errorString() : QString())};
    }

    QString m_localDir;
    QHash<QString, QString> *m_known;
    MirrorOutcome *m_out;
    QByteArray m_buffer;
    std::unique_ptr<QSaveFile> m_file;
    QString m_path;
    QString m_signature;
    qint64 m_left = 0;
};

// One ustar header (POSIX.1-1988): the name split into prefix/name where it is long.
QByteArray tarHeader(const QByteArray &path, qint64 size, qint64 mtime)
{
    QByteArray header(512, '\0');
    QByteArray name = path;
    QByteArray prefix;
    if (name.size() > 100) {
        const qsizetype cut = name.lastIndexOf('/', 155);
        prefix = name.left(cut);
        name = name.mid(cut + 1);
    }
    auto put = [&header](int offset, const QByteArray &field) { std::copy(field.cbegin(), field.cend(), header.begin() + offset); };
    auto octal = [](qint64 value, int width) { return QByteArray::number(value, 8).rightJustified(width - 1, '0'); };
    put(0, name);
    put(100, octal(0644, 8));
    put(108, octal(0, 8));
    put(116, octal(0, 8));
    put(124, octal(size, 12));
    put(136, octal(mtime, 12));
    put(148, QByteArray(8, ' '));
    header[156] = '0';
    put(257, QByteArray("ustar\0" "00", 8));
    put(345, prefix);
    int sum = 0;
    for (char c : std::as_const(header))
        sum += static_cast<unsigned char>(c);
    put(148, octal(sum, 7) + QByteArray(1, '\0'));
    return header;
}

// Streams one file into the tar on the channel, padded to whole blocks.
Result<void> sendFile(ssh::Channel &channel, const QString &file, const QByteArray &relative)
{
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return Error{ErrorCode::Io, RunsText::tr("Cannot read %1: %2.").arg(file, in.errorString())};
    if (Result<void> sent = channel.write(tarHeader(relative, in.size(), QFileInfo(file).lastModified().toSecsSinceEpoch())); !sent)
        return sent;
    qint64 total = 0;
    while (!in.atEnd()) {
        const QByteArray chunk = in.read(1 << 20);
        total += chunk.size();
        if (Result<void> sent = channel.write(chunk); !sent)
            return sent;
    }
    return total % 512 == 0 ? Result<void>{} : channel.write(QByteArray(512 - total % 512, '\0'));
}

} // namespace

Result<int> restoreFolder(ssh::Session &session, const QString &localDir, const QString &remoteDir, const CancelToken &cancel)
{
    const QString script = QStringLiteral("d=%1\ncase \"$d\" in '~/'*) d=\"$HOME/${d#\\~/}\";; esac\n"
                                          "mkdir -p \"$d\" && tar -xf - --no-same-owner -C \"$d\"\n").arg(ssh::shellQuote(remoteDir));
    Result<std::unique_ptr<ssh::Channel>> channel = session.openExec(script);
    if (!channel)
        return channel.error();
    int files = 0;
    QDirIterator it(localDir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        if (cancel.isCancelled())
            return Error{ErrorCode::Cancelled, RunsText::tr("The mirror was stopped.")};
        const QString file = it.next();
        if (Result<void> sent = sendFile(**channel, file, QDir(localDir).relativeFilePath(file).toUtf8()); !sent)
            return sent.error();
        ++files;
    }
    if (Result<void> end = (*channel)->write(QByteArray(1024, '\0')); !end)
        return end.error();
    if (Result<void> eof = (*channel)->sendEof(); !eof)
        return eof.error();
    QByteArray err;
    while (!(*channel)->exitStatus()) {
        Result<QByteArray> out = (*channel)->read(1000, &err);
        if (!out)
            return out.error();
        if (out->isEmpty() && (*channel)->isEof() && (*channel)->exitStatus())
            break;
    }
    if ((*channel)->exitStatus().value_or(-1) != 0)
        return Error{ErrorCode::RemoteFailed, RunsText::tr("The checkpoint could not be restored on the machine: %1")
                                                  .arg(QString::fromUtf8(err).trimmed())};
    return files;
}

Result<MirrorOutcome> mirrorFolderHome(ssh::Session &session, const QString &remoteDir, const QString &localDir,
                                       QHash<QString, QString> *known, const CancelToken &cancel)
{
    if (!QDir().mkpath(localDir))
        return Error{ErrorCode::Io, RunsText::tr("Cannot create %1; check its permissions.").arg(localDir)};
    // A copy removed at home is no longer known: it comes again.
    for (auto it = known->begin(); it != known->end();)
        it = QFileInfo::exists(QDir(localDir).filePath(it.key())) ? std::next(it) : known->erase(it);
    Result<std::unique_ptr<ssh::Channel>> channel = session.openExec(mirrorScript(remoteDir));
    if (!channel)
        return channel.error();
    QByteArray knownLines;
    for (auto it = known->cbegin(); it != known->cend(); ++it)
        knownLines += (it.value() + QLatin1Char('\t') + it.key() + QLatin1Char('\n')).toUtf8();
    if (Result<void> sent = (*channel)->write(knownLines); !sent)
        return sent.error();
    if (Result<void> eof = (*channel)->sendEof(); !eof)
        return eof.error();
    MirrorOutcome outcome;
    StreamReader reader(localDir, known, &outcome);
    for (;;) {
        if (cancel.isCancelled())
            return Error{ErrorCode::Cancelled, RunsText::tr("The mirror was stopped.")};
        Result<QByteArray> data = (*channel)->read(1000);
        if (!data)
            return data.error();
        if (data->isEmpty() && (*channel)->isEof())
            break;
        if (Result<void> fed = reader.feed(*data); !fed)
            return fed.error();
    }
    if (reader.inFile())
        return Error{ErrorCode::RemoteFailed, RunsText::tr("The link dropped during the mirror; the last complete copies stay at home.")};
    return outcome;
}

QHash<QString, QString> loadSignatures(const QString &file)
{
    QHash<QString, QString> known;
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return known;
    for (const QByteArray &line : in.readAll().split('\n')) {
        const qsizetype tab = line.indexOf('\t');
        if (tab > 0)
            known.insert(QString::fromUtf8(line.mid(tab + 1)), QString::fromUtf8(line.left(tab)));
    }
    return known;
}

Result<void> saveSignatures(const QString &file, const QHash<QString, QString> &known)
{
    QByteArray data;
    for (auto it = known.cbegin(); it != known.cend(); ++it)
        data += (it.value() + QLatin1Char('\t') + it.key() + QLatin1Char('\n')).toUtf8();
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(data) != data.size() || !out.commit())
        return Error{ErrorCode::Io, RunsText::tr("Cannot write %1: %2.").arg(file, out.errorString())};
    return {};
}

} // namespace gantry::runs
