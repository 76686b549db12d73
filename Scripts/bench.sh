#!/usr/bin/env bash
# Benchmarks: the README's figures. Data from ../shared/bench/gen_people.py (deterministic), model
# Schemas/People.json. Usage: Scripts/bench.sh [cdstore binary]; BENCH_ROWS sets the row count (default 200000).
set -euo pipefail
cd "$(dirname "$0")/.."
cdstore=$(realpath "${1:-.build/release/cdstore}")
rows=${BENCH_ROWS:-200000}
generator=../shared/bench/gen_people.py
[ -f "$generator" ] || { echo "bench: $generator not found (../shared must be beside the repository)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$generator" --rows "$rows" --out "$work" >/dev/null
export CDSTORE_MODEL="$PWD/Schemas/People.json"

# Runs a command three times and prints the best wall-clock time in seconds (the setup before each run is not timed).
best() {
  local setup=$1; shift
  local best_ms=""
  for _ in 1 2 3; do
    eval "$setup"
    local start end ms
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    if [ -z "$best_ms" ] || [ "$ms" -lt "$best_ms" ]; then best_ms=$ms; fi
  done
  echo "$best_ms"
}

row() {  # label, milliseconds, rows handled
  local per_second=$(( $3 * 1000 / ($2 > 0 ? $2 : 1) ))
  printf '| %-42s | %8.2f s | %10s rows/s |\n' "$1" "$(awk "BEGIN {print $2 / 1000}")" "$per_second"
}

store="$work/people.sqlite"
echo "cdstore benchmarks: $rows rows of ../shared/bench/gen_people.py, $(nproc) cores, $(uname -m)"
echo
printf '| %-42s | %10s | %17s |\n' operation time throughput
printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..44})" "$(printf -- '-%.0s' {1..12})" "$(printf -- '-%.0s' {1..19})"
ms=$(best "rm -f $store*" "$cdstore" insert Person --file "$work/people.csv" --store "$store"); row "insert CSV (one transaction)" "$ms" "$rows"
ms=$(best "rm -f $store*" "$cdstore" insert Person --file "$work/people.ndjson" --store "$store"); row "insert NDJSON (one transaction)" "$ms" "$rows"
ms=$(best ":" "$cdstore" count Person --where "age >= 30 AND active == YES" --store "$store"); row "count --where (age >= 30 AND active)" "$ms" "$rows"
ms=$(best ":" "$cdstore" fetch Person --where "name BEGINSWITH[c] 'al'" --sort -salary --limit 100 --format json --store "$store"); row "fetch BEGINSWITH[c], sort, limit 100" "$ms" "$rows"
ms=$(best ":" "$cdstore" export Person --format ndjson --store "$store"); row "export NDJSON (every row)" "$ms" "$rows"
ms=$(best ":" "$cdstore" export Person --format csv --store "$store"); row "export CSV (every row)" "$ms" "$rows"
