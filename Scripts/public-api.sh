#!/usr/bin/env bash
# The library's public surface: every `public`/`open` declaration a user of `import CDStore` can reach, counted in
# CDStore and in the layers below it (whose public declarations reach users through CDStore's typealiases), and
# of `import CDStoreSwiftData` (SwiftData sources, kept out of CDStore so that it links no parser) and the reader
# below it.
# `Scripts/public-api.sh` prints the count per module and the total; `--check N` fails when the total passes N, when
# a public declaration has no doc comment (the line above it is not `///` or an attribute; witnesses of documented
# protocol requirements such as `description` and `objectValue` take the protocol's), or when the declarations differ
# from the committed baseline `docs/api/public-api.txt` (the API is frozen: a change to it changes that file in the
# same commit, and semantic versioning says what it may be); `--list` prints them all with their places;
# `--baseline` prints them as the baseline holds them (module, then the declaration's line, sorted) and
# `--write-baseline` rewrites the file.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(CDStoreJSON CDStoreModel CDStorePredicate CDStoreEngine CDStoreMigration CDStoreComparison CDStoreIO CDStore CDStoreSwiftSource CDStoreSwiftData)
pattern='^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*(public|open)\s+[a-z@(]'
awk_pattern='^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*(public|open)[[:space:]]+[a-z@(]'
baseline_file=docs/api/public-api.txt
baseline() {
  for m in "${modules[@]}"; do
    grep -rhE "$pattern" "Sources/$m" --include='*.swift' | grep -v '^\s*///' | sed -E "s/^[[:space:]]+//; s/[[:space:]]*\{[^{}]*\}?[[:space:]]*$//; s/^/$m\t/" || true
  done | LC_ALL=C sort
}
if [ "${1:-}" = "--baseline" ]; then baseline; exit 0; fi
if [ "${1:-}" = "--write-baseline" ]; then mkdir -p "$(dirname "$baseline_file")"; baseline > "$baseline_file"; exit 0; fi
if [ "${1:-}" = "--list" ]; then
  for m in "${modules[@]}"; do grep -rnE "$pattern" "Sources/$m" --include='*.swift' | grep -v '^\S*:\s*///' || true; done
  exit 0
fi
total=0
for m in "${modules[@]}"; do
  n=$(grep -rhE "$pattern" "Sources/$m" --include='*.swift' | grep -vc '^\s*///' || true)
  printf '%-18s %4d\n' "$m" "$n"
  total=$((total + n))
done
printf '%-18s %4d\n' total "$total"
if [ "${1:-}" = "--check" ]; then
  limit=${2:?--check needs a number}
  undocumented=$(for m in "${modules[@]}"; do
    find "Sources/$m" -name '*.swift' -print0 | xargs -0 awk -v pat="$awk_pattern" '
      FNR == 1 { prev = ""; prev2 = "" }
      $0 ~ pat && $0 !~ /^[[:space:]]*\/\/\// {
        p = prev; if (p ~ /^[[:space:]]*@[A-Za-z_]+[[:space:]]*$/) p = prev2
        if (p !~ /^[[:space:]]*\/\/\// && $0 !~ /(public|open) (init\(from decoder|func encode\(to encoder|static func ==|static func ~=|var description|func hash\(into|var objectValue|init\?\(objectValue)/ && $0 !~ /(public|open) (extension|typealias .* = CD)/ && $0 !~ /^[[:space:]]*(case|\})/)
          print FILENAME ":" FNR ": " $0
      }
      { prev2 = prev; prev = $0 }'
  done)
  if [ -n "$undocumented" ]; then
    echo "public declarations without a doc comment:"; echo "$undocumented"; exit 1
  fi
  if [ "$total" -gt "$limit" ]; then echo "the public API has $total declarations, more than $limit"; exit 1; fi
  if ! changes=$(baseline | diff -u "$baseline_file" - ); then
    echo "the public API differs from $baseline_file (the frozen 1.0 surface):"
    echo "$changes" | grep -E '^[+-]' | grep -vE '^(\+\+\+|---) '
    echo "if the change is meant, run Scripts/public-api.sh --write-baseline and commit the file with it"
    exit 1
  fi
  echo "ok: $total public declarations (at most $limit), each documented, equal to $baseline_file"
fi
