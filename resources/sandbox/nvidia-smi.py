# Gantry simulated GPU: a stand-in for nvidia-smi on a sandbox GPU instance (there is no GPU).
# It prints nvidia-smi's own formats (CSV queries with -l/-lms loops, --help-query-gpu,
# --query-compute-apps, -q, -L, the default table; dmon says it has no counters) for one NVIDIA H100 80GB HBM3 whose readings
# follow a profile: "idle" (nothing running) or "training" (a training run starved by its data
# loader: low utilization, the memory of a real run, one process). The format follows real captures (tests compare them);
# the values are made up, and the product name ends in "(simulated)". Run with `python3 -S` (standard library only); the marker file next to
# it (gantry-simulated-gpu) names the profile and tells Gantry the GPU is simulated.
import os
import sys
import time

MARKER = "Gantry simulated GPU"
HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = "590.48.01"
CUDA = "13.1"
# The name says it wherever nvidia-smi's output is shown (Monitor, Fleet monitor, the CLI).
NAME = "NVIDIA H100 80GB HBM3 (simulated)"
BUS = "00000000:00:09.0"
TOTAL_MIB = 81559
RESERVED_MIB = 479
# A pid no Linux process can have (pid_max is at most 2^22), so a Kill sent to it harms nothing.
TRAINING_PID = 4194304


def settings():
    values = {"profile": "idle", "uuid": "GPU-00000000-0000-4000-8000-000000000000"}
    try:
        with open(os.path.join(HERE, "gantry-simulated-gpu")) as f:
            for line in f:
                if "=" in line:
                    key, value = line.strip().split("=", 1)
                    values[key] = value
    except OSError:
        pass
    return values


CONF = settings()
TRAINING = CONF["profile"] == "training"


def noise(t, salt):
    # Deterministic jitter in [-1, 1] per 100 ms, so consecutive samples differ a little.
    n = int(t * 10) * 2654435761 + salt * 40503
    return ((n ^ (n >> 13)) % 2001) / 1000.0 - 1.0


def state(t):
    """The GPU's readings at time t under the profile."""
    if not TRAINING:
        return {"util": 0, "mem_util": 0, "used": 0, "temp": 32 + round(noise(t, 1)),
                "mem_temp": 38, "power": 69.85 + noise(t, 2) * 0.8, "sm": 345, "video": 765,
                "reasons": 0x1, "pstate": "P0"}
    # A run starved by its data loader: the GPU waits for batches most of each sample period, so
    # utilization (the share of the period a kernel ran) stays at 22-38 % with the memory of a
    # real run allocated. That is what the data-loader alert looks for (with a CPU core pegged).
    util = 30 + int(noise(t, 3) * 8)
    return {"util": util, "mem_util": util * 11 // 100,
            "used": 61440 + int(noise(t, 5) * 64), "temp": 48 + round(noise(t, 6) * 2),
            "mem_temp": 55, "power": 70.0 + util * 6.3 + noise(t, 7) * 9.0,
            "sm": 1980, "video": 1545, "reasons": 0x0, "pstate": "P0"}


def timestamp(t):
    return time.strftime("%Y/%m/%d %H:%M:%S", time.localtime(t)) + ".%03d" % int((t % 1) * 1000)


def active(s, bit):
    return "Active" if s["reasons"] & bit else "Not Active"


# (canonical name, aliases, unit, value of a state s at time t, description for --help-query-gpu)
GPU_FIELDS = [
    ("timestamp", (), "", lambda s, t: timestamp(t),
     'The timestamp of when the query was made in format "YYYY/MM/DD HH:MM:SS.msec".'),
    ("driver_version", (), "", lambda s, t: DRIVER, "The version of the installed NVIDIA display driver."),
    ("count", (), "", lambda s, t: "1", "The number of NVIDIA GPUs in the system."),
    ("name", ("gpu_name",), "", lambda s, t: NAME, "The official product name of the GPU."),
    ("serial", ("gpu_serial",), "", lambda s, t: "0000000000000", "The serial number of the board."),
    ("uuid", ("gpu_uuid",), "", lambda s, t: CONF["uuid"], "The globally unique identifier of the GPU."),
    ("pci.bus_id", ("gpu_bus_id",), "", lambda s, t: BUS, 'PCI bus id as "domain:bus:device.function", in hex.'),
    ("pci.device_id", (), "", lambda s, t: "0x233010DE", "PCI vendor device id, in hex."),
    ("pcie.link.gen.current", (), "", lambda s, t: "5", "The current PCI-E link generation."),
    ("pcie.link.gen.max", (), "", lambda s, t: "5", "The maximum PCI-E link generation possible."),
    ("pcie.link.width.current", (), "", lambda s, t: "16", "The current PCI-E link width."),
    ("pcie.link.width.max", (), "", lambda s, t: "16", "The maximum PCI-E link width possible."),
    ("index", (), "", lambda s, t: "0", "Zero based index of the GPU."),
    ("persistence_mode", (), "", lambda s, t: "Enabled", "Whether persistence mode is enabled."),
    ("vbios_version", (), "", lambda s, t: "96.00.A5.00.01", "The BIOS of the GPU board."),
    ("fan.speed", (), "%", lambda s, t: "[N/A]", "The fan speed value is the percent of the maximum speed."),
    ("pstate", (), "", lambda s, t: s["pstate"], "The current performance state for the GPU."),
    ("clocks_event_reasons.supported", ("clocks_throttle_reasons.supported",), "",
     lambda s, t: "0x00000000000001FF", "Bitmask of supported clock event reasons."),
    ("clocks_event_reasons.active", ("clocks_throttle_reasons.active",), "",
     lambda s, t: "0x%016X" % s["reasons"], "Bitmask of active clock event reasons."),
    ("clocks_event_reasons.gpu_idle", ("clocks_throttle_reasons.gpu_idle",), "",
     lambda s, t: active(s, 0x1), "Nothing is running on the GPU and the clocks are dropping to Idle state."),
    ("clocks_event_reasons.sw_power_cap", ("clocks_throttle_reasons.sw_power_cap",), "",
     lambda s, t: "Not Active", "SW Power Scaling algorithm is reducing the clocks."),
    ("clocks_event_reasons.hw_slowdown", ("clocks_throttle_reasons.hw_slowdown",), "",
     lambda s, t: "Not Active", "HW Slowdown (reducing the core clocks by a factor of 2 or more) is engaged."),
    ("clocks_event_reasons.hw_thermal_slowdown", ("clocks_throttle_reasons.hw_thermal_slowdown",), "",
     lambda s, t: "Not Active", "HW Thermal Slowdown is engaged."),
    ("clocks_event_reasons.hw_power_brake_slowdown", ("clocks_throttle_reasons.hw_power_brake_slowdown",), "",
     lambda s, t: "Not Active", "HW Power Brake Slowdown is engaged."),
    ("clocks_event_reasons.sw_thermal_slowdown", ("clocks_throttle_reasons.sw_thermal_slowdown",), "",
     lambda s, t: "Not Active", "SW Thermal capping algorithm is reducing clocks."),
    ("memory.total", (), "MiB", lambda s, t: str(TOTAL_MIB), "Total installed GPU memory."),
    ("memory.reserved", (), "MiB", lambda s, t: str(RESERVED_MIB), "Total memory reserved by the NVIDIA driver and firmware."),
    ("memory.used", (), "MiB", lambda s, t: str(s["used"]), "Total memory allocated by active contexts."),
    ("memory.free", (), "MiB", lambda s, t: str(TOTAL_MIB - RESERVED_MIB - s["used"]), "Total free memory."),
    ("compute_mode", (), "", lambda s, t: "Default", "The compute mode flag indicates whether individual or multiple compute applications may run on the GPU."),
    ("compute_cap", (), "", lambda s, t: "9.0", "The CUDA Compute Capability, represented as Major DOT Minor."),
    ("utilization.gpu", (), "%", lambda s, t: str(s["util"]), "Percent of time over the past sample period during which one or more kernels was executing on the GPU."),
    ("utilization.memory", (), "%", lambda s, t: str(s["mem_util"]), "Percent of time over the past sample period during which global (device) memory was being read or written."),
    ("ecc.mode.current", (), "", lambda s, t: "Enabled", "The ECC mode that the GPU is currently operating under."),
    ("ecc.errors.corrected.volatile.total", (), "", lambda s, t: "0", "Total errors detected across entire chip."),
    ("ecc.errors.uncorrected.volatile.total", (), "", lambda s, t: "0", "Total errors detected across entire chip."),
    ("ecc.errors.corrected.aggregate.total", (), "", lambda s, t: "0", "Total errors detected across entire chip."),
    ("ecc.errors.uncorrected.aggregate.total", (), "", lambda s, t: "0", "Total errors detected across entire chip."),
    ("retired_pages.single_bit_ecc.count", ("retired_pages.sbe",), "", lambda s, t: "[N/A]", "The number of GPU device memory pages that have been retired due to multiple single bit ECC errors."),
    ("retired_pages.double_bit.count", ("retired_pages.dbe",), "", lambda s, t: "[N/A]", "The number of GPU device memory pages that have been retired due to a double bit ECC error."),
    ("retired_pages.pending", (), "", lambda s, t: "[N/A]", "Checks if any GPU device memory pages are pending retirement on the next reboot."),
    ("remapped_rows.correctable", ("remapped_rows.sbe",), "", lambda s, t: "0", "The number of rows remapped due to correctable errors."),
    ("remapped_rows.uncorrectable", ("remapped_rows.dbe",), "", lambda s, t: "0", "The number of rows remapped due to uncorrectable errors."),
    ("remapped_rows.pending", (), "", lambda s, t: "No", "Whether a row remapping is pending."),
    ("remapped_rows.failure", (), "", lambda s, t: "No", "Whether a row remapping has failed in the past."),
    ("temperature.gpu", (), "", lambda s, t: str(s["temp"]), "Core GPU temperature. in degrees C."),
    ("temperature.memory", (), "", lambda s, t: str(s["mem_temp"]), "HBM memory temperature. in degrees C."),
    ("power.draw", (), "W", lambda s, t: "%.2f" % s["power"], "The last measured power draw for the entire board, in watts."),
    ("power.draw.average", ("gpu.power.draw.average",), "W", lambda s, t: "%.2f" % s["power"], "The last measured average power draw for the entire board, in watts."),
    ("power.draw.instant", ("gpu.power.draw.instant",), "W", lambda s, t: "%.2f" % (s["power"] - 0.23), "The last measured instant power draw for the entire board, in watts."),
    ("power.limit", (), "W", lambda s, t: "700.00", "The software power limit in watts."),
    ("enforced.power.limit", (), "W", lambda s, t: "700.00", "The power management algorithm's power ceiling, in watts."),
    ("power.default_limit", (), "W", lambda s, t: "700.00", "The default power management algorithm's power ceiling, in watts."),
    ("power.min_limit", (), "W", lambda s, t: "200.00", "The minimum value in watts that power limit can be set to."),
    ("power.max_limit", (), "W", lambda s, t: "700.00", "The maximum value in watts that power limit can be set to."),
    ("clocks.current.graphics", ("clocks.gr",), "MHz", lambda s, t: str(s["sm"]), "Current frequency of graphics (shader) clock."),
    ("clocks.current.sm", ("clocks.sm",), "MHz", lambda s, t: str(s["sm"]), "Current frequency of SM (Streaming Multiprocessor) clock."),
    ("clocks.current.memory", ("clocks.mem",), "MHz", lambda s, t: "2619", "Current frequency of memory clock."),
    ("clocks.current.video", ("clocks.video",), "MHz", lambda s, t: str(s["video"]), "Current frequency of video encoder/decoder clock."),
    ("clocks.max.graphics", ("clocks.max.gr",), "MHz", lambda s, t: "1980", "Maximum frequency of graphics (shader) clock."),
    ("clocks.max.sm", (), "MHz", lambda s, t: "1980", "Maximum frequency of SM (Streaming Multiprocessor) clock."),
    ("clocks.max.memory", ("clocks.max.mem",), "MHz", lambda s, t: "2619", "Maximum frequency of memory clock."),
    ("mig.mode.current", (), "", lambda s, t: "Disabled", "The MIG mode that the GPU is currently operating under."),
    ("mig.mode.pending", (), "", lambda s, t: "Disabled", "The MIG mode that the GPU will operate under after reset."),
    ("fabric.state", (), "", lambda s, t: "Completed", "The state of the GPU fabric registration process."),
    ("fabric.status", (), "", lambda s, t: "Success", "The status of the GPU fabric registration process."),
]


def apps(s, t):
    if not TRAINING:
        return []
    return [{"pid": str(TRAINING_PID), "process_name": "python3 train.py", "used_gpu_memory": str(s["used"] - 512)}]


# (canonical name, aliases, unit, value of one app a)
APP_FIELDS = [
    ("timestamp", (), "", lambda a, s, t: timestamp(t)),
    ("gpu_name", (), "", lambda a, s, t: NAME),
    ("gpu_bus_id", (), "", lambda a, s, t: BUS),
    ("gpu_serial", (), "", lambda a, s, t: "0000000000000"),
    ("gpu_uuid", (), "", lambda a, s, t: CONF["uuid"]),
    ("pid", (), "", lambda a, s, t: a["pid"]),
    ("process_name", ("name",), "", lambda a, s, t: a["process_name"]),
    ("used_gpu_memory", ("used_memory",), "MiB", lambda a, s, t: a["used_gpu_memory"]),
]


def out(text):
    sys.stdout.write(text)
    sys.stdout.flush()


def lookup(table, requested):
    found = []
    for name in requested:
        match = [f for f in table if name == f[0] or name in f[1]]
        if not match:
            out('Field "%s" is not a valid field to query.\n\n' % name)
            sys.exit(2)
        found.append(match[0])
    return found


def header(fields):
    return ", ".join(f[0] + (" [%s]" % f[2] if f[2] else "") for f in fields)


def cell(field, value, units):
    if units and field[2] and not value.startswith("["):
        return value + " " + field[2]
    return value


def query(kind, requested, fmt, loop_ms):
    opts = fmt.split(",")
    if opts[0] != "csv":
        out('"--format" requires "csv" as its first option.\n\n')
        sys.exit(2)
    units = "nounits" not in opts
    table = GPU_FIELDS if kind == "gpu" else APP_FIELDS
    fields = lookup(table, [r.strip() for r in requested.split(",") if r.strip()])
    if "noheader" not in opts:
        out(header(fields) + "\n")
    while True:
        t = time.time()
        s = state(t)
        if kind == "gpu":
            rows = [[cell(f, f[3](s, t), units) for f in fields]]
        else:
            rows = [[cell(f, f[3](a, s, t), units) for f in fields] for a in apps(s, t)]
        out("".join(", ".join(r) + "\n" for r in rows))
        if loop_ms <= 0:
            return
        time.sleep(loop_ms / 1000.0)


def help_query(kind):
    if kind != "gpu":
        out('List of valid properties to query for the switch "--query-compute-apps":\n\n')
        for f in APP_FIELDS:
            out(" or ".join('"%s"' % n for n in (f[0],) + f[1]) + "\n" + f[0] + "\n\n")
        return
    out('List of valid properties to query for the switch "--query-gpu":\n\n')
    for f in GPU_FIELDS:
        out(" or ".join('"%s"' % n for n in (f[0],) + f[1]) + "\n" + f[4] + "\n\n")


def kv(lines, depth, key, value=None):
    pad = "    " * depth + key
    lines.append(pad if value is None else "%-55s: %s" % (pad, value))


def query_text():
    t = time.time()
    s = state(t)
    lines = ["", "==============NVSMI LOG==============", ""]
    kv(lines, 0, "Timestamp", time.strftime("%a %b %d %H:%M:%S %Y", time.localtime(t)))
    kv(lines, 0, "Driver Version", DRIVER)
    kv(lines, 0, "CUDA Version", CUDA)
    kv(lines, 0, "Simulated GPU", MARKER + " (sandbox, profile " + CONF["profile"] + "): no real GPU")
    lines.append("")
    kv(lines, 0, "Attached GPUs", "1")
    lines.append("GPU " + BUS)
    sections = [
        (1, "Product Name", NAME), (1, "Product Brand", "NVIDIA"), (1, "Product Architecture", "Hopper"),
        (1, "Persistence Mode", "Enabled"), (1, "MIG Mode", None), (2, "Current", "Disabled"), (2, "Pending", "Disabled"),
        (1, "Serial Number", "0000000000000"), (1, "GPU UUID", CONF["uuid"]), (1, "Minor Number", "0"),
        (1, "VBIOS Version", "96.00.A5.00.01"), (1, "MultiGPU Board", "No"),
        (1, "PCI", None), (2, "Bus", "0x00"), (2, "Device", "0x09"), (2, "Domain", "0x0000"),
        (2, "Device Id", "0x233010DE"), (2, "Bus Id", BUS), (2, "Sub System Id", "0x16C110DE"),
        (2, "GPU Link Info", None), (3, "PCIe Generation", None), (4, "Max", "5"), (4, "Current", "5"),
        (4, "Device Current", "5"), (4, "Device Max", "5"), (4, "Host Max", "N/A"),
        (3, "Link Width", None), (4, "Max", "16x"), (4, "Current", "16x"),
        (2, "Replays Since Reset", "0"), (2, "Replay Number Rollovers", "0"),
        (1, "Fan Speed", "N/A"), (1, "Performance State", s["pstate"]),
        (1, "Clocks Event Reasons", None), (2, "Idle", active(s, 0x1)),
        (2, "Applications Clocks Setting", "Not Active"), (2, "SW Power Cap", "Not Active"),
        (2, "HW Slowdown", "Not Active"), (3, "HW Thermal Slowdown", "Not Active"),
        (3, "HW Power Brake Slowdown", "Not Active"), (2, "Sync Boost", "Not Active"),
        (2, "SW Thermal Slowdown", "Not Active"), (2, "Display Clock Setting", "Not Active"),
        (1, "FB Memory Usage", None), (2, "Total", "%d MiB" % TOTAL_MIB), (2, "Reserved", "%d MiB" % RESERVED_MIB),
        (2, "Used", "%d MiB" % s["used"]), (2, "Free", "%d MiB" % (TOTAL_MIB - RESERVED_MIB - s["used"])),
        (1, "Compute Mode", "Default"),
        (1, "Utilization", None), (2, "GPU", "%d %%" % s["util"]), (2, "Memory", "%d %%" % s["mem_util"]),
        (2, "Encoder", "0 %"), (2, "Decoder", "0 %"),
        (1, "ECC Mode", None), (2, "Current", "Enabled"), (2, "Pending", "Enabled"),
        (1, "ECC Errors", None), (2, "Volatile", None), (3, "SRAM Correctable", "0"),
        (3, "SRAM Uncorrectable Parity", "0"), (3, "SRAM Uncorrectable SEC-DED", "0"),
        (3, "DRAM Correctable", "0"), (3, "DRAM Uncorrectable", "0"),
        (2, "Aggregate", None), (3, "SRAM Correctable", "0"), (3, "SRAM Uncorrectable Parity", "0"),
        (3, "SRAM Uncorrectable SEC-DED", "0"), (3, "DRAM Correctable", "0"), (3, "DRAM Uncorrectable", "0"),
        (3, "SRAM Threshold Exceeded", "No"),
        (1, "Retired Pages", None), (2, "Single Bit ECC", "N/A"), (2, "Double Bit ECC", "N/A"),
        (2, "Pending Page Blacklist", "N/A"),
        (1, "Remapped Rows", None), (2, "Correctable Error", "0"), (2, "Uncorrectable Error", "0"),
        (2, "Pending", "No"), (2, "Remapping Failure Occurred", "No"),
        (1, "Temperature", None), (2, "GPU Current Temp", "%d C" % s["temp"]),
        (2, "GPU Shutdown Temp", "92 C"), (2, "GPU Slowdown Temp", "89 C"),
        (2, "Memory Current Temp", "%d C" % s["mem_temp"]),
        (1, "GPU Power Readings", None), (2, "Average Power Draw", "%.2f W" % s["power"]),
        (2, "Instantaneous Power Draw", "%.2f W" % (s["power"] - 0.23)), (2, "Current Power Limit", "700.00 W"),
        (2, "Requested Power Limit", "700.00 W"), (2, "Default Power Limit", "700.00 W"),
        (2, "Min Power Limit", "200.00 W"), (2, "Max Power Limit", "700.00 W"),
        (1, "Clocks", None), (2, "Graphics", "%d MHz" % s["sm"]), (2, "SM", "%d MHz" % s["sm"]),
        (2, "Memory", "2619 MHz"), (2, "Video", "%d MHz" % s["video"]),
        (1, "Max Clocks", None), (2, "Graphics", "1980 MHz"), (2, "SM", "1980 MHz"),
        (2, "Memory", "2619 MHz"), (2, "Video", "1545 MHz"),
        (1, "Fabric", None), (2, "State", "Completed"), (2, "Status", "Success"),
    ]
    for depth, key, value in sections:
        kv(lines, depth, key, value)
    running = apps(s, t)
    kv(lines, 1, "Processes", None if running else "None")
    for a in running:
        for depth, key, value in [(2, "GPU instance ID", "N/A"), (2, "Compute instance ID", "N/A"),
                                  (2, "Process ID", a["pid"]), (3, "Type", "C"), (3, "Name", a["process_name"]),
                                  (3, "Used GPU Memory", "%s MiB" % a["used_gpu_memory"])]:
            kv(lines, depth, key, value)
    out("\n".join(lines) + "\n\n")


def table():
    t = time.time()
    s = state(t)
    bar = "+-----------------------------------------+------------------------+----------------------+"
    wide = "+-----------------------------------------------------------------------------------------+"
    lines = [time.strftime("%a %b %d %H:%M:%S %Y", time.localtime(t)) + "       " + MARKER + " (sandbox)", wide,
             "| NVIDIA-SMI %-22s Driver Version: %-14s CUDA Version: %-9s|" % (DRIVER, DRIVER, CUDA), bar,
             "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |",
             "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |",
             "|                                         |                        |               MIG M. |",
             "|=========================================+========================+======================|",
             "|   0  %-31sOn  |   %s Off |                    0 |" % (NAME if len(NAME) <= 30 else NAME[:27] + "...", BUS),
             "| N/A   %2dC    %s%24s |%8dMiB /  %dMiB |%7d%%      Default |"
             % (s["temp"], s["pstate"], "%dW /  700W" % round(s["power"]), s["used"], TOTAL_MIB, s["util"]),
             "|                                         |                        |             Disabled |", bar, "",
             wide, "| Processes:%78s|" % "",
             "|  GPU   GI   CI              PID   Type   Process name                        GPU Memory |",
             "|        ID   ID                                                               Usage      |",
             "|=========================================================================================|"]
    running = apps(s, t)
    for a in running:
        lines.append("|    0   N/A  N/A %15s      C   %-34s%9sMiB |" % (a["pid"], a["process_name"], a["used_gpu_memory"]))
    if not running:
        lines.append("|  No running processes found                                                             |")
    lines.append(wide)
    out("\n".join(lines) + "\n")


def main(argv):
    kind, requested, fmt, loop_ms = None, None, "", 0
    i = 0
    while i < len(argv):
        arg = argv[i]
        value = arg.split("=", 1)[1] if "=" in arg else (argv[i + 1] if i + 1 < len(argv) else "")
        consumed = 1 if "=" in arg else 2
        if arg.startswith("--query-gpu"):
            kind, requested = "gpu", value
        elif arg.startswith("--query-compute-apps"):
            kind, requested = "apps", value
        elif arg.startswith("--query-retired-pages") or arg.startswith("--query-accounted-apps"):
            kind, requested = "none", value
        elif arg.startswith("--format"):
            fmt = value
        elif arg in ("-lms", "--loop-ms") or arg.startswith("--loop-ms="):
            loop_ms = max(1, int(value))
        elif arg in ("-l", "--loop") or arg.startswith("--loop="):
            loop_ms = max(1, int(value)) * 1000
        elif arg in ("-i", "--id") or arg.startswith("--id="):
            if value not in ("0", BUS, CONF["uuid"]):
                out("No devices were found\n")
                return 6
        else:
            consumed = 1
            if arg == "--help-query-gpu":
                return help_query("gpu") or 0
            if arg == "--help-query-compute-apps":
                return help_query("apps") or 0
            if arg in ("-q", "--query"):
                kind = "q"
            elif arg in ("-L", "--list-gpus"):
                out("GPU 0: %s (UUID: %s)\n" % (NAME, CONF["uuid"]))
                return 0
            elif arg in ("--version", "-h", "--help"):
                out("NVIDIA-SMI version  : %s\n%s (sandbox): no real GPU\nDRIVER version      : %s\n"
                    "CUDA Version        : %s\n" % (DRIVER, MARKER, DRIVER, CUDA))
                return 0
            elif arg == "topo":
                out("\tGPU0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\nGPU0\t X \t0-%d\t0\t\tN/A\n\n"
                    "Legend:\n\n  X    = Self\n" % ((os.cpu_count() or 1) - 1))
                return 0
            elif arg == "dmon":
                # GPM and the device monitor read hardware counters a simulated GPU does not have.
                out("%s: no device monitor or GPM metrics without a real GPU.\n" % MARKER)
                return 2
            elif arg in ("-x", "--xml-format"):
                out("The Gantry simulated GPU has no XML output; use -q or --query-gpu.\n\n")
                return 2
            elif arg != "-m":
                out("Invalid combination of input arguments. Please run 'nvidia-smi -h' for help.\n\n")
                return 2
        i += consumed
    if kind == "q":
        query_text()
    elif kind == "none":
        out("" if "noheader" in fmt else requested.replace(",", ", ") + "\n")
    elif kind:
        if not fmt:
            out('"--format" is required with "--query-gpu" and "--query-compute-apps".\n\n')
            return 2
        query(kind, requested, fmt, loop_ms)
    else:
        table()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (BrokenPipeError, KeyboardInterrupt):
        os._exit(0)
