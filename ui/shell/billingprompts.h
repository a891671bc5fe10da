// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/cost/ledger.h"
#include "core/hosts/hoststore.h"

#include <QString>
#include <QStringList>

class QWidget;

namespace gantry::ui {

// Rented instances that bill now (running, or stopped with a disk that bills), from the ledger:
// how many and what they cost per hour together ("$3.29/h", currencies side by side).
struct BillingNow
{
    int instances = 0;
    QString perHour;
};
BillingNow billingNow(const QList<cost::LedgerEntry> &entries);

// What a saved host still bills once Gantry forgets it ("" when nothing): a cloud instance's
// $/h or stopped disk from its ledger row, a priced hand-added host's own price.
QString hostBillingText(const SavedHost &host, const cost::Ledger *ledger);

// How the user answered the Remove host question of a machine that bills.
enum class RemoveAnswer
{
    Cancel,
    Remove,    // forget the host; the machine keeps running and billing
    Terminate, // terminate the instance (the workspace forgets the host afterwards)
};
// Asks before removing `host`, which bills (`billing` from hostBillingText()); Terminate is offered
// for a cloud instance, `terminateNotes` (jobs, sync) said with it. Cancel is the default.
RemoveAnswer askRemoveBilledHost(QWidget *parent, const SavedHost &host, const QString &billing, const QStringList &terminateNotes);

// The question before quitting: `pending` (transfers) and the instances that keep billing, with a
// "Don't ask again" box shown when `billing` counts any (checked → *dontAskAgain). Cancel is the
// default; true quits.
bool askQuit(QWidget *parent, const QStringList &pending, const BillingNow &billing, bool *dontAskAgain);

} // namespace gantry::ui
