// known_hosts lines (plain, bracketed host:port, hashed |1|, markers, comments).
#include "fuzzinput.h"
#include "core/ssh/knownhosts.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString file = gantry::fuzz::asFile(gantry::fuzz::bytes(data, size), QStringLiteral("known_hosts"));
    using gantry::ssh::findKnownHost;
    (void)findKnownHost(file, QStringLiteral("example.com"), 22);
    (void)findKnownHost(file, QStringLiteral("127.0.0.1"), 2222, QStringLiteral("ssh-ed25519"));
    (void)gantry::ssh::sha256Fingerprint(gantry::fuzz::bytes(data, size));
    return 0;
}
