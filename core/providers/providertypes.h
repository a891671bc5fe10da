#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <functional>

#include "core/providers/costmodel.h"
#include "core/util/result.h"

namespace gantry::providers {

template<typename T>
using Callback = std::function<void(Result<T>)>;

enum class Capability
{
    None = 0,
    StopStart = 1 << 0,           // compute billing pauses while stopped
    Restart = 1 << 1,
    Filesystems = 1 << 2,         // persistent volumes that outlive instances
    Images = 1 << 3,
    GenerateSshKey = 1 << 4,      // the provider can generate a key pair for us
    StorageBillsWhileStopped = 1 << 5,
    RegionsPerType = 1 << 6,      // capacity is reported per region
    PerGpuPricing = 1 << 7,       // a type's price is per GPU; the launch picks how many (RunPod)
    LaunchVolume = 1 << 8,        // the launch sizes the instance's own persistent volume disk
    ImagesByFamily = 1 << 9,      // an image is launched by its family name, not its id
    Marketplace = 1 << 10,        // types are single offers (machines) grouped by GPU model for display
    Local = 1 << 11,              // instances run on this computer: nothing is billed, capacity never runs out
};
Q_DECLARE_FLAGS(Capabilities, Capability)
Q_DECLARE_OPERATORS_FOR_FLAGS(Capabilities)

// How a machine can stop itself with credentials scoped to that machine alone (the on-instance
// idle guard, core/guard): never the user's account key.
enum class SelfStop
{
    None,             // no such path (Lambda, Shadeform): only the laptop's watcher can stop it
    RunPodPodKey,     // the pod's own RUNPOD_API_KEY + RUNPOD_POD_ID, scoped to that pod
    VastContainerKey, // CONTAINER_API_KEY + CONTAINER_ID: can start, stop or destroy only that instance
    Shutdown,         // powering off stops the billing
};

struct ProviderInfo
{
    QString id;            // "lambda", "runpod", "sandbox"
    QString displayName;   // "Lambda Cloud"
    Capabilities capabilities;
    int billingGranularitySeconds = 60;  // compute time is billed in started increments of this
    QString sshUser;       // default login user on instances ("ubuntu", "root", local user)
    QString billingNote;   // one sentence for the UI
    QString defaultRegion;          // used when a launch names none
    bool launchNeedsRegion = false; // without a default, the launch must name a region
    bool launchNeedsSshKey = false; // the launch must name an account SSH key
    int statusPollMs = 3000;       // how often to ask while an instance boots
    CostModel cost;                // storage, bids, currency: the bill beyond compute $/h
    SelfStop selfStop = SelfStop::None; // how the on-instance idle guard stops the machine
};

struct Region
{
    QString name;
    QString description;
    bool operator==(const Region &) const = default;
};

struct InstanceType
{
    QString provider;
    QString name;          // the id passed to launch
    QString description;
    QString gpuModel;      // "A10", "RTX 4090"; empty for CPU-only types
    int gpuCount = 0;
    int vramGbPerGpu = 0;
    int vcpus = 0;
    int ramGb = 0;
    int diskGb = 0;
    double pricePerHour = 0;   // USD for the whole instance
    QList<Region> regionsWithCapacity;
    QString note;
    // Marketplace offers (Vast.ai) are single machines; these say how good that machine is.
    double reliability = -1;   // 0..1, -1 unknown
    double dlperf = 0;         // Vast's deep-learning performance score
    double inetUpMbps = 0;
    double inetDownMbps = 0;
    double maxCuda = 0;        // highest CUDA version the driver supports
    double minBidPerHour = 0;  // interruptible floor; 0 when not offered
    // Spot capacity: cheaper, and the provider may reclaim the machine at any time (the sandbox's
    // *-spot types; a managed run takes these only with `spot: true`).
    bool spot = false;
    double storagePerGbMonth = 0;
    QString machineId;
    bool verified = false;
    // A row that stands for a group of offers (groupRows()): how many, and their median price.
    int offerCount = 0;
    double medianPricePerHour = 0;

    bool availableNow() const { return !regionsWithCapacity.isEmpty(); }
    int totalVramGb() const { return vramGbPerGpu * gpuCount; }
    double pricePerGpuHour() const { return gpuCount > 0 ? pricePerHour / gpuCount : pricePerHour; }
};

// The hourly price a launch of `type` with `gpuCount` GPUs is charged, by the provider's pricing.
double launchPricePerHour(const ProviderInfo &info, const InstanceType &type, int gpuCount);

enum class InstanceState
{
    Booting,
    Running,
    Unhealthy,
    Restarting,
    Stopping,
    Stopped,
    Terminating,
    Terminated,
    Error,
    Unknown,
};

QString instanceStateName(InstanceState state);     // stable, lowercase: "booting", "running"…
QString instanceStateLabel(InstanceState state);    // for people, translated: "Running", "运行中"…
InstanceState instanceStateFromName(const QString &name);
bool isBillingCompute(InstanceState state);          // compute is charged in this state
bool isGone(InstanceState state);                    // terminated or never coming back

struct Instance
{
    QString provider;
    QString id;
    QString name;
    QString typeName;
    QString gpuDescription;
    QString region;
    InstanceState state = InstanceState::Unknown;
    QString providerStatus;    // the provider's own word, for display
    QString sshHost;           // empty until reachable
    int sshPort = 22;
    QString sshUser;
    double pricePerHour = 0;   // compute price now (0 when stopped on RunPod)
    int volumeGb = 0;          // persistent disk that keeps billing while stopped
    QDateTime createdAt;
    QStringList sshKeyNames;
    QStringList filesystemNames;
    // The marketplace machine behind the instance (Vast.ai machine_id), "" elsewhere: what a failed
    // Verify marks bad, so that machine's other offers drop out of later searches.
    QString machineId;
    // The disk's own rate in $/GB-month where the provider prices it per machine (Vast.ai's
    // storage_cost); 0: the provider's rate (CostModel) applies.
    double storagePerGbMonth = 0;
    // "SHA256:…" of the SSH host key the provider itself made and so vouches for (the sandbox's
    // sshd), "" where the provider does not know it: such a key is trusted without asking.
    QString hostKeyFingerprint;

    bool reachable() const { return state == InstanceState::Running && !sshHost.isEmpty(); }
};

struct SshKey
{
    QString id;
    QString name;
    QString publicKey;
    QString privateKey;    // only right after the provider generated it; never stored by Gantry
};

// A volume at a provider (RunPod network volume, Lambda persistent filesystem, Shadeform or Vast
// volume): storage that outlives instances and bills by the GB-month for as long as it exists.
struct Filesystem
{
    QString id;
    QString name;
    QString region;
    QString mountPoint;
    bool inUse = false;
    qint64 bytesUsed = -1;
    int sizeGb = 0;              // 0: grows with use (Lambda), billed on bytesUsed
    QString provider;
    double pricePerGbMonth = 0;  // in the provider's currency
    QStringList attachedTo;      // instance ids (or names) using it, where the provider says
    QDateTime createdAt;
    // The marketplace machine it lives on (Vast.ai volumes are a machine's disk): an instance that
    // attaches it must run there. "" elsewhere.
    QString machineId;

    // The GB it bills for: its size, or what it holds where it grows with use.
    double billedGb() const { return sizeGb > 0 ? sizeGb : (bytesUsed > 0 ? double(bytesUsed) / 1e9 : 0.0); }
    double pricePerMonth() const { return billedGb() * pricePerGbMonth; }
};

// What a new volume is asked for. name and sizeGb are ignored where the provider sets them itself
// (VolumeTerms).
struct VolumeSpec
{
    QString name;
    int sizeGb = 0;
    QString region;
};

struct Image
{
    QString id;
    QString name;
    QString family;
    QString description;
    QString region;
};

struct LaunchRequest
{
    QString typeName;
    QString region;
    QString sshKeyName;
    QString name;
    QString image;           // image id or family ("" = provider default)
    QStringList filesystemNames;  // volumes to attach, by name or id (one at most on RunPod, Shadeform, Vast)
    int volumeGb = 0;        // RunPod persistent volume (0 = none)
    int gpuCount = 1;        // RunPod only
    double bidPerHour = 0;   // Vast interruptible bid in $/h (0 = on demand)
};

} // namespace gantry::providers

Q_DECLARE_METATYPE(gantry::providers::Instance)
Q_DECLARE_METATYPE(gantry::providers::LaunchRequest)
