// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "core/providers/costmodel.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>

class QObject;

namespace gantry::providers {

class Provider;
struct ProviderSettings;
struct RestConfig;

// What a provider's volumes API offers, from its OpenAPI document (../shared/reference/providers).
struct VolumeTerms
{
    bool api = false;                 // the document has a volumes API at all
    bool sizeAtCreate = true;         // false: the volume grows with use and bills what it holds (Lambda)
    bool nameAtCreate = true;         // false: the provider names it (Vast: "V.<id>")
    bool deleteRefusedWhileAttached = false; // the provider refuses to delete a volume in use
    int minGb = 1;
    int maxGb = 0;                    // 0: no documented bound
    double perGbMonth = 0;            // list price where the API reports none (USD)
    const char *mountPoint = "";      // where an attached volume appears on the instance
};

// What Gantry knows of one provider, in one table (providerDescriptors()): the registry, the cost
// model, the capacity watch and the front ends read it instead of branching on ids, so a provider
// is added in one place.
struct ProviderDescriptor
{
    QString id;                      // "lambda", stable: settings keys, ledger rows, --provider
    const char *displayName;         // untranslated (context "gantry::providers"): providerDisplayName()
    bool local = false;              // the sandbox: no account, no API key, no endpoint
    QString defaultEndpoint;         // the vendor's API root ("" when local)
    int capacityPollMs = 15000;      // how often a capacity watch lists: far below the vendor's rate limit
    VolumeTerms volumes;
    CostModel cost;                  // storageNote and stop terms untranslated, as displayName; costModelFor() translates
    // Makes the provider: a cloud from its REST configuration (endpoint and key resolved), the
    // sandbox from the settings alone.
    std::function<std::unique_ptr<Provider>(const ProviderSettings &settings, const RestConfig &config, QObject *parent)> create;
};

// Every provider, clouds first in the order Gantry offers them, the local sandbox last.
const QList<ProviderDescriptor> &providerDescriptors();
// nullptr for an unknown id.
const ProviderDescriptor *providerDescriptor(const QString &id);

} // namespace gantry::providers
