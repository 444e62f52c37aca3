#!/usr/bin/env bash
# windows-native: on a real Windows (the windows.yml workflow, in Git
# Bash), as the runner's user: `service install` (a logon task, no SCM
# service), `schtasks /run` as the logon would, then a task whose agent is
# a .cmd script must receive its 200-line prompt intact.
#
#   bash .ci/windows-native.sh bin/buildstation.exe
set -euo pipefail
exe=$(cd "$(dirname "$1")" && pwd -W)/$(basename "$1")
home=${RUNNER_TEMP:-$TEMP}/bs-home project=${RUNNER_TEMP:-$TEMP}/bs-project
rm -rf "$home" "$project"; mkdir -p "$home" "$project"
whome=$(cd "$home" && pwd -W) wproject=$(cd "$project" && pwd -W)
whome=${whome//\//\\} wproject=${wproject//\//\\}
cat >"$project/agent.cmd" <<'CMD'
@echo off
copy /y "%BUILDSTATION_PROMPT_FILE%" "%~dp0prompt-seen.txt" >nul
CMD
cat >"$home/config.toml" <<TOML
max_sessions = 1

[[projects]]
name = "native"
path = '$wproject'
command = ['$wproject\\agent.cmd']
TOML
bs() { "$exe" --home "$whome" "$@"; }

out=$(bs service install)
echo "$out"
if sc.exe query BuildStation >/dev/null 2>&1; then echo "FAIL: an SCM service exists"; exit 1; fi
task=$(sed -n 's/.*schtasks.exe \/create \/tn \([^ ]*\) .*/\1/p' <<<"$out" | head -1)
[ -n "$task" ] || { echo "FAIL: no task registered"; exit 1; }
schtasks /query /tn "$task" /fo list /v
schtasks /run /tn "$task"
for _ in $(seq 1 120); do [ -s "$home/station.json" ] && break; sleep 1; done
[ -s "$home/station.json" ] || { echo "FAIL: the logon task did not start the station"; exit 1; }
echo "PASS: schtasks /run started the station"
bs service status

body=$project/../bs-body.txt
for i in $(seq 1 200); do printf 'line %03d: " %% & ^ ! < > | ( ) ; , = $(x) `y` %%PATH%% \\ ü\n' "$i"; done >"$body"
bs task add --project native --title "native smoke" --body "$(cat "$body")"
for _ in $(seq 1 120); do [ -s "$project/prompt-seen.txt" ] && break; sleep 1; done
tr -d '\r' <"$project/prompt-seen.txt" >"$project/../bs-seen.txt"
n=$(grep -cxFf "$body" "$project/../bs-seen.txt" || true)
[ "$n" = 200 ] || { echo "FAIL: $n of 200 prompt lines arrived intact"; diff <(grep '^line ' "$project/../bs-seen.txt") "$body" | head; exit 1; }
echo "PASS: the .cmd agent got all 200 prompt lines intact"

bs service uninstall
