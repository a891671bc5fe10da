// SPDX-License-Identifier: Apache-2.0
#pragma once

// Header-only: the suites that include it link the application core (gantry_core_runs and up);
// gantry_testsupport itself links only ssh.
#include "core/providers/await.h"
#include "core/runs/managedrun.h"
#include "core/providers/providerhub.h"
#include "core/providers/sandboxprovider.h"
#include "core/workspace/appcore.h"
#include "core/workspace/workspace.h"

#include <QFile>

#include <memory>

namespace gantry::testsupport {

// An application core on the local sandbox alone — real sshd machines that boot in `bootMs`, a
// real ledger and hosts.json in `configDir` — with the workspace polling fast (100 ms) unless
// `fastPolls` is false: what the managed-run suites and benchmarks drive their runs on. Null when
// the core could not open its ledger.
inline std::unique_ptr<workspace::AppCore> openSandboxCore(const QString &configDir, SecretStore *secrets, int bootMs = 50,
                                                           bool fastPolls = true)
{
    workspace::AppCore::Options o;
    providers::ProviderSettings accounts;
    accounts.configDir = configDir;
    accounts.sandbox.bootDelayMs = bootMs;
    o.accounts = accounts;
    o.providerIds = QStringList{QStringLiteral("sandbox")};
    o.resumeWork = false;
    auto core = std::make_unique<workspace::AppCore>(configDir, secrets, o);
    core->open();
    if (!core->ledgerOpen())
        return nullptr;
    if (fastPolls)
        core->workspace()->setLaunchTiming(100, 2, 100);
    return core;
}

inline providers::SandboxProvider *sandboxOf(const workspace::AppCore &core)
{
    return qobject_cast<providers::SandboxProvider *>(core.providers()->provider(QStringLiteral("sandbox")));
}

// The sandbox's instances that still run (and would bill on a cloud).
inline Result<QList<providers::Instance>> sandboxInstances(const workspace::AppCore &core)
{
    return providers::await<QList<providers::Instance>>(
        [&core](providers::Callback<QList<providers::Instance>> done) { sandboxOf(core)->listInstances(std::move(done)); });
}

// Whatever a failed test left running ends with the suite: no sshd outlives it.
inline void terminateSandboxInstances(const workspace::AppCore &core)
{
    for (const providers::Instance &instance : sandboxInstances(core).valueOr({}))
        (void)providers::await<void>([&](providers::Callback<void> done) { sandboxOf(core)->terminate(instance.id, std::move(done)); });
}

// How the managed-run suites drive runs: `clock` (a ManualClock the test moves), a tick of 100 ms,
// the provider asked every other tick, launches polled every 100 ms, results under `homeRoot`.
inline runs::ManagedRun::Options fastRunOptions(Clock *clock, const QString &homeRoot)
{
    runs::ManagedRun::Options o;
    o.clock = clock;
    o.tickMs = 100;
    o.providerCheckEveryTicks = 2;
    o.launchPollMs = 100;
    o.homeRoot = homeRoot;
    return o;
}

// A file's bytes ("" when it cannot be read).
inline QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace gantry::testsupport
