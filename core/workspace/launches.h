// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/providertypes.h"

#include <QMetaType>

namespace gantry::workspace {

// How a launch is carried out. The price is the one the user saw (the offer's), recorded in the
// ledger at once: the provider bills from its answer, not from the first listing.
struct LaunchOptions
{
    double pricePerHour = 0;
    // Follow the instance until it is running and reachable, then save its host (Workspace::follow).
    bool follow = true;
    int bootTimeoutMs = 20 * 60 * 1000;
    int pollMs = 0; // 0: the workspace's, else the provider's own status poll interval
    // A lost answer is looked up this many times, this far apart (LaunchAttempt); 0 and -1: the
    // workspace's (Workspace::setLaunchTiming).
    int lookupTries = 0;
    int lookupIntervalMs = -1;
    // The ledger note when the instance never comes up ("never became active").
    QString neverUpNote;
    // The private key of the account key launched with (the saved host logs in with it); empty:
    // the Gantry key when there is one.
    QString identityFile;
};

// The answer to a launch: the instance is billing from here on and has its ledger row.
struct LaunchedInstance
{
    QString provider;
    QString instanceId;
    providers::LaunchRequest request; // as sent: the name is always set (a unique one when none was given)
    double pricePerHour = 0;
    bool adopted = false; // the provider's answer was lost; the instance was found by its name
    QString note;         // for the user when adopted
    QStringList warnings; // the ledger could not record it: the launch itself happened
};

// A launched instance that came up: running, reachable, its host saved (and ~/.ssh/config followed).
struct ReadyInstance
{
    providers::Instance instance;
    QString hostName;
    QStringList warnings; // the host could not be saved: the instance itself is up
};

struct FollowOptions
{
    int timeoutMs = 20 * 60 * 1000;
    int pollMs = 0; // 0: the workspace's, else the provider's own status poll interval
    QString neverUpNote;
    QString identityFile; // as LaunchOptions::identityFile
};

// What a provider's listing changed: hosts saved for the first time, and what could not be recorded.
struct ReconcileOutcome
{
    QStringList newHosts;
    QStringList problems;
};

} // namespace gantry::workspace

Q_DECLARE_METATYPE(gantry::workspace::LaunchedInstance)
Q_DECLARE_METATYPE(gantry::workspace::ReadyInstance)
