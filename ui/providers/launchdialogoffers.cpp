// SPDX-License-Identifier: Apache-2.0
// LaunchDialog's way to a rented instance: a marketplace group resolved to its cheapest rentable
// offer, the workspace's launch, and a taken offer answered with the equivalent ones.
#include "ui/providers/launchdialog.h"

#include "core/providers/launchfailure.h"
#include "core/providers/launchtypes.h"
#include "core/providers/pricegroups.h"
#include "core/workspace/workspace.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QPointer>

#include <algorithm>

namespace gantry::ui {

// A marketplace group is rented as its cheapest rentable offer, chosen here from a fresh search
// (as the provider would) so the ledger gets that offer's price and a taken offer is known by id.
void LaunchDialog::submit(providers::LaunchRequest request)
{
    providers::Provider *provider = m_hub ? m_hub->provider(providerId()) : nullptr;
    if (!provider || !provider->can(providers::Capability::Marketplace) || m_type->findData(request.typeName) < 0)
        return rent(std::move(request));
    setBusy(true, tr("Finding the cheapest offer…"));
    QPointer<LaunchDialog> self(this);
    const providers::ProviderInfo info = provider->info();
    provider->listInstanceTypes([self, info, request](Result<QList<providers::InstanceType>> offers) mutable {
        if (!self)
            return;
        Result<providers::InstanceType> best = offers ? providers::resolveLaunchType(info, *offers, request)
                                                      : Result<providers::InstanceType>(offers.error());
        if (!best) {
            self->setBusy(false);
            return self->showError(best.error().message);
        }
        self->m_offers = *offers;
        request.typeName = best->name;
        self->rent(request);
    });
}

void LaunchDialog::rent(providers::LaunchRequest request)
{
    workspace::LaunchOptions options;
    options.pricePerHour = launchPrice(request);
    options.identityFile = identityFileFor(request.sshKeyName);
    const providers::Provider *provider = m_hub ? m_hub->provider(providerId()) : nullptr;
    const bool marketplace = provider && provider->can(providers::Capability::Marketplace);
    setBusy(true, tr("Launching…"));
    QPointer<LaunchDialog> self(this);
    m_workspace->launch(providerId(), request, options, [self, marketplace, request](Result<workspace::LaunchedInstance> launched) {
        if (!self)
            return;
        self->setBusy(false);
        if (!launched && marketplace && providers::classifyLaunchFailure(launched.error()) == providers::LaunchFailure::Capacity)
            return self->offerAlternatives(request.typeName, launched.error().message);
        if (!launched)
            return self->showError(launched.error().message);
        emit self->launched(*launched);
        self->accept();
    });
}

// Someone else rented the offer: search again and list the same GPU and count, cheapest first.
void LaunchDialog::offerAlternatives(const QString &takenOffer, const QString &message)
{
    providers::Provider *provider = m_hub ? m_hub->provider(providerId()) : nullptr;
    const providers::InstanceType *taken = findType(takenOffer);
    const providers::InstanceType *group = findType(m_type->currentData().toString());
    if (!provider || !(taken || group))
        return showError(message);
    const providers::InstanceType like = taken ? *taken : *group;
    if (!m_taken.contains(takenOffer))
        m_taken.append(takenOffer);
    setBusy(true, tr("Looking for equivalent offers…"));
    QPointer<LaunchDialog> self(this);
    provider->listInstanceTypes([self, like, takenOffer, message](Result<QList<providers::InstanceType>> offers) {
        if (!self)
            return;
        self->setBusy(false);
        if (offers)
            self->m_offers = *offers;
        self->showAlternatives(like, takenOffer, message);
    });
}

void LaunchDialog::showAlternatives(const providers::InstanceType &like, const QString &takenOffer, const QString &message)
{
    const QList<providers::InstanceType> same = providers::equivalentOffers(m_offers, like, m_taken);
    {
        const QSignalBlocker blocker(m_alternatives);
        m_alternatives->clear();
        for (const providers::InstanceType &offer : same) {
            QStringList parts{tr("$%1/h").arg(offer.pricePerHour, 0, 'f', 2), tr("%1× %2").arg(offer.gpuCount).arg(offer.gpuModel)};
            if (!offer.regionsWithCapacity.isEmpty()) {
                const providers::Region &region = offer.regionsWithCapacity.constFirst();
                parts.append(region.description.isEmpty() ? region.name : region.description);
            }
            if (offer.reliability >= 0)
                parts.append(tr("reliability %1%").arg(offer.reliability * 100, 0, 'f', 1));
            parts.append(tr("offer %1").arg(offer.name));
            auto *item = new QListWidgetItem(parts.join(QStringLiteral(" — ")), m_alternatives);
            item->setData(Qt::UserRole, offer.name);
            if (!offer.note.isEmpty())
                item->setToolTip(offer.note);
        }
        m_alternatives->setCurrentRow(same.isEmpty() ? -1 : 0);
        // As tall as its offers (at most five is what the search returns), no empty rows below.
        const int rows = std::max(1, int(same.size()));
        m_alternatives->setFixedHeight(rows * std::max(m_alternatives->sizeHintForRow(0), fontMetrics().height()) + 2 * m_alternatives->frameWidth() + 4);
    }
    m_form->setRowVisible(m_alternatives->parentWidget(), !same.isEmpty());
    if (same.isEmpty())
        showError(message + QLatin1Char('\n') + tr("No equivalent offer is rentable right now: pick another type, or try again later."));
    else
        m_offersNote->setText(tr("Someone else rented offer %1 before Gantry could. These are the same GPU and count, "
                                 "cheapest first: pick one and press Launch again.").arg(takenOffer));
    typeChanged();
}

QString LaunchDialog::offersNoteText() const
{
    return m_offersNote->text();
}

void LaunchDialog::clearAlternatives()
{
    const QSignalBlocker blocker(m_alternatives);
    m_alternatives->clear();
    m_offersNote->clear();
    m_form->setRowVisible(m_alternatives->parentWidget(), false);
}

} // namespace gantry::ui
