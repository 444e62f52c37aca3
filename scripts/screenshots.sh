#!/usr/bin/env bash
# screenshots.sh: run the real tray on the demo station under Xvfb and
# write PNGs of the dashboard, a console and the tray menu into
# screenshots/ (or $1). Needs: xvfb, imagemagick (import), x11-utils
# (xwininfo), dbus-x11 (dbus-launch), and cgo with libgl1-mesa-dev and
# xorg-dev to build.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-screenshots}
mkdir -p "$out"
work=$(mktemp -d)
export LANG=${LANG:-C.UTF-8}
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

echo "building…"
CGO_ENABLED=1 go build -o "$work/buildstation" .
bs="$work/buildstation"

display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=$display
eval "$(dbus-launch --sh-syntax)"
pids+=("$DBUS_SESSION_BUS_PID")

# window ID: the X id of the first window whose title is exactly $1.
window() { xwininfo -root -tree 2>/dev/null | awk -v t="\"$1\":" 'index($0, t) { print $1; exit }'; }
# window_like ID: …or whose title starts with $1.
window_like() { xwininfo -root -tree 2>/dev/null | awk -v t="\"$1" 'index($0, t) { print $1; exit }'; }
wait_window() {
	for _ in $(seq 100); do
		id=$($2 "$1")
		if [ -n "$id" ]; then echo "$id"; return 0; fi
		sleep 0.2
	done
	echo "no window titled '$1' appeared" >&2
	return 1
}
shoot() { import -window "$1" "$2" && echo "wrote $2"; }

# Run 1: the dashboard a few seconds in, then a console.
home="$work/demo1"
"$bs" --home "$home" demo >"$work/demo1.log" 2>&1 &
demo=$!
pids+=($demo)
dash=$(wait_window "Build Station" window)
sleep 7
shoot "$dash" "$out/dashboard.png"
# The heartbeat task's session prints a line every few seconds.
session=$("$bs" --home "$home" session ls | awk '$2 == "t2" { print $1; exit }')
[ -n "$session" ] || session=$("$bs" --home "$home" session ls | awk 'NR == 2 { print $1 }')
"$bs" --home "$home" open "$session"
con=$(wait_window "Console $session" window_like)
sleep 2
shoot "$con" "$out/console.png"
kill "$demo"; wait "$demo" 2>/dev/null || true

# Run 2: the tray's icon and menu (a preview window: Xvfb has no tray),
# later in the demo, when sessions have been nudged and one blocked.
home="$work/demo2"
BUILDSTATION_TRAY_PREVIEW=1 "$bs" --home "$home" demo >"$work/demo2.log" 2>&1 &
demo=$!
pids+=($demo)
menu=$(wait_window "Build Station — tray menu" window)
sleep 32
shoot "$menu" "$out/tray-menu.png"
"$bs" --home "$home" open
dash=$(wait_window "Build Station" window)
sleep 2
shoot "$dash" "$out/dashboard-later.png"
kill "$demo"; wait "$demo" 2>/dev/null || true
