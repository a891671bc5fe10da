// SPDX-License-Identifier: Apache-2.0
#include "ui/transfer/copyrows.h"

#include "core/transfer/remoteops.h"
#include "core/util/printable.h"
#include "ui/transfer/transferqueuemodel.h"

#include <QDateTime>

namespace gantry::ui::copyrows {
namespace {

using storage::CopyJob;
using storage::CopyJobState;
using Model = TransferQueueModel;

double fraction(const CopyJob &job)
{
    if (job.state == CopyJobState::Done)
        return 1.0;
    const qint64 total = job.progress->totalBytes.load();
    if (total > 0)
        return double(std::min(job.progress->doneBytes.load(), total)) / double(total);
    const int files = job.progress->totalFiles.load(); // between machines: counted by files
    return files > 0 ? double(std::min(job.progress->doneFiles.load(), files)) / double(files) : 0.0;
}

double seconds(const CopyJob &job)
{
    return job.isRunning() ? double(job.started.msecsTo(QDateTime::currentDateTimeUtc())) / 1000.0 : job.seconds;
}

double bytesPerSecond(const CopyJob &job)
{
    const double s = seconds(job);
    return s > 0.5 ? double(job.progress->doneBytes.load()) / s : 0.0;
}

QString stateText(const CopyJob &job)
{
    if (job.state == CopyJobState::Failed)
        return TransferQueueModel::tr("Failed: %1").arg(text::printable(job.message));
    if (job.state == CopyJobState::Done && job.progress->sizeOnlyFiles.load() == 0)
        return storage::copyJobStateName(job.state) + QStringLiteral(" · ") + TransferQueueModel::tr("verified");
    if (job.isRunning() && job.isPlanned())
        return TransferQueueModel::tr("%1 of %2 files").arg(job.progress->doneFiles.load()).arg(job.progress->totalFiles.load());
    return storage::copyJobStateName(job.state);
}

// "SOURCE → DESTINATION", as the Storage panel titles its copies: the two halves in their columns.
QString titlePart(const CopyJob &job, bool destination)
{
    const QString arrow = QStringLiteral(" → ");
    const qsizetype at = job.title.indexOf(arrow);
    if (at < 0)
        return destination ? QString() : job.title;
    return destination ? job.title.mid(at + arrow.size()) : job.title.left(at);
}

QVariant display(const CopyJob &job, int column)
{
    const qint64 total = job.progress->totalBytes.load();
    switch (column) {
    case Model::NameColumn: return text::printable(titlePart(job, false));
    case Model::DirectionColumn: return TransferQueueModel::tr("Copy");
    case Model::HostColumn: return job.hosts.join(QStringLiteral(" → "));
    case Model::DestinationColumn: return text::printable(titlePart(job, true));
    case Model::ProgressColumn:
        return job.isRunning() && !job.isPlanned() ? TransferQueueModel::tr("copying…") : QStringLiteral("%1%").arg(int(fraction(job) * 100));
    case Model::SizeColumn:
        return total > 0 ? TransferQueueModel::tr("%1 of %2").arg(transfer::formatBytes(quint64(std::min(job.progress->doneBytes.load(), total))),
                                                      transfer::formatBytes(quint64(total)))
                         : QString();
    case Model::SpeedColumn:
        return bytesPerSecond(job) > 0 ? TransferQueueModel::tr("avg %1/s").arg(transfer::formatBytes(quint64(bytesPerSecond(job)))) : QString();
    case Model::EtaColumn:
        return job.isRunning() ? QString() : TransferQueueModel::tr("took %1").arg(Model::formatDuration(qint64(std::max(1.0, job.seconds + 0.5))));
    case Model::StateColumn: return stateText(job);
    default: return {};
    }
}

QVariant underlying(const CopyJob &job, int column)
{
    switch (column) {
    case Model::NameColumn: return titlePart(job, false);
    case Model::DirectionColumn: return -1;
    case Model::HostColumn: return job.hosts.join(QLatin1Char(' '));
    case Model::DestinationColumn: return titlePart(job, true);
    case Model::ProgressColumn: return fraction(job);
    case Model::SizeColumn: return qulonglong(job.progress->totalBytes.load());
    case Model::SpeedColumn: return bytesPerSecond(job);
    case Model::EtaColumn: return qint64(-1);
    case Model::StateColumn: return 100 + int(job.state);
    default: return {};
    }
}

} // namespace

QVariant data(const CopyJob &job, int column, int role)
{
    switch (role) {
    case Qt::DisplayRole: return display(job, column);
    case Model::UnderlyingDataRole: return underlying(job, column);
    case Model::ItemIdRole: return QVariant::fromValue(Model::kCopyRowBit | job.id);
    case Qt::ToolTipRole: {
        QStringList lines{text::printable(job.title)};
        if (!job.message.isEmpty())
            lines << text::printableLines(job.message);
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::TextAlignmentRole:
        if (column == Model::SizeColumn || column == Model::SpeedColumn || column == Model::EtaColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default: return {};
    }
}

} // namespace gantry::ui::copyrows
