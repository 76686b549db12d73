#!/usr/bin/env bash
# Instruction counts (valgrind's callgrind) of the bulk loads and of start-up: repeatable on a shared, noisy
# machine where wall-clock times are not, so a change to the load path can be judged by them (issue 27,
# docs/decisions/0013-bulk-load-speed.md).
#
#   Scripts/instruction-counts.sh .build/release/cdstore            # ROWS=20000 DEPARTMENTS=2000
#   ROWS=50000 DEPARTMENTS=5000 Scripts/instruction-counts.sh .build/release/cdstore
#
# Prints one line per case: instructions in total (every thread), per record or object, and the same for SQLite
# copying the rows cdstore wrote into an empty store of the same layout (the copy floor) and the same copy row by
# row (the row floor: `WHERE 1` turns SQLite's transfer optimisation off), with the ratios.
# CDSTORE_NO_READ_AHEAD=1 in the environment turns off reading ahead on a second thread (counts stay about the
# same: they add up both threads); CDSTORE_NO_PREPARE_AHEAD=1 keeps the conversion of values on the writing thread,
# CDSTORE_NO_DEFERRED_INDEXES=1 keeps every index up row by row (ADR 0013, session 25), CDSTORE_NO_FIRST_WRITE_JOURNAL=1
# writes a new store's first transaction through WAL (session 26; it saves I/O more than instructions).
# Needs valgrind and sqlite3; runs under `nice -n 19`.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: Scripts/instruction-counts.sh CDSTORE_BINARY   (ROWS=, DEPARTMENTS=)" >&2; exit 2; }
cdstore=$(realpath "$1")
cd "$(dirname "$0")/.."
rows=${ROWS:-20000}
departments=${DEPARTMENTS:-2000}
command -v valgrind >/dev/null || { echo "instruction-counts: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/cdstore-counts.XXXXXX")
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 gives up on the DWARF 5 of Swift binaries ("possibly corrupted debuginfo"): a copy without debug
# information (function names stay, for callgrind_annotate) is what runs.
strip --strip-debug -o "$work/cdstore" "$cdstore"
cdstore=$work/cdstore
python3 ../shared/bench/gen_people.py --rows "$rows" --out "$work" >/dev/null
python3 ../shared/bench/gen_people.py --rows 10 --out "$work/small" >/dev/null
python3 Scripts/gen_graph.py --departments "$departments" --out "$work"
people=Schemas/People.json
company=Schemas/Company.json

# count COMMAND…: the instructions callgrind collected running it (standard output discarded).
count() {
  nice -n 19 valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$@" >/dev/null 2>"$work/valgrind.log" ||
    { echo "instruction-counts: failed: $*" >&2; tail -5 "$work/valgrind.log" >&2; exit 1; }
  awk '/Collected :/ {print $NF}' "$work/valgrind.log"
}
rm_store() { rm -f "$1" "$1-wal" "$1-shm"; }
company_store() {
  rm_store "$1"
  "$cdstore" insert Company --json '{"id": "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10", "name": "Bench Co"}' \
    --store "$1" --model "$company" >/dev/null
}
copy_floor() {  # SOURCE TARGET TABLE… (ROW_FLOOR=1: with WHERE 1, SQLite's transfer optimisation off)
  local src=$1 target=$2; shift 2
  local sql="ATTACH '$src' AS src; BEGIN;"
  for t in "$@"; do sql+=" INSERT INTO main.$t SELECT * FROM src.$t${ROW_FLOOR:+ WHERE 1};"; done
  count sqlite3 "$target" "$sql COMMIT;"
}
report() {  # NAME INSTRUCTIONS COPY_FLOOR_INSTRUCTIONS ROW_FLOOR_INSTRUCTIONS UNITS
  awk -v n="$1" -v i="$2" -v f="$3" -v r="$4" -v u="$5" 'BEGIN {
    printf "%-34s %14.0f instructions  %8.0f per record  copy floor %6.0f (%5.2f×)  row floor %6.0f (%5.2f×)\n",
      n, i, i / u, f / u, i / f, r / u, i / r }'
}

for fmt in ndjson csv; do
  flag=$([ "$fmt" = ndjson ] && echo --nl || echo --csv)
  rm_store "$work/p.sqlite"
  n=$(count "$cdstore" insert Person --file "$work/people.$fmt" $flag --store "$work/p.sqlite" --model "$people")
  rm_store "$work/floor.sqlite"
  "$cdstore" count Person --store "$work/floor.sqlite" --model "$people" >/dev/null 2>&1
  cp "$work/floor.sqlite" "$work/rowfloor.sqlite"
  f=$(copy_floor "$work/p.sqlite" "$work/floor.sqlite" ZPERSON)
  r=$(ROW_FLOOR=1 copy_floor "$work/p.sqlite" "$work/rowfloor.sqlite" ZPERSON)
  report "insert Person $flag ($rows)" "$n" "$f" "$r" "$rows"
done

objects=$(( departments * 11 ))
company_store "$work/g.sqlite"
n=$(count "$cdstore" insert Department --file "$work/departments.ndjson" --nl --store "$work/g.sqlite" --model "$company")
company_store "$work/gfloor.sqlite"
cp "$work/gfloor.sqlite" "$work/growfloor.sqlite"
f=$(copy_floor "$work/g.sqlite" "$work/gfloor.sqlite" ZDEPARTMENT ZEMPLOYEE)
r=$(ROW_FLOOR=1 copy_floor "$work/g.sqlite" "$work/growfloor.sqlite" ZDEPARTMENT ZEMPLOYEE)
report "graph insert --nl ($objects objects)" "$n" "$f" "$r" "$objects"

rm_store "$work/small.sqlite"
"$cdstore" insert Person --file "$work/small/people.csv" --csv --store "$work/small.sqlite" --model "$people" >/dev/null
n=$(count "$cdstore" count Person --store "$work/small.sqlite")
s=$(count sqlite3 "$work/small.sqlite" "SELECT COUNT(*) FROM ZPERSON")
printf '%-34s %14d instructions  (sqlite3: %d)\n' "start-up: count on a 10-row store" "$n" "$s"
