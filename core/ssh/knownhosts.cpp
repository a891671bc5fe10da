#include "core/ssh/knownhosts.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QMessageAuthenticationCode>

namespace gantry::ssh {

QString sha256Fingerprint(const QByteArray &keyBlob)
{
    QByteArray b64 = QCryptographicHash::hash(keyBlob, QCryptographicHash::Sha256).toBase64();
    while (b64.endsWith('='))
        b64.chop(1);
    return QStringLiteral("SHA256:") + QString::fromLatin1(b64);
}

QString defaultKnownHostsFile()
{
    return QDir::homePath() + QStringLiteral("/.ssh/known_hosts");
}

namespace {
bool patternMatches(const QByteArray &pattern, const QByteArray &name)
{
    if (pattern.startsWith("|1|")) {
        const QList<QByteArray> parts = pattern.mid(3).split('|');
        if (parts.size() != 2)
            return false;
        const QByteArray salt = QByteArray::fromBase64(parts[0]);
        const QByteArray mac = QMessageAuthenticationCode::hash(name, salt, QCryptographicHash::Sha1);
        return mac == QByteArray::fromBase64(parts[1]);
    }
    for (const QByteArray &candidate : pattern.split(',')) {
        if (candidate == name)
            return true;
    }
    return false;
}
} // namespace

KnownHostEntry findKnownHost(const QString &file, const QString &host, int port, const QString &keyType)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray name = port == 22 ? host.toUtf8()
                                       : QByteArray("[") + host.toUtf8() + "]:" + QByteArray::number(port);
    int lineNo = 0;
    KnownHostEntry anyType;
    // The whole file at once, then its lines: QIODevice::readLine grows and shrinks a buffer for
    // every line, which made reading dominate a lookup. A trailing '\n' leaves an empty last piece,
    // skipped like any empty line, so line numbers are those readLine counted.
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray &raw : lines) {
        ++lineNo;
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#') || line.startsWith('@'))
            continue;
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 3 || !patternMatches(fields[0], name))
            continue;
        KnownHostEntry entry{lineNo, QString::fromLatin1(fields[1]),
                             sha256Fingerprint(QByteArray::fromBase64(fields[2]))};
        if (keyType.isEmpty() || entry.keyType == keyType)
            return entry;
        if (anyType.line == 0)
            anyType = entry;
    }
    return anyType;
}

} // namespace gantry::ssh
