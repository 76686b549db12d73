#!/bin/bash
# Run by Scripts/dist-check.sh inside the clean Debian root, as root: the installed cdstore (the programs in BIN,
# the completions and man page under SHARE) does make demo's session on the shipped Schemas/, serves a store on
# loopback, reads SwiftData sources and has its man page and completions. Prints what it checked; exits 1 at the
# first failure. The demo's output goes to DEMO_OUT, which dist-check.sh compares with the README's block.
#
#   dist-check-inside.sh BIN SHARE MANPAGE WORK DEMO_OUT
set -uo pipefail
bin=$1 share=$2 manpage=$3 work=$4 demo_out=$5
cdstore=$bin/cdstore
fail() { echo "dist-check: FAILED: $*"; exit 1; }
ok() { echo "dist-check:   ok: $*"; }

version=$("$cdstore" --version) || fail "cdstore --version"
[[ $version =~ ^[0-9][^\ ]*\ \(commit\ [0-9a-f]{40}\)$ ]] || fail "cdstore --version printed '$version'"
ok "cdstore --version: $version"

"$work/Scripts/demo.sh" "$cdstore" > "$demo_out" 2>&1 || fail "Scripts/demo.sh (exit $?)"
ok "make demo's commands ran (output compared with the README outside)"

store=$work/served.sqlite
"$cdstore" seed --model "$work/Schemas/Company.json" --out "$store" "$work/Schemas/demo/Company.json" >/dev/null \
  || fail "seed for serve"
"$cdstore" serve --store "$store" --model "$work/Schemas/Company.json" --port 0 > "$work/serve.out" 2> "$work/serve.err" &
server=$!
url=""
for _ in $(seq 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$work/serve.out" | head -n 1)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { kill "$server"; fail "serve printed no URL: $(cat "$work/serve.out" "$work/serve.err")"; }
port=${url##*:}
# No curl in a minimal Debian: bash's /dev/tcp speaks the HTTP.
exec 3<>"/dev/tcp/127.0.0.1/$port" || { kill "$server"; fail "cannot connect to $url"; }
printf 'GET /Employee.json HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
response=$(timeout 10 cat <&3)
exec 3<&-
kill "$server"; wait "$server" 2>/dev/null
[[ $response == "HTTP/1.1 200"* && $response == *'"lastName"'* ]] || fail "serve answered: ${response:0:300}"
ok "cdstore serve answered GET /Employee.json on $url (HTTP 200, employees in JSON)"

printf '@Model final class Note {\n    var title: String = ""\n    var pinned: Bool = false\n}\n' > "$work/Note.swift"
shown=$("$cdstore" model show "$work/Note.swift") || fail "model show Note.swift"
[[ $shown == *Note* && $shown == *pinned* ]] || fail "model show Note.swift printed: $shown"
ok "cdstore model show Note.swift (SwiftData source, through cdstore-full)"

if command -v man >/dev/null; then
  page=$(MANPATH="$(dirname "$(dirname "$manpage")")" man -P cat cdstore 2>&1) || fail "man cdstore: $page"
  [[ $page == *"cdstore seed"* ]] || fail "man cdstore printed: ${page:0:300}"
  ok "man cdstore ($(wc -l <<< "$page") lines)"
fi
case $manpage in *.gz) text=$(zcat "$manpage") ;; *) text=$(cat "$manpage") ;; esac || fail "cannot read $manpage"
[[ $text == *".Dt CDSTORE 1"* ]] || fail "$manpage is not cdstore's man page"
ok "$manpage is the man page"

for completion in "$share/bash-completion/completions/cdstore" "$share/zsh/"*"/_cdstore" \
    "$share/fish/vendor_completions.d/cdstore.fish"; do
  [ -s "$completion" ] || fail "no completion script $completion"
done
registered=$(bash -c "source '$share/bash-completion/completions/cdstore' && complete -p cdstore") || fail "bash completion"
[ "$registered" = "complete -o filenames -F _cdstore cdstore" ] || fail "bash completion registered '$registered'"
ok "bash, zsh and fish completions ($(ls "$share/zsh/"*/_cdstore))"
echo "dist-check:   all checks passed in the clean root"
