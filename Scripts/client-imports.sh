#!/usr/bin/env bash
# The library's clients (the command line, the web server, the programs, the MCP server) are built on the public API
# of the `CDStore` and `CDStoreSwiftData` products only. `packageAccess: false` in Package.swift keeps `package`
# declarations out of their reach at compile time; this check keeps them from importing a layer below `CDStore`
# (whose public types reach them through CDStore anyway), so that the front door stays the only door.
set -euo pipefail
cd "$(dirname "$0")/.."
layers='CDStoreJSON|CDStorePredicate|CDStoreModel|CDStoreSwiftSource|CDStoreEngine|CDStoreMigration|CDStoreComparison|CDStoreIO|CDStoreFuzzing|CDStoreTestSupport|GRDB'
clients=(Sources/CDStoreCLI Sources/CDStoreServer Sources/cdstore Sources/cdstore-full)
[ -d Sources/CDStoreMCP ] && clients+=(Sources/CDStoreMCP)
found=$(grep -rnE "^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*(internal |package |public |private |fileprivate )?import\s+($layers)\b" "${clients[@]}" --include='*.swift' || true)
if [ -n "$found" ]; then
  echo "a client imports a layer below CDStore (use the library's public API):"
  echo "$found"
  exit 1
fi
unopened=$(grep -nE 'name: "(CDStoreCLI|CDStoreServer|CDStoreMCP|cdstore|cdstore-full)"' Package.swift | grep -vc 'targets:')
closed=$(grep -c 'packageAccess: false' Package.swift)
if [ "$closed" -lt "$unopened" ]; then
  echo "every client target needs packageAccess: false in Package.swift ($closed of $unopened have it)"
  exit 1
fi
echo "ok: clients import CDStore, CDStoreSwiftData and their own modules only, without package access"
