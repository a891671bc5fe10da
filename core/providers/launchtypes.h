#pragma once

#include "core/providers/providertypes.h"

namespace gantry::providers {

// The type a launch names: its exact id, or on a marketplace (Vast) "GPUxN" such as "H100x1" or
// "H100 SXMx2", the cheapest offer rentable now with that model and count (in request.region when
// given). The error names the provider's listing command, or says that there is no capacity.
Result<InstanceType> resolveLaunchType(const ProviderInfo &info, const QList<InstanceType> &types,
                                       const LaunchRequest &request);
// "H100x2" → ("H100", 2); false for anything that is not a known GPU model with a count.
bool parseGpuSpec(const QString &text, QString *gpu, int *count);

} // namespace gantry::providers
