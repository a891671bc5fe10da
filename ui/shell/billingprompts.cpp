// SPDX-License-Identifier: Apache-2.0
#include "ui/shell/billingprompts.h"

#include "core/cost/hostbilling.h"
#include "core/cost/money.h"
#include "core/providers/providerregistry.h"
#include "ui/common/confirm.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QMessageBox>
#include <QPushButton>

namespace gantry::ui {
namespace {

// One context for these prompts, as a QObject-less file.
class BillingText
{
    Q_DECLARE_TR_FUNCTIONS(gantry::ui::BillingPrompts)
};

bool billsNow(const cost::LedgerEntry &entry)
{
    return entry.isOpen() && ((entry.isRunning() && entry.pricePerHour > 0) || entry.isBillingStorage());
}

} // namespace

BillingNow billingNow(const QList<cost::LedgerEntry> &entries)
{
    QList<cost::LedgerEntry> billing;
    for (const cost::LedgerEntry &entry : entries) {
        // A hand-added host bills wherever it is rented, whether Gantry runs or not: not an instance.
        if (entry.provider != cost::hostProvider() && billsNow(entry))
            billing << entry;
    }
    return BillingNow{int(billing.size()), cost::moneyTotalsText(cost::ratesByCurrency(billing, cost::CostPart::All), QStringLiteral("/h"))};
}

QString hostBillingText(const SavedHost &host, const cost::Ledger *ledger)
{
    if (!host.provider.isEmpty() && !host.instanceId.isEmpty()) {
        const Result<cost::LedgerEntry> entry = ledger ? ledger->entry(host.provider, host.instanceId)
                                                        : Result<cost::LedgerEntry>(Error{ErrorCode::NotFound, {}});
        const QString where = providers::providerDisplayName(host.provider);
        if (!entry) // not in the ledger: Gantry cannot say what it costs, only that it bills
            return BillingText::tr("It is an instance on %1, which bills until it is terminated.").arg(where);
        if (!entry->isOpen())
            return {}; // terminated: nothing left to bill
        if (entry->isBillingStorage())
            return BillingText::tr("It is a stopped instance on %1 whose disk keeps billing %2/h after you remove it here.")
                .arg(where, cost::moneyText(entry->storagePerHour, entry->storageCurrency));
        if (!billsNow(*entry))
            return {};
        return BillingText::tr("It is a running instance on %1 that keeps billing %2/h after you remove it here.")
            .arg(where, cost::moneyText(entry->pricePerHour, entry->currency));
    }
    if (host.hourlyPrice() > 0)
        return BillingText::tr("Gantry stops counting its %1/h; the machine keeps billing wherever you rent it.")
            .arg(cost::moneyText(host.hourlyPrice(), host.currency()));
    return {};
}

RemoveAnswer askRemoveBilledHost(QWidget *parent, const SavedHost &host, const QString &billing, const QStringList &terminateNotes)
{
    const bool instance = !host.provider.isEmpty() && !host.instanceId.isEmpty();
    QString text = BillingText::tr("Remove %1 from Gantry?").arg(host.name) + QStringLiteral("\n\n") + billing;
    if (instance)
        text += QStringLiteral("\n\n") + BillingText::tr("Removing the host only forgets how to log in. To stop the bill, terminate the instance.");
    QMessageBox box(QMessageBox::Warning, BillingText::tr("Remove host"), text, QMessageBox::NoButton, parent);
    if (instance && !terminateNotes.isEmpty())
        box.setInformativeText(terminateNotes.join(QLatin1Char('\n')));
    QPushButton *terminate = instance ? box.addButton(BillingText::tr("Terminate instance"), QMessageBox::DestructiveRole) : nullptr;
    QPushButton *remove = box.addButton(BillingText::tr("Remove, keep billing"), QMessageBox::AcceptRole);
    makeCancelDefault(box);
    box.exec();
    if (terminate && box.clickedButton() == terminate)
        return RemoveAnswer::Terminate;
    return box.clickedButton() == remove ? RemoveAnswer::Remove : RemoveAnswer::Cancel;
}

bool askQuit(QWidget *parent, const QStringList &pending, const BillingNow &billing, bool *dontAskAgain)
{
    QStringList lines = pending;
    if (billing.instances > 0)
        lines << BillingText::tr("Instances still billing after Gantry quits: %1, %2 together. Quitting does not stop them; "
                                 "stop or terminate them in Instances when you no longer need them.")
                     .arg(billing.instances).arg(billing.perHour);
    QMessageBox box(QMessageBox::Question, BillingText::tr("Quit Gantry?"), lines.join(QStringLiteral("\n\n")),
                    QMessageBox::Yes | QMessageBox::Cancel, parent);
    box.button(QMessageBox::Yes)->setText(BillingText::tr("Quit"));
    box.setDefaultButton(QMessageBox::Cancel);
    box.setEscapeButton(QMessageBox::Cancel);
    if (billing.instances > 0)
        box.setCheckBox(new QCheckBox(BillingText::tr("Don't ask again about instances that keep billing"), &box));
    const bool quit = box.exec() == QMessageBox::Yes;
    if (dontAskAgain)
        *dontAskAgain = box.checkBox() && box.checkBox()->isChecked();
    return quit;
}

} // namespace gantry::ui
