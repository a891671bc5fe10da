# Gantry doctor: gathers in one exec what users check by hand on a fresh GPU instance.
# Prints "@@gantry <section>@@" headers, each command's output, then "@@rc <status>@@".
# POSIX sh; every probe is optional and bounded in time, so a broken driver cannot hang it.
LC_ALL=C
export LC_ALL
PATH="$PATH:/usr/local/cuda/bin:/usr/local/nvidia/bin:/usr/bin:/usr/sbin:/sbin"
if command -v timeout >/dev/null 2>&1; then T="timeout 60"; else T=""; fi
section() { printf '\n@@gantry %s@@\n' "$1"; }
rc() { printf '\n@@rc %s@@\n' "$1"; }

section arch
uname -m
rc $?

section nvidia-smi-path
command -v nvidia-smi
rc $?

if command -v nvidia-smi >/dev/null 2>&1; then
  section simulated
  # The Gantry sandbox's stand-in nvidia-smi keeps this marker next to itself (machinefacts.h).
  S=$(command -v nvidia-smi)
  if [ -e "${S%/*}/gantry-simulated-gpu" ]; then echo marker-file; fi
  rc 0
  section smi-q
  $T nvidia-smi -q 2>&1
  rc $?
  section compute-apps
  $T nvidia-smi --query-compute-apps=gpu_uuid,pid,process_name,used_gpu_memory --format=csv 2>&1
  rc $?
  section retired-pages
  $T nvidia-smi --query-retired-pages=gpu_bus_id,retired_pages.address,retired_pages.cause --format=csv 2>&1
  rc $?
  section topo
  $T nvidia-smi topo -m 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
  rc $?
  section fabricmanager
  # /run/systemd/system exists only when systemd is PID 1 (sd_booted); in a container (RunPod…)
  # systemctl cannot see the host's Fabric Manager, so its answer would be meaningless.
  if [ ! -d /run/systemd/system ]; then
    echo "no systemd"
    rc 127
  elif command -v systemctl >/dev/null 2>&1; then
    systemctl is-active nvidia-fabricmanager 2>&1
    rc $?
  else
    echo "no systemctl"
    rc 127
  fi
  section kernel-log
  # Xid lines (the driver's GPU error reports). dmesg needs CAP_SYSLOG on most distributions
  # (kernel.dmesg_restrict=1) and containers rarely see the host's log: rc 1 says "unreadable",
  # which is not the same as "no Xid".
  if $T dmesg >/dev/null 2>&1; then
    $T dmesg 2>/dev/null | grep 'NVRM: Xid' | tail -n 200
    rc 0
  elif command -v journalctl >/dev/null 2>&1 && $T journalctl -k -q -n 1 --no-pager >/dev/null 2>&1; then
    $T journalctl -k -q --no-pager 2>/dev/null | grep 'NVRM: Xid' | tail -n 200
    rc 0
  elif command -v sudo >/dev/null 2>&1 && $T sudo -n dmesg >/dev/null 2>&1; then
    $T sudo -n dmesg 2>/dev/null | grep 'NVRM: Xid' | tail -n 200
    rc 0
  else
    echo "$(dmesg 2>&1 | head -n 1)"
    rc 1
  fi
fi

section nvcc
NVCC=$(command -v nvcc 2>/dev/null)
if [ -n "$NVCC" ]; then echo "$NVCC"; $T "$NVCC" --version 2>&1; rc $?; else rc 127; fi

section python
PY=$(command -v python3 2>/dev/null || command -v python 2>/dev/null)
if [ -n "$PY" ]; then
  $T "$PY" - <<'PYEOF' 2>&1
import sys
print("python=" + sys.version.split()[0])
try:
    import torch
except Exception as e:
    print("torch=none")
    print("torch_import_error=" + str(e).replace("\n", " "))
    sys.exit(0)
print("torch=" + torch.__version__)
print("torch_cuda=" + str(torch.version.cuda))
try:
    ok = torch.cuda.is_available()
    print("cuda_available=" + ("1" if ok else "0"))
    if ok:
        print("device_count=%d" % torch.cuda.device_count())
        print("device0=" + torch.cuda.get_device_name(0))
except Exception as e:
    print("cuda_available=0")
    print("cuda_error=" + str(e).replace("\n", " "))
PYEOF
  rc $?
else
  echo "no python"
  rc 127
fi

section df
df -Pk / "$HOME" /tmp /dev/shm 2>/dev/null
rc $?

section end
