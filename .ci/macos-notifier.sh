#!/usr/bin/env bash
# macos-notifier: which notifier the runner's unsigned (ad-hoc signed)
# build chooses, and why. A station run from the bundle's binary asks the
# notification center (macOS refuses an ad-hoc-signed app), then falls back
# to terminal-notifier or osascript; its log says which and why when the
# first notice (a blocked task) is shown. A station outside the bundle says
# it in `status` warnings.
#
#   bash .ci/macos-notifier.sh "bin/dist/Build Station.app/Contents/MacOS/buildstation" bin/buildstation
set -euo pipefail
app=$1 plain=$2
home=$(mktemp -d)/home project=$(mktemp -d)
mkdir -p "$home"
cat >"$project/agent.sh" <<'SH'
#!/bin/sh
exec "$BUILDSTATION_BIN" agent block --reason "notifier check"
SH
chmod +x "$project/agent.sh"
cat >"$home/config.toml" <<TOML
max_sessions = 1
[defaults]
backend = "pty"
[[projects]]
name = "notice"
path = "$project"
command = ["$project/agent.sh"]
TOML
"$app" daemon --home "$home" >"$home/daemon.out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do [ -s "$home/station.json" ] && break; sleep 1; done
"$app" --home "$home" task add --project notice --title "notifier check" --body "block at once"
for _ in $(seq 1 60); do grep -q "desktop notifications" "$home"/logs/*.log 2>/dev/null && break; sleep 1; done
line=$(grep -h "desktop notifications" "$home"/logs/*.log | head -1)
echo "$line"
[[ $line == *why=* ]] || { echo "FAIL: the station never said how it shows notices"; cat "$home/daemon.out"; exit 1; }
echo "PASS: the bundled, ad-hoc signed build chose a notifier and said why"
kill $pid; wait $pid 2>/dev/null || true
"$plain" daemon --home "$home" >"$home/daemon2.out" 2>&1 &
pid=$!
for _ in $(seq 1 60); do "$plain" --home "$home" status >/dev/null 2>&1 && break; sleep 1; done
"$plain" --home "$home" status | tee "$home/status.txt"
grep -q "macOS notices:" "$home/status.txt" || { echo "FAIL: status outside the bundle does not say how notices show"; exit 1; }
echo "PASS: status outside the bundle says which notifier and why"
