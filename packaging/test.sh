#!/usr/bin/env bash
# One command: install what is missing, build everything with warnings as errors, run every test.
# Also builds the headless configuration (core + CLI + core tests, no Widgets/Charts) to prove
# that core/ never needs a widget.
set -euo pipefail
cd "$(dirname "$0")/.."
./packaging/install-deps.sh

export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d /tmp/gantry-xdg.XXXXXX)}"
chmod 700 "$XDG_RUNTIME_DIR"
export QT_QPA_PLATFORM=offscreen
jobs="$(nproc)"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

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
