#include "core/providers/costmodel.h"

#include <QCoreApplication>

#include <algorithm>

namespace gantry::providers {
namespace {
class CostModelText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::providers)
};
} // namespace

CostModel costModelFor(const QString &providerId)
{
    CostModel model;
    if (providerId == QLatin1String("lambda")) {
        // The instance disk is in the hourly price; filesystems are separate ($0.20/GB-month).
        model.storageNote = CostModelText::tr("The local disk is included; filesystems bill about $0.20 per GB-month.");
    } else if (providerId == QLatin1String("runpod")) {
        model.storagePerGbMonthRunning = 0.10;
        model.storagePerGbMonthStopped = 0.20;
        model.interruptible = true;
        model.billingIncrementSeconds = 1;
        model.storageNote = CostModelText::tr("Volume disk $0.10 per GB-month running, $0.20 stopped.");
    } else if (providerId == QLatin1String("vast")) {
        model.storagePerGbMonthRunning = 0.15;
        model.storagePerGbMonthStopped = 0.15;
        model.interruptible = true;
        model.billingIncrementSeconds = 1;
        model.storageNote = CostModelText::tr("Disk billed per offer (typically $0.15 per GB-month) running and stopped.");
    } else if (providerId == QLatin1String("shadeform")) {
        model.interruptible = true;
        model.billingIncrementSeconds = 1;
        model.storageNote = CostModelText::tr("The disk is included; there is no stopped state.");
    }
    return model;
}

double storageCostPerDay(const CostModel &model, int volumeGb, bool stopped)
{
    const double perGbMonth = stopped ? model.storagePerGbMonthStopped : model.storagePerGbMonthRunning;
    return perGbMonth * std::max(0, volumeGb) * 12.0 / 365.0;
}

} // namespace gantry::providers
