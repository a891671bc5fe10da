// SPDX-License-Identifier: Apache-2.0
#include "core/monitor/gpmreader.h"

#include "core/monitor/monitortext.h"

namespace gantry::monitor {
namespace {

std::optional<double> valueAt(const QStringList &fields, qsizetype column)
{
    if (column < 0 || column >= fields.size())
        return std::nullopt;
    bool ok = false;
    const double value = fields.at(column).toDouble(&ok);
    return ok ? std::optional<double>(value) : std::nullopt;
}

} // namespace

void GpmReader::line(const QString &text, qint64 nowMs)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return;
    if (trimmed.startsWith(QLatin1Char('#'))) {
        const QStringList names = trimmed.mid(1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (names.value(0).compare(QLatin1String("gpu"), Qt::CaseInsensitive) == 0) {
            m_columns.clear();
            for (const QString &name : names)
                m_columns << name.toLower();
        }
        return; // the units line, or a header dmon repeats
    }
    const QStringList fields = trimmed.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    bool isIndex = false;
    const int index = fields.value(0).toInt(&isIndex);
    if (!isIndex || m_columns.isEmpty() || fields.size() != m_columns.size()) {
        if (m_message.isEmpty())
            m_message = trimmed.left(200);
        return;
    }
    GpmValues values;
    values.smActivity = valueAt(fields, m_columns.indexOf(QLatin1String("smutil")));
    values.smOccupancy = valueAt(fields, m_columns.indexOf(QLatin1String("smocc")));
    values.tensorActivity = valueAt(fields, m_columns.indexOf(QLatin1String("mmaact")));
    values.dramActivity = valueAt(fields, m_columns.indexOf(QLatin1String("dram")));
    m_latest.insert(index, values);
    m_seenAt.insert(index, nowMs);
    if (values.any()) {
        ++m_valueRows;
        m_emptyRows.remove(index);
    } else {
        ++m_emptyRows[index];
    }
}

void GpmReader::ended()
{
    m_ended = true;
    m_latest.clear(); // no longer measured: shown as unknown, never as the last second's figures
}

GpmValues GpmReader::current(int gpu, qint64 nowMs) const
{
    const auto seen = m_seenAt.constFind(gpu);
    if (seen == m_seenAt.constEnd() || nowMs - *seen > kStaleMs)
        return {};
    return m_latest.value(gpu);
}

bool GpmReader::unavailable() const
{
    if (m_valueRows > 0)
        return false;
    if (m_ended)
        return true;
    for (const int empty : m_emptyRows) {
        if (empty >= kEmptyRowsBeforeUnavailable)
            return true;
    }
    return false;
}

QString GpmReader::reason() const
{
    if (!m_message.isEmpty())
        return m_message;
    return m_ended ? MonitorText::tr("nvidia-smi dmon --gpm-metrics ended without a row")
                   : MonitorText::tr("nvidia-smi dmon --gpm-metrics reports no values (\"-\") for this GPU");
}

} // namespace gantry::monitor
