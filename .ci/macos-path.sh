#!/usr/bin/env bash
# macos-path: the agent lives where only the login shell's PATH finds it
# (~/bs-agentbin, added in ~/.zprofile and ~/.bash_profile, as installers
# do). `service install` records that PATH in the home; a station started
# with `env -i PATH=/usr/bin:/bin` (as launchd or a Finder-opened tray
# would give it) must still find the agent and run its task.
#
#   bash .ci/macos-path.sh bin/buildstation
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
home=$(mktemp -d)/home project=$(mktemp -d)
agentbin=$HOME/bs-agentbin
mkdir -p "$home" "$agentbin"
cat >"$agentbin/bs-path-agent" <<'SH'
#!/bin/sh
cp "$BUILDSTATION_PROMPT_FILE" "$PWD/prompt-seen.txt" 2>/dev/null || cp "$BUILDSTATION_PROMPT_FILE" /tmp/bs-prompt-seen.txt
SH
chmod +x "$agentbin/bs-path-agent"
for f in ~/.zprofile ~/.bash_profile; do echo "export PATH=\"$agentbin:\$PATH\"" >>"$f"; done
cat >"$home/config.toml" <<TOML
max_sessions = 1
[defaults]
backend = "pty"
[[projects]]
name = "path"
path = "$project"
command = ["bs-path-agent"]
TOML
"$bin" service install --home "$home"
grep -q "$agentbin" "$home/login-path" || { echo "FAIL: the recorded PATH lacks $agentbin: $(cat "$home/login-path")"; exit 1; }
echo "PASS: install recorded the login shell's PATH: $(cat "$home/login-path")"
# Stop the launchd-started station (it has the PATH in its plist), keep
# the recorded PATH, and start one with next to nothing in its environment.
launchctl bootout "gui/$(id -u)/dev.buildstation.station" 2>/dev/null || true
for _ in $(seq 1 30); do [ -e "$home/station.json" ] || break; sleep 1; done

env -i HOME="$HOME" PATH=/usr/bin:/bin "$bin" daemon --home "$home" >"$home/daemon.out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; "$bin" service uninstall --home "$home" >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 60); do [ -s "$home/station.json" ] && break; sleep 1; done
if env -i HOME="$HOME" PATH=/usr/bin:/bin "$bin" --home "$home" status | grep -q "not on the station's PATH"; then
  echo "FAIL: the station says the agent is not on its PATH"; exit 1
fi
"$bin" --home "$home" task add --project path --title "path smoke" --body "hello from macos-path"
for _ in $(seq 1 60); do [ -s "$project/prompt-seen.txt" ] && break; sleep 1; done
grep -q "hello from macos-path" "$project/prompt-seen.txt" || { echo "FAIL: the agent never ran"; cat "$home/daemon.out"; exit 1; }
echo "PASS: a station started with env -i PATH=/usr/bin:/bin found the agent through the recorded PATH"
