#!/usr/bin/env bash
# The release artefacts, from the release build in .build/release (`make dist` builds it first), into DIST (dist/):
#
#   cdstore-VERSION-linux-x86_64.tar.gz   bin/cdstore, bin/cdstore-full, share/ (completions, man page), README.md,
#                                         LICENSE when the repository has one; unpacked anywhere (e.g. under /opt)
#   cdstore_VERSION_amd64.deb             the same files under /usr, made with dpkg-deb
#   SHA256SUMS                            both files' SHA-256 sums, as `sha256sum -c` reads them
#
# VERSION and the commit come from git (Scripts/version.sh) and are stamped into the programs (`cdstore --version`).
# Reproducible: every file is dated by the commit (SOURCE_DATE_EPOCH), owned by 0:0, archived in name order and
# gzipped without a name or date, so one commit's programs give the same archives.
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${1:-dist}
build=${BUILD:-.build/release}
version=$(Scripts/version.sh)
commit=$(Scripts/version.sh commit)
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
export SOURCE_DATE_EPOCH CDSTORE_VERSION=$version CDSTORE_COMMIT=$commit
stage=.build-dist/stage
name=cdstore-$version-linux-x86_64
rm -rf "$stage" && mkdir -p "$stage" "$dist"
# Files keep only their owner's write bit, whatever the umask was.
umask 022

# The archive's tree: what `make install` puts under a prefix, and the README and licence beside it.
tree=$stage/$name
SWIFT_BUILD_FLAGS="${RELEASE_FLAGS:---static-swift-stdlib}" Scripts/install.sh "$build/cdstore" "$tree" release >/dev/null
install -m 644 README.md "$tree/README.md"
if [ -f LICENSE ]; then install -m 644 LICENSE "$tree/LICENSE"; else echo "dist: no LICENSE in the repository; the archives carry none" >&2; fi

# Name order, numeric owner 0:0, one date, the gnu format (no pax headers with access times); gzip without name or date.
archive() { # DIRECTORY ENTRY... → stdout
  local dir=$1; shift
  tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --clamp-mtime --owner=0 --group=0 --numeric-owner --format=gnu \
    --mode=u+rw,go-w,go+rX -C "$dir" -cf - "$@"
}
archive "$stage" "$name" | gzip -9n > "$dist/$name.tar.gz"

# The Debian package: the same programs under /usr, zsh's completion where Debian's zsh looks for packaged ones,
# the man page gzipped, a copyright file.
deb=$stage/deb
install -d "$deb/DEBIAN" "$deb/usr/bin" "$deb/usr/share/bash-completion/completions" "$deb/usr/share/zsh/vendor-completions" \
  "$deb/usr/share/fish/vendor_completions.d" "$deb/usr/share/man/man1" "$deb/usr/share/doc/cdstore"
install -m 755 "$tree/bin/cdstore" "$tree/bin/cdstore-full" "$deb/usr/bin/"
install -m 644 "$tree/share/bash-completion/completions/cdstore" "$deb/usr/share/bash-completion/completions/cdstore"
install -m 644 "$tree/share/zsh/site-functions/_cdstore" "$deb/usr/share/zsh/vendor-completions/_cdstore"
install -m 644 "$tree/share/fish/vendor_completions.d/cdstore.fish" "$deb/usr/share/fish/vendor_completions.d/cdstore.fish"
gzip -9n < "$tree/share/man/man1/cdstore.1" > "$deb/usr/share/man/man1/cdstore.1.gz"
gzip -9n < README.md > "$deb/usr/share/doc/cdstore/README.md.gz"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: cdstore"
  echo
  echo "Files: *"
  echo "Copyright: the cdstore authors"
  if [ -f LICENSE ]; then
    echo "License: see below"
    sed -e 's/^$/./' -e 's/^/ /' LICENSE
  else
    echo "License: none"
    echo " The cdstore repository holds no licence file."
  fi
} > "$deb/usr/share/doc/cdstore/copyright"
chmod 644 "$deb/usr/share/doc/cdstore/copyright"

# Depends: the shared libraries cdstore-full loads (cdstore is static), as dpkg-shlibdeps names their packages.
shlibs=$stage/shlibs
mkdir -p "$shlibs/debian" && printf 'Source: cdstore\n\nPackage: cdstore\nArchitecture: amd64\n' > "$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O "$OLDPWD/$deb/usr/bin/cdstore-full" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "dist: dpkg-shlibdeps named no dependency of cdstore-full"; exit 1; }
installed_size=$(du -sk --apparent-size "$deb/usr" | cut -f1)
cat > "$deb/DEBIAN/control" <<EOF
Package: cdstore
Version: $version
Architecture: amd64
Maintainer: ${DEB_MAINTAINER:-cdstore maintainers <cdstore@localhost>}
Installed-Size: $installed_size
Depends: $depends
Section: database
Priority: optional
Description: Core Data SQLite stores from the command line
 cdstore loads a managed object model (an Xcode .xcdatamodeld, a compiled .momd,
 SwiftData @Model sources or cdstore's JSON model) and reads and writes SQLite
 stores laid out exactly as Core Data lays them out: insert, fetch, count,
 project, update, delete, export, seed stores to bundle with an app, migrate,
 diff, a REPL, a read-only web face (serve) and an MCP server for assistants.
EOF
(cd "$deb" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$deb/DEBIAN/md5sums"
chmod 644 "$deb/DEBIAN/control" "$deb/DEBIAN/md5sums"
find "$deb" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$deb" "$dist/cdstore_${version}_amd64.deb" >/dev/null

(cd "$dist" && sha256sum "$name.tar.gz" "cdstore_${version}_amd64.deb" > SHA256SUMS)
echo "dist: $dist/$name.tar.gz, $dist/cdstore_${version}_amd64.deb, $dist/SHA256SUMS"
echo "dist: Depends: $depends"
