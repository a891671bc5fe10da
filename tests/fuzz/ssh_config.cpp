// A user's ~/.ssh/config: the import of its Host entries, and the managed block's reading and
// rewriting of the same bytes.
#include "fuzzinput.h"
#include "core/hosts/sshconfigimport.h"
#include "core/sshconfig/managedblock.h"

namespace {
// "~" in IdentityFile and Include resolves under HOME: point it at an empty directory so no input
// reads the real ~/.ssh (tests read only files inside the repository).
void isolateHome()
{
    static QTemporaryDir home;
    static const bool set = qputenv("HOME", home.path().toLocal8Bit());
    (void)set;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    isolateHome();
    const QByteArray config = gantry::fuzz::bytes(data, size);
    (void)gantry::importSshConfig(gantry::fuzz::asFile(config, QStringLiteral("config")));
    using namespace gantry::sshconfig;
    (void)hasBlock(config);
    (void)managedAliases(config);
    HostEntry entry;
    entry.alias = QStringLiteral("fuzz");
    entry.hostName = QStringLiteral("192.0.2.1");
    entry.user = QStringLiteral("ubuntu");
    (void)applyBlock(config, {entry});
    (void)applyBlock(config, {});
    return 0;
}
