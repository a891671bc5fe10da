#!/usr/bin/env bash
# One-shot device check for gantry-verify on a GPU machine (designed for <= 5 minutes on an H200).
#
# Run from the repository root. Uses, in order:
#   $GANTRY_VERIFY_BIN, build-kernels/kernels/gantry-verify, build/kernels/gantry-verify,
#   or builds kernels/ standalone with nvcc if the machine has one (cmake -S kernels).
# With the `device` tool, carry the binary built on the CPU machine:
#   run(command="bash kernels/device-check.sh", carry=["build-kernels/kernels/gantry-verify"], timeout_s=420)
#
# Writes everything to $OUT (default ./device-check-out):
#   env.txt           nvidia-smi, driver, binary info
#   quick.json/.err   gantry-verify --quick
#   full1.json/.err   gantry-verify (full run)
#   full2.json/.err   second full run (repeatability: figures should agree within 3 %)
#   jit.json/.err     --quick with CUDA_FORCE_PTX_JIT=1 (forces the low-ISA PTX fallback path)
#   summary.txt       the key figures of every run side by side
set -u
OUT="${OUT:-$PWD/device-check-out}"
mkdir -p "$OUT"
cd "$(dirname "$0")/.." || exit 1

log() { echo "device-check: $*" | tee -a "$OUT/summary.txt" >&2; }

BIN="${GANTRY_VERIFY_BIN:-}"
for c in build-kernels/kernels/gantry-verify build/kernels/gantry-verify; do
    [ -z "$BIN" ] && [ -x "$c" ] && BIN="$c"
done
if [ -n "$BIN" ] && ! "$BIN" --version >"$OUT/prebuilt-version.txt" 2>&1; then
    log "prebuilt $BIN does not start here (see prebuilt-version.txt, e.g. glibc too old): trying a local build"
    BIN=""
fi
if [ -z "$BIN" ]; then
    NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
    if [ -x "$NVCC" ] && command -v cmake >/dev/null; then
        log "no prebuilt binary: building kernels/ standalone with $NVCC"
        CUDACXX="$NVCC" cmake -S kernels -B "$OUT/build" -DCMAKE_BUILD_TYPE=Release >"$OUT/build.log" 2>&1 &&
            cmake --build "$OUT/build" -j >>"$OUT/build.log" 2>&1 && BIN="$OUT/build/kernels/gantry-verify"
    fi
fi
if [ -z "$BIN" ] || [ ! -x "$BIN" ]; then
    log "no gantry-verify binary and no way to build one"
    exit 1
fi

{
    echo "binary: $BIN"
    "$BIN" --version
    ls -l "$BIN"
    sha256sum "$BIN" 2>/dev/null
    echo
    nvidia-smi 2>&1
    nvidia-smi -q -d CLOCK,POWER,ECC,PCIE,PERFORMANCE 2>&1 | head -200
} >"$OUT/env.txt" 2>&1

run() { # name, env..., -- args...
    local name="$1"
    shift
    local envs=()
    while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    local t0 t1 rc
    t0=$(date +%s.%N)
    env ${envs[@]+"${envs[@]}"} "$BIN" "$@" --json-out "$OUT/$name.json" >"$OUT/$name.stdout" 2>"$OUT/$name.err"
    rc=$?
    t1=$(date +%s.%N)
    log "$name: exit $rc in $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s"
}

run quick -- --quick
run full1 -- 
run full2 --
run jit CUDA_FORCE_PTX_JIT=1 CUDA_CACHE_DISABLE=1 -- --quick

# Side-by-side summary (python3 if present, else grep).
if command -v python3 >/dev/null; then
    python3 - "$OUT" >>"$OUT/summary.txt" 2>&1 <<'EOF'
import json, sys, os
out = sys.argv[1]
for name in ["quick", "full1", "full2", "jit"]:
    p = os.path.join(out, name + ".json")
    try:
        d = json.load(open(p))
    except Exception as e:
        print(f"{name}: no JSON ({e})"); continue
    print(f"== {name}: verdict {d['verdict']} duration {d['duration_s']} s driver {d['driver_version']} errors {d['errors']}")
    for g in d["gpus"]:
        print(f"  gpu{g['index']} {g['name']} cc {g['compute_capability']} sms {g['sm_count']} verdict {g['verdict']}")
        for t in g["tests"]:
            det = t.get("details", {})
            extra = {k: det[k] for k in ("code_path", "copy_gbs", "triad_gbs", "h2d_gbs", "d2h_gbs",
                     "sm_clock_mhz_used", "clock_event_reasons", "tflops_median", "throughput_drift",
                     "power_w_median", "temperature_c_max", "gib_tested", "seconds") if k in det}
            print(f"    {t['id']:22s} {t['status']:5s} measured {t['measured']} expected {t['expected']} "
                  f"{t['unit']} ratio {t['ratio']} {extra}")
            print(f"      {t['message']}")
EOF
else
    grep -h -E '"(id|status|measured|expected|ratio)"' "$OUT"/*.json >>"$OUT/summary.txt"
fi
cat "$OUT/summary.txt"
