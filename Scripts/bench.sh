#!/usr/bin/env bash
# Benchmarks: cdstore side by side with the sqlite3 shell (the floor: the same SQLite doing the same work with
# no model layer) and sqlite-utils (the tool people pick today to load JSON/CSV into SQLite).
#
#   Scripts/bench.sh CDSTORE_BINARY          # what `make bench` runs, with .build/release/cdstore
#   ROWS=20000 RUNS=2 Scripts/bench.sh .build/debug/cdstore
#
# ROWS (default 1000000) Person rows from ../shared/bench/gen_people.py (model Schemas/People.json); the graph
# loads use ROWS/50 and ROWS/10 departments with 10 nested employees each from Scripts/gen_graph.py
# (Schemas/Company.json; GRAPH_DEPARTMENTS="N …" picks other sizes). Loads are also set beside two floors: SQLite
# copying the finished rows (copy floor), the same copy row by row (row floor) and a plain sqlite3 shell import
# (plain shell floor).
# RUNS (default 3) runs of every measurement, interleaved: run i runs each contender once before run i+1
# starts, so machine noise hits every contender alike. STARTUP_RUNS (default 50) runs of the start-up check.
# Reports min and median wall time, rows/s by the median, peak RSS (/usr/bin/time -f %M, the largest of the
# runs) and the ratio of each median to the sqlite3 shell's median in the same run. Prints the table and
# writes it to bench/RESULTS.md (RESULTS=PATH writes it elsewhere). A cdstore command that fails gets
# `failed` in its cells; the script goes on.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: Scripts/bench.sh CDSTORE_BINARY   (ROWS=, RUNS=, STARTUP_RUNS=, RESULTS=)" >&2; exit 2; }
cdstore=$(realpath "$1")   # before the cd: a path relative to where the script was started
[ -x "$cdstore" ] || { echo "bench: $1 is not an executable" >&2; exit 2; }
results=$(realpath -m "${RESULTS:-$(dirname "$0")/../bench/RESULTS.md}")
cd "$(dirname "$0")/.."
repo=$PWD
rows=${ROWS:-${BENCH_ROWS:-1000000}}
runs=${RUNS:-3}
startup_runs=${STARTUP_RUNS:-50}
# Graph sizes in departments (11 objects each), smallest first; sizes below 1 are left out.
graph_sizes=$(for d in ${GRAPH_DEPARTMENTS:-$(( rows / 50 )) $(( rows / 10 ))}; do [ "$d" -ge 1 ] && echo "$d"; done | sort -nu | tr '\n' ' ')
[ -n "$graph_sizes" ] || graph_sizes=1
generator=../shared/bench/gen_people.py
people_model=$repo/Schemas/People.json
company_model=$repo/Schemas/Company.json
[ -f "$generator" ] || { echo "bench: $generator not found (../shared must be beside the repository)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "bench: sqlite3 not found (make bench installs it)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) not found" >&2; exit 1; }
have_sqlite_utils=1
if command -v sqlite-utils >/dev/null; then sqlite_utils=(sqlite-utils)
elif python3 -m sqlite_utils --version >/dev/null 2>&1; then sqlite_utils=(python3 -m sqlite_utils)
else have_sqlite_utils=0; sqlite_utils=(false); echo "bench: sqlite-utils not found; its rows are left out (make bench pip-installs it)" >&2
fi
unset CDSTORE_MODEL CDSTORE_STORE
# The commit being measured, read now: the report is written long after.
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"

work=$(mktemp -d "${TMPDIR:-/tmp}/cdstore-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
log() { printf '%s\n' "$*" >&2; }

# --- measurements -------------------------------------------------------------------------------------------
# Each measurement is a key "OPERATION|CONTENDER"; keys are reported in the order they were first measured.
declare -A times=() rss=() failed=() amount=()
declare -a keys=()
last_status=0

# measure OPERATION CONTENDER AMOUNT OUTFILE COMMAND...: one run, wall time and peak RSS. AMOUNT is what
# rows/s divides (rows or objects handled; 0 for none). Standard output goes to OUTFILE.
measure() {
  local op=$1 who=$2 n=$3 out=$4; shift 4
  local key="$op|$who" start end status=0
  if [ -z "${amount[$key]+x}" ]; then keys+=("$key"); amount[$key]=$n; times[$key]=""; rss[$key]=0; fi
  start=$EPOCHREALTIME
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" >"$out" 2>"$work/stderr" || status=$?
  end=$EPOCHREALTIME
  last_status=$status
  if [ "$status" -ne 0 ]; then
    failed[$key]=1
    log "  FAILED ($who, $op, exit status $status): $(grep -v 'Command exited with non-zero status' "$work/stderr" | tail -3 | tr '\n' ' ')"
    return 0
  fi
  times[$key]+="$(awk -v s="$start" -v e="$end" 'BEGIN {printf "%.6f", e - s}') "
  local kib; kib=$(awk 'END {print $2}' "$work/time")
  [ "$kib" -gt "${rss[$key]}" ] && rss[$key]=$kib
  return 0
}

# measure_quick OPERATION CONTENDER COMMAND...: wall time without /usr/bin/time in between (for start-up,
# where its fork and exec would be a noticeable part of what is measured). Peak RSS comes from measure runs.
measure_quick() {
  local op=$1 who=$2; shift 2
  local key="$op|$who" start end status=0
  start=$EPOCHREALTIME
  "$@" >/dev/null 2>"$work/stderr" || status=$?
  end=$EPOCHREALTIME
  if [ "$status" -ne 0 ]; then failed[$key]=1; log "  FAILED ($who, $op): $(tail -3 "$work/stderr" | tr '\n' ' ')"; return 0; fi
  times[$key]+="$(awk -v s="$start" -v e="$end" 'BEGIN {printf "%.6f", e - s}') "
}

# stats KEY: "min median" of the recorded times (median of an even count: the mean of the middle two).
stats() {
  tr ' ' '\n' <<<"${times[$1]}" | grep . | sort -g | awk '{v[NR] = $1} END {
    if (NR == 0) { print "- -"; exit }
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.6f %.6f\n", v[1], m }'
}

rm_store() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }

# --- data ---------------------------------------------------------------------------------------------------
log "bench: generating $rows people in $work (graphs of $graph_sizes departments × 10 employees come later)"
python3 "$generator" --rows "$rows" --out "$work" >/dev/null
python3 "$generator" --rows 10 --out "$work/small" >/dev/null

# The floor: sqlite3 .import of the CSV into a temporary table, then one INSERT … SELECT into Core Data's
# ZPERSON converting the types (ISO 8601 → seconds since 2001, 0/1 boolean), Z_MAX kept, one transaction.
# It is what cdstore does minus the model layer, so it serves as the floor of both the CSV and NDJSON loads.
floor_sql=$work/floor.sql
write_floor_sql() {  # STORE: the entity number comes from the store's Z_PRIMARYKEY
  local ent; ent=$(sqlite3 "$1" "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'")
  cat >"$floor_sql" <<SQL
.bail on
BEGIN;
.import --csv $work/people.csv temp_people
INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZID, ZNAME, ZAGE, ZSALARY, ZACTIVE, ZJOINED)
  SELECT rowid, $ent, 1, CAST(id AS INTEGER), name, CAST(age AS INTEGER), CAST(salary AS REAL),
         CAST(active AS INTEGER), round((julianday(joined) - 2451910.5) * 86400.0, 3)
  FROM temp_people ORDER BY rowid;
UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT MAX(Z_PK) FROM ZPERSON) WHERE Z_ENT = $ent;
DROP TABLE temp_people;
COMMIT;
SQL
}

empty_store() {  # STORE: an empty Core Data store for People.json, made by cdstore (not timed)
  rm_store "$1"
  "$cdstore" count Person --store "$1" --model "$people_model" >/dev/null 2>&1
}

# Two more floors, so that the ratio to what SQLite itself needs stays in view (issue 27):
# - plain shell floor: `.import` of the CSV into a table, then a plain INSERT … SELECT into ZPERSON (column affinity
#   converts the text; only the date needs converting), one transaction, no CASTs, no ORDER BY, no Z_MAX update;
# - copy floor: SQLite copying the finished rows (cdstore's own store of the load) from an attached store into an
#   empty store of the same layout and indexes, `INSERT INTO main.T SELECT * FROM src.T`, one transaction. No
#   conversion, no parsing: what writing the rows costs SQLite alone. Into an empty table of the same schema SQLite
#   takes its transfer optimisation: it copies each record's bytes and index entries without decoding them;
# - row floor: the same copy with `WHERE 1`, which turns the transfer optimisation off, so SQLite decodes each row
#   and inserts it through the table and each index as an INSERT of values does: the least any loader binding values
#   row by row can cost (docs/decisions/0013-bulk-load-speed.md).
plain_floor_sql=$work/plain-floor.sql
write_plain_floor_sql() {  # STORE
  local ent; ent=$(sqlite3 "$1" "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Person'")
  cat >"$plain_floor_sql" <<SQL
.bail on
BEGIN;
.import --csv $work/people.csv temp_people
INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZID, ZNAME, ZAGE, ZSALARY, ZACTIVE, ZJOINED)
  SELECT rowid, $ent, 1, id, name, age, salary, active, round((julianday(joined) - 2451910.5) * 86400.0, 3) FROM temp_people;
COMMIT;
SQL
}
copy_floor_sql() {  # SOURCE_STORE TABLE…: the copy floor's SQL for those tables (ROW_FLOOR=1: the row floor's)
  local src=$1; shift
  printf "ATTACH '%s' AS src; BEGIN;" "$src"
  for t in "$@"; do printf ' INSERT INTO main.%s SELECT * FROM src.%s%s;' "$t" "$t" "${ROW_FLOOR:+ WHERE 1}"; done
  printf ' COMMIT;'
}
# floor_of["OPERATION|CONTENDER"]="FLOOR OPERATION|FLOOR CONTENDER": the extra ratio columns of the report.
declare -A copy_floor_of=() plain_floor_of=() row_floor_of=()
copy_floor_who="sqlite3 (ATTACH, INSERT … SELECT *, one transaction)"
row_floor_who="sqlite3 (ATTACH, INSERT … SELECT * WHERE 1, one transaction)"
plain_floor_who="sqlite3 (.import CSV, plain INSERT … SELECT)"

# --- 1. loads -----------------------------------------------------------------------------------------------
log "bench: 1. loads ($runs runs, interleaved)"
empty_store "$work/template.sqlite"
write_floor_sql "$work/template.sqlite"
write_plain_floor_sql "$work/template.sqlite"
copy_op="copy floor: $rows Person rows into an empty store"
plain_op="plain shell floor: $rows Person rows"
row_op="row floor: $rows Person rows into an empty store"
for ((run = 1; run <= runs; run++)); do
  log "  run $run/$runs"
  for fmt in ndjson csv; do
    op="load $(tr a-z A-Z <<<"$fmt") (one transaction)"
    flag=$([ "$fmt" = ndjson ] && echo --nl || echo --csv)
    rm_store "$work/cd-$fmt.sqlite"
    measure "$op" cdstore "$rows" /dev/null \
      "$cdstore" insert Person --file "$work/people.$fmt" $flag --store "$work/cd-$fmt.sqlite" --model "$people_model"
    empty_store "$work/floor-$fmt.sqlite"
    measure "$op" "sqlite3 (.import CSV + INSERT…SELECT)" "$rows" /dev/null \
      sqlite3 "$work/floor-$fmt.sqlite" ".read $floor_sql"
    copy_floor_of["$op|cdstore"]="$copy_op|$copy_floor_who"
    plain_floor_of["$op|cdstore"]="$plain_op|$plain_floor_who"
    row_floor_of["$op|cdstore"]="$row_op|$row_floor_who"
    if [ "$have_sqlite_utils" = 1 ]; then
      rm_store "$work/su-$fmt.db"
      measure "$op" "sqlite-utils insert $flag (commits every 100 rows)" "$rows" /dev/null \
        "${sqlite_utils[@]}" insert "$work/su-$fmt.db" people "$work/people.$fmt" $flag
    fi
  done
  empty_store "$work/plain-floor.sqlite"
  measure "$plain_op" "$plain_floor_who" "$rows" /dev/null sqlite3 "$work/plain-floor.sqlite" ".read $plain_floor_sql"
  if [ -s "$work/cd-ndjson.sqlite" ]; then  # the rows cdstore wrote, copied
    empty_store "$work/copy-floor.sqlite"
    measure "$copy_op" "$copy_floor_who" "$rows" /dev/null \
      sqlite3 "$work/copy-floor.sqlite" "$(copy_floor_sql "$work/cd-ndjson.sqlite" ZPERSON)"
    empty_store "$work/row-floor.sqlite"
    measure "$row_op" "$row_floor_who" "$rows" /dev/null \
      sqlite3 "$work/row-floor.sqlite" "$(ROW_FLOOR=1 copy_floor_sql "$work/cd-ndjson.sqlite" ZPERSON)"
  fi
done

# Consistency: the floor must write the rows cdstore writes.
check="SELECT COUNT(*), SUM(ZAGE), SUM(ZACTIVE), MIN(ZJOINED), MAX(ZJOINED), printf('%.2f', SUM(ZSALARY)) FROM ZPERSON"
warnings=()
for floor in plain-floor copy-floor row-floor; do
  a=$(sqlite3 "$work/cd-ndjson.sqlite" "$check" 2>/dev/null || echo "unreadable")
  b=$(sqlite3 "$work/$floor.sqlite" "$check" 2>/dev/null || echo "unreadable")
  [ "$a" = "$b" ] || warnings+=("WARNING: the $floor: cdstore's store ($a) and the floor's ($b) differ")
done
rm_store "$work/plain-floor.sqlite"; rm_store "$work/copy-floor.sqlite"; rm_store "$work/row-floor.sqlite"
for fmt in ndjson csv; do
  a=$(sqlite3 "$work/cd-$fmt.sqlite" "$check" 2>/dev/null || echo "unreadable")
  b=$(sqlite3 "$work/floor-$fmt.sqlite" "$check" 2>/dev/null || echo "unreadable")
  if [ "$a" != "$b" ]; then
    warnings+=("WARNING: the $fmt load: cdstore's store ($a) and the sqlite3 floor's ($b) differ in COUNT, SUM(ZAGE), SUM(ZACTIVE), MIN/MAX(ZJOINED), SUM(ZSALARY)")
  fi
  if [ "$have_sqlite_utils" = 1 ] && [ -f "$work/su-$fmt.db" ]; then
    c=$(sqlite3 "$work/su-$fmt.db" "SELECT COUNT(*) FROM people" 2>/dev/null || echo "unreadable")
    [ "$c" = "$rows" ] || warnings+=("WARNING: sqlite-utils $fmt load holds $c rows, not $rows")
  fi
done
log "  consistency: cdstore vs floor $( [ ${#warnings[@]} -eq 0 ] && echo identical || echo DIFFERENT)"

# The store the queries read: cdstore's NDJSON load (else the floor's, with the same rows).
store=$work/query.sqlite
if [ -s "$work/cd-ndjson.sqlite" ] && sqlite3 "$work/cd-ndjson.sqlite" "SELECT 1 FROM ZPERSON LIMIT 1" >/dev/null 2>&1; then
  src=$work/cd-ndjson.sqlite
else
  src=$work/floor-ndjson.sqlite; log "  queries read the floor's store (cdstore's load failed)"
fi
sqlite3 "$src" "VACUUM INTO '$store'"
rm_store "$work/cd-csv.sqlite"; rm_store "$work/floor-csv.sqlite"; rm_store "$work/floor-ndjson.sqlite"
rm -f "$work/su-ndjson.db" "$work/su-csv.db"
# VACUUM INTO leaves a rollback-journal file; cdstore's stores are WAL, as Core Data's are.
sqlite3 "$store" "PRAGMA journal_mode = WAL" >/dev/null
export CDSTORE_MODEL=$people_model

# --- 2. queries and exports against the same store ----------------------------------------------------------
# The SELECT list sqlite3 gets: what cdstore prints, in its order: _id, the model's attributes under their
# names, the date as ISO 8601 (sqlite3 alone would print seconds since 2001, which is not the same output).
# _id is the object's URI as cdstore prints it, from the store's UUID and Z_PK.
uri="'x-coredata://$(sqlite3 "$store" "SELECT Z_UUID FROM Z_METADATA")/Person/p' || Z_PK"
iso="strftime('%Y-%m-%dT%H:%M:%fZ', ZJOINED + 978307200, 'unixepoch')"
rest="ZAGE AS age, ZID AS id, $iso AS joined, ZNAME AS name, ZSALARY AS salary"
columns="$uri AS _id, ZACTIVE AS active, $rest"
# CSV: booleans as true/false, as cdstore writes them (JSON keeps 0/1: -json cannot print a bare true).
csv_columns="$uri AS _id, CASE WHEN ZACTIVE THEN 'true' ELSE 'false' END AS active, $rest"
json_object="json_object('_id', $uri, 'active', json(CASE WHEN ZACTIVE THEN 'true' ELSE 'false' END), 'age', ZAGE,
  'id', ZID, 'joined', $iso, 'name', ZNAME, 'salary', ZSALARY)"
# count: LIKE 'A%' is what SQLite users write for a prefix (it matches case-insensitively; every name here
# starts with a capital, so the counts agree — the script checks).
count_sql="SELECT COUNT(*) FROM ZPERSON WHERE ZAGE > 30 AND ZNAME LIKE 'A%'"
out=$work/out
log "bench: 2. queries and exports ($runs runs, interleaved)"
for ((run = 1; run <= runs; run++)); do
  log "  run $run/$runs"
  measure "fetch age BETWEEN {30, 40}, sort -salary, limit 100, JSON" cdstore "$rows" "$out" \
    "$cdstore" fetch Person --where 'age BETWEEN {30, 40}' --sort -salary --limit 100 --format json --store "$store"
  measure "fetch age BETWEEN {30, 40}, sort -salary, limit 100, JSON" "sqlite3 -json" "$rows" "$out" \
    sqlite3 -json "$store" "SELECT $columns FROM ZPERSON WHERE ZAGE BETWEEN 30 AND 40 ORDER BY ZSALARY DESC LIMIT 100"
  measure "count age > 30 AND name BEGINSWITH \"A\"" cdstore "$rows" "$work/count-cd" \
    "$cdstore" count Person --where 'age > 30 AND name BEGINSWITH "A"' --store "$store"
  measure "count age > 30 AND name BEGINSWITH \"A\"" "sqlite3 (LIKE 'A%')" "$rows" "$work/count-sql" \
    sqlite3 "$store" "$count_sql"
  measure "export JSON" cdstore "$rows" "$out" "$cdstore" export Person --format json --store "$store"
  measure "export JSON" "sqlite3 -json" "$rows" "$out" sqlite3 -json "$store" "SELECT $columns FROM ZPERSON"
  measure "export NDJSON" cdstore "$rows" "$out" "$cdstore" export Person --format ndjson --store "$store"
  measure "export NDJSON" "sqlite3 json_object" "$rows" "$out" sqlite3 "$store" "SELECT $json_object FROM ZPERSON"
  measure "export CSV" cdstore "$rows" "$out" "$cdstore" export Person --format csv --store "$store"
  measure "export CSV" "sqlite3 -csv -header" "$rows" "$out" sqlite3 -csv -header "$store" "SELECT $csv_columns FROM ZPERSON"
done
rm -f "$out"
if [ "$(cat "$work/count-cd" 2>/dev/null)" != "$(cat "$work/count-sql" 2>/dev/null)" ]; then
  warnings+=("WARNING: count: cdstore printed '$(cat "$work/count-cd" 2>/dev/null)', sqlite3 '$(cat "$work/count-sql" 2>/dev/null)'")
fi

# --- 2b. diff of two stores ---------------------------------------------------------------------------------
# B holds A's people inserted in reverse order (every Z_PK renumbered) with every 100th salary raised by 1, so
# `cdstore diff --key Person=id` merges two key-ordered reads and finds ROWS/100 changed objects (exit status 1,
# which the wrapper turns into success). The floor: ATTACH and two LEFT JOINs on id printing the differing rows.
# Compare its median with twice the "export NDJSON" median (both stores exported).
diff_store=$work/diff-b.sqlite
rm_store "$diff_store"
sqlite3 "$store" "VACUUM INTO '$diff_store'"
sqlite3 "$diff_store" "BEGIN; CREATE TEMP TABLE p AS SELECT * FROM ZPERSON; DELETE FROM ZPERSON;
  INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZID, ZNAME, ZAGE, ZSALARY, ZACTIVE, ZJOINED)
    SELECT ROW_NUMBER() OVER (ORDER BY Z_PK DESC), Z_ENT, Z_OPT, ZID, ZNAME, ZAGE,
           CASE WHEN Z_PK % 100 = 0 THEN ZSALARY + 1 ELSE ZSALARY END, ZACTIVE, ZJOINED FROM p ORDER BY Z_PK DESC;
  COMMIT;" >/dev/null
diff_op="diff two stores (ROWS each, --key Person=id, 1% changed)"
# Two LEFT JOINs rather than one FULL JOIN, for which SQLite 3.40 builds no automatic index (quadratic).
diff_sql="ATTACH '$diff_store' AS b;
  SELECT x.ZID, y.ZID, x.ZSALARY, y.ZSALARY FROM main.ZPERSON x LEFT JOIN b.ZPERSON y ON x.ZID = y.ZID
  WHERE y.ZID IS NULL OR x.ZNAME IS NOT y.ZNAME OR x.ZAGE IS NOT y.ZAGE OR x.ZSALARY IS NOT y.ZSALARY
     OR x.ZACTIVE IS NOT y.ZACTIVE OR x.ZJOINED IS NOT y.ZJOINED
  UNION ALL SELECT NULL, y.ZID, NULL, y.ZSALARY FROM b.ZPERSON y LEFT JOIN main.ZPERSON x ON x.ZID = y.ZID WHERE x.ZID IS NULL"
log "bench: 2b. diff ($runs runs)"
for ((run = 1; run <= runs; run++)); do
  log "  run $run/$runs"
  measure "$diff_op" cdstore "$rows" "$work/diff-cd" \
    bash -c '"$@"; [ $? -eq 1 ]' diff "$cdstore" diff "$store" "$diff_store" --key Person=id --format ndjson
  measure "$diff_op" "sqlite3 (ATTACH + LEFT JOINs on id)" "$rows" "$work/diff-sql" sqlite3 -json "$store" "$diff_sql"
done
got=$(grep -c '"change":"changed"' "$work/diff-cd" 2>/dev/null || true)
[ "$got" = "$(( rows / 100 ))" ] || warnings+=("WARNING: diff: cdstore reported ${got:-no} changed objects, expected $(( rows / 100 ))")
rm_store "$diff_store"; rm -f "$work/diff-cd" "$work/diff-sql"

# --- 2c. cdstore serve under load ---------------------------------------------------------------------------
# wrk from loopback against the entity page of the query store (Scripts/bench-serve.sh): requests/s and latency.
serve_report=""
if command -v wrk >/dev/null; then
  log "bench: 2c. serve (wrk)"
  serve_report=$(Scripts/bench-serve.sh "$cdstore" "$store" Person "$rows" 2>&1) ||
    warnings+=("WARNING: serve: Scripts/bench-serve.sh failed: ${serve_report: -300}")
else
  warnings+=("WARNING: serve: wrk not installed (make bench installs it); no load figures")
fi

# --- 3. graph load and export, and their copy floor -------------------------------------------------------
# Schemas/Company.json requires every Department to belong to a Company, so each run's store gets the one
# company the generated departments refer to before the clock starts. Two sizes (GRAPH_DEPARTMENTS, default
# ROWS/50 and ROWS/10 departments: 220k and 1.1M objects for 1M rows), each with its copy floor: the departments and
# employees cdstore stored, copied by SQLite into another store holding the one company (same layout, the model's
# 7 indexes), one transaction.
graph_store=$work/graph.sqlite
company_store() {  # [STORE]
  local target=${1:-$graph_store}
  rm_store "$target"
  "$cdstore" insert Company --json '{"id": "1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10", "name": "Bench Co"}' \
    --store "$target" --model "$company_model" >/dev/null 2>&1
}
for size in $graph_sizes; do
  objects=$(( size * 11 ))
  python3 Scripts/gen_graph.py --departments "$size" --out "$work/graph-$size"
  log "bench: 3. graph load and export ($size departments × 10 employees, $objects objects, $runs runs)"
  json_op="graph load, one JSON document, $objects objects (objects/s)"
  ndjson_op="graph load, NDJSON, $objects objects (objects/s)"
  graph_copy_op="copy floor: the graph's $objects objects into a store with the company"
  graph_row_op="row floor: the graph's $objects objects into a store with the company"
  copy_floor_of["$json_op|cdstore"]="$graph_copy_op|$copy_floor_who"
  copy_floor_of["$ndjson_op|cdstore"]="$graph_copy_op|$copy_floor_who"
  row_floor_of["$json_op|cdstore"]="$graph_row_op|$row_floor_who"
  row_floor_of["$ndjson_op|cdstore"]="$graph_row_op|$row_floor_who"
  for ((run = 1; run <= runs; run++)); do
    log "  run $run/$runs"
    company_store
    measure "$json_op" cdstore "$objects" /dev/null \
      "$cdstore" insert Department --file "$work/graph-$size/departments.json" --store "$graph_store" --model "$company_model"
    company_store
    measure "$ndjson_op" cdstore "$objects" /dev/null \
      "$cdstore" insert Department --file "$work/graph-$size/departments.ndjson" --nl --store "$graph_store" --model "$company_model"
    if [ "$last_status" -ne 0 ]; then  # export a whole graph all the same: the JSON document's, loaded untimed
      company_store
      "$cdstore" insert Department --file "$work/graph-$size/departments.json" --store "$graph_store" --model "$company_model" \
        >/dev/null 2>&1 || { log "  graph export skipped: no graph to export"; continue; }
    fi
    company_store "$work/graph-floor.sqlite"
    measure "$graph_copy_op" "$copy_floor_who" "$objects" /dev/null \
      sqlite3 "$work/graph-floor.sqlite" "$(copy_floor_sql "$graph_store" ZDEPARTMENT ZEMPLOYEE)"
    company_store "$work/graph-floor.sqlite"
    measure "$graph_row_op" "$row_floor_who" "$objects" /dev/null \
      sqlite3 "$work/graph-floor.sqlite" "$(ROW_FLOOR=1 copy_floor_sql "$graph_store" ZDEPARTMENT ZEMPLOYEE)"
    rm -f "$work/graph.json"
    measure "graph export, one JSON document, $objects objects (objects/s)" cdstore "$(( objects + 1 ))" /dev/null \
      "$cdstore" export --format json --output "$work/graph.json" --store "$graph_store" --model "$company_model"
  done
  if [ -s "$graph_store" ]; then
    got=$(sqlite3 "$graph_store" "SELECT (SELECT COUNT(*) FROM ZDEPARTMENT) || ' ' || (SELECT COUNT(*) FROM ZEMPLOYEE)" 2>/dev/null || echo "?")
    [ "$got" = "$size $(( size * 10 ))" ] ||
      warnings+=("WARNING: graph store holds '$got' departments and employees, expected $size and $(( size * 10 ))")
  fi
  rm_store "$graph_store"; rm_store "$work/graph-floor.sqlite"; rm -rf "$work/graph.json" "$work/graph-$size"
done

# --- 4. start-up --------------------------------------------------------------------------------------------
small=$work/small.sqlite
rm_store "$small"
"$cdstore" insert Person --file "$work/small/people.csv" --csv --store "$small" >/dev/null 2>&1 ||
  { warnings+=("WARNING: start-up: cdstore could not load the small store"); empty_store "$small"; }
startup_op="start-up: count on a 10-row store"
log "bench: 4. start-up ($startup_runs runs)"
measure "$startup_op" cdstore 0 /dev/null "$cdstore" count Person --store "$small"   # peak RSS, not timed
measure "$startup_op" "sqlite3" 0 /dev/null sqlite3 "$small" "SELECT COUNT(*) FROM ZPERSON"
times["$startup_op|cdstore"]=""; times["$startup_op|sqlite3"]=""
for ((run = 1; run <= startup_runs; run++)); do
  measure_quick "$startup_op" cdstore "$cdstore" count Person --store "$small"
  measure_quick "$startup_op" "sqlite3" sqlite3 "$small" "SELECT COUNT(*) FROM ZPERSON"
done
# The same two commands timed by hyperfine as another program runs them (no shell, 5 warm-up runs): a second
# figure from outside the process, which also counts what bash's loop above does not pay twice (hyperfine's own
# fork and wait, and page-cache state after the other command ran).
hyperfine_json=$work/startup-hyperfine.json
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 5 --runs "$startup_runs" --export-json "$hyperfine_json" \
    "$cdstore count Person --store $small" "sqlite3 $small 'SELECT COUNT(*) FROM ZPERSON'" >/dev/null 2>&1 ||
    warnings+=("WARNING: start-up: hyperfine failed")
fi

# --- report -------------------------------------------------------------------------------------------------
# ratio_to MEDIAN FLOOR_KEY: MEDIAN ÷ the floor's median ("—" without a floor or its figures).
ratio_to() {
  local key=$2
  if [ -z "$key" ] || [ -n "${failed[$key]:-}" ] || [ -z "${times[$key]:-}" ] || [ -z "${times[$key]// /}" ]; then echo "—"; return; fi
  local bmed; read -r _ bmed < <(stats "$key")
  awk -v a="$1" -v b="$bmed" 'BEGIN {printf "%.2f×", a / b}'
}
cpu=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo)
su_version=$([ "$have_sqlite_utils" = 1 ] && "${sqlite_utils[@]}" --version | awk '{print $NF}' || echo "not installed")
report=$work/report.md
{
  echo "# cdstore benchmarks"
  echo
  if [ "$1" = .build/release/cdstore ]; then echo "\`make bench ROWS=$rows RUNS=$runs\`"
  else echo "\`ROWS=$rows RUNS=$runs Scripts/bench.sh $1\` (\`make bench\` runs it with a release binary)"; fi
  echo
  echo "$rows rows, $runs run$([ "$runs" = 1 ] || echo s) each (interleaved), $(nproc) cores ($cpu), $(date -u '+%Y-%m-%d %H:%M UTC'), cdstore $commit, sqlite3 $(sqlite3 --version | awk '{print $1}'), sqlite-utils $su_version"
  echo
  echo "| operation | contender | min s | median s | rows/s (by median) | peak RSS MiB | ratio to sqlite3 (median) | × copy floor | × row floor | × plain shell floor |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for key in "${keys[@]}"; do
    op=${key%%|*}; who=${key#*|}
    if [ -n "${failed[$key]:-}" ] || [ -z "${times[$key]// /}" ]; then
      echo "| $op | $who | failed | failed | failed | failed | failed | — | — | — |"; continue
    fi
    read -r lo med < <(stats "$key")
    n=${amount[$key]}
    per_s=$([ "$n" -gt 0 ] && awk -v n="$n" -v t="$med" 'BEGIN {printf "%.0f", n / t}' || echo "—")
    mib=$(awk -v k="${rss[$key]}" 'BEGIN {printf "%.1f", k / 1024}')
    ratio="—"
    for base in "${keys[@]}"; do
      if [ "${base%%|*}" = "$op" ] && [[ "${base#*|}" == sqlite3* ]] && [ -z "${failed[$base]:-}" ] && [ -n "${times[$base]// /}" ]; then
        read -r _ bmed < <(stats "$base")
        ratio=$(awk -v a="$med" -v b="$bmed" 'BEGIN {printf "%.2f×", a / b}')
        break
      fi
    done
    printf '| %s | %s | %.3f | %.3f | %s | %s | %s | %s | %s | %s |\n' "$op" "$who" "$lo" "$med" "$per_s" "$mib" "$ratio" \
      "$(ratio_to "$med" "${copy_floor_of[$key]:-}")" "$(ratio_to "$med" "${row_floor_of[$key]:-}")" \
      "$(ratio_to "$med" "${plain_floor_of[$key]:-}")"
  done
  echo
  for who in cdstore sqlite3; do
    key="$startup_op|$who"
    if [ -z "${failed[$key]:-}" ] && [ -n "${times[$key]// /}" ]; then
      read -r lo med < <(stats "$key")
      awk -v w="$who" -v a="$lo" -v b="$med" -v r="$startup_runs" 'BEGIN {printf "Start-up, %s: best %.1f ms, median %.1f ms of %d runs.\n", w, a * 1000, b * 1000, r}'
    fi
  done
  if [ -s "$hyperfine_json" ]; then
    python3 -c '
import json, sys
for result, who in zip(json.load(open(sys.argv[1]))["results"], ["cdstore", "sqlite3"]):
    print("Start-up by hyperfine -N, %s: best %.1f ms, median %.1f ms, mean %.1f ± %.1f ms of %d runs." % (
        who, result["min"] * 1000, result["median"] * 1000, result["mean"] * 1000, result["stddev"] * 1000,
        len(result["times"])))
' "$hyperfine_json"
  fi
  echo
  echo "Loads: cdstore \`insert Person --file people.ndjson --nl\` / \`--csv\` into a new store; the sqlite3 floor"
  echo "(for both) \`.import --csv\` into a temporary table, then \`INSERT INTO ZPERSON … SELECT\` converting the date and"
  echo "boolean, in one transaction, into an empty store cdstore made; sqlite-utils \`insert db people FILE --nl\` / \`--csv\`"
  echo "into a plain table of a new database, committing every 100 rows as it does by default (\`--batch-size 100\`)."
  echo "Queries and exports read one store; sqlite3 formats dates as cdstore"
  echo "does (\`strftime(… ZJOINED + 978307200, 'unixepoch')\`). Graph: ROWS/50 and ROWS/10 departments × 10 employees"
  echo "(\`Scripts/gen_graph.py\`, \`Schemas/Company.json\`), \`insert Department\`, then \`export --format json\`."
  echo "Floors (issue 27): the copy floor is SQLite copying the finished rows (cdstore's own store of that load) from an"
  echo "attached store into an empty one of the same layout and indexes, \`INSERT INTO main.T SELECT * FROM src.T\`, one"
  echo "transaction (SQLite's transfer optimisation: record bytes copied without decoding); the row floor is the same copy"
  echo "with \`WHERE 1\`, which turns that off, so each row is decoded and inserted through the table and every index as an"
  echo "INSERT of values is; the plain shell floor \`.import\`s the CSV into a table, then one plain \`INSERT … SELECT\` (no"
  echo "CASTs, no ORDER BY, no Z_MAX update), one transaction. × copy floor, × row floor and × plain shell floor: cdstore's"
  echo "median ÷ the floor's."
  echo "Diff: the query store against a copy with every Z_PK renumbered (reverse order) and 1% of salaries changed,"
  echo "\`diff A B --key Person=id --format ndjson\` (objects matched by id, both read in id order and merged); its"
  echo "budget is twice exporting both stores, 4× the export NDJSON median. rows/s: objects per store ÷ the median."
  echo "The NDJSON and CSV outputs of both are the same bytes but for number formatting (\`49936\` against \`49936.0\`)."
  echo "rows/s of fetch and count: the rows in the store ÷ the median. Ratios: median ÷ the sqlite3 shell's median"
  echo "in the same run. Peak RSS: the largest of the runs. count's SQL uses \`LIKE 'A%'\`, as SQLite users write a"
  echo "prefix test; the start-up figures time the commands without /usr/bin/time in between."
  if [ -n "$serve_report" ]; then
    echo; echo "## cdstore serve (wrk, Scripts/bench-serve.sh)"; echo; echo "$serve_report"
  fi
  for w in "${warnings[@]}"; do echo; echo "$w"; done
} >"$report"
mkdir -p "$(dirname "$results")"
cp "$report" "$results"
echo
cat "$report"
echo
log "bench: written to $results"
