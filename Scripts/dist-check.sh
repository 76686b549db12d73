#!/usr/bin/env bash
# `make dist-check`: the artefacts of `make dist` installed, run and removed on a clean Debian bookworm, as root.
#
#   Scripts/dist-check.sh [DIST]          (DIST: dist/, holding the .deb and the .tar.gz of the working tree's version)
#
# The root is made once with `debootstrap --variant=minbase` (no Swift, no compiler, no -dev package) plus man-db,
# so that `man cdstore` can run, and kept as .build-dist/bookworm-minbase.tar; each check unpacks a fresh copy. In
# the copy, through chroot with /proc mounted: `dpkg -i` the .deb, run Scripts/dist-check-inside.sh (make demo's
# session on Schemas/ compared with the README's block, serve on loopback, a SwiftData source, man page,
# completions), `dpkg --purge cdstore`, and compare the root's list of files with the one before the install. Then
# the same with the archive unpacked under /opt, removed with rm -rf. DEBIAN_MIRROR picks the mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${1:-dist}
version=$(Scripts/version.sh)
deb=$dist/cdstore_${version}_amd64.deb
archive=$dist/cdstore-$version-linux-x86_64.tar.gz
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=.build-dist/bookworm-minbase.tar
[ "$(id -u)" = 0 ] || { echo "dist-check: needs root (debootstrap, chroot, mount)"; exit 1; }
for file in "$deb" "$archive"; do [ -f "$file" ] || { echo "dist-check: no $file (make dist)"; exit 1; }; done
(cd "$dist" && sha256sum --quiet -c SHA256SUMS) || { echo "dist-check: $dist/SHA256SUMS does not match"; exit 1; }
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - $1 )) s"; }
# ROOT COMMAND…: a command in a root with a clean environment (the host's PATH and variables stay outside).
in_root() {
  local dir=$1; shift
  chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

work=$(mktemp -d /tmp/cdstore-dist-check.XXXXXX)
root=$work/root
cleanup() {
  mountpoint -q "$root/proc" 2>/dev/null && umount "$root/proc"
  rm -rf "$work"
}
trap cleanup EXIT

if [ ! -f "$cache" ]; then
  command -v debootstrap >/dev/null || { apt-get update -q && apt-get install -y -q debootstrap; }
  made=$(date +%s)
  echo "dist-check: debootstrap --variant=minbase bookworm from $mirror (once; kept as $cache)"
  debootstrap --variant=minbase bookworm "$work/new" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -n 30 "$work/debootstrap.log"; exit 1; }
  mount -t proc proc "$work/new/proc"
  in_root "$work/new" apt-get install -y -q --no-install-recommends man-db > "$work/man-db.log" 2>&1 \
    || { umount "$work/new/proc"; tail -n 30 "$work/man-db.log"; exit 1; }
  in_root "$work/new" apt-get clean
  umount "$work/new/proc"
  mkdir -p "$(dirname "$cache")"
  tar -C "$work/new" -cf "$cache.part" . && mv "$cache.part" "$cache"
  rm -rf "$work/new"
  echo "dist-check: made the root in $(elapsed "$made") ($(du -sh "$cache" | cut -f1))"
fi

# Every path in the root with its type and mode; left out: /proc, the check's own folder, and man-db's cache
# (/var/cache/man: its trigger tags each language's folder, and `man cdstore` keeps a formatted copy there, which
# man-db's daily run removes once the page is gone).
listing() {
  (cd "$root" && find . \( -path ./proc -o -path ./tmp/cdstore-check -o -path ./var/cache/man \) -prune -o -printf '%y %m %p\n' \
    | LC_ALL=C sort)
}

# ROOT-FRESH: unpacks a fresh root and readies the check's folder in it.
fresh_root() {
  rm -rf "$root" && mkdir -p "$root"
  tar -C "$root" -xf "$cache"
  if in_root "$root" sh -c 'command -v swift || command -v cc || command -v gcc || ls /usr/include/sqlite3.h' 2>/dev/null; then
    echo "dist-check: the root has build tools; it must not"; exit 1
  fi
  before=$(listing)
  mkdir -p "$root/tmp/cdstore-check/Scripts"
  cp -r Schemas "$root/tmp/cdstore-check/"
  cp Scripts/demo.sh Scripts/dist-check-inside.sh "$root/tmp/cdstore-check/Scripts/"
  mount -t proc proc "$root/proc"
}

# CHECKS BIN SHARE MANPAGE: the checks inside, then the demo's output against the README's block.
inside() {
  in_root "$root" /bin/bash /tmp/cdstore-check/Scripts/dist-check-inside.sh "$1" "$2" "$3" /tmp/cdstore-check /tmp/cdstore-check/demo.out
  python3 - "$root/tmp/cdstore-check/demo.out" <<'EOF'
import difflib, sys
readme = open("README.md").read()
heading = "## What `make demo` prints\n\n```\n"
start = readme.index(heading) + len(heading)
block = readme[start:readme.index("\n```\n", start) + 1]
printed = open(sys.argv[1]).read().rstrip("\n") + "\n"
if printed != block:
    sys.stdout.writelines(difflib.unified_diff(block.splitlines(True), printed.splitlines(True), "README.md", "demo in the root"))
    sys.exit("dist-check: FAILED: the demo in the clean root printed something else than the README's block")
print("dist-check:   ok: the demo printed the README's block, byte for byte")
EOF
}

# LEFT: the root's listing after removal, against the one before.
nothing_left() {
  umount "$root/proc"
  rm -rf "$root/tmp/cdstore-check"
  if ! diff <(echo "$before") <(listing) > "$work/left.diff"; then
    cat "$work/left.diff"; echo "dist-check: FAILED: $1 left the files above behind"; exit 1
  fi
  echo "dist-check:   ok: after $1 the root holds exactly the files it held before ($(echo "$before" | wc -l) paths)"
}

step=$(date +%s)
echo "dist-check: $deb in a clean bookworm root (dpkg -i)"
fresh_root
cp "$deb" "$root/tmp/cdstore-check/"
in_root "$root" dpkg -i "/tmp/cdstore-check/$(basename "$deb")" > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; exit 1; }
echo "dist-check:   ok: dpkg -i (Depends: $(in_root "$root" dpkg-query -W -f '${Depends}' cdstore))"
inside /usr/bin /usr/share /usr/share/man/man1/cdstore.1.gz
in_root "$root" dpkg --purge cdstore > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; exit 1; }
nothing_left "dpkg --purge cdstore"
echo "dist-check: the .deb: $(elapsed "$step")"

step=$(date +%s)
echo "dist-check: $archive in a clean bookworm root (unpacked under /opt)"
fresh_root
tar -C "$root/opt" -xzf "$archive"
opt=/opt/$(basename "$archive" .tar.gz)
inside "$opt/bin" "$opt/share" "$opt/share/man/man1/cdstore.1"
rm -rf "${root:?}$opt"
nothing_left "rm -rf $opt"
echo "dist-check: the archive: $(elapsed "$step")"
echo "dist-check: ok in $(elapsed "$started")"
