#include "core/cost/storagewarnings.h"

#include "core/cost/hostbilling.h"
#include "core/providers/costmodel.h"

#include <QCoreApplication>

namespace gantry::cost {
namespace {
// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CostText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::cost)
};
} // namespace

QStringList storageWarnings(const QList<LedgerEntry> &entries, const QDateTime &now, int remindAfterDays)
{
    QStringList warnings;
    for (const LedgerEntry &entry : entries) {
        // A saved host's paused billing has no disk Gantry knows a price for.
        if (!entry.isOpen() || entry.state != QLatin1String("stopped") || entry.provider == hostProvider())
            continue;
        const QString label = entry.name.isEmpty() ? entry.instanceId : entry.name;
        const qint64 days = now.isValid() && entry.stoppedAt.isValid() ? entry.stoppedAt.secsTo(now) / 86400 : -1;
        if (days >= remindAfterDays && remindAfterDays >= 0) {
            const double perDay = providers::storageCostPerDay(providers::costModelFor(entry.provider), entry.volumeGb, true);
            const QString spent = perDay > 0 ? CostText::tr(" — about $%1 so far, $%2 a day").arg(perDay * double(days), 0, 'f', 2)
                                                   .arg(perDay, 0, 'f', 2)
                                             : QString();
            const QString since = days == 1 ? CostText::tr("a day") : CostText::tr("%1 days").arg(days);
            warnings.append(CostText::tr("Reminder: %1 (%2) has been stopped for %3 and its disk keeps billing%4. "
                                         "Terminate it if you no longer need its data.")
                                .arg(label, entry.provider, since, spent));
            continue;
        }
        // What stays is the provider's to say (its descriptor): a RunPod volume disk, a Vast instance's whole disk.
        const providers::StopTerms terms = providers::costModelFor(entry.provider).stop;
        if (entry.volumeGb > 0 && !terms.kept.isEmpty())
            warnings.append(CostText::tr("%1 (%2) is stopped, but %3 still bills storage until you terminate it.")
                                .arg(label, entry.provider, terms.kept.arg(entry.volumeGb)));
        else
            warnings.append(CostText::tr("%1 (%2) is stopped, but its disk still bills storage until you terminate it.")
                                .arg(label, entry.provider));
    }
    return warnings;
}

QStringList storageWarnings(const QString &providerName, const QList<providers::Filesystem> &filesystems)
{
    QStringList warnings;
    for (const providers::Filesystem &fs : filesystems) {
        const QString size = fs.sizeGb > 0 ? CostText::tr("%1 GB").arg(fs.sizeGb)
            : fs.bytesUsed >= 0            ? CostText::tr("%1 GB used").arg(double(fs.bytesUsed) / 1e9, 0, 'f', 1)
                                           : CostText::tr("its data");
        warnings.append(CostText::tr("Volume %1 on %2 (%3) bills storage whether or not an instance uses it.")
                            .arg(fs.name, providerName, size));
    }
    return warnings;
}

} // namespace gantry::cost
