#include "core/sync/syncmanifest.h"
#include "core/sync/synctext.h"

#include "core/transfer/sha256.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>

namespace gantry::sync {

namespace {

// Names that are valid UTF-8 are stored as text; the others as base64 of their bytes.
void putNames(QJsonObject &o, const QString &key, const QSet<QByteArray> &names)
{
    QList<QByteArray> sorted(names.begin(), names.end());
    std::sort(sorted.begin(), sorted.end());
    QJsonArray text;
    QJsonArray raw;
    for (const QByteArray &n : sorted) {
        const QString s = QString::fromUtf8(n);
        if (s.toUtf8() == n) {
            text.append(s);
        } else {
            raw.append(QString::fromLatin1(n.toBase64()));
        }
    }
    o.insert(key, text);
    o.insert(key + QStringLiteral("Base64"), raw);
}

QSet<QByteArray> getNames(const QJsonObject &o, const QString &key)
{
    QSet<QByteArray> names;
    for (const auto &v : o.value(key).toArray()) names.insert(v.toString().toUtf8());
    for (const auto &v : o.value(key + QStringLiteral("Base64")).toArray()) names.insert(QByteArray::fromBase64(v.toString().toLatin1()));
    return names;
}

} // namespace

QString manifestPath(const QString &configDir, const QString &host, const QString &localDir, const QString &remoteDir)
{
    transfer::Sha256 h;
    h.add((host + QLatin1Char('\n') + localDir + QLatin1Char('\n') + remoteDir).toUtf8());
    return configDir + QStringLiteral("/sync/") + QString::fromLatin1(h.hexDigest().left(32)) + QStringLiteral(".json");
}

SyncManifest loadManifest(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    SyncManifest manifest{getNames(o, QStringLiteral("files")), getNames(o, QStringLiteral("dirs"))};
    const QJsonObject shell = o.value(QStringLiteral("shell")).toObject();
    manifest.shellStartMs = shell.value(QStringLiteral("startMs")).toInteger(-1);
    manifest.haveTar = shell.value(QStringLiteral("tar")).toBool();
    manifest.haveRunner = shell.value(QStringLiteral("runner")).toBool();
    manifest.sftpRefused = shell.value(QStringLiteral("sftpRefused")).toBool();
    manifest.sftpStartMs = shell.value(QStringLiteral("sftpStartMs")).toInteger(-1);
    manifest.sftpMeasuredAt = shell.value(QStringLiteral("sftpAt")).toInteger(0);
    return manifest;
}

qint64 trustedSftpStartMs(const SyncManifest &manifest, qint64 nowSecs)
{
    constexpr qint64 kOneDay = 24 * 3600;
    const qint64 age = nowSecs - manifest.sftpMeasuredAt; // one from the future: a clock set back
    return age < 0 || age > kOneDay ? -1 : manifest.sftpStartMs;
}

void setSftpStartMs(SyncManifest *manifest, qint64 ms, qint64 nowSecs)
{
    manifest->sftpStartMs = ms;
    manifest->sftpMeasuredAt = nowSecs;
}

Result<void> saveManifest(const QString &path, const SyncManifest &manifest, const QString &host, const QString &localDir,
                          const QString &remoteDir)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QJsonObject o{{QStringLiteral("schema"), 1},
                  {QStringLiteral("host"), host},
                  {QStringLiteral("local"), localDir},
                  {QStringLiteral("remote"), remoteDir}};
    putNames(o, QStringLiteral("files"), manifest.files);
    putNames(o, QStringLiteral("dirs"), manifest.dirs);
    if (manifest.shellStartMs >= 0) {
        o.insert(QStringLiteral("shell"), QJsonObject{{QStringLiteral("startMs"), manifest.shellStartMs},
                                                     {QStringLiteral("tar"), manifest.haveTar},
                                                     {QStringLiteral("runner"), manifest.haveRunner},
                                                     {QStringLiteral("sftpRefused"), manifest.sftpRefused},
                                                     {QStringLiteral("sftpStartMs"), manifest.sftpStartMs},
                                                     {QStringLiteral("sftpAt"), manifest.sftpMeasuredAt}});
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(o).toJson(QJsonDocument::Compact)) < 0 || !f.commit()) {
        return Error{ErrorCode::Io, SyncText::tr("Cannot save the sync manifest %1: %2. Check the space and permissions of the "
                                                 "config folder.").arg(path, f.errorString())};
    }
    return {};
}

} // namespace gantry::sync
