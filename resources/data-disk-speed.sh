# SPDX-License-Identifier: Apache-2.0
# Gantry's data-disk figure for the acceptance test, run as `sh -s -- SIZE_MIB SECONDS [FOLDER]`
# with this script on stdin. Writes up to SIZE_MIB MiB into the data folder (direct I/O where the
# filesystem allows it, else written through with fsync), reads it back (direct I/O, else from the
# page cache, which is said), and removes the file whatever happens. Each direction stops after
# SECONDS (dd reports what it did so far). Without FOLDER the first writable of /workspace
# (RunPod, Vast), /root/autodl-tmp (AutoDL), /data and $HOME is measured. Output lines:
#   gantry-disk dir PATH | gantry-disk write direct|fsync DD-LINE | gantry-disk read direct|cached DD-LINE
#   gantry-disk error TEXT
export LC_ALL=C
mib=${1:-1024}
secs=${2:-5}
dir=${3:-}
if [ -z "$dir" ]; then
    for d in /workspace /root/autodl-tmp /data "$HOME"; do
        if [ -d "$d" ] && [ -w "$d" ]; then dir=$d; break; fi
    done
fi
if [ -z "$dir" ] || [ ! -w "$dir" ]; then
    echo "gantry-disk error no writable data folder"
    exit 0
fi
free=$(df -Pk "$dir" 2>/dev/null | awk 'NR == 2 { print int($4 / 1024) }')
if [ -n "$free" ] && [ "$free" -lt $((mib * 4)) ]; then mib=$((free / 4)); fi
if [ "$mib" -lt 8 ]; then
    echo "gantry-disk error only ${free:-?} MiB free in $dir"
    exit 0
fi
file="$dir/.gantry-disk-test.$$"
trap 'rm -f "$file"' EXIT
trap 'rm -f "$file"; exit 130' INT TERM
limit=""
command -v timeout >/dev/null 2>&1 && limit="timeout -s INT $secs"
echo "gantry-disk dir $dir"
# dd prints its summary last on stderr, also when timeout stops it with SIGINT.
line=$($limit dd if=/dev/zero of="$file" bs=1M count="$mib" oflag=direct conv=fsync 2>&1 >/dev/null | tail -n 1)
how=direct
case "$line" in *copied*) ;; *)
    how=fsync
    line=$($limit dd if=/dev/zero of="$file" bs=1M count="$mib" conv=fsync 2>&1 >/dev/null | tail -n 1) ;;
esac
echo "gantry-disk write $how $line"
line=$($limit dd if="$file" of=/dev/null bs=1M iflag=direct 2>&1 | tail -n 1)
how=direct
case "$line" in *copied*) ;; *)
    how=cached
    line=$($limit dd if="$file" of=/dev/null bs=1M 2>&1 | tail -n 1) ;;
esac
echo "gantry-disk read $how $line"
