#!/bin/sh
# Installs cdstore under a prefix: the two programs (cdstore, and cdstore-full beside it, to which cdstore
# hands `serve`, the REPL and SwiftData sources), completion scripts for bash, zsh and fish, and the man page.
#
#   Scripts/install.sh BINARY PREFIX [debug|release]      (BINARY: the built cdstore; cdstore-full is beside it)
#
# The completion scripts come from the binary itself (swift-argument-parser's --generate-completion-script);
# they call cdstore back for entity and key-path completions. The man page (cdstore.1) is generated from the
# same help text by swift-argument-parser's generate-manual tool, built in the configuration BINARY was built in.
# MAN=no skips it (building the tool takes a SwiftPM build lock, which a running `swift test` holds).
#
# The installed programs are stamped with the version and commit `cdstore --version` prints: $CDSTORE_VERSION and
# $CDSTORE_COMMIT, by default those of the git working tree (Scripts/version.sh; outside git, no stamp). $SOURCE_DATE_EPOCH, when set, dates the man page.
set -eu
binary=$1
prefix=$2
configuration=${3:-release}

install -d "$prefix/bin" "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions" \
  "$prefix/share/fish/vendor_completions.d" "$prefix/share/man/man1"
install -m 755 "$binary" "$prefix/bin/cdstore"
install -m 755 "$(dirname "$binary")/cdstore-full" "$prefix/bin/cdstore-full"
# A release binary carries the Swift runtime and Foundation (static) with their debug information: 200 MB, of which
# the installed copy keeps the symbols (for backtraces) and drops the rest.
if [ "$configuration" = release ]; then strip --strip-debug "$prefix/bin/cdstore" "$prefix/bin/cdstore-full"; fi
scripts=$(dirname "$0")
version=${CDSTORE_VERSION:-$("$scripts/version.sh" 2>/dev/null || true)}
commit=${CDSTORE_COMMIT:-$("$scripts/version.sh" commit 2>/dev/null || true)}
if [ -n "$version" ]; then python3 "$scripts/stamp-version.py" "$version" "$commit" "$prefix/bin/cdstore" "$prefix/bin/cdstore-full"; fi
"$binary" --generate-completion-script bash > "$prefix/share/bash-completion/completions/cdstore"
"$binary" --generate-completion-script zsh > "$prefix/share/zsh/site-functions/_cdstore"
"$binary" --generate-completion-script fish > "$prefix/share/fish/vendor_completions.d/cdstore.fish"
echo "installed $prefix/bin/cdstore, $prefix/bin/cdstore-full and completions for bash, zsh and fish"

if [ "${MAN:-yes}" = no ]; then exit 0; fi
# swift-argument-parser's generate-manual tool, run on the installed binary, writes what its generate-manual plugin
# writes; built with the binary's own flags (SWIFT_BUILD_FLAGS: the Makefile's RELEASE_FLAGS for a release), because
# the plugin builds without them and so would rebuild the whole package a second way.
bin_dir=$(dirname "$binary")
# shellcheck disable=SC2086 # SWIFT_BUILD_FLAGS is a list of flags
swift build -c "$configuration" ${SWIFT_BUILD_FLAGS:-} --product generate-manual >/dev/null
man_dir=$(mktemp -d)
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then set -- --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)"; else set --; fi
"$bin_dir/generate-manual" "$binary" --output-directory "$man_dir" "$@"
install -m 644 "$man_dir/cdstore.1" "$prefix/share/man/man1/cdstore.1"
rm -rf "$man_dir"
echo "installed $prefix/share/man/man1/cdstore.1 (man cdstore)"
