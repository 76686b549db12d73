#!/usr/bin/env bash
# Load figures for `cdstore serve`: wrk from loopback against the entity page of a store, first page and a deep
# page (paged by key), plus the JSON of a deep page, a facet and a chart. `make bench` runs it from
# Scripts/bench.sh on its ROWS-row Person store; alone:
#
#   Scripts/bench-serve.sh CDSTORE_BINARY STORE ENTITY ROWS     (SECONDS=10 CONNECTIONS=8 THREADS=2 FACET=active CHART=age
#                                                                TIMEOUT=10s)
#
# Prints a Markdown table: page, requests/s, latency p50 / p99 / max, errors (non-2xx or socket errors). wrk gives up
# on a request after TIMEOUT (its own default, 2 s, would count a slow page as an error and leave it out of the
# latencies).
# Traffic goes to 127.0.0.1 only, for SECONDS per page; the server is stopped with SIGTERM at the end.
set -euo pipefail
[ $# -ge 4 ] || { echo "usage: Scripts/bench-serve.sh CDSTORE_BINARY STORE ENTITY ROWS" >&2; exit 2; }
cdstore=$(realpath "$1"); store=$2; entity=$3; rows=$4
seconds=${SECONDS_PER_PAGE:-10}; connections=${CONNECTIONS:-8}; threads=${THREADS:-2}
facet=${FACET:-active}; chart=${CHART:-age}; timeout=${TIMEOUT:-10s}
command -v wrk >/dev/null || { echo "bench-serve: wrk not found (make bench installs it)" >&2; exit 1; }
out=$(mktemp -d "${TMPDIR:-/tmp}/cdstore-serve-bench.XXXXXX")
"$cdstore" serve --store "$store" --port 0 >"$out/url" 2>"$out/stderr" &
server=$!
trap 'kill -TERM $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$out"' EXIT
for _ in $(seq 1 100); do [ -s "$out/url" ] && break; sleep 0.1; done
url=$(head -n 1 "$out/url")
[ -n "$url" ] || { echo "bench-serve: the server printed no URL: $(cat "$out/stderr")" >&2; exit 1; }
deep=$(( rows > 100 ? rows - 100 : 0 ))

# wrk_page NAME PATH: one wrk run; prints a table row.
wrk_page() {
  local name=$1 path=$2 report
  curl -sf -o /dev/null "$url${path#/}" || { echo "| $name | failed | | | | |"; return; }
  report=$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --timeout "$timeout" --latency "$url${path#/}")
  awk -v name="$name" -v path="$path" '
    /Requests\/sec:/ {rps = $2}
    /^ +50%/ {p50 = $2} /^ +99%/ {p99 = $2}
    /^ +Latency +[0-9]/ {max = $4}
    /Non-2xx or 3xx responses:/ {errors += $NF}
    /Socket errors:/ {gsub(/,/, ""); errors += $4 + $6 + $8 + $10}
    END {printf "| %s (`%s`) | %.0f | %s | %s | %s | %d |\n", name, path, rps, p50, p99, max, errors}' <<<"$report"
}

echo "| page | requests/s | latency p50 | p99 | max | errors |"
echo "|---|---:|---:|---:|---:|---:|"
wrk_page "entity page, first (with the count up to 10,000)" "/$entity"
wrk_page "entity page, deep (after key $deep)" "/$entity?after=$deep"
wrk_page "entity page as JSON, deep" "/$entity.json?after=$deep"
wrk_page "object page" "/$entity/p$(( rows / 2 ))"
wrk_page "facet ($facet)" "/$entity?facet=$facet"
wrk_page "chart ($chart)" "/$entity?chart=$chart"
echo
echo "wrk -t$threads -c$connections -d${seconds}s --timeout $timeout --latency from 127.0.0.1, $rows $entity objects, $(nproc) cores."
