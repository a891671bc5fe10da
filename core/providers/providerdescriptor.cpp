// SPDX-License-Identifier: Apache-2.0
#include "core/providers/providerdescriptor.h"

#include "core/providers/lambdaprovider.h"
#include "core/providers/providerregistry.h"
#include "core/providers/runpodprovider.h"
#include "core/providers/sandboxprovider.h"
#include "core/providers/shadeformprovider.h"
#include "core/providers/vastprovider.h"

#include <QtGlobal>

namespace gantry::providers {
namespace {

template<typename P>
ProviderDescriptor cloud(const char *id, const char *name, QString endpoint, int capacityPollMs, CostModel cost)
{
    ProviderDescriptor d;
    d.id = QString::fromLatin1(id);
    d.displayName = name;
    d.defaultEndpoint = std::move(endpoint);
    d.capacityPollMs = capacityPollMs;
    d.cost = std::move(cost);
    d.create = [](const ProviderSettings &, const RestConfig &config, QObject *parent) -> std::unique_ptr<Provider> {
        return std::make_unique<P>(config, parent);
    };
    return d;
}

CostModel costModel(double running, double stopped, bool interruptible, int incrementSeconds, const char *note)
{
    CostModel model;
    model.storagePerGbMonthRunning = running;
    model.storagePerGbMonthStopped = stopped;
    model.interruptible = interruptible;
    model.billingIncrementSeconds = incrementSeconds;
    model.storageNote = QString::fromUtf8(note);
    return model;
}

StopTerms stopTerms(const char *lost, const char *kept, const char *keptUnsized, bool mayNotRestart)
{
    return StopTerms{QString::fromUtf8(lost), QString::fromUtf8(kept), QString::fromUtf8(keptUnsized), mayNotRestart};
}

VolumeTerms volumeTerms(bool sized, bool named, bool refusedWhileAttached, int minGb, int maxGb, double perGbMonth,
                        const char *mountPoint)
{
    return VolumeTerms{true, sized, named, refusedWhileAttached, minGb, maxGb, perGbMonth, mountPoint};
}

// Volumes per provider, from the vendors' documents: Lambda filesystems have no size and cannot be
// deleted while mounted (filesystems/filesystem-in-use); RunPod network volumes are 10..4096 GB
// ($0.07/GB-month under 1 TB, pods/pricing.mdx); Shadeform and Vast report their own prices.
void addVolumeTerms(QList<ProviderDescriptor> &all)
{
    for (ProviderDescriptor &d : all) {
        if (d.id == QLatin1String("lambda"))
            d.volumes = volumeTerms(false, true, true, 0, 0, 0.20, "/lambda/nfs/<name>");
        else if (d.id == QLatin1String("runpod"))
            d.volumes = volumeTerms(true, true, false, 10, 4096, 0.07, "/workspace");
        else if (d.id == QLatin1String("shadeform"))
            d.volumes = volumeTerms(true, true, false, 1, 0, 0, "");
        else if (d.id == QLatin1String("vast"))
            d.volumes = volumeTerms(true, false, false, 1, 0, 0, "/workspace");
    }
}

QList<ProviderDescriptor> makeDescriptors()
{
    QList<ProviderDescriptor> all;
    // Lambda: the instance disk is in the hourly price; filesystems are separate ($0.20/GB-month).
    all << cloud<LambdaProvider>("lambda", QT_TRANSLATE_NOOP("gantry::providers", "Lambda Cloud"), LambdaProvider::defaultEndpoint(),
                                 15000, costModel(0, 0, false, 60, QT_TRANSLATE_NOOP("gantry::providers",
                                     "The local disk is included; filesystems bill about $0.20 per GB-month.")));
    CostModel runpod = costModel(0.10, 0.20, true, 1, QT_TRANSLATE_NOOP("gantry::providers",
                                                                       "Volume disk $0.10 per GB-month running, $0.20 stopped."));
    // A pod's container disk is wiped by a stop; only its volume disk stays.
    runpod.stop = stopTerms(QT_TRANSLATE_NOOP("gantry::providers", "the container disk (everything outside the volume)"),
                            QT_TRANSLATE_NOOP("gantry::providers", "the %1 GB volume disk"),
                            QT_TRANSLATE_NOOP("gantry::providers", "the volume disk"), true);
    all << cloud<RunPodProvider>("runpod", QT_TRANSLATE_NOOP("gantry::providers", "RunPod"), RunPodProvider::defaultEndpoint(), 15000,
                                 std::move(runpod));
    // Vast prices disks per offer: its figure is a typical rate, and an offer's own storage_cost wins.
    // A Vast instance has one disk and no volume: a stop keeps all of it, and it keeps billing.
    CostModel vast = costModel(0.15, 0.15, true, 1, QT_TRANSLATE_NOOP("gantry::providers",
                                                              "Disk billed per offer (typically $0.15 per GB-month) running and stopped."));
    vast.stop = stopTerms("", QT_TRANSLATE_NOOP("gantry::providers", "the instance's whole %1 GB disk (nothing is lost)"),
                          QT_TRANSLATE_NOOP("gantry::providers", "the instance's whole disk (nothing is lost)"), true);
    all << cloud<VastProvider>("vast", QT_TRANSLATE_NOOP("gantry::providers", "Vast.ai"), VastProvider::defaultEndpoint(), 10000,
                               std::move(vast));
    all << cloud<ShadeformProvider>("shadeform", QT_TRANSLATE_NOOP("gantry::providers", "Shadeform"), ShadeformProvider::defaultEndpoint(),
                                    15000, costModel(0, 0, true, 1, QT_TRANSLATE_NOOP("gantry::providers",
                                        "The disk is included; there is no stopped state.")));
    ProviderDescriptor sandbox;
    sandbox.id = QStringLiteral("sandbox");
    sandbox.displayName = QT_TRANSLATE_NOOP("gantry::providers", "Local sandbox");
    sandbox.local = true;
    sandbox.capacityPollMs = 2000;
    sandbox.create = [](const ProviderSettings &settings, const RestConfig &, QObject *parent) -> std::unique_ptr<Provider> {
        SandboxOptions options = settings.sandbox;
        bool ok = false;
        const int bootMs = qEnvironmentVariableIntValue("GANTRY_SANDBOX_BOOT_MS", &ok);
        if (ok && bootMs >= 0)
            options.bootDelayMs = bootMs;
        return std::make_unique<SandboxProvider>(settings.configDir, options, parent);
    };
    all << sandbox;
    addVolumeTerms(all);
    return all;
}

} // namespace

const QList<ProviderDescriptor> &providerDescriptors()
{
    static const QList<ProviderDescriptor> all = makeDescriptors();
    return all;
}

const ProviderDescriptor *providerDescriptor(const QString &id)
{
    for (const ProviderDescriptor &d : providerDescriptors()) {
        if (d.id == id)
            return &d;
    }
    return nullptr;
}

} // namespace gantry::providers
