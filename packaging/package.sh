#!/usr/bin/env bash
# Builds the Debian package and the tarball: Release, no tests, installed under /usr.
#   packaging/package.sh [OUTDIR]       (default: dist/)
# Uses build-package/ as its build directory. gantry-verify is prebuilt into the packages only
# when nvcc is found (PATH or /usr/local/cuda/bin); otherwise they ship the kernels/ sources alone
# and Verify builds them on the instance. The script says which.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(realpath -m "${1:-dist}")"
build=build-package
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# -Werror like CI by default (same flags, so ccache reuses CI's objects); GANTRY_WERROR=OFF
# packaging/package.sh for a compiler newer than the one the code is checked with.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DGANTRY_TESTS=OFF -DGANTRY_WERROR="${GANTRY_WERROR:-ON}" "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)"
mkdir -p "$out"
(cd "$build" && cpack -G DEB -B "$out" >/dev/null && cpack -G TGZ -B "$out" >/dev/null)
rm -rf "$out/_CPack_Packages"

if [ -x "$build/kernels/gantry-verify" ]; then
  echo "package: prebuilt gantry-verify included (plus the kernels/ sources)"
else
  echo "package: no nvcc, so no prebuilt gantry-verify: the packages ship the kernels/ sources only"
fi
version="$(sed -n 's/^project(Gantry VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
ls -1 "$out"/gantry_"${version}"_*.deb "$out"/gantry-"${version}"-Linux-*.tar.gz
