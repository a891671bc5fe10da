#include "core/providers/costmodel.h"
#include "core/providers/providerstext.h"

#include "core/providers/providerdescriptor.h"

#include <QCoreApplication>

#include <algorithm>

namespace gantry::providers {

CostModel costModelFor(const QString &providerId)
{
    const ProviderDescriptor *d = providerDescriptor(providerId);
    if (!d)
        return {};
    CostModel model = d->cost;
    if (!model.storageNote.isEmpty())
        model.storageNote = ProvidersText::tr(d->cost.storageNote.toUtf8().constData());
    return model;
}

double storageCostPerDay(const CostModel &model, int volumeGb, bool stopped)
{
    const double perGbMonth = stopped ? model.storagePerGbMonthStopped : model.storagePerGbMonthRunning;
    return perGbMonth * std::max(0, volumeGb) * 12.0 / 365.0;
}

} // namespace gantry::providers
