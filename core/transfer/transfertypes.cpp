#include "core/transfer/transfertypes.h"

namespace gantry::transfer {

QString conflictPolicyName(ConflictPolicy policy)
{
    switch (policy) {
    case ConflictPolicy::Ask: return QStringLiteral("ask");
    case ConflictPolicy::Overwrite: return QStringLiteral("overwrite");
    case ConflictPolicy::Resume: return QStringLiteral("resume");
    case ConflictPolicy::Skip: return QStringLiteral("skip");
    case ConflictPolicy::Rename: return QStringLiteral("rename");
    }
    return QStringLiteral("ask");
}

std::optional<ConflictPolicy> conflictPolicyFromName(const QString &name)
{
    for (ConflictPolicy p : {ConflictPolicy::Ask, ConflictPolicy::Overwrite, ConflictPolicy::Resume,
                             ConflictPolicy::Skip, ConflictPolicy::Rename}) {
        if (conflictPolicyName(p) == name) return p;
    }
    return std::nullopt;
}

QString directionName(Direction direction)
{
    return direction == Direction::Upload ? QStringLiteral("upload") : QStringLiteral("download");
}

} // namespace gantry::transfer
