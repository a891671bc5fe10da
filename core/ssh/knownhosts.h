#pragma once

#include <QString>

namespace gantry::ssh {

struct KnownHostEntry
{
    int line = 0;             // 1-based
    QString keyType;
    QString fingerprint;      // "SHA256:…"
};

// Finds the first entry for host:port (plain or hashed "|1|" form) in an OpenSSH known_hosts
// file. libssh says *that* a key changed; this says which line holds the old one.
KnownHostEntry findKnownHost(const QString &file, const QString &host, int port, const QString &keyType = {});

// "SHA256:<base64 without padding>" of a raw public key blob, as OpenSSH prints it.
QString sha256Fingerprint(const QByteArray &keyBlob);

QString defaultKnownHostsFile();

} // namespace gantry::ssh
