// SPDX-License-Identifier: Apache-2.0
// A host's find listing read as it arrives (transfer::NulRecords, sync::parseListing): no crash,
// and the same records whatever sizes the reads come in. The first byte picks the read size.
#include "fuzzinput.h"
#include "core/sync/remotetree.h"
#include "core/transfer/listingstream.h"

#include <QList>

#include <cstdlib>

namespace {

QList<QByteArray> recordsOf(const QByteArray &input, qsizetype readSize, bool *overlong)
{
    gantry::transfer::NulRecords records(256);
    QList<QByteArray> seen;
    for (qsizetype at = 0; at < input.size(); at += readSize) {
        if (!records.feed(input.mid(at, readSize), [&seen](const QByteArray &r) {
                seen.append(QByteArray(r.constData(), r.size()));
                return true;
            }))
            break;
    }
    *overlong = records.overlong();
    return seen;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const qsizetype readSize = 1 + data[0] % 64;
    const QByteArray input = gantry::fuzz::bytes(data + 1, size - 1);
    bool overlongWhole = false, overlongChunked = false;
    const QList<QByteArray> whole = recordsOf(input, input.size() + 1, &overlongWhole);
    const QList<QByteArray> chunked = recordsOf(input, readSize, &overlongChunked);
    if (overlongWhole != overlongChunked || (!overlongWhole && whole != chunked))
        std::abort();
    (void)gantry::sync::parseListing(input, QStringLiteral("host"), QStringLiteral("/dir"));
    return 0;
}
