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
  local line='$ cdstore' arg plain='^[A-Za-z0-9_./:=@+$-]+$'
  for arg in "$@"; do
    arg=${arg//$work/\$TMPDIR}
    if [[ "$arg" =~ $plain ]]; then line+=" $arg"
    elif [[ "$arg" != *\'* ]]; then line+=" '$arg'"
    else line+=" \"$arg\""; fi
  done
  echo "$line"
  "$cdstore" "$@" 2>&1 | sed -E -e 's#x-coredata://[0-9A-F-]{36}/#x-coredata://…/#g' -e "s#$work#\$TMPDIR#g"
  local status=${PIPESTATUS[0]}
  [ "$status" -eq 0 ] || echo "(exit status $status)"
  echo
}

echo "# CDSTORE_MODEL=$CDSTORE_MODEL CDSTORE_STORE=\$TMPDIR/Company.sqlite (a new file, created on first use)"
echo
run model validate
run insert Company --file Schemas/demo/Company.json
run insert Employee --json '{"employeeNumber": 1006, "firstName": "Farah", "lastName": "Nasser", "salary": 61000, "department": {"_ref": {"name": "Sales"}}}'
run fetch Employee --where "department.name == 'R&D' AND salary > 60000" --sort -salary --format json --no-relationships
run count Employee --where "ANY department.employees.age > 50"
run project Employee --properties 'department.name,count:employeeNumber AS people,average:salary,max:hiredAt' --group-by department.name --format table
run update Employee --where "department.name == 'Sales'" --set 'salary=salary * 1.05'
run project Employee --properties 'lastName,salary' --where "department.name == 'Sales'" --sort lastName --format table
run insert Employee firstName=Gil lastName=Roy employeeNumber=1007 age=12
run delete Department --where "name == 'Sales'" --dry-run
run export --format ndjson --output "$work/acme.ndjson"
run verify
run seed --out "$work/Seed.sqlite" --uuid 1B6F2C0E-3F1A-4C38-9A8B-0D2E4F6A8C10 Schemas/demo/Company.json
