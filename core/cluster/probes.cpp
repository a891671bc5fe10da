#include "core/cluster/probes.h"

#include <QHostAddress>
#include <QMap>
#include <QRegularExpression>

namespace gantry::cluster {
namespace {

bool isContainerBridge(const QString &name)
{
    static const QStringList prefixes{QStringLiteral("docker"), QStringLiteral("veth"), QStringLiteral("virbr"),
                                      QStringLiteral("br-"), QStringLiteral("cni"), QStringLiteral("flannel"),
                                      QStringLiteral("lxcbr"), QStringLiteral("tailscale"), QStringLiteral("zt")};
    return std::any_of(prefixes.cbegin(), prefixes.cend(), [&](const QString &p) { return name.startsWith(p); });
}

QMap<QString, QString> splitSections(const QByteArray &output, bool *complete)
{
    QMap<QString, QString> sections;
    static const QRegularExpression header(QStringLiteral("^@@([a-z]+)@@$"));
    QString current;
    *complete = false;
    for (const QString &line : QString::fromUtf8(output).split(QLatin1Char('\n'))) {
        const QRegularExpressionMatch match = header.match(line.trimmed());
        if (match.hasMatch()) {
            current = match.captured(1);
            if (current == QLatin1String("end"))
                *complete = true;
            continue;
        }
        if (!current.isEmpty())
            sections[current] += line + QLatin1Char('\n');
    }
    return sections;
}

} // namespace

QList<InterfaceAddress> parseIpAddr(const QByteArray &output)
{
    // "2: eth0    inet 10.0.0.5/24 brd 10.0.0.255 scope global eth0\       valid_lft forever …"
    static const QRegularExpression line(QStringLiteral("^\\d+:\\s+(\\S+)\\s+(inet6?)\\s+([0-9A-Fa-f:.]+)/(\\d+)"));
    QList<InterfaceAddress> out;
    for (const QByteArray &raw : output.split('\n')) {
        const QRegularExpressionMatch m = line.match(QString::fromUtf8(raw));
        if (!m.hasMatch())
            continue;
        QString name = m.captured(1);
        if (const qsizetype at = name.indexOf(QLatin1Char('@')); at > 0)
            name.truncate(at); // "eth0@if12" inside a container
        out.append(InterfaceAddress{name, m.captured(2), m.captured(3), m.captured(4).toInt()});
    }
    return out;
}

QString suggestSocketIfname(const QList<InterfaceAddress> &interfaces, const QString &masterAddr)
{
    const QHostAddress master(masterAddr);
    if (!master.isNull()) {
        if (master.isLoopback())
            return QStringLiteral("lo");
        for (const InterfaceAddress &i : interfaces) {
            if (i.family == QLatin1String("inet") && master.isInSubnet(QHostAddress(i.address), i.prefix))
                return i.name;
        }
    }
    for (const InterfaceAddress &i : interfaces) {
        if (i.family == QLatin1String("inet") && i.name != QLatin1String("lo") && !isContainerBridge(i.name))
            return i.name;
    }
    return {};
}

QList<RdmaDevice> parseIbvDevinfo(const QByteArray &output)
{
    QList<RdmaDevice> out;
    for (const QByteArray &raw : output.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon < 0)
            continue;
        const QString key = line.left(colon).trimmed();
        const QString value = line.mid(colon + 1).trimmed();
        if (key == QLatin1String("hca_id")) {
            out.append(RdmaDevice{value, {}, {}, {}, value.startsWith(QLatin1String("efa"))});
            continue;
        }
        if (out.isEmpty())
            continue;
        RdmaDevice &device = out.last();
        if (key == QLatin1String("transport"))
            device.transport = value;
        else if (key == QLatin1String("vendor_id") && value.compare(QLatin1String("0x1d0f"), Qt::CaseInsensitive) == 0)
            device.efa = true; // Amazon's PCI vendor id
        else if (key == QLatin1String("state") && device.state.isEmpty())
            device.state = value;
        else if (key == QLatin1String("link_layer") && device.linkLayer.isEmpty())
            device.linkLayer = value;
    }
    return out;
}

GpuTopology parseTopology(const QByteArray &output)
{
    // The header row is underlined with ANSI escapes even when stdout is not a terminal.
    static const QRegularExpression ansi(QStringLiteral("\\x1b\\[[0-9;]*m"));
    static const QRegularExpression rowName(QStringLiteral("^(GPU|NIC)\\d+$"));
    static const QStringList pcieOrder{QStringLiteral("SYS"), QStringLiteral("NODE"), QStringLiteral("PHB"), QStringLiteral("PXB"), QStringLiteral("PIX")};
    GpuTopology topology;
    QStringList columns;
    for (const QString &raw : QString::fromUtf8(output).remove(ansi).split(QLatin1Char('\n'))) {
        QStringList cells = raw.split(QLatin1Char('\t'));
        for (QString &cell : cells)
            cell = cell.trimmed();
        if (columns.isEmpty()) {
            if (cells.contains(QStringLiteral("GPU0")))
                columns = cells.mid(1);
            continue;
        }
        if (cells.isEmpty() || !rowName.match(cells.first()).hasMatch())
            continue;
        const QString name = cells.first();
        if (name.startsWith(QLatin1String("NIC"))) {
            topology.nics << name;
            continue;
        }
        ++topology.gpus;
        const int self = name.mid(3).toInt();
        for (int c = 0; c < columns.size() && c + 1 < cells.size(); ++c) {
            const QString &column = columns[c];
            const QString &link = cells[c + 1];
            if (column.startsWith(QLatin1String("GPU")) && column.mid(3).toInt() > self) {
                ++topology.pairs;
                if (link.startsWith(QLatin1String("NV")))
                    ++topology.nvlinkPairs;
                else if (topology.weakestLink.isEmpty() || pcieOrder.indexOf(link) < pcieOrder.indexOf(topology.weakestLink))
                    topology.weakestLink = link;
            } else if (column.startsWith(QLatin1String("NIC")) && (link == u"PIX" || link == u"PXB") && !topology.nicsNearGpu.contains(column)) {
                topology.nicsNearGpu << column;
            }
        }
    }
    return topology;
}

QByteArray factsScript()
{
    // sh, not bash: minimal images have no bash. Every probe may be missing; the sections stay.
    return QByteArrayLiteral(
        "echo '@@gpu@@'; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null\n"
        "echo '@@cuda@@'; nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\\([0-9.]*\\).*/\\1/p' | head -n 1\n"
        // torch's version from its version.py, without importing it (seconds per node on a busy
        // machine); the import is the fallback when that file cannot be read.
        "TORCH_PROBE='import importlib.util, re, sys\n"
        "s = importlib.util.find_spec(\"torch\")\n"
        "if s is None: sys.exit(1)\n"
        "try:\n"
        "    t = open(s.submodule_search_locations[0] + \"/version.py\").read()\n"
        "    v = re.search(r\"__version__\\s*=\\s*[\\x27\\\"]([^\\x27\\\"]+)\", t).group(1)\n"
        "    c = re.search(r\"^cuda[^=\\n]*=\\s*[\\x27\\\"]\", t, re.M) is not None\n"
        "except Exception:\n"
        "    import torch; v = torch.__version__; c = torch.version.cuda is not None\n"
        "print(v); print(c)'\n"
        "PY=python3; TORCH=; for c in python3 /usr/bin/python3; do\n"
        "  TORCH=$(\"$c\" -c \"$TORCH_PROBE\" 2>/dev/null) && [ -n \"$TORCH\" ] && { PY=$c; break; }\n"
        "done\n"
        "echo '@@python@@'; command -v \"$PY\"; \"$PY\" -c 'import platform; print(platform.python_version())' 2>/dev/null\n"
        "echo '@@torch@@'; [ -n \"$TORCH\" ] && echo \"$TORCH\"\n"
        "echo '@@ip@@'; ip -o addr 2>/dev/null\n"
        "echo '@@ibv@@'; ibv_devinfo 2>/dev/null\n"
        "echo '@@topo@@'; nvidia-smi topo -m 2>/dev/null\n"
        "echo '@@end@@'\n");
}

NodeFacts parseFacts(const QByteArray &output)
{
    NodeFacts facts;
    const QMap<QString, QString> sections = splitSections(output, &facts.complete);
    const QStringList gpus = sections.value(QStringLiteral("gpu")).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &gpu : gpus) {
        const QStringList fields = gpu.split(QLatin1Char(','));
        if (fields.size() < 2)
            continue;
        ++facts.gpuCount;
        facts.gpuModel = fields.first().trimmed();
        facts.driver = fields.at(1).trimmed();
    }
    facts.cuda = sections.value(QStringLiteral("cuda")).trimmed();
    const QStringList python = sections.value(QStringLiteral("python")).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    facts.pythonPath = python.value(0).trimmed();
    facts.python = python.value(1).trimmed();
    const QStringList torch = sections.value(QStringLiteral("torch")).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    facts.torch = torch.value(0).trimmed();
    facts.torchCuda = torch.value(1).trimmed() == QLatin1String("True");
    facts.interfaces = parseIpAddr(sections.value(QStringLiteral("ip")).toUtf8());
    facts.rdma = parseIbvDevinfo(sections.value(QStringLiteral("ibv")).toUtf8());
    facts.topology = parseTopology(sections.value(QStringLiteral("topo")).toUtf8());
    return facts;
}

double busBandwidthGBps(qint64 bytes, double seconds, int worldSize)
{
    if (seconds <= 0 || worldSize < 2)
        return 0;
    return double(bytes) / seconds * 2.0 * (worldSize - 1) / worldSize / 1e9;
}

} // namespace gantry::cluster
