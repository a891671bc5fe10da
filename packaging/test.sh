#!/usr/bin/env bash
# One command: install what is missing, build everything with warnings as errors, run every test.
# Also builds the headless configuration (core + CLI + core tests, no Widgets/Charts) to prove
# that core/ never needs a widget, and runs its tests but the eighteen slowest (they already ran
# against the same core in the GUI configuration; the headless test preset names them), so CI
# stays within 30 minutes on 2 cores.
#
#   packaging/test.sh              the default run described above
#   packaging/test.sh --sanitize   only the asan preset (GCC, AddressSanitizer + UBSan, build-asan):
#                                  the whole suite, stopping at the first report of either
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=0
case "${1:-}" in
  "") ;;
  --sanitize) sanitize=1 ;;
  *) echo "usage: packaging/test.sh [--sanitize]" >&2; exit 2 ;;
esac
./packaging/install-deps.sh

export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d /tmp/gantry-xdg.XXXXXX)}"
chmod 700 "$XDG_RUNTIME_DIR"
export QT_QPA_PLATFORM=offscreen
jobs="$(nproc)"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Paths relative to the checkout in ccache's keys: a second clone (a fresh-clone check, a git
# worktree) reuses what the first one compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"

if [ "$sanitize" -eq 1 ]; then
  # Leaks are not checked: Qt, fontconfig and libssh keep process-lifetime allocations that
  # LeakSanitizer reports although nothing is lost while the program runs.
  export ASAN_OPTIONS="halt_on_error=1:detect_leaks=0"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
  echo "== sanitizer build (ASan + UBSan, build-asan)"
  cmake --preset asan "${launcher[@]}" >/dev/null
  cmake --build --preset asan -j "$jobs"
  echo "== tests under ASan + UBSan"
  ctest --preset asan -j "$jobs" --timeout 1200
  exit 0
fi

echo "== build (GUI + CLI + kernels + tests, -Werror)"
cmake --preset ci "${launcher[@]}" >/dev/null
cmake --build --preset ci -j "$jobs"
echo "== tests"
ctest --preset ci -j "$jobs" --timeout 600

echo "== headless build (no Widgets/Charts)"
cmake --preset headless "${launcher[@]}" >/dev/null
cmake --build --preset headless -j "$jobs"
if ldd build-headless/app/gantry-cli | grep -q "libQt6Widgets\|libQt6Charts"; then
  echo "gantry-cli links Qt Widgets: core/ must stay headless" >&2
  exit 1
fi
ctest --preset headless -j "$jobs" --timeout 600
