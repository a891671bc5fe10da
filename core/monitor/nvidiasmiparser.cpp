#include "core/monitor/nvidiasmiparser.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

namespace gantry::monitor::nvsmi {
namespace {

const QString kSeparator = QStringLiteral(", ");

QString firstToken(const QString &cell)
{
    const QString trimmed = cell.trimmed();
    const qsizetype space = trimmed.indexOf(QLatin1Char(' '));
    return space < 0 ? trimmed : trimmed.left(space);
}

bool isIdentifierCell(const QString &cell)
{
    static const QRegularExpression re(QStringLiteral("^[a-z_][A-Za-z0-9_.]*( \\[[^\\]]*\\])?$"));
    return re.match(cell.trimmed()).hasMatch();
}

bool isKnownColumn(const QString &canonical)
{
    static const QStringList known = {
        QStringLiteral("index"), QStringLiteral("uuid"), QStringLiteral("name"), QStringLiteral("pstate"),
        QStringLiteral("count"), QStringLiteral("pid"), QStringLiteral("timestamp"),
        QStringLiteral("process_name"), QStringLiteral("used_gpu_memory"), QStringLiteral("serial"),
    };
    return canonical.contains(QLatin1Char('.')) || known.contains(canonical);
}

// ^[a-z_][A-Za-z0-9_.]*$ — a --query-gpu field name.
bool isFieldName(const QString &name)
{
    if (name.isEmpty()) {
        return false;
    }
    const char16_t first = name.at(0).unicode();
    if (!((first >= u'a' && first <= u'z') || first == u'_')) {
        return false;
    }
    for (qsizetype i = 1; i < name.size(); ++i) {
        const char16_t c = name.at(i).unicode();
        const bool ok = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_'
            || c == u'.';
        if (!ok) {
            return false;
        }
    }
    return true;
}

int columnOf(const QStringList &fields, QLatin1StringView name)
{
    for (int i = 0; i < fields.size(); ++i) {
        if (fields.at(i) == name) {
            return i;
        }
    }
    return -1;
}

} // namespace

bool isPlaceholder(const QString &cell)
{
    const QString t = cell.trimmed();
    if (t.isEmpty()) {
        return true;
    }
    if (t.startsWith(QLatin1Char('[')) && t.endsWith(QLatin1Char(']'))) {
        return true; // [N/A], [Not Supported], [Unknown Error], [Insufficient Permissions], …
    }
    return t == QLatin1StringView("N/A") || t == QLatin1StringView("ERR!")
        || t.compare(QLatin1StringView("Unknown Error"), Qt::CaseInsensitive) == 0;
}

std::optional<double> parseNumber(const QString &cell)
{
    if (isPlaceholder(cell)) {
        return std::nullopt;
    }
    bool ok = false;
    const double v = firstToken(cell).toDouble(&ok);
    if (!ok) {
        return std::nullopt;
    }
    return v;
}

std::optional<qint64> parseInteger(const QString &cell)
{
    if (isPlaceholder(cell)) {
        return std::nullopt;
    }
    bool ok = false;
    const qint64 v = firstToken(cell).toLongLong(&ok);
    if (!ok) {
        return std::nullopt;
    }
    return v;
}

std::optional<quint64> parseHex(const QString &cell)
{
    if (isPlaceholder(cell)) {
        return std::nullopt;
    }
    QString t = firstToken(cell);
    int base = 10;
    if (t.startsWith(QLatin1StringView("0x"), Qt::CaseInsensitive)) {
        t = t.mid(2);
        base = 16;
    }
    bool ok = false;
    const quint64 v = t.toULongLong(&ok, base);
    if (!ok) {
        return std::nullopt;
    }
    return v;
}

QString parseText(const QString &cell)
{
    return isPlaceholder(cell) ? QString() : cell.trimmed();
}

QString canonicalField(const QString &field)
{
    QString f = field.trimmed();
    const qsizetype bracket = f.indexOf(QLatin1StringView(" ["));
    if (bracket > 0) {
        f = f.left(bracket);
    }
    static const QHash<QString, QString> aliases = {
        {QStringLiteral("gpu_name"), QStringLiteral("name")},
        {QStringLiteral("gpu_uuid"), QStringLiteral("uuid")},
        {QStringLiteral("gpu_serial"), QStringLiteral("serial")},
        {QStringLiteral("gpu_bus_id"), QStringLiteral("pci.bus_id")},
        {QStringLiteral("clocks.sm"), QStringLiteral("clocks.current.sm")},
        {QStringLiteral("clocks.gr"), QStringLiteral("clocks.current.graphics")},
        {QStringLiteral("clocks.mem"), QStringLiteral("clocks.current.memory")},
        {QStringLiteral("clocks.max.gr"), QStringLiteral("clocks.max.graphics")},
        {QStringLiteral("clocks.max.mem"), QStringLiteral("clocks.max.memory")},
        {QStringLiteral("clocks_throttle_reasons.active"), QStringLiteral("clocks_event_reasons.active")},
        {QStringLiteral("used_memory"), QStringLiteral("used_gpu_memory")},
        {QStringLiteral("gpu_util"), QStringLiteral("gpu_utilization")},
    };
    return aliases.value(f, f);
}

QStringList splitRow(const QString &line, int expectedColumns, int textColumn)
{
    QString trimmed = line;
    while (trimmed.endsWith(QLatin1Char('\r')) || trimmed.endsWith(QLatin1Char('\n'))) {
        trimmed.chop(1);
    }
    QStringList cells = trimmed.split(kSeparator);
    if (expectedColumns > 0 && textColumn >= 0 && textColumn < expectedColumns
        && cells.size() > expectedColumns) {
        // Outside in: the columns left and right of the free text are fixed, the rest is text.
        const qsizetype surplus = cells.size() - expectedColumns;
        QStringList merged = cells.mid(0, textColumn);
        merged.append(cells.mid(textColumn, surplus + 1).join(kSeparator));
        merged.append(cells.mid(textColumn + surplus + 1));
        cells = merged;
    }
    for (QString &c : cells) {
        c = c.trimmed();
    }
    return cells;
}

LineKind classifyLine(const QString &line)
{
    const QString t = line.trimmed();
    if (t.isEmpty()) {
        return LineKind::Empty;
    }
    if (t.startsWith(QLatin1StringView("Field ")) && t.contains(QLatin1StringView("is not a valid field"))) {
        return LineKind::InvalidField;
    }
    if (t.contains(QLatin1StringView("No devices were found"))) {
        return LineKind::NoDevices;
    }
    static const QLatin1StringView failures[] = {
        QLatin1StringView("NVIDIA-SMI has failed"),
        QLatin1StringView("Failed to initialize NVML"),
        QLatin1StringView("NVML library version"),
        QLatin1StringView("Unable to determine the device handle"),
        QLatin1StringView("GPU is lost"),
        QLatin1StringView("GPU requires reset"),
        QLatin1StringView("couldn't communicate with the NVIDIA driver"),
    };
    for (const QLatin1StringView &f : failures) {
        if (t.contains(f, Qt::CaseInsensitive)) {
            return LineKind::DriverFailure;
        }
    }
    const QStringList cells = t.split(kSeparator);
    bool allIdentifiers = true;
    bool anyKnown = false;
    for (const QString &c : cells) {
        if (!isIdentifierCell(c)) {
            allIdentifiers = false;
            break;
        }
        anyKnown = anyKnown || isKnownColumn(canonicalField(c));
    }
    if (allIdentifiers && anyKnown) {
        return LineKind::Header;
    }
    if (cells.size() == 1 && !t.at(0).isDigit() && !t.startsWith(QLatin1Char('['))) {
        return LineKind::Other; // prose, e.g. a usage message
    }
    return LineKind::Data;
}

QString invalidFieldName(const QString &line)
{
    static const QRegularExpression re(
        QStringLiteral("Field\\s+[\"\\x{201C}]([^\"\\x{201D}]+)[\"\\x{201D}]\\s+is not a valid field"));
    const auto m = re.match(line);
    return m.hasMatch() ? m.captured(1) : QString();
}

namespace {

// parseGpuRow with the free-text column found by the caller: parseGpuCsv finds it once per header,
// not once per row (a hostile header of n columns over m rows was n·m work).
std::optional<GpuSample> gpuRow(const QStringList &fields, int nameColumn, const QString &line)
{
    if (classifyLine(line) != LineKind::Data) {
        return std::nullopt;
    }
    const QStringList cells = splitRow(line, int(fields.size()), nameColumn);
    if (cells.size() != fields.size()) {
        return std::nullopt;
    }
    GpuSample g;
    for (int i = 0; i < fields.size(); ++i) {
        const QString &f = fields.at(i);
        const QString &c = cells.at(i);
        if (f == QLatin1StringView("index")) {
            const auto v = parseInteger(c);
            if (!v) {
                return std::nullopt; // a row whose index is not a number is no data row ([GPU is lost])
            }
            g.index = int(*v);
        } else if (f == QLatin1StringView("uuid")) {
            g.uuid = parseText(c);
        } else if (f == QLatin1StringView("name")) {
            g.name = parseText(c);
        } else if (f == QLatin1StringView("utilization.gpu")) {
            g.utilizationGpu = parseNumber(c);
        } else if (f == QLatin1StringView("utilization.memory")) {
            g.utilizationMemory = parseNumber(c);
        } else if (f == QLatin1StringView("memory.used")) {
            g.memoryUsedMib = parseNumber(c);
        } else if (f == QLatin1StringView("memory.total")) {
            g.memoryTotalMib = parseNumber(c);
        } else if (f == QLatin1StringView("temperature.gpu")) {
            g.temperatureC = parseNumber(c);
        } else if (f == QLatin1StringView("power.draw")) {
            g.powerDrawW = parseNumber(c);
        } else if (f == QLatin1StringView("power.draw.instant") && !g.powerDrawW) {
            g.powerDrawW = parseNumber(c);
        } else if (f == QLatin1StringView("power.limit")) {
            g.powerLimitW = parseNumber(c);
        } else if (f == QLatin1StringView("clocks.current.sm")) {
            g.smClockMhz = parseNumber(c);
        } else if (f == QLatin1StringView("clocks.max.sm")) {
            g.smClockMaxMhz = parseNumber(c);
        } else if (f == QLatin1StringView("pstate")) {
            g.pstate = parseText(c);
        } else if (f == QLatin1StringView("clocks_event_reasons.active")) {
            g.clocksEventReasons = parseHex(c);
        } else if (f == QLatin1StringView("pcie.link.gen.current")) {
            g.pcieGen = parseInteger(c);
        } else if (f == QLatin1StringView("pcie.link.gen.max")) {
            g.pcieGenMax = parseInteger(c);
        } else if (f == QLatin1StringView("pcie.link.width.current")) {
            g.pcieWidth = parseInteger(c);
        } else if (f == QLatin1StringView("pcie.link.width.max")) {
            g.pcieWidthMax = parseInteger(c);
        } else if (f == QLatin1StringView("ecc.errors.uncorrected.volatile.total")) {
            g.eccUncorrected = parseInteger(c);
        } else if (f == QLatin1StringView("ecc.errors.corrected.volatile.total")) {
            g.eccCorrected = parseInteger(c);
        }
    }
    return g;
}

} // namespace

std::optional<GpuSample> parseGpuRow(const QStringList &fields, const QString &line)
{
    return gpuRow(fields, columnOf(fields, QLatin1StringView("name")), line);
}

GpuCsv parseGpuCsv(const QString &text, const QStringList &fieldsWhenNoHeader)
{
    GpuCsv out;
    for (const QString &f : fieldsWhenNoHeader) {
        out.fields.append(canonicalField(f));
    }
    int nameColumn = columnOf(out.fields, QLatin1StringView("name"));
    bool inOtherTable = false;
    int ordinal = 0;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        switch (classifyLine(line)) {
        case LineKind::Empty:
            continue;
        case LineKind::Header: {
            QStringList fields;
            for (const QString &c : splitRow(line)) {
                fields.append(canonicalField(c));
            }
            // A second command's output in the same capture (compute apps after the GPU table).
            inOtherTable = fields.contains(QLatin1StringView("pid"));
            if (!inOtherTable) {
                out.fields = fields;
                nameColumn = columnOf(out.fields, QLatin1StringView("name"));
                ordinal = 0;
            }
            continue;
        }
        case LineKind::Data:
            if (inOtherTable || out.fields.isEmpty()) {
                continue;
            }
            if (auto g = gpuRow(out.fields, nameColumn, line)) {
                if (g->index < 0) {
                    g->index = ordinal;
                }
                ++ordinal;
                out.gpus.append(*g);
            }
            continue;
        default:
            out.errors.append(line.trimmed());
            continue;
        }
    }
    return out;
}

namespace {

// parseComputeAppsRow with the free-text column found once per header (see gpuRow).
std::optional<GpuProcess> appsRow(const QStringList &fields, int nameColumn, const QString &line)
{
    if (line.trimmed().isEmpty()) {
        return std::nullopt;
    }
    const QStringList cells = splitRow(line, int(fields.size()), nameColumn);
    if (cells.size() != fields.size()) {
        return std::nullopt;
    }
    GpuProcess p;
    bool havePid = false;
    for (int i = 0; i < fields.size(); ++i) {
        const QString &f = fields.at(i);
        const QString &c = cells.at(i);
        if (f == QLatin1StringView("pid")) {
            const auto v = parseInteger(c);
            if (!v) {
                return std::nullopt;
            }
            p.pid = *v;
            havePid = true;
        } else if (f == QLatin1StringView("uuid")) {
            p.gpuUuid = parseText(c);
        } else if (f == QLatin1StringView("used_gpu_memory")) {
            p.usedMemoryMib = parseNumber(c);
        } else if (f == QLatin1StringView("process_name")) {
            p.processName = c.trimmed(); // "[Not Found]" is informative here: keep it
        }
    }
    if (!havePid) {
        return std::nullopt;
    }
    return p;
}

} // namespace

std::optional<GpuProcess> parseComputeAppsRow(const QStringList &fields, const QString &line)
{
    return appsRow(fields, columnOf(fields, QLatin1StringView("process_name")), line);
}

QList<GpuProcess> parseComputeApps(const QString &text, const QStringList &fieldsWhenNoHeader)
{
    QStringList fields;
    for (const QString &f : fieldsWhenNoHeader) {
        fields.append(canonicalField(f));
    }
    // Both looked up once per header rather than per row (see gpuRow).
    bool havePid = fields.contains(QLatin1StringView("pid"));
    int nameColumn = columnOf(fields, QLatin1StringView("process_name"));
    QList<GpuProcess> out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const LineKind kind = classifyLine(line);
        if (kind == LineKind::Header) {
            fields.clear();
            for (const QString &c : splitRow(line)) {
                fields.append(canonicalField(c));
            }
            havePid = fields.contains(QLatin1StringView("pid"));
            nameColumn = columnOf(fields, QLatin1StringView("process_name"));
            continue;
        }
        if (kind != LineKind::Data || !havePid) {
            continue;
        }
        if (auto p = appsRow(fields, nameColumn, line)) {
            out.append(*p);
        }
    }
    return out;
}

QStringList parseHelpQueryGpu(const QString &text)
{
    QStringList fields;
    // Alongside `fields` so that skipping a repeated name costs a hash lookup, not a scan of every
    // name so far: a hostile host's help text with many names would otherwise parse in n² time.
    QSet<QString> seen;
    bool afterEmpty = true;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString &raw : lines) {
        const QString line = raw.trimmed();
        if (line.isEmpty()) {
            afterEmpty = true;
            continue;
        }
        if (afterEmpty && line.startsWith(QLatin1Char('"'))) {
            // Every "quoted" token in turn (what the pattern "([^"]*)" matched, scanned by hand:
            // a regular expression match per token allocated more than the rest of the parse).
            qsizetype open = line.indexOf(QLatin1Char('"'));
            while (open >= 0) {
                const qsizetype close = line.indexOf(QLatin1Char('"'), open + 1);
                if (close < 0) {
                    break;
                }
                const QString name = line.mid(open + 1, close - open - 1);
                if (isFieldName(name) && !seen.contains(name)) {
                    seen.insert(name);
                    fields.append(name);
                }
                open = line.indexOf(QLatin1Char('"'), close + 1);
            }
        }
        afterEmpty = false;
    }
    return fields;
}

} // namespace gantry::monitor::nvsmi
