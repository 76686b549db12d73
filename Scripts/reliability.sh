#!/usr/bin/env bash
# Reliability report: runs each concurrency, crash, disk-full, exact-value and limits case RUNS times at full size
# and prints a table (case, runs, failures), also written to bench/RELIABILITY.md. `make reliability` runs it after
# building the tests; `make test` runs the same suites once, smaller.
#
#   Scripts/reliability.sh            # RUNS=5
#   RUNS=2 Scripts/reliability.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
swift=${SWIFT:-swift}
out=${RESULTS:-bench/RELIABILITY.md}
export CDSTORE_RELIABILITY_RECORDS=25000 CDSTORE_RELIABILITY_ROUNDS=1 CDSTORE_LARGE_MODEL_ENTITIES=10000

cases=(
  "4 writers × 25,000 records + 2 readers, WAL and DELETE journal|ConcurrentWritersTests/fourWriters"
  "a lock held past --busy-timeout: exit 4, holder named, store unchanged|ConcurrentWritersTests/aWriterThatCannot"
  "insert killed with SIGKILL inside its write: nothing written, verifies|CrashSafetyTests/insertKilled"
  "insert creating its store killed inside its write: nothing left, verifies|CrashSafetyTests/insertCreatingTheStore"
  "import killed with SIGKILL inside its write: nothing written, verifies|CrashSafetyTests/importKilled"
  "migration killed with SIGKILL midway: the next run finishes it with every row|CrashSafetyTests/aMigrationKilled"
  "disk full (1 MiB tmpfs): clean error, store unchanged|CrashSafetyTests/aFullDisk"
  "exact values through JSON, NDJSON, CSV and back|ExactValuesTests"
  "NUL, lone surrogates and other text bound and read whole|ExactTextTests"
  "predicates of 20,000 and 100,000 terms, nesting 100,000 deep|PredicateLimitsTests"
  "names built to break SQL|UnsafeNamesTests"
  "a model of 10,000 entities|LargeModelTests"
)

rows=()
for entry in "${cases[@]}"; do
  label=${entry%%|*}
  filter=${entry##*|}
  failures=0
  for ((i = 1; i <= runs; i++)); do
    if ! CDSTORE_RELIABILITY_SEED=$i "$swift" test --skip-build --filter "$filter" > /tmp/cdstore-reliability.log 2>&1 \
       || ! grep -q "Test run with .* passed" /tmp/cdstore-reliability.log; then
      failures=$((failures + 1))
      echo "reliability: '$label' failed (run $i); its output:" >&2
      tail -20 /tmp/cdstore-reliability.log >&2
    fi
  done
  rows+=("| $label | $runs | $failures |")
  echo "  $label: $failures of $runs failed" >&2
done

{
  echo "# cdstore reliability"
  echo
  echo "\`make reliability RELIABILITY_RUNS=$runs\` — $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), cdstore $(git rev-parse --short HEAD)"
  echo
  echo "| case | runs | failures |"
  echo "|---|---:|---:|"
  printf '%s\n' "${rows[@]}"
} > "$out"
cat "$out"
