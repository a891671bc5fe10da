#pragma once

#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"

#include <optional>

namespace gantry::cost {

// A saved SSH host with an hourly price (an AutoDL or 九天·毕昇 box billed in ¥, any machine with a
// $/h) in the ledger. Gantry cannot see when such a machine is powered on, so the user says so:
// billing starts when the host is added with a price (or with `hosts billing NAME on`), pauses
// with `off` (the machine was shut down in the vendor's console), and ends when the host is
// removed. Each row keeps the host's price and currency; a price change closes the row and, if
// it was billing, opens one at the new price, so past hours keep what they cost.
//
// Ledger rows: provider "host", name = the host's name, instance id = the name for the first
// row and "NAME#2", "NAME#3" … for later ones (a host removed and added again, a new price).
QString hostProvider();
// Hand-added hosts with a price; a cloud instance's host is billed through its provider's row.
bool isBillableHost(const SavedHost &host);
// The open ledger row of a host (running or paused), if any.
Result<std::optional<LedgerEntry>> hostBilling(const Ledger &ledger, const QString &hostName);
// Starts (or resumes) billing at the host's price now; nothing when it is billing at that price.
Result<void> startHostBilling(Ledger &ledger, const SavedHost &host);
// Resumes a paused row at the price it was billed at (the Cost panel, which has no saved hosts);
// NotFound when the host has no open row (then startHostBilling with the host).
Result<void> resumeHostBilling(Ledger &ledger, const QString &hostName);
// Pauses billing; nothing when it is not billing.
Result<void> stopHostBilling(Ledger &ledger, const QString &hostName);
// Closes the host's row for good (the host was removed); `note` goes on the row.
Result<void> endHostBilling(Ledger &ledger, const QString &hostName, const QString &note);
// Brings the host rows in line with the saved hosts: a row whose host is gone is closed, a row
// whose price or currency changed is closed and, if it was billing, reopened at the new price.
Result<void> reconcileHostBilling(Ledger &ledger, const QList<SavedHost> &hosts);

} // namespace gantry::cost
