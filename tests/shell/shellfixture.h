// SPDX-License-Identifier: Apache-2.0
#pragma once

// The window as `gantry` builds it — the application core, every panel and tab, the shell wiring —
// shown at 1024×700, for the suites that test what a user sees in the whole window.

#include "app/gui/appservices.h"
#include "app/gui/shellwiring.h"

#include "core/util/secretstore.h"
#include "core/workspace/appcore.h"
#include "ui/shell/mainwindow.h"

#include <memory>

namespace gantry::test {

struct ShellFixture
{
    ShellFixture(const QString &configDir, SecretStore *secrets) : core(configDir, secrets)
    {
        core.open();
        window = std::make_unique<ui::MainWindow>(&core);
        services = new app::AppServices(window.get(), &core); // owned by the window
        new app::ShellWiring(window.get(), services, secrets);
        window->resize(1024, 700);
        window->show();
    }
    workspace::AppCore core;
    std::unique_ptr<ui::MainWindow> window;
    app::AppServices *services = nullptr;
};

} // namespace gantry::test
