# Gantry's PyTorch fallback check: used when gantry-verify cannot run on the instance.
# Prints progress on stderr and one gantry-verify/1 JSON document (mode "torch") on stdout.
import json
import sys
import time

doc = {"schema": "gantry-verify/1", "tool_version": "torch-fallback-1", "mode": "torch",
       "driver_version": None, "cuda_driver_api": None, "nvml": False, "duration_s": None,
       "errors": [], "verdict": "error", "gpus": []}
started = time.time()


def progress(pct, text):
    sys.stderr.write("gantry-verify: [%3d%%] %s\n" % (pct, text))
    sys.stderr.flush()


def finish(code):
    doc["duration_s"] = round(time.time() - started, 2)
    print(json.dumps(doc))
    sys.exit(code)


try:
    import torch
except Exception as e:
    doc["errors"].append("PyTorch is not importable: %s" % e)
    finish(3)

if not torch.cuda.is_available():
    doc["errors"].append("PyTorch %s (CUDA %s) cannot use the GPU: torch.cuda.is_available() is False"
                         % (torch.__version__, torch.version.cuda))
    finish(3)

quick = "--quick" in sys.argv
seconds = 0.5 if quick else 2.0
verdicts = []
count = torch.cuda.device_count()
for index in range(count):
    dev = torch.device("cuda", index)
    props = torch.cuda.get_device_properties(index)
    gpu = {"index": index, "name": props.name, "uuid": str(getattr(props, "uuid", "")) or None,
           "pci_bus_id": None, "pci_device_id": None,
           "compute_capability": "%d.%d" % (props.major, props.minor),
           "sm_count": props.multi_processor_count, "memory_total_mib": props.total_memory // (1024 * 1024),
           "bus_width_bits": None, "max_mem_clock_mhz": None, "max_sm_clock_mhz": None,
           "ecc_enabled": None, "mig_enabled": None, "power_limit_w": None, "default_power_limit_w": None,
           "pcie_gen_max": None, "pcie_width_max": None, "verdict": "pass", "tests": []}
    tests = gpu["tests"]
    base = int(100 * index / max(count, 1))
    progress(base, "gpu %d: device bandwidth (torch copy)" % index)
    try:
        n = 256 * 1024 * 1024  # 1 GiB of float32
        a = torch.empty(n, dtype=torch.float32, device=dev)
        b = torch.empty_like(a)
        b.copy_(a)
        torch.cuda.synchronize(dev)
        reps, t0 = 0, time.time()
        while time.time() - t0 < seconds:
            b.copy_(a)
            reps += 1
            torch.cuda.synchronize(dev)
        gbs = 2 * n * 4 * reps / (time.time() - t0) / 1e9
        tests.append({"id": "device_bandwidth", "name": "Device memory bandwidth (torch copy)", "status": "pass",
                      "measured": round(gbs, 1), "expected": None, "unit": "GB/s", "ratio": None,
                      "message": "judged against the spec table by Gantry", "details": {}})
        del a, b
    except Exception as e:
        tests.append({"id": "device_bandwidth", "name": "Device memory bandwidth (torch copy)", "status": "error",
                      "measured": None, "expected": None, "unit": "GB/s", "ratio": None, "message": str(e),
                      "details": {}})
    progress(base + int(50 / max(count, 1)), "gpu %d: bf16 matmul" % index)
    try:
        m = 8192
        x = torch.randn(m, m, dtype=torch.bfloat16, device=dev)
        y = torch.randn(m, m, dtype=torch.bfloat16, device=dev)
        torch.matmul(x, y)
        torch.cuda.synchronize(dev)
        reps, t0 = 0, time.time()
        while time.time() - t0 < seconds:
            torch.matmul(x, y)
            reps += 1
            torch.cuda.synchronize(dev)
        tflops = 2 * m ** 3 * reps / (time.time() - t0) / 1e12
        tests.append({"id": "tensor_bf16", "name": "BF16 matmul (torch)", "status": "pass",
                      "measured": round(tflops, 1), "expected": None, "unit": "TFLOPS", "ratio": None,
                      "message": "judged against the spec table by Gantry", "details": {}})
        del x, y
    except Exception as e:
        tests.append({"id": "tensor_bf16", "name": "BF16 matmul (torch)", "status": "error", "measured": None,
                      "expected": None, "unit": "TFLOPS", "ratio": None, "message": str(e), "details": {}})
    torch.cuda.empty_cache()
    if any(t["status"] == "error" for t in tests):
        gpu["verdict"] = "warn"
    verdicts.append(gpu["verdict"])
    doc["gpus"].append(gpu)

progress(100, "done")
doc["verdict"] = "warn" if "warn" in verdicts else "pass"
finish(0)
