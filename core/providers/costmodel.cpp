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
    for (QString *wording : {&model.stop.lost, &model.stop.kept, &model.stop.keptUnsized}) {
        if (!wording->isEmpty())
            *wording = ProvidersText::tr(wording->toUtf8().constData());
    }
    return model;
}

double stoppedStorageCostPerDay(const CostModel &model, int volumeGb, double ownPerGbMonth)
{
    if (ownPerGbMonth > 0 && model.storagePerGbMonthStopped > 0)
        return ownPerGbMonth * std::max(0, volumeGb) * 12.0 / 365.0;
    return storageCostPerDay(model, volumeGb, true);
}

double storageCostPerDay(const CostModel &model, int volumeGb, bool stopped)
{
    const double perGbMonth = stopped ? model.storagePerGbMonthStopped : model.storagePerGbMonthRunning;
    return perGbMonth * std::max(0, volumeGb) * 12.0 / 365.0;
}

} // namespace gantry::providers
