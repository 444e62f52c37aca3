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

# Stop means stopped: service stop disables the task before it ends the
# station, so the trigger's five-minute repetition does not start it
# again; status says disabled; service start enables and starts it.
bs service stop
for _ in $(seq 1 30); do bs service status | grep -q "state: running" || break; sleep 1; done
bs service status | tee "$project/../bs-status.txt"
grep -q "state: disabled" "$project/../bs-status.txt" || { echo "FAIL: status after service stop does not say disabled"; exit 1; }
if [ "${BS_WAIT_REPETITION:-}" = 1 ]; then
  echo "waiting 6 minutes: longer than the task's 5-minute repetition"
  sleep 360
  if bs service status | grep -q "state: running"; then echo "FAIL: the station came back after service stop"; exit 1; fi
  echo "PASS: 6 minutes after service stop the station is still stopped"
fi
bs service start
for _ in $(seq 1 60); do bs service status | grep -q "state: running" && break; sleep 1; done
bs service status | grep -q "state: running" || { echo "FAIL: service start did not start the station"; exit 1; }
echo "PASS: service stop kept it stopped (disabled), service start enabled and started it"

bs service uninstall
