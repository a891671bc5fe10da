#include "cost/storagewarnings.h"

#include <QCoreApplication>

namespace gantry::cost {
namespace {
QString trCost(const char *text)
{
    return QCoreApplication::translate("gantry::cost", text);
}
} // namespace

QStringList storageWarnings(const QList<LedgerEntry> &entries)
{
    QStringList warnings;
    for (const LedgerEntry &entry : entries) {
        if (!entry.isOpen() || entry.state != QLatin1String("stopped"))
            continue;
        const QString label = entry.name.isEmpty() ? entry.instanceId : entry.name;
        if (entry.volumeGb > 0)
            warnings.append(trCost("%1 (%2) is stopped, but its %3 GB volume disk still bills storage until you "
                                   "terminate it.").arg(label, entry.provider).arg(entry.volumeGb));
        else
            warnings.append(trCost("%1 (%2) is stopped, but its disk still bills storage until you terminate it.")
                                .arg(label, entry.provider));
    }
    return warnings;
}

QStringList storageWarnings(const QString &providerName, const QList<providers::Filesystem> &filesystems)
{
    QStringList warnings;
    for (const providers::Filesystem &fs : filesystems) {
        const QString size = fs.sizeGb > 0 ? trCost("%1 GB").arg(fs.sizeGb)
            : fs.bytesUsed >= 0            ? trCost("%1 GB used").arg(double(fs.bytesUsed) / 1e9, 0, 'f', 1)
                                           : trCost("its data");
        warnings.append(trCost("Volume %1 on %2 (%3) bills storage whether or not an instance uses it.")
                            .arg(fs.name, providerName, size));
    }
    return warnings;
}

} // namespace gantry::cost
