#!/usr/bin/env bash
# Builds the libFuzzer harnesses (preset fuzz: clang, ASan + UBSan) and runs each for SECONDS
# (default 60), one after the other, starting from its seeds (tests/fuzz/corpus/NAME and the
# matching tests/fixtures captures). Prints per harness the executions, exec/s and findings;
# exits non-zero when any harness crashed, timed out or ran out of memory. Findings land in
# build-fuzz/fuzz-findings/NAME/; reproduce one with build-fuzz/tests/fuzz/fuzz_NAME FILE.
#
#   packaging/fuzz.sh [SECONDS] [NAME…]     e.g. packaging/fuzz.sh 300 nvsmi_csv proc
#   GANTRY_FUZZ_RUNS=1000000 packaging/fuzz.sh 3600
#                                            each harness until it has run that many inputs
#                                            (SECONDS is then the cap per harness)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
[ $# -gt 0 ] && shift
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "usage: packaging/fuzz.sh [SECONDS] [HARNESS…]" >&2
  exit 2
fi
if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh needs clang++ with libFuzzer: apt-get install clang libclang-rt-dev (Debian 12: clang-14)" >&2
  exit 2
fi

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake --preset fuzz "${launcher[@]}" >/dev/null
build=build-fuzz
harnesses=("$@")
# Named harnesses build only what they link (a long run of a few need not build them all).
targets=(fuzz_all)
if [ ${#harnesses[@]} -gt 0 ]; then
  targets=()
  for h in "${harnesses[@]}"; do targets+=("fuzz_$h"); done
fi
cmake --build --preset fuzz --target "${targets[@]}" -j "$(nproc)"

if [ ${#harnesses[@]} -eq 0 ]; then
  for d in "$build"/tests/fuzz/seeds/*/; do harnesses+=("$(basename "$d")"); done
fi

# Leaks are not findings here: Qt keeps process-lifetime allocations.
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# Inputs longer than this are cut (seeds included): the nvidia-smi captures are 8–95 KB (the
# --help-query-gpu ones 19–35 KB) and parsing them whole under ASan ran at 40–200 exec/s; these
# parsers work line by line, and 4 KB keeps several GPU sections or a hundred help lines.
declare -A max_len=([nvsmi_query]=4096 [nvsmi_csv]=4096 [nvsmi_help]=4096)
failed=0
printf '%-16s %12s %10s %s\n' harness execs exec/s findings
for h in "${harnesses[@]}"; do
  exe="$build/tests/fuzz/fuzz_$h"
  [ -x "$exe" ] || { echo "no harness $h (expected $exe)" >&2; failed=1; continue; }
  work="$build/fuzz-corpus/$h"
  findings="$build/fuzz-findings/$h"
  rm -rf "$findings"
  mkdir -p "$work" "$findings"
  log="$build/fuzz-logs/$h.log"
  mkdir -p "$(dirname "$log")"
  set +e
  limit=()
  [ -n "${max_len[$h]:-}" ] && limit=(-max_len="${max_len[$h]}")
  [ -n "${GANTRY_FUZZ_RUNS:-}" ] && limit+=(-runs="$GANTRY_FUZZ_RUNS")
  "$exe" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 "${limit[@]}" \
    -artifact_prefix="$findings/" "$work" "$build/tests/fuzz/seeds/$h" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  found=$(find "$findings" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
  if [ -n "${GANTRY_FUZZ_RUNS:-}" ] && [ "${execs:-0}" -lt "$GANTRY_FUZZ_RUNS" ] && [ "$rc" -eq 0 ] && [ "$found" -eq 0 ]; then
    printf '%-16s %12s %10s %s\n' "$h" "${execs:-?}" "${rate:-?}" "0 (stopped at the $seconds s cap before $GANTRY_FUZZ_RUNS runs)"
  elif [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
    failed=1
    printf '%-16s %12s %10s %s\n' "$h" "${execs:-?}" "${rate:-?}" "$found (rc $rc; see $log and $findings)"
  else
    printf '%-16s %12s %10s %s\n' "$h" "${execs:-?}" "${rate:-?}" 0
  fi
done
exit "$failed"
