// SPDX-License-Identifier: Apache-2.0
// The POSIX shell script a machine runs for bucket <-> machine copies (MachineCopy). It holds no
// secret: each presigned URL arrives on stdin and reaches curl through its config on stdin
// (`curl -K -`), so no URL is ever in a process's arguments. Requests, one field a line:
//   get URL DEST SIZE MD5 SHA256 PART  ("-" for an unknown value; PART: the name a resumable
//                                  download is staged under, "-" for a fresh one)
//                                  -> OK BYTES SHA256 RESUMED | SAME BYTES SHA256 | error
//   hash SRC                       -> HASH BYTES MD5 SHA256 | error
//   put URL SRC MD5BASE64 SHA256   -> OK ETAG ENCRYPTION | error
//   part URL SRC INDEX PARTSIZE SENT -> OK ETAG MD5 BYTES sent|kept | error  (bytes INDEX*PARTSIZE..
//                                  of SRC; SENT: the MD5 the open upload already holds for it, or "-")
//   list ROOT                      -> FILE SIZE PATH … END | DIR … END | error
// errors: HTTP STATUS CODE MESSAGE | CURL EXIT MESSAGE | BAD what | MISSING path | ISDIR path
#include "core/storage/machinecopy.h"

namespace gantry::storage {

namespace {

// The `get` request: a presigned download, skipped where the same bytes are there, resumed from
// a kept part for large objects.
QByteArray getOperation()
{
    return QByteArrayLiteral(R"GANTRY(  get)
    IFS= read -r url; IFS= read -r dest; IFS= read -r size; IFS= read -r md5; IFS= read -r sha; IFS= read -r keep
    [ -d "$dest" ] && { echo "ISDIR $dest"; continue; }
    # The same bytes already there (a copy run again after an interruption): nothing to fetch.
    if [ -f "$dest" ] && [ "$size" != - ] && [ "$(wc -c < "$dest" | tr -d ' ')" = "$size" ]; then
      if [ "$sha" != - ]; then
        same=$(sha256sum < "$dest" | cut -d ' ' -f 1); [ "$same" = "$sha" ] && { echo "SAME $size $same"; continue; }
      elif [ "$md5" != - ] && [ "$(md5sum < "$dest" | cut -d ' ' -f 1)" = "$md5" ]; then
        echo "SAME $size -"; continue
      fi
    fi
    mkdir -p -- "$(dirname -- "$dest")" 2>"$work/err" || { echo "CURL 23 $(head -n 1 "$work/err")"; continue; }
    mode=$(printf '%o' $((0666 & ~0$(umask))))
    have=0
    if [ "$keep" = - ]; then
      # Staged under a fresh name no listing produces (never "$dest.gantry-part": another object may be
      # named that), with the mode a new file gets here.
      part=$(mktemp -- "$(dirname -- "$dest")/.gantry-part-XXXXXXXXXXXX" 2>"$work/err") || { echo "CURL 23 $(head -n 1 "$work/err")"; continue; }
      chmod -- "$mode" "$part" 2>/dev/null
    else
      # A large object's part keeps its name (made of the object's version) so a run after an
      # interruption goes on from what arrived: curl asks for the rest (a Range request).
      part="$(dirname -- "$dest")/$keep"
      [ -L "$part" ] && { echo "CURL 23 $part is a symbolic link"; continue; }
      # A copy stopped from this computer leaves its curl running on the part: take it over.
      if [ -f "$part.pid" ]; then kill "$(cat "$part.pid")" 2>/dev/null; sleep 1; fi
      if [ -f "$part" ]; then have=$(wc -c < "$part" | tr -d ' '); else : > "$part" 2>"$work/err" || { echo "CURL 23 $(head -n 1 "$work/err")"; continue; }; chmod -- "$mode" "$part" 2>/dev/null; fi
      [ "$have" -gt "$size" ] && { : > "$part"; have=0; }
    fi
    rc=0; status=200
    if [ "$keep" = - ] || [ "$have" != "$size" ]; then
      from=; [ "$have" -gt 0 ] && from='-C -'
      # In the background with its pid noted, so a run after a stop can end it.
      printf 'url = "%s"\n' "$url" | curl -sS -g -K - $from -o "$part" -w '%{http_code}' >"$work/status" 2>"$work/err" &
      cpid=$!; [ "$keep" = - ] || echo "$cpid" > "$part.pid"; wait "$cpid"; rc=$?; status=$(cat "$work/status")
      if [ $rc -eq 33 ] && [ "$status" = 200 ]; then # the server cannot send a range: the whole object again
        : > "$part"; have=0
        status=$(printf 'url = "%s"\n' "$url" | curl -sS -g -K - -o "$part" -w '%{http_code}' 2>"$work/err"); rc=$?
      fi
      rm -f -- "$part.pid"
    fi
    if [ "$keep" != - ] && [ $rc -ne 23 ] && { [ $rc -ne 0 ] || case $status in 2??) false;; *) true;; esac; }; then
      # Interrupted (the link, the server, a stop): what arrived stays for the next run; an
      # error answer's body, appended after it, is cut off again.
      [ $rc -eq 0 ] && dd if=/dev/null of="$part" bs=1 seek="$have" 2>/dev/null
      if [ $rc -ne 0 ] && [ $rc -ne 33 ]; then echo "CURL $rc $(head -n 1 "$work/err")"; else echo "HTTP $status - $(head -n 1 "$work/err")"; fi
      continue
    fi
    if [ $rc -ne 0 ]; then rm -f -- "$part"; echo "CURL $rc $(head -n 1 "$work/err")"; continue; fi
    case $status in 2??) ;; *) s3fail "$part" "$status"; rm -f -- "$part"; continue;; esac
    got=$(wc -c < "$part" | tr -d ' ')
    if [ "$size" != - ] && [ "$got" != "$size" ]; then rm -f -- "$part"; echo "BAD size $got"; continue; fi
    sum=$(sha256sum < "$part" | cut -d ' ' -f 1)
    if [ "$sha" != - ] && [ "$sum" != "$sha" ]; then rm -f -- "$part"; echo "BAD sha256 $sum"; continue; fi
    if [ "$md5" != - ] && [ "$(md5sum < "$part" | cut -d ' ' -f 1)" != "$md5" ]; then rm -f -- "$part"; echo "BAD md5"; continue; fi
    mv -f -- "$part" "$dest" 2>"$work/err" || { rm -f -- "$part"; echo "CURL 23 $(head -n 1 "$work/err")"; continue; }
    echo "OK $got $sum $have"
    ;;
)GANTRY");
}

} // namespace

QByteArray machineScript()
{
    return QByteArrayLiteral(R"GANTRY(
command -v curl >/dev/null 2>&1 || { echo NOCURL; exit 0; }
work=$(mktemp -d 2>/dev/null || mktemp -d -t gantry) || { echo NOTEMP; exit 0; }
trap 'rm -rf "$work"' EXIT
nl='
'
s3fail() {
  code=$(sed -n 's:.*<Code>\([^<]*\)</Code>.*:\1:p' "$1" 2>/dev/null | head -n 1)
  msg=$(sed -n 's:.*<Message>\([^<]*\)</Message>.*:\1:p' "$1" 2>/dev/null | head -n 1)
  echo "HTTP $2 ${code:--} $msg"
}
echo READY
while IFS= read -r op; do
  case $op in
)GANTRY") + getOperation() + QByteArrayLiteral(R"GANTRY(
  hash)
    IFS= read -r src
    [ -f "$src" ] && [ -r "$src" ] || { echo "MISSING $src"; continue; }
    echo "HASH $(wc -c < "$src" | tr -d ' ') $(md5sum < "$src" | cut -d ' ' -f 1) $(sha256sum < "$src" | cut -d ' ' -f 1)"
    ;;
  put)
    IFS= read -r url; IFS= read -r src; IFS= read -r md5; IFS= read -r sha
    status=$(printf 'url = "%s"\n' "$url" | curl -sS -g -K - -T "$src" -H "Content-MD5: $md5" -H "x-amz-meta-sha256: $sha" \
      -D "$work/headers" -o "$work/body" -w '%{http_code}' 2>"$work/err"); rc=$?
    if [ $rc -ne 0 ]; then echo "CURL $rc $(head -n 1 "$work/err")"; continue; fi
    case $status in 2??) ;; *) s3fail "$work/body" "$status"; continue;; esac
    etag=$(tr -d '\r"' < "$work/headers" | sed -n 's/^[Ee][Tt][Aa][Gg]: *//p' | tail -n 1)
    enc=$(tr -d '\r' < "$work/headers" | grep -i '^x-amz-server-side-encryption:' | tail -n 1 | cut -d ' ' -f 2)
    echo "OK ${etag:--} ${enc:--}"
    ;;
  part)
    IFS= read -r url; IFS= read -r src; IFS= read -r index; IFS= read -r psize; IFS= read -r sent
    dd if="$src" of="$work/part" bs="$psize" skip="$index" count=1 2>"$work/err" || { echo "CURL 26 $(tail -n 1 "$work/err")"; continue; }
    sum=$(md5sum < "$work/part" | cut -d ' ' -f 1)
    # Sent by an interrupted copy of the same file, and the same bytes: not sent again.
    if [ "$sent" = "$sum" ]; then echo "OK $sum $sum $(wc -c < "$work/part" | tr -d ' ') kept"; rm -f "$work/part"; continue; fi
    status=$(printf 'url = "%s"\n' "$url" | curl -sS -g -K - -T "$work/part" -D "$work/headers" -o "$work/body" -w '%{http_code}' 2>"$work/err"); rc=$?
    if [ $rc -ne 0 ]; then rm -f "$work/part"; echo "CURL $rc $(head -n 1 "$work/err")"; continue; fi
    case $status in 2??) ;; *) rm -f "$work/part"; s3fail "$work/body" "$status"; continue;; esac
    etag=$(tr -d '\r"' < "$work/headers" | sed -n 's/^[Ee][Tt][Aa][Gg]: *//p' | tail -n 1)
    echo "OK ${etag:--} $sum $(wc -c < "$work/part" | tr -d ' ') sent"
    rm -f "$work/part"
    ;;
  list)
    IFS= read -r root
    if [ -f "$root" ]; then echo "FILE $(wc -c < "$root" | tr -d ' ') ."; echo END; continue; fi
    [ -d "$root" ] || { echo "MISSING $root"; continue; }
    echo DIR
    (cd -- "$root" && find . -type f ! -name "*$nl*" ! -name '.gantry-part-*' -printf '%s %p\n') | sed 's/^/FILE /'
    echo END
    ;;
  *) echo "BAD request"; exit 0;;
  esac
done
)GANTRY");
}

} // namespace gantry::storage
