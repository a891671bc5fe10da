// gantry-verify: checks that a (rented) NVIDIA GPU is healthy and delivers its specification.
// Progress lines go to stderr, one JSON document (schema gantry-verify/1) to stdout.
// Exit status: 0 run completed (whatever the verdict), 2 usage, 3 no NVIDIA driver / no GPU,
// 4 driver too old for this binary, 1 watchdog (a GPU operation hung; JSON still printed).

#include "common.hpp"
#include "cuda_api.hpp"
#include "device.hpp"
#include "nvml_api.hpp"
#include "sampler.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using gv::Json;

void usage(FILE* f)
{
    std::fprintf(f,
                 "usage: gantry-verify [--quick] [--device N|all] [--seconds S] [--json-out FILE]\n"
                 "       gantry-verify --self-test-json | --version | --help\n"
                 "\n"
                 "Verifies NVIDIA GPUs: identity and state (NVML), memory integrity, device memory bandwidth,\n"
                 "host<->device bandwidth, FP32 and tensor throughput, a sustained burn with result comparison\n"
                 "and after-checks. Progress on stderr, one JSON document (gantry-verify/1) on stdout.\n"
                 "\n"
                 "  --quick           shorter run (about 15 s): smaller memory test, 4 s burn\n"
                 "  --device N|all    CUDA device ordinal to test (default: all, tested in parallel)\n"
                 "  --seconds S       burn duration in seconds (default 20, quick 4)\n"
                 "  --json-out FILE   also write the JSON document to FILE\n"
                 "  --self-test-json  print a sample document (no GPU needed) and exit 0\n"
                 "\n"
                 "exit status: 0 run completed (see \"verdict\"), 2 usage, 3 no NVIDIA driver or GPU,\n"
                 "4 driver too old for this binary, 1 watchdog (a GPU operation hung; JSON still printed)\n");
}

// Minimum driver for a CUDA driver API version (toolkit GA driver table, verification.md §4.1).
std::string driver_for_cuda(int v)
{
    struct Row {
        int cuda;
        const char* drv;
    };
    static const Row rows[] = {{11000, "450.80.02"}, {11010, "455.23"},    {11020, "460.27.03"}, {11030, "465.19.01"},
                               {11040, "470.42.01"}, {11050, "495.29.05"}, {11060, "510.39.01"}, {11070, "515.43.04"},
                               {11080, "520.61.05"}, {12000, "525.60.13"}, {12010, "530.30.02"}, {12020, "535.54.03"},
                               {12030, "545.23.06"}, {12040, "550.54.14"}, {12050, "555.42.02"}, {12060, "560.28.03"},
                               {12080, "570.26"},    {12090, "575.51.03"}, {13000, "580.65.06"}, {13010, "590.44.01"},
                               {13020, "595.45.04"}};
    const char* best = nullptr;
    for (const Row& r : rows)
        if (r.cuda <= v) best = r.drv;
    for (const Row& r : rows)
        if (r.cuda >= v) return r.drv;
    return best ? best : "?";
}

// PTX ISA version -> first CUDA release that understands it.
int cuda_for_ptx_isa(int major, int minor)
{
    if (major < 7) return 10000;
    if (major == 7) return 11000 + minor * 10; // 7.0 = 11.0 ... 7.8 = 11.8
    if (major == 8) {
        static const int m8[] = {12000, 12010, 12020, 12030, 12040, 12050, 12070, 12080, 12090};
        return minor >= 0 && minor <= 8 ? m8[minor] : 12090;
    }
    return 13000 + (minor * 10);
}

int fallback_min_cuda(const char* ptx)
{
    if (!ptx || !ptx[0]) return 0;
    const char* v = std::strstr(ptx, ".version ");
    if (!v) return 0;
    int maj = 0, min = 0;
    if (std::sscanf(v + 9, "%d.%d", &maj, &min) != 2) return 0;
    return cuda_for_ptx_isa(maj, min);
}

std::string cuda_text(int v) { return gv::fmt("%d.%d", v / 1000, (v % 1000) / 10); }

struct Doc {
    std::string mode = "full";
    std::optional<std::string> driver_version;
    std::optional<int> cuda_driver_api;
    bool nvml = false;
    std::vector<std::string> errors;
    std::string verdict = "error";
    Json gpus = Json::array();

    Json to_json(double duration) const
    {
        Json j = Json::object();
        j.set("schema", gv::kSchema).set("tool_version", gv::kToolVersion).set("mode", mode);
        j.set("driver_version", driver_version).set("cuda_driver_api", cuda_driver_api).set("nvml", nvml);
        j.set("duration_s", duration);
        Json e = Json::array();
        for (const auto& s : errors) e.push(s);
        j.set("errors", e).set("verdict", verdict).set("gpus", gpus.empty() ? Json::array() : gpus);
        return j;
    }
};

int emit(const Doc& doc, const gv::Options& opt, int code)
{
    const std::string text = doc.to_json(gv::now_s()).dump(1) + "\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    if (!opt.json_out.empty()) {
        std::ofstream f(opt.json_out, std::ios::binary | std::ios::trunc);
        f << text;
        if (!f) std::fprintf(stderr, "gantry-verify: cannot write %s\n", opt.json_out.c_str());
    }
    return code;
}

void say(const std::string& s)
{
    std::fprintf(stderr, "gantry-verify: %s\n", s.c_str());
    std::fflush(stderr);
}

// Returns the exit status when the arguments end the program (usage error, --version, --help).
std::optional<int> parse_arguments(int argc, char** argv, gv::Options& opt)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](std::string& out) {
            if (i + 1 >= argc) return false;
            out = argv[++i];
            return true;
        };
        std::string v;
        if (a == "--quick") {
            opt.quick = true;
        } else if (a == "--device") {
            if (!value(v)) return usage(stderr), 2;
            if (v == "all") {
                opt.all_devices = true;
            } else {
                char* end = nullptr;
                const long n = std::strtol(v.c_str(), &end, 10);
                if (v.empty() || *end || n < 0 || n > 1024) return usage(stderr), 2;
                opt.all_devices = false;
                opt.device = static_cast<int>(n);
            }
        } else if (a == "--seconds") {
            if (!value(v)) return usage(stderr), 2;
            char* end = nullptr;
            opt.burn_seconds = std::strtod(v.c_str(), &end);
            if (v.empty() || *end || !(opt.burn_seconds > 0) || opt.burn_seconds > 3600) return usage(stderr), 2;
        } else if (a == "--json-out") {
            if (!value(opt.json_out)) return usage(stderr), 2;
        } else if (a == "--self-test-json") {
            opt.self_test_json = true;
        } else if (a == "--version") {
            std::printf("gantry-verify %s (%s, built with CUDA %d.%d)\n", gv::kToolVersion, gv::kSchema,
                        CUDA_VERSION / 1000, (CUDA_VERSION % 1000) / 10);
            return 0;
        } else if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else {
            std::fprintf(stderr, "gantry-verify: unknown argument '%s'\n", a.c_str());
            usage(stderr);
            return 2;
        }
    }
    return std::nullopt;
}

int print_sample_document(const gv::Options& opt)
{
    const std::string text = gv::sample_document().dump(1) + "\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
    if (!opt.json_out.empty()) std::ofstream(opt.json_out, std::ios::binary | std::ios::trunc) << text;
    return 0;
}

// The embedded code needs the newer of the two fallback PTX ISAs, or CUDA_VERSION when the build
// validated no fallback.
int needed_cuda()
{
    const gv::DeviceCode code = gv::embedded_code();
    const int fb = std::max(fallback_min_cuda(code.ptx80), fallback_min_cuda(code.ptx75));
    return fb > 0 ? std::min(fb, static_cast<int>(CUDA_VERSION)) : static_cast<int>(CUDA_VERSION);
}

// Loads libcuda and NVML and refuses a driver too old for the embedded code; drv is its CUDA API
// version. Returns the exit status when the run cannot go on.
std::optional<int> open_driver(Doc& doc, gv::CudaApi& cu, gv::NvmlApi& nv, int& drv)
{
    const bool have_nvml = nv.load();
    if (!cu.load()) {
        doc.errors.push_back(cu.load_error);
        if (!have_nvml) doc.nvml = false;
        say(cu.load_error);
        return 3;
    }
    doc.nvml = have_nvml;
    if (have_nvml && nv.SystemGetDriverVersion) {
        char buf[96] = {};
        if (nv.SystemGetDriverVersion(buf, sizeof buf - 1) == gv::NVML_SUCCESS) doc.driver_version = std::string(buf);
    }
    if (!have_nvml) doc.errors.push_back(nv.load_error + "; NVML-based checks are skipped");

    if (cu.DriverGetVersion(&drv) == CUDA_SUCCESS) doc.cuda_driver_api = drv;
    const int needed = needed_cuda();
    if (drv < needed) {
        doc.errors.push_back(gv::fmt("driver too old: this gantry-verify needs an NVIDIA driver that supports CUDA %s or "
                                     "newer (driver >= %s); the installed driver supports CUDA %s%s",
                                     cuda_text(needed).c_str(), driver_for_cuda(needed).c_str(), cuda_text(drv).c_str(),
                                     doc.driver_version ? (" (driver " + *doc.driver_version + ")").c_str() : ""));
        say(doc.errors.back());
        return 4;
    }
    return std::nullopt;
}

std::optional<int> init_cuda(Doc& doc, const gv::CudaApi& cu)
{
    const CUresult ri = cu.Init(0);
    if (ri != CUDA_SUCCESS) {
        std::string m;
        int code_exit = 3;
        if (ri == CUDA_ERROR_NO_DEVICE) {
            m = "no NVIDIA GPU visible to CUDA (CUDA_ERROR_NO_DEVICE); check CUDA_VISIBLE_DEVICES and the container's GPU "
                "access";
        } else if (ri == CUDA_ERROR_SYSTEM_NOT_READY) {
            m = "CUDA error 802 'system not yet initialized': on NVSwitch systems (HGX) start the Fabric Manager "
                "(systemctl start nvidia-fabricmanager)";
        } else if (ri == CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) {
            m = "the CUDA forward-compatibility driver in use does not support this GPU "
                "(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE): remove cuda-compat from LD_LIBRARY_PATH or install "
                "NVIDIA driver >= " + driver_for_cuda(needed_cuda());
            code_exit = 4;
        } else if (ri == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH) {
            m = "the CUDA user-mode driver does not match the kernel module (CUDA_ERROR_SYSTEM_DRIVER_MISMATCH): reboot "
                "or reinstall the driver";
        } else {
            m = "cuInit failed: " + cu.error_text(ri);
        }
        doc.errors.push_back(m);
        say(m);
        return code_exit;
    }
    return std::nullopt;
}

std::optional<int> select_devices(Doc& doc, const gv::CudaApi& cu, const gv::Options& opt, std::vector<int>& ordinals)
{
    int count = 0;
    cu.DeviceGetCount(&count);
    if (count <= 0) {
        doc.errors.push_back("no NVIDIA GPU visible to CUDA");
        say(doc.errors.back());
        return 3;
    }
    if (opt.all_devices) {
        for (int i = 0; i < count; ++i) ordinals.push_back(i);
    } else if (opt.device < count) {
        ordinals.push_back(opt.device);
    } else {
        doc.errors.push_back(gv::fmt("--device %d: only %d GPU(s) visible", opt.device, count));
        say(doc.errors.back());
        return 2;
    }
    return std::nullopt;
}

using Runs = std::vector<std::unique_ptr<gv::DeviceRun>>;

// Identity of every GPU first, then contexts and modules: NVML's process snapshot must not see ours.
// Returns false when no GPU could load the code because the driver is too old for it.
bool prepare_runs(Doc& doc, gv::RunContext& rc, const std::vector<int>& ordinals, Runs& runs)
{
    for (int o : ordinals) {
        auto r = std::make_unique<gv::DeviceRun>(rc, o);
        try {
            r->collect_identity();
        } catch (const std::exception& e) {
            doc.errors.push_back(gv::fmt("GPU %d: ", o) + e.what());
        }
        runs.push_back(std::move(r));
    }
    int loaded = 0, too_new = 0;
    for (auto& r : runs) {
        if (r->init_context()) {
            ++loaded;
        } else {
            doc.errors.push_back(r->load_error());
            if (r->ptx_too_new()) ++too_new;
        }
    }
    if (loaded == 0 && too_new > 0) {
        doc.errors.push_back("driver too old for this binary's GPU code: install NVIDIA driver >= " +
                             driver_for_cuda(static_cast<int>(CUDA_VERSION)) + " (CUDA " +
                             cuda_text(static_cast<int>(CUDA_VERSION)) + ")");
        say(doc.errors.back());
        return false;
    }
    return true;
}

std::atomic<bool> tests_finished{false};

// A hung GPU operation must not leave the caller waiting forever. After the limit the JSON is
// printed with an error and the process exits 1 without cleaning up.
void start_watchdog(const gv::Options& opt, Doc doc)
{
    double limit = (opt.quick ? 120.0 : 240.0) + std::max(0.0, opt.burn_seconds);
    if (const char* w = std::getenv("GANTRY_VERIFY_WATCHDOG_S"); w && std::atof(w) > 0) limit = std::atof(w);
    std::thread([limit, &opt, doc = std::move(doc)]() mutable {
        while (!tests_finished.load()) {
            if (gv::now_s() > limit) {
                doc.errors.push_back(gv::fmt("watchdog: no result after %.0f s, a GPU operation hung (the GPU may "
                                             "have fallen off the bus: check dmesg for Xid errors)",
                                             limit));
                doc.verdict = "error";
                say(doc.errors.back());
                emit(doc, opt, 1);
                std::_Exit(1);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
    }).detach();
}

// One thread per GPU, so several GPUs are tested in parallel.
void run_tests(const Runs& runs)
{
    std::vector<std::thread> threads;
    for (auto& r : runs) threads.emplace_back([&r] { r->run_tests(); });
    for (auto& t : threads) t.join();
}

void record_results(Doc& doc, const Runs& runs)
{
    int worst = 0;
    for (auto& r : runs) {
        doc.gpus.push(r->to_json());
        worst = std::max(worst, gv::severity(r->verdict()));
    }
    doc.verdict = worst >= 3 ? "fail" : worst == 2 ? "warn" : "pass";
}

} // namespace

int main(int argc, char** argv)
{
    gv::now_s(); // start the clock
    gv::Options opt;
    if (const std::optional<int> stop = parse_arguments(argc, argv, opt)) return *stop;
    if (opt.self_test_json) return print_sample_document(opt);

    Doc doc;
    doc.mode = opt.quick ? "quick" : "full";
    gv::CudaApi cu;
    gv::NvmlApi nv;
    say(gv::fmt("[  0%%] setup: starting (%s mode)", doc.mode.c_str()));
    int drv = 0;
    std::vector<int> ordinals;
    std::optional<int> stop = open_driver(doc, cu, nv, drv);
    if (!stop) stop = init_cuda(doc, cu);
    if (!stop) stop = select_devices(doc, cu, opt, ordinals);
    if (stop) {
        nv.unload();
        return emit(doc, opt, *stop);
    }
    gv::RunContext rc(cu, nv, opt);
    rc.driver_api = drv;
    rc.gpu_count = static_cast<int>(ordinals.size());
    Runs runs;
    if (!prepare_runs(doc, rc, ordinals, runs)) {
        nv.unload();
        return emit(doc, opt, 4);
    }
    start_watchdog(opt, doc);
    run_tests(runs);
    tests_finished = true;
    record_results(doc, runs);
    say(gv::fmt("[100%%] summary: done in %.1f s, verdict %s", gv::now_s(), doc.verdict.c_str()));
    runs.clear(); // release contexts before NVML shutdown
    nv.unload();
    return emit(doc, opt, 0);
}
