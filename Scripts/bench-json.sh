#!/bin/sh
# JSON parsers on the NDJSON benchmark records: CDStoreJSON against JSONSerialization and JSONDecoder.
#   Scripts/bench-json.sh [ROWS]     (default 1000000; data and binary go to a temporary folder)
# Figures and decision: docs/decisions/0005-json-reader.md.
set -eu
rows=${1:-1000000}
here=$(cd "$(dirname "$0")/.." && pwd)
work=${TMPDIR:-/tmp}/cdstore-bench-json
mkdir -p "$work"
[ -f "$work/people-$rows.ndjson" ] || {
    python3 "$here/../shared/bench/gen_people.py" --rows "$rows" --out "$work/gen"
    mv "$work/gen/people.ndjson" "$work/people-$rows.ndjson"
}
swiftc -O -module-name BenchJSON "$here"/Sources/CDStoreJSON/*.swift "$here/Scripts/bench-json/main.swift" -o "$work/bench-json"
"$work/bench-json" "$work/people-$rows.ndjson" "$rows" 3
