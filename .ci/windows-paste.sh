#!/usr/bin/env bash
# windows-paste: on a real Windows (windows.yml, Git Bash), the prompt the
# claude profile types reaches a TUI through the station's ConPTY intact
# and submitted once. internal/testsupport/pastereader stands in for Claude Code: it
# turns bracketed paste on, lists the station's MCP tools (so the station
# types the prompt), and records what arrives. The inbox ConPTY drops the
# paste markers, so the station types one line that points at the prompt
# file; the reader reads the file it names, as Claude Code would.
#
#   bash .ci/windows-paste.sh bin/buildstation.exe bin/pastereader.exe
set -euo pipefail
exe=$(cd "$(dirname "$1")" && pwd -W)/$(basename "$1")
reader=$(cd "$(dirname "$2")" && pwd -W)/$(basename "$2")
home=${RUNNER_TEMP:-$TEMP}/bs-paste-home project=${RUNNER_TEMP:-$TEMP}/bs-paste-project
rm -rf "$home" "$project"; mkdir -p "$home" "$project"
whome=$(cd "$home" && pwd -W) wproject=$(cd "$project" && pwd -W)
out="$whome/got"
cat >"$home/config.toml" <<TOML
max_sessions = 1

[agents.reader]
command = ['$reader', '$out']
profile = "claude"

[[projects]]
name = "paste"
path = '$wproject'
agent = "reader"
backend = "pty"
TOML
bs() { "$exe" --home "$whome" "$@"; }
# The station from the app itself (buildstation-app.exe beside the command
# line, which would run it as a child that killing $pid leaves behind).
app=$(dirname "$exe")/buildstation-app.exe
[ -f "$app" ] || app=$exe
"$app" --home "$whome" daemon >"$home/daemon.out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do [ -s "$home/station.json" ] && break; sleep 1; done
body=$home/body.txt
for i in $(seq 1 200); do printf 'line %03d: " %% & ^ ! < > | ( ) ; , = $(x) `y` %%PATH%% \\ ü ✓ 日本\n' "$i"; done >"$body"
bs task add --project paste --title "paste proof" --body-file "$body"
for _ in $(seq 1 180); do [ -s "$home/got.json" ] && break; sleep 1; done
[ -s "$home/got.json" ] || { echo "FAIL: the reader recorded nothing"; cat "$home/daemon.out"; cat "$home"/logs/*.log; exit 1; }
cat "$home/got.json" | head -c 2000; echo
subs=$(python -c 'import json,sys; print(len(json.load(open(sys.argv[1], encoding="utf-8"))["submissions"]))' "$home/got.json")
[ "$subs" = 1 ] || { echo "FAIL: $subs submissions, want 1"; exit 1; }
python - "$home/got.json" "$body" <<'PY'
import json, sys
rec = json.load(open(sys.argv[1], encoding="utf-8"))
want = open(sys.argv[2], encoding="utf-8").read().splitlines()
prompt = rec["prompt"].replace("\r\n", "\n")
missing = [l for l in want if l + "\n" not in prompt]
if missing:
    sys.exit("FAIL: %d of 200 lines missing, first: %r" % (len(missing), missing[0]))
print("PASS: one submission (%s), all 200 lines intact" % ("the pointer to " + rec["prompt_file"] if rec.get("prompt_file") else "a paste"))
PY
