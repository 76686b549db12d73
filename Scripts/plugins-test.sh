#!/usr/bin/env bash
# `make plugins-test`: Examples/SeededApp built with the root package's build-tool plugin, in the scratch path SCRATCH
# that Examples/CompanyReport builds in too (the dependencies are built once for both), and the command plugin.
#
# - cdstore-generate (the command plugin) writes SeededApp's records again: they must be the ones in
#   Sources/SeededApp/Records, which the example compiles, but for the line naming the model's path. It runs from
#   Examples/CompanyReport in a scratch path of its own (SCRATCH-generate): SwiftPM builds a plugin's tool (cdstore)
#   into the same folders for a command plugin as for a build-tool plugin, each time over the other's build, so that
#   in one scratch path every run would compile cdstore and its dependencies again, twice.
# - The build bundles Library.sqlite, built by CDStoreSeedPlugin; `cdstore verify` accepts it and the app reads it.
# - A second build with no change leaves the store alone; after an input file is touched the store is built again,
#   to the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
scratch=${1:-.build-example}
example=Examples/SeededApp
package=(--package-path "$example" --scratch-path "$scratch")
fail() { echo "plugins-test: FAILED: $*"; exit 1; }

generated=$PWD/$scratch-generate/records
rm -rf "$generated"
"$swift" package --package-path Examples/CompanyReport --scratch-path "$scratch-generate" --allow-writing-to-package-directory \
  cdstore-generate --model ../SeededApp/Sources/SeededApp/Library.seed/model.json --language codable -o "$generated"
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

first=$(mktemp) && trap 'rm -f "$first"' EXIT
cp -p "$store" "$first"
"$swift" build "${package[@]}" >/dev/null
[ "$(stat -c %y "$store")" = "$(stat -c %y "$first")" ] || fail "a build without a changed input built the store again"
sleep 1 && touch "$example/Sources/SeededApp/Library.seed/Book.ndjson"
"$swift" build "${package[@]}" >/dev/null
[ "$store" -nt "$first" ] || fail "touching Library.seed/Book.ndjson did not build the store again"
cmp "$store" "$first" || fail "the store built again from the same inputs has other bytes"
echo "plugins-test: ok: no change, no new store; a touched input, the store built again, to the same bytes"
