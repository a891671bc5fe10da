#include "core/transfer/sessionfactory.h"

#include "core/hosts/connectionmanager.h"

namespace gantry::transfer {

SessionFactory makeSessionFactory(const ssh::Target &target, const ssh::ConnectOptions &options)
{
    return [target, options](const std::atomic_bool *cancel) -> Result<std::unique_ptr<ssh::Session>> {
        ssh::ConnectOptions o = options;
        o.cancel = cancel;
        auto session = std::make_unique<ssh::Session>();
        if (auto c = session->connect(target, o); !c) return c.error();
        return session;
    };
}

SessionFactory makeHostSessionFactory(const SavedHost &host, SecretStore *secrets, const QString &knownHostsFile)
{
    return makeSessionFactory(host.target, backgroundConnectOptions(host, secrets, knownHostsFile));
}

} // namespace gantry::transfer
