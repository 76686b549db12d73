#!/usr/bin/env bash
# The README's demo: a real session on Schemas/Company.json with the given cdstore binary.
set -uo pipefail
cd "$(dirname "$0")/.."
cdstore=${1:-.build/release/cdstore}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CDSTORE_MODEL=Schemas/Company.json CDSTORE_STORE="$work/Company.sqlite"

# Prints the command as a person would type it, runs it, and shows a failing exit status.
run() {
  local line='$ cdstore' arg
  for arg in "$@"; do
    if [[ "$arg" =~ ^[A-Za-z0-9_./:=@+-]+$ ]]; then line+=" $arg"
    elif [[ "$arg" != *[\'\"\$\`\\]* ]]; then line+=" '$arg'"
    else line+=" \"$arg\""; fi
  done
  echo "$line"
  "$cdstore" "$@" 2>&1
  local status=$?
  [ $status -eq 0 ] || echo "(exit status $status)"
  echo
}

echo "# CDSTORE_MODEL=$CDSTORE_MODEL; CDSTORE_STORE is a new file, created on first use"
echo
run model validate
run insert Company id=6F0C2B1E-8E2D-4C57-9A4B-3D1E5A7C9B20 name=Acme founded=1999-04-01 isPublic=yes revenue=12500000.50
run insert Employee --file Schemas/demo/employees.csv
run fetch Employee --where "age >= 30 AND lastName BEGINSWITH[cd] 'm'" --sort -salary --format table
run count Employee --where "isActive == YES"
run fetch Manager --format json
run export Employee --format ndjson
run insert Employee firstName=Gil lastName=Roy employeeNumber=1007 age=12
run count Employee
