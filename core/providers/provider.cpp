#include "core/providers/provider.h"

namespace gantry::providers {

Error Provider::unsupported(const QString &what) const
{
    return Error{ErrorCode::Usage, tr("%1 cannot %2.").arg(info().displayName, what)};
}

void Provider::stop(const QString &, Callback<void> done)
{
    deliver<void>(std::move(done), unsupported(tr("stop an instance (terminate it instead; its local disk is lost)")));
}

void Provider::start(const QString &, Callback<void> done)
{
    deliver<void>(std::move(done), unsupported(tr("start a stopped instance")));
}

void Provider::listFilesystems(Callback<QList<Filesystem>> done)
{
    deliver<QList<Filesystem>>(std::move(done), QList<Filesystem>{});
}

void Provider::createFilesystem(const VolumeSpec &, Callback<Filesystem> done)
{
    deliver<Filesystem>(std::move(done), unsupported(tr("create volumes: its API has none")));
}

void Provider::deleteFilesystem(const QString &, Callback<void> done)
{
    deliver<void>(std::move(done), unsupported(tr("delete volumes: its API has none")));
}

void Provider::listImages(Callback<QList<Image>> done)
{
    deliver<QList<Image>>(std::move(done), QList<Image>{});
}

} // namespace gantry::providers
