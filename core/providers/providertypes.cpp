#include "core/providers/providertypes.h"
#include "core/providers/providerstext.h"

#include <QCoreApplication>

#include <algorithm>

namespace gantry::providers {

QString instanceStateName(InstanceState state)
{
    switch (state) {
    case InstanceState::Booting: return QStringLiteral("booting");
    case InstanceState::Running: return QStringLiteral("running");
    case InstanceState::Unhealthy: return QStringLiteral("unhealthy");
    case InstanceState::Restarting: return QStringLiteral("restarting");
    case InstanceState::Stopping: return QStringLiteral("stopping");
    case InstanceState::Stopped: return QStringLiteral("stopped");
    case InstanceState::Terminating: return QStringLiteral("terminating");
    case InstanceState::Terminated: return QStringLiteral("terminated");
    case InstanceState::Error: return QStringLiteral("error");
    case InstanceState::Unknown: break;
    }
    return QStringLiteral("unknown");
}

QString instanceStateLabel(InstanceState state)
{
    switch (state) {
    case InstanceState::Booting: return ProvidersText::tr("Booting");
    case InstanceState::Running: return ProvidersText::tr("Running");
    case InstanceState::Unhealthy: return ProvidersText::tr("Unhealthy");
    case InstanceState::Restarting: return ProvidersText::tr("Restarting");
    case InstanceState::Stopping: return ProvidersText::tr("Stopping");
    case InstanceState::Stopped: return ProvidersText::tr("Stopped");
    case InstanceState::Terminating: return ProvidersText::tr("Terminating");
    case InstanceState::Terminated: return ProvidersText::tr("Terminated");
    case InstanceState::Error: return ProvidersText::tr("Error");
    case InstanceState::Unknown: break;
    }
    return ProvidersText::tr("Unknown");
}

InstanceState instanceStateFromName(const QString &name)
{
    static const InstanceState all[] = {
        InstanceState::Booting, InstanceState::Running, InstanceState::Unhealthy,
        InstanceState::Restarting, InstanceState::Stopping, InstanceState::Stopped,
        InstanceState::Terminating, InstanceState::Terminated, InstanceState::Error,
    };
    for (InstanceState state : all) {
        if (instanceStateName(state) == name)
            return state;
    }
    return InstanceState::Unknown;
}

bool isBillingCompute(InstanceState state)
{
    switch (state) {
    case InstanceState::Booting:
    case InstanceState::Running:
    case InstanceState::Unhealthy:
    case InstanceState::Restarting:
    case InstanceState::Stopping:
    case InstanceState::Terminating:
        return true;
    default:
        return false;
    }
}

bool isGone(InstanceState state)
{
    return state == InstanceState::Terminated;
}

double launchPricePerHour(const ProviderInfo &info, const InstanceType &type, int gpuCount)
{
    // A CPU-only type has no GPUs to multiply, whatever the count asked for.
    if (info.capabilities.testFlag(Capability::PerGpuPricing) && type.gpuCount > 0)
        return type.pricePerHour * std::max(1, gpuCount);
    return type.pricePerHour;
}

} // namespace gantry::providers
