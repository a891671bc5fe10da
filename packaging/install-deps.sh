#!/usr/bin/env bash
# Installs what Gantry needs to build, run and test, and only what is missing (idempotent).
# Debian 12 or Ubuntu 24.04+ (Ubuntu 22.04 ships Qt 6.2 and libssh 0.9, older than Gantry needs).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev libqt6sql6-sqlite qt6-l10n-tools
  # translations: Qt6LinguistTools (qt_add_translations), Qt's own zh_CN strings, a CJK font
  qt6-tools-dev qt6-translations-l10n fonts-noto-cjk
  libssh-dev libcurl4-openssl-dev qtkeychain-qt6-dev libarchive-dev
  # managed runs' spec files (YAML)
  libyaml-cpp-dev
  openssh-server openssh-client
  # tests, benchmarks and screenshots
  xvfb xauth procps rsync tmux screen python3
  # cluster tests: a real multi-node torchrun over loopback (CPU, gloo) and `ip -o addr`
  python3-torch iproute2
  # object storage: the SigV4 signer is checked against botocore on the same inputs
  python3-botocore
  # packages: man pages, and the validators the packaging test runs on the .desktop and metainfo
  help2man desktop-file-utils appstream
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
