// Shared helpers and result types for gantry-verify.
#pragma once

#include "json.hpp"

#include <algorithm>
#include <cstdarg>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gv {

inline constexpr const char* kToolVersion = "0.1.0";
inline constexpr const char* kSchema = "gantry-verify/1";

struct Options {
    bool quick = false;
    bool all_devices = true;
    int device = -1;
    double burn_seconds = -1; // < 0: default for the mode
    std::string json_out;
    bool self_test_json = false;
};

struct TestResult {
    std::string id, name, status = "skip", unit, message;
    std::optional<double> measured, expected, ratio;
    Json details = Json::object();

    Json to_json() const
    {
        Json j = Json::object();
        j.set("id", id).set("name", name).set("status", status);
        j.set("measured", measured).set("expected", expected).set("unit", unit).set("ratio", ratio);
        j.set("message", message).set("details", details);
        return j;
    }
};

struct CudaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
inline std::string fmt(const char* f, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

inline double median(std::vector<double> v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Status from a ratio and two thresholds (pass >= p, warn >= w, else fail).
inline std::string grade(double ratio, double pass_at, double warn_at)
{
    if (ratio >= pass_at) return "pass";
    if (ratio >= warn_at) return "warn";
    return "fail";
}

inline int severity(const std::string& s)
{
    if (s == "fail" || s == "error") return 3;
    if (s == "warn") return 2;
    if (s == "pass") return 1;
    return 0; // skip
}

// The sample document for --self-test-json (no GPU needed).
Json sample_document();

} // namespace gv
