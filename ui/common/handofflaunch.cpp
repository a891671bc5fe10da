// SPDX-License-Identifier: Apache-2.0
#include "ui/common/handofflaunch.h"

#include "core/util/background.h"

namespace gantry::ui {

void startHandoff(QObject *context, handoff::Tool tool, const SavedHost &host, const QList<SavedHost> &allHosts,
                  const QString &configDir, const QString &remotePath, const handoff::Desktop &desktop,
                  HandoffDone done)
{
    background::run<std::optional<QString>>(context, [host, allHosts, configDir] {
        return handoff::sshAlias(host, allHosts, configDir);
    }, [tool, host, remotePath, desktop, done = std::move(done)](std::optional<QString> alias) {
        const Result<handoff::Launch> launch = handoff::launchForHost(tool, host, alias, remotePath, desktop);
        done(launch, launch ? handoff::start(*launch, desktop) : Result<void>(launch.error()));
    });
}

} // namespace gantry::ui
