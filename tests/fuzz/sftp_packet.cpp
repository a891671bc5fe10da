// Bodies of SFTP v3 replies, decoded the way SftpClient decodes them (sftpclient.cpp): the first
// byte picks the reply (VERSION extensions, NAME listing, ATTRS, STATUS, limits, statvfs,
// HANDLE); the rest is the body after type and id.
#include "fuzzinput.h"
#include "core/transfer/sftpclient.h"

using namespace gantry::transfer;
using namespace gantry::transfer::sftpwire;

namespace {
void listing(const QByteArray &body)
{
    Reader rd(body);
    quint32 count = 0;
    rd.u32(&count);
    for (quint32 i = 0; i < count; ++i) {
        QByteArray name, longname;
        SftpEntry e;
        if (!rd.string(&name) || !rd.string(&longname) || !rd.attrs(&e.attrs)) break;
        e.name = QString::fromUtf8(name);
        (void)e.attrs.isDir();
        (void)e.attrs.isLink();
        (void)e.attrs.isRegular();
    }
}

void u64s(const QByteArray &body, int n)
{
    Reader rd(body);
    quint64 value = 0;
    for (int i = 0; i < n && rd.u64(&value); ++i) {}
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    const QByteArray body = gantry::fuzz::bytes(data + 1, size - 1);
    switch (data[0] % 7) {
    case 0: {
        Reader r(body);
        QByteArray name, value;
        while (r.string(&name) && r.string(&value)) {}
        break;
    }
    case 1: listing(body); break;
    case 2: {
        SftpAttrs attrs;
        Reader(body).attrs(&attrs);
        break;
    }
    case 3: {
        SftpClient::Reply reply{SftpClient::Status, 1, body};
        (void)reply.status();
        (void)reply.statusMessage();
        break;
    }
    case 4: u64s(body, 3); break;  // limits@openssh.com
    case 5: u64s(body, 11); break; // statvfs@openssh.com
    default: {
        QByteArray handle;
        Reader r(body);
        r.string(&handle);
        (void)r.atEnd();
        break;
    }
    }
    return 0;
}
