#!/usr/bin/env bash
# Figures for `cdstore scan` and `cdstore watch`, for the README (`make bench` can run it after the release build):
#
#   Scripts/bench-scan.sh CDSTORE_BINARY        (STORES=500 RUNS=3 CHANGES=20)
#
# 1. Stores scanned per second on a tree of STORES small stores (one simulator container each, 20 objects), beside a
#    sqlite3 shell loop that opens each file read-only (immutable) and counts the rows of its tables: the floor of
#    opening that many files.
# 2. Watch latency: `cdstore watch` on a store while `cdstore insert` commits CHANGES times; for each commit, the
#    time from the insert returning to its line appearing (median and max, ms). The insert's own start-up is not
#    counted; its commit happens before it returns, so the figure is an upper bound.
# Prints a Markdown table. Needs sqlite3 on the PATH.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: Scripts/bench-scan.sh CDSTORE_BINARY" >&2; exit 2; }
cdstore=$(realpath "$1")
stores=${STORES:-500}; runs=${RUNS:-3}; changes=${CHANGES:-20}
command -v sqlite3 >/dev/null || { echo "bench-scan: sqlite3 not found" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/cdstore-scan-bench.XXXXXX")
trap 'kill -TERM ${watcher:-0} 2>/dev/null || true; rm -rf "$work"' EXIT
now() { date +%s%N; }

cat >"$work/Notes.json" <<'JSON'
{"format": "cdstore-model", "formatVersion": 1, "entities": [
  {"name": "Note", "attributes": [{"name": "title", "type": "String", "optional": true}]},
  {"name": "Tag", "attributes": [{"name": "name", "type": "String", "optional": true}]}]}
JSON
for i in $(seq 1 15); do echo "{\"title\": \"note $i\"}"; done >"$work/notes.ndjson"
for i in $(seq 1 5); do echo "{\"name\": \"tag $i\"}"; done >"$work/tags.ndjson"
template="$work/template.sqlite"
"$cdstore" insert Note --nl --file "$work/notes.ndjson" --model "$work/Notes.json" --store "$template" >/dev/null 2>&1
"$cdstore" insert Tag --nl --file "$work/tags.ndjson" --model "$work/Notes.json" --store "$template" >/dev/null 2>&1

tree="$work/Devices"
for i in $(seq 1 "$stores"); do
  container="$tree/D$((i % 4))/data/Containers/Data/Application/$(printf '%08X-0000-0000-0000-000000000000' "$i")"
  mkdir -p "$container/Library/Application Support"
  cp "$template" "$container/Library/Application Support/App.sqlite"
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>MCMMetadataIdentifier</key><string>com.example.app%d</string></dict></plist>\n' "$i" \
    >"$container/.com.apple.mobile_container_manager.metadata.plist"
done

best() { sort -n | head -n 1; }
scan_ns=$(for _ in $(seq 1 "$runs"); do
  start=$(now); "$cdstore" scan "$tree" --format ndjson >"$work/scan.ndjson"; echo $(( $(now) - start ))
done | best)
found=$(wc -l <"$work/scan.ndjson")
[ "$found" -eq "$stores" ] || { echo "bench-scan: scan found $found stores, not $stores" >&2; exit 1; }
shell_ns=$(for _ in $(seq 1 "$runs"); do
  start=$(now)
  find "$tree" -name App.sqlite | while read -r f; do
    sqlite3 -readonly "file:$f?immutable=1" "SELECT COUNT(*) FROM ZNOTE; SELECT COUNT(*) FROM ZTAG;" >/dev/null
  done
  echo $(( $(now) - start ))
done | best)
rate() { awk -v n="$stores" -v ns="$1" 'BEGIN { printf "%.0f", n / (ns / 1e9) }'; }

store="$work/watched.sqlite"
cp "$template" "$store"
"$cdstore" watch --store "$store" --format ndjson >"$work/watch.ndjson" 2>"$work/watch.err" &
watcher=$!
for _ in $(seq 1 200); do grep -q watching "$work/watch.err" 2>/dev/null && break; sleep 0.05; done
latencies=()
for i in $(seq 1 "$changes"); do
  before=$(wc -l <"$work/watch.ndjson")
  "$cdstore" insert Note "title=change $i" --store "$store" >/dev/null 2>&1
  committed=$(now)
  while [ "$(wc -l <"$work/watch.ndjson")" -le "$before" ]; do sleep 0.001; done
  latencies+=($(( ($(now) - committed) / 1000000 )))
done
kill -TERM $watcher; wait $watcher || true
sorted=$(printf '%s\n' "${latencies[@]}" | sort -n)
median=$(echo "$sorted" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
max=$(echo "$sorted" | tail -n 1)

echo "| measure | cdstore | sqlite3 shell loop |"
echo "|---|---|---|"
echo "| stores scanned per second ($stores stores, best of $runs) | $(rate "$scan_ns") | $(rate "$shell_ns") |"
echo "| watch: commit to printed line, median / max of $changes (ms) | $median / $max | — |"
