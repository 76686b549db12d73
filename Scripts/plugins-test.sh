#!/usr/bin/env bash
# `make plugins-test`: Examples/SeededApp built with the root package's build-tool plugin, in the scratch path SCRATCH
# that Examples/CompanyReport builds in too (the dependencies are built once for both), and the command plugin.
#
# - cdstore-generate (the command plugin) writes SeededApp's records again: they must be the ones in
#   Sources/SeededApp/Records, which the example compiles, but for the line naming the model's path. It runs in the
#   root package, whose debug cdstore (the plugin's tool) `make test` has built already. In SeededApp's scratch path
#   it would compile cdstore and its dependencies again: SwiftPM builds a plugin's tool into the same folders for a
#   command plugin as for a build-tool plugin, each time over the other's build.
# - The build bundles Library.sqlite, built by CDStoreSeedPlugin; `cdstore verify` accepts it and the app reads it.
# - A build with no change (neither an input nor the plugin's cdstore) leaves the store alone; after an input file is
#   touched the store is built again, to the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
scratch=${1:-.build-example}
example=Examples/SeededApp
package=(--package-path "$example" --scratch-path "$scratch")
fail() { echo "plugins-test: FAILED: $*"; exit 1; }

work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
generated=$work/records
"$swift" package --allow-writing-to-package-directory \
  cdstore-generate --model Examples/SeededApp/Sources/SeededApp/Library.seed/model.json --language codable -o "$generated"
diff -r -I '^//  from ' "$example/Sources/SeededApp/Records" "$generated" \
  || fail "swift package cdstore-generate wrote other records than $example/Sources/SeededApp/Records"
echo "plugins-test: ok: swift package cdstore-generate wrote the records the example compiles"

"$swift" build "${package[@]}"
store=$("$swift" run "${package[@]}" --skip-build seeded-app --print-path)
[ -f "$store" ] || fail "the bundle has no Library.sqlite ($store)"
# The plugins' cdstore, built for the build host (SwiftPM names host tools NAME-tool).
bin=$("$swift" build "${package[@]}" --show-bin-path)
cdstore=$bin/cdstore-tool
[ -x "$cdstore" ] || cdstore=$bin/cdstore
"$cdstore" verify --store "$store" || fail "cdstore verify refused the bundled $store"
echo "plugins-test: ok: cdstore verify accepts the bundled $(basename "$store")"
"$swift" run "${package[@]}" --skip-build seeded-app

# SwiftPM (6.3, Linux) relinks cdstore-tool in the build after the one that first built it, though no input changed:
# the store is rightly built again then, its tool being one of its inputs. So the check waits for a build that leaves
# the tool alone (at most three), and only then asks that the store was left alone too.
settled=no
for attempt in 1 2 3; do
  tool_before=$(stat -c %y "$cdstore") store_before=$(stat -c %y "$store")
  "$swift" build "${package[@]}" >/dev/null
  if [ "$(stat -c %y "$cdstore")" = "$tool_before" ]; then
    [ "$(stat -c %y "$store")" = "$store_before" ] || fail "a build without a changed input (nor a new cdstore) built the store again"
    settled=yes; break
  fi
  echo "plugins-test: SwiftPM built cdstore-tool again (build $attempt); the store with it"
done
[ "$settled" = yes ] || fail "SwiftPM built the plugin's cdstore again in three builds in a row"
first=$work/first.sqlite
cp -p "$store" "$first"
sleep 1 && touch "$example/Sources/SeededApp/Library.seed/Book.ndjson"
"$swift" build "${package[@]}" >/dev/null
[ "$store" -nt "$first" ] || fail "touching Library.seed/Book.ndjson did not build the store again"
cmp "$store" "$first" || fail "the store built again from the same inputs has other bytes"
echo "plugins-test: ok: no change, no new store; a touched input, the store built again, to the same bytes"
