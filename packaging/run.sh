#!/usr/bin/env bash
# One command for a new user: install what is missing, build, and start Gantry. With no cloud
# account configured Gantry opens on its local sandbox (instances are real sshd processes on
# 127.0.0.1), so the whole flow works without paying anyone.
set -euo pipefail
cd "$(dirname "$0")/.."
./packaging/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target gantry gantry-cli
if [ -x build/kernels/gantry-verify ] || cmake --build --preset default --target gantry-verify 2>/dev/null; then :; fi
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "run: no display found, starting Gantry under Xvfb (screenshot: build/gantry-screenshot.png)"
  exec xvfb-run -a -s "-screen 0 1280x800x24" ./build/app/gantry --screenshot build/gantry-screenshot.png "$@"
fi
exec ./build/app/gantry "$@"
