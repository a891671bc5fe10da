// SPDX-License-Identifier: Apache-2.0
#pragma once

// Remote listings read as they arrive (find's NUL-separated records): a listing costs the memory
// of the entries kept from it, never its raw bytes again, and the first limit it passes stops it
// with an error that names the option that raises that limit.

#include "core/ssh/session.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <optional>

namespace gantry::transfer {

// Client memory one listing a host sends may take once parsed, unless the user raised the output
// limit above it (--max-output-mib): with what the process holds besides, any one listing stays
// within the 256 MiB budget for remote input.
constexpr qint64 kListingMemoryBudget = qint64(160) << 20;

// Splits a NUL-separated stream into records, keeping only the unfinished one. A record longer
// than maxRecordBytes (a path no file system here can hold) stops it.
class NulRecords
{
public:
    explicit NulRecords(qsizetype maxRecordBytes);
    // onRecord gets each complete record (its bytes live only for the call: copy what is kept, e.g.
    // with mid() or fromUtf8()); it returns false to stop. False once stopped or overlong.
    bool feed(const QByteArray &data, const std::function<bool(const QByteArray &)> &onRecord);
    bool overlong() const { return m_overlong; }
    // Bytes of the record still unfinished (a listing that ends there was cut off).
    qsizetype pending() const { return m_partial.size(); }

private:
    // The first record may be longer: a login shell's greeting comes before it.
    static constexpr qsizetype kStartupNoiseBytes = 1 << 20;
    qsizetype limit() const;
    bool refuse();

    QByteArray m_partial;
    qsizetype m_max;
    qint64 m_records = 0;
    bool m_overlong = false;
    bool m_stopped = false;
};

// The longest record a listing may send: a path of PATH_MAX bytes and its fields.
qsizetype maxListingRecordBytes();

// Counts a listing's entries and the memory they take while they arrive.
class ListingMeter
{
public:
    ListingMeter(const ssh::OutputLimits &limits, QString host, QString folder);
    // One more entry, costing `memoryBytes` here. False once a limit was passed: error() says which.
    bool add(qint64 memoryBytes);
    // A record longer than any path: the listing is refused.
    void refuseOverlong();
    const std::optional<Error> &error() const { return m_error; }
    qint64 entries() const { return m_entries; }
    qint64 memoryLimit() const { return m_memoryLimit; }

private:
    qint64 m_maxEntries;
    qint64 m_memoryLimit;
    qint64 m_entries = 0;
    qint64 m_memory = 0;
    QString m_host;
    QString m_folder;
    std::optional<Error> m_error;
};

// What one kept name costs here: its UTF-16 characters, the string's header and the slots that
// hold it (a list, a hash node).
inline qint64 keptNameCost(qsizetype utf8Bytes) { return 2 * qint64(utf8Bytes) + 96; }

// Runs `command` (or reads `channel`, where one was opened for it) and hands its stdout to
// onRecord a record at a time, stopping it once onRecord, `meter` or the record length refuses
// more. The error is the meter's when it stopped the listing; `err` collects stderr (64 KiB).
// Once `cancel` is set the listing stops at once (a login shell still starting is not waited for).
Result<int> execListing(ssh::Session &session, ssh::Channel *channel, const QString &command, int timeoutMs,
                        ListingMeter &meter, const std::function<bool(const QByteArray &)> &onRecord, QByteArray *err,
                        const std::atomic_bool *cancel = nullptr);

} // namespace gantry::transfer
