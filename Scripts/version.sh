#!/bin/sh
# The version of the working tree, from git: the last tag's version (v1.2.0 → 1.2.0), then "+N.gHASH" when N commits
# came after it, then ".dirty" when files differ from the commit. Without a tag, the version an unstamped program
# shows (BuildVersion.unstamped) with "+N.gHASH", N counting every commit. The result is a Debian upstream version
# (it starts with a digit and has no hyphen) and a file name. `Scripts/version.sh commit` prints the commit instead.
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" = commit ]; then git rev-parse HEAD; exit 0; fi
described=$(git describe --tags --always --long --dirty --match 'v[0-9]*' 2>/dev/null || true)
dirty=""
case $described in *-dirty) dirty=.dirty; described=${described%-dirty} ;; esac
hash=$(git rev-parse --short=7 HEAD)
case $described in
  v[0-9]*-*-g*)
    tag=${described%-*-g*}; count=${described%-g*}; count=${count##*-}
    version=${tag#v}; [ "$count" = 0 ] || version="$version+$count.g$hash" ;;
  *)
    base=$(sed -n 's/.*static let unstamped = "\(.*\)".*/\1/p' Sources/CDStoreCLI/BuildVersion.swift)
    version="$base+$(git rev-list --count HEAD).g$hash" ;;
esac
echo "$version$dirty"
