// SPDX-License-Identifier: Apache-2.0
#include "core/transfer/listingstream.h"
#include "core/transfer/transfertext.h"

#include "core/transfer/remoteops.h"

#include <atomic>
#include <climits>

namespace gantry::transfer {

NulRecords::NulRecords(qsizetype maxRecordBytes) : m_max(maxRecordBytes) {}

bool NulRecords::feed(const QByteArray &data, const std::function<bool(const QByteArray &)> &onRecord)
{
    if (m_overlong || m_stopped)
        return false;
    qsizetype start = 0;
    for (qsizetype nul; (nul = data.indexOf('\0', start)) >= 0; start = nul + 1) {
        if (m_partial.size() + (nul - start) > limit())
            return refuse();
        bool go = true;
        if (m_partial.isEmpty()) {
            go = onRecord(QByteArray::fromRawData(data.constData() + start, nul - start));
        } else {
            m_partial.append(data.constData() + start, nul - start);
            go = onRecord(m_partial);
            m_partial.clear();
        }
        ++m_records;
        if (!go) {
            m_stopped = true;
            return false;
        }
    }
    if (m_partial.size() + (data.size() - start) > limit())
        return refuse();
    m_partial.append(data.constData() + start, data.size() - start);
    return true;
}

qsizetype NulRecords::limit() const
{
    // Before the first separator: what the login shell's start-up files printed.
    return m_records == 0 ? std::max<qsizetype>(m_max, kStartupNoiseBytes) : m_max;
}

bool NulRecords::refuse()
{
    m_overlong = true;
    m_partial.clear();
    return false;
}

qsizetype maxListingRecordBytes()
{
    return PATH_MAX + 256; // type, size, time and mode fields before the path
}

ListingMeter::ListingMeter(const ssh::OutputLimits &limits, QString host, QString folder)
    : m_maxEntries(limits.maxListEntries),
      m_memoryLimit(limits.maxOutputBytes <= 0 ? 0 : std::max(kListingMemoryBudget, limits.maxOutputBytes)),
      m_host(std::move(host)),
      m_folder(std::move(folder))
{
}

bool ListingMeter::add(qint64 memoryBytes)
{
    if (m_error)
        return false;
    ++m_entries;
    m_memory += memoryBytes;
    if (m_maxEntries > 0 && m_entries > m_maxEntries) {
        m_error = Error{ErrorCode::RemoteFailed, TransferText::tr("%1 listed more than %2 entries in %3; the listing was stopped. "
                                                                  "If the folder really holds that many, raise the limit "
                                                                  "(gantry-cli: --max-entries).")
                                                     .arg(m_host).arg(m_maxEntries).arg(m_folder)};
    } else if (m_memoryLimit > 0 && m_memory > m_memoryLimit) {
        m_error = Error{ErrorCode::RemoteFailed, TransferText::tr("%1 listed more names in %3 than %2 MiB of memory hold (%4 entries so "
                                                                  "far); the listing was stopped. If the folder really holds that "
                                                                  "many, raise the limit (gantry-cli: --max-output-mib).")
                                                     .arg(m_host).arg(m_memoryLimit >> 20).arg(m_folder).arg(m_entries)};
    }
    return !m_error;
}

void ListingMeter::refuseOverlong()
{
    if (!m_error) {
        m_error = Error{ErrorCode::RemoteFailed, TransferText::tr("%1 listed a path longer than any path here (%2 bytes) in %3; the "
                                                                  "listing was stopped.")
                                                     .arg(m_host).arg(PATH_MAX).arg(m_folder)};
    }
}

Result<int> execListing(ssh::Session &session, ssh::Channel *channel, const QString &command, int timeoutMs,
                        ListingMeter &meter, const std::function<bool(const QByteArray &)> &onRecord, QByteArray *err,
                        const std::atomic_bool *cancel)
{
    NulRecords records(maxListingRecordBytes());
    std::atomic_bool stop = false;
    ssh::Session::ExecOptions options;
    options.onStdout = [&](const QByteArray &data) {
        if (!stop && !records.feed(data, onRecord)) {
            if (records.overlong())
                meter.refuseOverlong();
            stop = true;
        }
    };
    options.onStderr = [err](const QByteArray &data) {
        if (err->size() < 64 * 1024)
            *err += data;
    };
    options.cancel = &stop;
    options.abandon = cancel;
    options.timeoutMs = timeoutMs;
    options.maxOutputBytes = checksumListingLimit(session.limits());
    auto status = channel ? session.execOn(*channel, options) : session.exec(command, options);
    if (meter.error())
        return *meter.error();
    return status;
}

} // namespace gantry::transfer
