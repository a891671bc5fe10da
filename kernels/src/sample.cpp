// The --self-test-json document: every field of gantry-verify/1 with plausible H200 figures, so the
// app side can test parsing and display without a GPU. Values are illustrative, not measured.
#include "common.hpp"

namespace gv {
namespace {

Json test(const char* id, const char* name, const char* status, Json measured, Json expected, const char* unit,
          Json ratio, const char* message, Json details = Json::object())
{
    Json t = Json::object();
    t.set("id", id).set("name", name).set("status", status).set("measured", measured).set("expected", expected);
    t.set("unit", unit).set("ratio", ratio).set("message", message).set("details", details);
    return t;
}

} // namespace

Json sample_document()
{
    Json tests = Json::array();
    tests.push(test("identity", "Identity and state", "pass", 143771.0, nullptr, "MiB", nullptr,
                    "(sample) NVIDIA H200 with 132 SMs and 143771 MiB; no ECC errors, no pending remaps, no other "
                    "processes.",
                    Json::object().set("code_path", "fatbin").set("code_arch", 900).set("other_processes", 0)));
    tests.push(test("memory_integrity", "Memory integrity (address, walking bit, random + complement)", "pass", 0.0, 0.0,
                    "miscompares", nullptr,
                    "(sample) 9 pattern passes over 131.5 GiB (94% of free memory) read back without a single error.",
                    Json::object().set("gib_tested", 131.5).set("fraction_of_free", 0.94)));
    tests.push(test("device_bandwidth", "Device memory bandwidth (copy)", "pass", 4210.5, 4917.2, "GB/s", 0.8563,
                    "(sample) Memory bandwidth 4211 GB/s is 86% of the 4917 GB/s the memory clock and bus width allow.",
                    Json::object().set("copy_gbs", 4210.5).set("triad_gbs", 4150.2)));
    tests.push(test("host_device_bandwidth", "Host-device bandwidth (pinned, both directions)", "pass", 50.1, 63.02,
                    "GB/s", 0.795,
                    "(sample) Host to device 54.8 GB/s and device to host 50.1 GB/s over PCIe Gen5 x16.",
                    Json::object().set("h2d_gbs", 54.8).set("d2h_gbs", 50.1).set("pcie_gen_under_load", 5)
                        .set("pcie_width_under_load", 16)));
    tests.push(test("fp32_fma", "FP32 FMA throughput (clock-normalised)", "pass", 63.1, 66.9, "TFLOP/s", 0.943,
                    "(sample) 63.1 TFLOP/s FP32 is 94% of the peak of 132 SMs at the measured 1980 MHz.",
                    Json::object().set("sm_clock_mhz_used", 1980).set("fp32_lanes_per_sm", 128)));
    tests.push(test("tensor_bf16", "Tensor cores BF16 (mma.sync, FP32 accumulate)", "pass", 660.0, 1070.5, "TFLOP/s",
                    0.6165, "(sample) 660 TFLOP/s BF16 is 62% of the dense tensor rate at the measured 1980 MHz.",
                    Json::object().set("dense_flop_per_sm_per_clock", 4096)));
    tests.push(test("tensor_fp16", "Tensor cores FP16 (mma.sync, FP32 accumulate)", "pass", 662.0, 1070.5, "TFLOP/s",
                    0.6184, "(sample) 662 TFLOP/s FP16 is 62% of the dense tensor rate at the measured 1980 MHz."));
    tests.push(test("burn", "Sustained burn with result comparison", "warn", 0.0, 0.0, "miscompares", nullptr,
                    "(sample) No miscompares in 20 s, but the GPU slowed its clocks for protection "
                    "(hw_power_brake_slowdown).",
                    Json::object().set("seconds", 20.0).set("rounds", 180).set("clock_event_reasons",
                                                                               "sw_power_cap,hw_power_brake_slowdown")));
    tests.push(test("after_checks", "After-checks (ECC, row remap, Xid)", "skip", nullptr, 0.0, "errors", nullptr,
                    "(sample) NVML is not available, so ECC counters and Xid events cannot be read."));

    Json g = Json::object();
    g.set("index", 0).set("name", "NVIDIA H200").set("uuid", "GPU-00000000-0000-0000-0000-000000000000");
    g.set("pci_bus_id", "00000000:19:00.0").set("pci_device_id", "0x233510DE").set("compute_capability", "9.0");
    g.set("sm_count", 132).set("memory_total_mib", 143771).set("bus_width_bits", 6144);
    g.set("max_mem_clock_mhz", 3201).set("max_sm_clock_mhz", 1980).set("ecc_enabled", true).set("mig_enabled", false);
    g.set("power_limit_w", 700.0).set("default_power_limit_w", 700.0).set("pcie_gen_max", 5).set("pcie_width_max", 16);
    g.set("verdict", "warn").set("tests", tests);

    Json doc = Json::object();
    doc.set("schema", kSchema).set("tool_version", kToolVersion).set("mode", "full");
    doc.set("driver_version", "580.95.05").set("cuda_driver_api", 13000).set("nvml", true).set("duration_s", 41.7);
    doc.set("errors", Json::array()).set("verdict", "warn");
    doc.set("gpus", Json::array().push(g));
    return doc;
}

} // namespace gv
