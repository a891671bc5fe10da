// SFTP v3 wire encoding: big-endian integers and length-prefixed strings, read with bounds checks
// (every length comes from the server).
#include "core/transfer/sftpclient.h"

#include <QtEndian>

namespace gantry::transfer {

namespace sftpwire {
void putU32(QByteArray &out, quint32 value)
{
    const quint32 be = qToBigEndian(value);
    out.append(reinterpret_cast<const char *>(&be), 4);
}

void putU64(QByteArray &out, quint64 value)
{
    const quint64 be = qToBigEndian(value);
    out.append(reinterpret_cast<const char *>(&be), 8);
}

void putString(QByteArray &out, const QByteArray &value)
{
    putU32(out, static_cast<quint32>(value.size()));
    out.append(value);
}

QByteArray stringBody(const QByteArray &value)
{
    QByteArray body;
    putString(body, value);
    return body;
}

bool Reader::u32(quint32 *value)
{
    if (m_pos + 4 > m_data.size()) return false;
    *value = qFromBigEndian<quint32>(m_data.constData() + m_pos);
    m_pos += 4;
    return true;
}

bool Reader::u64(quint64 *value)
{
    if (m_pos + 8 > m_data.size()) return false;
    *value = qFromBigEndian<quint64>(m_data.constData() + m_pos);
    m_pos += 8;
    return true;
}

bool Reader::string(QByteArray *value)
{
    quint32 len = 0;
    if (!u32(&len) || m_pos + qsizetype(len) > m_data.size()) return false;
    *value = m_data.mid(m_pos, len);
    m_pos += len;
    return true;
}

bool Reader::attrs(SftpAttrs *value)
{
    quint32 flags = 0;
    if (!u32(&flags)) return false;
    if (flags & 0x1) {
        quint64 size = 0;
        if (!u64(&size)) return false;
        value->size = size;
    }
    if (flags & 0x2) {
        quint32 uid = 0, gid = 0;
        if (!u32(&uid) || !u32(&gid)) return false;
    }
    if (flags & 0x4) {
        quint32 perms = 0;
        if (!u32(&perms)) return false;
        value->permissions = perms;
    }
    if (flags & 0x8) {
        quint32 atime = 0, mtime = 0;
        if (!u32(&atime) || !u32(&mtime)) return false;
        value->mtime = mtime;
    }
    if (flags & 0x80000000u) {
        quint32 count = 0;
        if (!u32(&count)) return false;
        for (quint32 i = 0; i < count; ++i) {
            QByteArray k, v;
            if (!string(&k) || !string(&v)) return false;
        }
    }
    return true;
}
} // namespace sftpwire

} // namespace gantry::transfer
