#!/usr/bin/env bash
# windows-smoke: build the full Windows buildstation.exe with cgo (mingw), then
# run it under Wine: `version`, and a station that takes a task.
#
#   bash .ci/windows-smoke.sh            (from the repo root or anywhere)
#
# Needs (Debian, as root): apt-get install -y wine64 gcc-mingw-w64-x86-64
# and ../shared/tools/wine-go (or WINE_GO=path). Wine 8's ConPTY shows no
# output, so this checks the station, the API and the CLI, not a session's
# console. Prints PASS/FAIL lines; exits non-zero on any FAIL.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
wine_go=${WINE_GO:-$root/../shared/tools/wine-go}
work=$(mktemp -d "${TMPDIR:-/tmp}/windows-smoke.XXXXXX")
export WINEPREFIX=${WINEPREFIX:-${TMPDIR:-/tmp}/wine-go-prefix} WINEDEBUG=${WINEDEBUG:--all}
failed=0 daemon_pid=

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; failed=1; }
cleanup() {
  if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
    kill "$daemon_pid" 2>/dev/null; wait "$daemon_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
# winpath: Wine maps the unix root to drive Z:.
winpath() { printf 'Z:%s' "${1//\//\\}"; }

[ -x "$wine_go" ] || { fail "wine-go not found at $wine_go (set WINE_GO)"; exit 1; }
command -v x86_64-w64-mingw32-gcc >/dev/null || { fail "mingw missing: apt-get install -y gcc-mingw-w64-x86-64"; exit 1; }

# 1. The full binary, tray included (Fyne compiles with mingw).
exe=$work/buildstation.exe
start=$SECONDS
if CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1 GOOS=windows GOARCH=amd64 go build -o "$exe" . 2>"$work/build.log"; then
  pass "cgo build of buildstation.exe with the tray ($((SECONDS - start))s)"
else
  fail "cgo build of buildstation.exe: $(tail -5 "$work/build.log" | tr '\n' ' ')"
  echo "      falling back to CGO_ENABLED=0 (station and CLI, no tray) for the rest"
  CGO_ENABLED=0 GOOS=windows GOARCH=amd64 go build -o "$exe" . || { fail "CGO_ENABLED=0 build"; exit 1; }
fi

# 2. It runs.
if out=$(timeout 120 "$wine_go" "$exe" version 2>&1) && [[ $out == buildstation* ]]; then
  pass "buildstation.exe version: ${out//$'\r'/}"
else
  fail "buildstation.exe version: $out"
fi

# 3. A station: start, take a task, list it, stop.
home=$work/home project=$work/project
mkdir -p "$home" "$project"
whome=$(winpath "$home") wproject=$(winpath "$project")
cat >"$home/config.toml" <<TOML
max_sessions = 1

[[projects]]
name = "smoke"
path = '$wproject'
command = ["cmd.exe", "/c", "echo agent here"]
TOML
bs() { timeout 120 "$wine_go" "$exe" --home "$whome" "$@"; }

"$wine_go" "$exe" daemon --home "$whome" >"$work/daemon.log" 2>&1 &
daemon_pid=$!
for _ in $(seq 1 120); do
  [ -s "$home/station.json" ] && break
  kill -0 "$daemon_pid" 2>/dev/null || break
  sleep 0.5   # polling a file another process writes
done
if [ -s "$home/station.json" ]; then
  pass "station started (station.json written)"
else
  fail "station never wrote station.json: $(tail -5 "$work/daemon.log" | tr '\n' ' ')"
fi

if out=$(bs task add --project smoke --title "windows smoke" 2>&1); then
  pass "task add: ${out//$'\r'/}"
else
  fail "task add: $out"
fi
if out=$(bs task ls --json 2>&1) && [[ $out == *'"windows smoke"'* ]]; then
  pass "task ls --json lists the task"
else
  fail "task ls --json: $out"
fi

kill "$daemon_pid" 2>/dev/null
for _ in $(seq 1 40); do kill -0 "$daemon_pid" 2>/dev/null || break; sleep 0.25; done
if kill -0 "$daemon_pid" 2>/dev/null; then
  fail "station still running after SIGTERM"
else
  pass "station stopped"
fi
wait "$daemon_pid" 2>/dev/null
daemon_pid=

if [ "$failed" = 0 ]; then echo "PASS: windows smoke"; else echo "FAIL: windows smoke"; fi
exit "$failed"
