#include "cost/storagewarnings.h"

#include <QCoreApplication>

namespace gantry::cost {
namespace {
// A class rather than a free helper function: lupdate extracts only translations it can give a context.
class CostText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::cost)
};
} // namespace

QStringList storageWarnings(const QList<LedgerEntry> &entries)
{
    QStringList warnings;
    for (const LedgerEntry &entry : entries) {
        if (!entry.isOpen() || entry.state != QLatin1String("stopped"))
            continue;
        const QString label = entry.name.isEmpty() ? entry.instanceId : entry.name;
        if (entry.volumeGb > 0)
            warnings.append(CostText::tr("%1 (%2) is stopped, but its %3 GB volume disk still bills storage until you "
                                         "terminate it.").arg(label, entry.provider).arg(entry.volumeGb));
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
