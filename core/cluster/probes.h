#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace gantry::cluster {

// One address line of `ip -o addr`.
struct InterfaceAddress
{
    QString name;     // "eth0", "ens5", "ib0", "lo"
    QString family;   // "inet", "inet6"
    QString address;  // without the prefix length
    int prefix = 0;
};
QList<InterfaceAddress> parseIpAddr(const QByteArray &output);

// The interface NCCL should use for its sockets (NCCL_SOCKET_IFNAME): the one whose IPv4 subnet
// holds the head's address, else the first that is not loopback or a container bridge (docker0,
// veth…, virbr…, br-…, which NCCL's own default may pick and then hang on), else "lo" when the
// head is on loopback. Empty when nothing fits.
QString suggestSocketIfname(const QList<InterfaceAddress> &interfaces, const QString &masterAddr);

// One device of `ibv_devinfo`.
struct RdmaDevice
{
    QString name;       // hca_id: "mlx5_0", "rdmap16s27"
    QString transport;  // "InfiniBand (0)", "unknown (6)"…
    QString linkLayer;  // "InfiniBand", "Ethernet" (RoCE); empty for EFA
    QString state;      // "PORT_ACTIVE (4)"
    bool efa = false;   // an AWS Elastic Fabric Adapter (vendor 0x1d0f, or an "efa" device name)
    bool active() const { return state.startsWith(QLatin1String("PORT_ACTIVE")); }
};
QList<RdmaDevice> parseIbvDevinfo(const QByteArray &output);

// `nvidia-smi topo -m`: how the node's GPUs reach each other and its NICs.
struct GpuTopology
{
    int gpus = 0;
    int pairs = 0;          // GPU pairs
    int nvlinkPairs = 0;    // pairs joined by NVLink (NV#)
    QString weakestLink;    // the slowest GPU-GPU path that is not NVLink: "SYS", "NODE", "PHB"…
    QStringList nics;       // NIC0…
    QStringList nicsNearGpu; // NICs behind the same PCIe switch as a GPU (PIX/PXB): GPUDirect RDMA
};
GpuTopology parseTopology(const QByteArray &output);

// What one node runs, as the facts script printed it.
struct NodeFacts
{
    QString gpuModel;
    int gpuCount = 0;
    QString driver;
    QString cuda;          // the driver's CUDA version ("12.4"), empty without nvidia-smi
    QString python;        // "3.11.2"
    QString pythonPath;    // the interpreter that has torch
    QString torch;         // "2.3.1", empty when torch does not import
    bool torchCuda = false;
    QList<InterfaceAddress> interfaces;
    QList<RdmaDevice> rdma;
    GpuTopology topology;
    bool complete = false; // the script reached its end marker
};

// A POSIX sh script for `sh -s`: sections headed "@@NAME@@", ending "@@end@@".
QByteArray factsScript();
NodeFacts parseFacts(const QByteArray &output);

// The world size's ring factor times bytes over seconds: NCCL's "bus bandwidth", in GB/s.
double busBandwidthGBps(qint64 bytes, double seconds, int worldSize);

} // namespace gantry::cluster
