#!/usr/bin/env bash
# screenshots.sh: run the real tray on the demo station under Xvfb, with a
# real tray host (xfce4-panel's status tray, a StatusNotifierItem host) and
# a real notification daemon (dunst), and write PNGs into screenshots/ (or
# $1): the tray icon as it changes, its open menu, the dashboard, a
# console of a session printing continuously, and a blocked card with the
# agent's last screen beside its reason, reached by clicking the real Blocked
# notification dunst shows, and requeued from there through its dialog; the
# board at 1280x800 with a card in every column (a git project's tasks with
# branches, activity and cost: scripts/screenshots/web-agent.sh), the card
# with activity and cost, a blocked card's evidence table, a diff window
# (docs/dashboard.md shows them); then a station killed under its tray: the
# icon, dunst's notice and the menu.
# Needs what .ci/deps installs:
# xvfb, imagemagick (import, convert), x11-utils, dbus-x11, xfce4-panel,
# xfconf, xdotool, dunst, and cgo with the Fyne build libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
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
for c in Xvfb import convert xwininfo dbus-launch xfce4-panel xdotool; do
	command -v "$c" >/dev/null || { echo "screenshots: $c is missing; run make deps" >&2; exit 1; }
done

echo "building…"
CGO_ENABLED=1 go build -o "$work/buildstation" .
bs="$work/buildstation"

display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=$display
# The panel's settings come from xfconf, which D-Bus starts: set its
# config home before the bus.
export XDG_CONFIG_HOME="$work/config"
mkdir -p "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml"
cp scripts/screenshots/xfce4-panel.xml "$XDG_CONFIG_HOME/xfce4/xfconf/xfce-perchannel-xml/"
eval "$(dbus-launch --sh-syntax)"
pids+=("$DBUS_SESSION_BUS_PID")
if command -v dunst >/dev/null; then
	dunst -config scripts/screenshots/dunstrc >"$work/dunst.log" 2>&1 &
	pids+=($!)
fi
xfce4-panel >"$work/panel.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
	dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.ListNames 2>/dev/null |
		grep -q org.kde.StatusNotifierWatcher && break
	sleep 0.2
done

# window ID: the X id of the first window whose title is exactly $1.
window() { xwininfo -root -tree 2>/dev/null | awk -v t="\"$1\":" 'index($0, t) { print $1; exit }'; }
# window_like ID: …or whose title starts with $1.
window_like() { xwininfo -root -tree 2>/dev/null | awk -v t="\"$1" 'index($0, t) { print $1; exit }'; }
wait_window() {
	for _ in $(seq 150); do
		id=$($2 "$1")
		if [ -n "$id" ]; then echo "$id"; return 0; fi
		sleep 0.2
	done
	echo "no window titled '$1' appeared" >&2
	return 1
}
shoot() { import -window "$1" "$2" && echo "wrote $2"; }
panel() { xdotool search --onlyvisible --class xfce4-panel 2>/dev/null | head -1; }
# shoot_tray FILE: the panel, scaled up 3x so the 32 px icon can be read.
shoot_tray() {
	import -window "$(panel)" "$work/panel.png"
	convert "$work/panel.png" -trim +repage -bordercolor '#3c3c3c' -border 8 -filter point -resize 300% "$1" && echo "wrote $1"
}
# shoot_menu FILE: a click on the tray icon, as a person would, and the
# menu it opens. `-trim info:` says the icon's size (field 3) and where it
# sat (the offsets of field 4), once the panel's 1-pixel border is shaved
# off (shoot_tray wrote panel.png).
shoot_menu() {
	info=$(convert "$work/panel.png" -shave 2x2 +repage -fuzz 10% -trim info:)
	read -r w h < <(echo "$info" | awk '{print $3}' | sed 's/x/ /')
	read -r x y < <(echo "$info" | awk '{print $4}' | sed 's/^[0-9]*x[0-9]*+//; s/+/ /')
	x=$((x + 2)) y=$((y + 2))
	eval "$(xdotool getwindowgeometry --shell "$(panel)")"
	xdotool mousemove $((X + x + w / 2)) $((Y + y + h / 2)) click 1
	sleep 1.5
	# The panel sits at the bottom left; its menu opens above it.
	import -window root -crop "900x520+$X+$((Y + HEIGHT - 520))" "$1" && echo "wrote $1"
	xdotool key Escape
}
# task_state ID: the task's state from the CLI's JSON.
task_state() { "$bs" --home "$home" task show "$1" --json | sed -n 's/.*"state": *"\([a-z]*\)".*/\1/p' | head -1; }
wait_state() {
	for _ in $(seq "$3"); do
		[ "$(task_state "$1")" = "$2" ] && return 0
		sleep 1
	done
	echo "task $1 never reached $2" >&2
	return 1
}

home="$work/demo"
"$bs" --home "$home" demo >"$work/demo.log" 2>&1 &
demo=$!
pids+=($demo)
for _ in $(seq 100); do "$bs" --home "$home" status >/dev/null 2>&1 && break; sleep 0.2; done
dash=$(wait_window "Build Station" window)
# Two more tasks: one that prints continuously, one that wedges on a lock
# and stays blocked (the demo requeues only its own wedged task).
flood=$("$bs" --home "$home" task add --project demo --title "Stream the test log (prints continuously)" --body "script: heartbeat 50ms 10m" | tr -d '[:space:]')
stuck=$("$bs" --home "$home" task add --project demo --title "Rebuild the search index (stuck on a lock)" \
	--body "script: print Rebuilding the search index...; print Waiting for the index lock held by pid 4242...; wedge" | tr -d '[:space:]')
# A second project, a git repository whose tasks make real branches and go
# through review (scripts/screenshots/web-agent.sh), and a paused third
# whose task waits in To Do: the board has cards in every column. The
# station reads config.toml again when it changes.
webrepo="$work/web" marks="$work/web-marks"
mkdir -p "$webrepo" "$marks" "$work/docs"
git -C "$webrepo" init -q -b main
printf '# web\n' >"$webrepo/README.md"
printf '.buildstation/\n' >"$webrepo/.gitignore"
git -C "$webrepo" add -A
git -C "$webrepo" -c user.name=Screens -c user.email=screens@example.com -c commit.gpgsign=false commit -qm init
cat >>"$home/config.toml" <<EOF

[[projects]]
name = "web"
path = "$webrepo"
command = ["sh", "$root/scripts/screenshots/web-agent.sh", "$bs", "$marks"]
review = true
concurrency = 3

[[projects]]
name = "docs"
path = "$work/docs"
command = ["sh", "$root/scripts/screenshots/web-agent.sh", "$bs", "$marks"]
EOF
for _ in $(seq 50); do "$bs" --home "$home" project ls 2>/dev/null | grep -q '^docs' && break; sleep 0.2; done
"$bs" --home "$home" project pause docs --reason "waiting for the release" >/dev/null
webdone=$("$bs" --home "$home" task add --project web --title "Add a health endpoint" --body "mode: done" | tr -d '[:space:]')
webreview=$("$bs" --home "$home" task add --project web --title "Add a /version endpoint" --body "mode: review" | tr -d '[:space:]')
"$bs" --home "$home" task add --project web --title "Rate-limit the API" --body "mode: cost" >/dev/null
"$bs" --home "$home" task add --project docs --title "Write the upgrade guide" --body "mode: done" >/dev/null
sleep 6
shoot_tray "$out/tray-working.png"
shoot "$dash" "$out/dashboard.png"

shoot_menu "$out/tray-menu.png"

# A console of the session printing continuously.
wait_state "$flood" working 90
"$bs" --home "$home" open "$flood.1"
con=$(wait_window "Console $flood.1" window_like)
sleep 3
shoot "$con" "$out/console.png"
sleep 2
shoot "$con" "$out/console-later.png"

# The stuck task blocks (idle window, nudge, block window): the icon turns
# to the blocked octagon and the tray shows a Blocked notice through dunst.
# A left click on dunst's window (do_action, scripts/screenshots/dunstrc)
# runs the notice's action: the tray hears it over D-Bus and the dashboard
# lands on the card with the last screen beside the reason.
wait_state "$stuck" blocked 150
dunstwin=""
for _ in $(seq 50); do
	dunstwin=$(xdotool search --onlyvisible --class Dunst 2>/dev/null | head -1)
	[ -n "$dunstwin" ] && break
	sleep 0.2
done
[ -n "$dunstwin" ] || { echo "screenshots: dunst showed no Blocked notice" >&2; exit 1; }
sleep 1
shoot_tray "$out/tray-blocked.png"
import -window root "$out/desktop-blocked.png" && echo "wrote $out/desktop-blocked.png"
# The newest notice is at the top of dunst's window: click there.
eval "$(xdotool getwindowgeometry --shell "$dunstwin")"
xdotool mousemove $((X + WIDTH / 2)) $((Y + 12)) click 1
for _ in $(seq 50); do
	grep -q "do=session id=$stuck.1" "$home/logs/tray.log" 2>/dev/null && break
	sleep 0.2
done
grep -q "do=session id=$stuck.1" "$home/logs/tray.log" ||
	{ echo "screenshots: the click on the Blocked notice did not reach the dashboard" >&2; tail -20 "$home/logs/tray.log" >&2; exit 1; }
sleep 3
dash=$(wait_window "Build Station" window)
shoot "$dash" "$out/blocked-card.png"

# The board at the dashboard's default 1280x800 with a card in every
# column: Escape closes the card pane; the blocked card stays selected.
wait_state "$webdone" done 120
wait_state "$webreview" review 120
xdotool key --window "$dash" Escape
sleep 2
shoot "$dash" "$out/board.png"
# The columns share the window's width in fifths: In progress (the card
# with activity and cost) and Blocked (the evidence table) cut out.
eval "$(xdotool getwindowgeometry --shell "$dash")"
convert "$out/board.png" -crop "$((WIDTH / 5 + 8))x$((HEIGHT - 215))+$((WIDTH / 5 - 4))+215" +repage "$out/card-activity.png" && echo "wrote $out/card-activity.png"
convert "$out/board.png" -crop "$((WIDTH / 5 + 8))x$((HEIGHT - 215))+$((3 * WIDTH / 5 - 4))+215" +repage "$out/card-evidence.png" && echo "wrote $out/card-evidence.png"

# Requeue from the keyboard, as a person may: r on the selected blocked
# card opens the dialog (title and reason shown, a note field focused),
# Shift+Enter sends it.
xdotool key --window "$dash" r
sleep 1.5
shoot "$dash" "$out/requeue-dialog.png"
xdotool type --window "$dash" "the lock holder was restarted"
xdotool key --window "$dash" shift+Return
for _ in $(seq 50); do
	[ "$(task_state "$stuck")" != blocked ] && break
	sleep 0.2
done
[ "$(task_state "$stuck")" != blocked ] ||
	{ echo "screenshots: the dialog's Requeue did not requeue $stuck" >&2; shoot "$dash" "$out/requeue-failed.png"; exit 1; }
sleep 2
shoot "$dash" "$out/requeued.png"

# A diff: the arrows select the Review card (Escape clears the selection,
# Down selects the first card, To Do's; Right twice reaches Review), d
# opens its diff.
xdotool key --window "$dash" Escape Down Right Right d
diffwin=$(wait_window "Diff $webreview" window_like)
sleep 2
shoot "$diffwin" "$out/diff.png"
kill "$demo"; wait "$demo" 2>/dev/null || true

# A station that dies under its tray (kill -9): the icon turns to the red
# disc, dunst shows the one notice, and the menu says since when and offers
# Start station.
lost="$work/lost"
"$bs" --home "$lost" daemon >"$work/lost-daemon.log" 2>&1 &
station=$!
pids+=($station)
for _ in $(seq 100); do "$bs" --home "$lost" status >/dev/null 2>&1 && break; sleep 0.2; done
"$bs" --home "$lost" --hidden >"$work/lost-tray.log" 2>&1 &
pids+=($!)
sleep 6
kill -9 "$station"
sleep 3
shoot_tray "$out/tray-station-lost.png"
import -window root "$out/desktop-station-lost.png" && echo "wrote $out/desktop-station-lost.png"
shoot_menu "$out/tray-menu-station-lost.png"

# A permission request of the real Claude Code (when .cache/claude has it,
# as make deps installs): its notice with Allow once / Deny, the pointer on
# Allow once before the click that lets the command run, and the card that
# asks with its activity and cost. These are e2e tests on displays of
# their own (they check the click reaches the session); they write their
# PNGs here.
if [ -x .cache/claude/node_modules/.bin/claude ]; then
	SCREENSHOTS="$(cd "$out" && pwd)" go test -count=1 -run 'TestClaudePermissionAllowedFromTheNotice|TestClaudeCardShowsWhatItAsksAndCosts' ./e2e/claude
	echo "wrote $out/permission-notice.png $out/card-asks.png"
else
	echo "screenshots: no Claude Code in .cache/claude (make deps); the permission notice and card are not shot" >&2
fi
# The first project, added from the tray's menu on an empty station with
# the Add project dialog (e2e/tray's TestAddProjectFromTheTrayMenu drives
# it under its own Xvfb and keeps the filled dialog's screenshot).
SCREENSHOTS="$(cd "$out" && pwd)" go test ./e2e/tray -run '^TestAddProjectFromTheTrayMenu$' -count=1 >"$work/addproject.log" 2>&1 ||
	{ echo "screenshots: the Add project run failed" >&2; tail -30 "$work/addproject.log" >&2; exit 1; }
echo "wrote $out/add-project.png"
# A desktop user's first evening, a screenshot per step (e2e/tray's
# TestFirstEvening on a display of its own with xfce4-panel and dunst, about
# 1 min plus its build): the empty home, the tray's menu, Add project with
# its gate, the station stopped, Add Task right after Start station, the
# card that asks beside its notice, the finished notice, the diff window and
# its Merge, the station restarted and the diff still there.
SCREENSHOTS="$(cd "$out" && pwd)" go test ./e2e/tray -run '^TestFirstEvening$' -count=1 -v >"$work/evening.log" 2>&1 ||
	{ echo "screenshots: the first evening's walk failed" >&2; tail -40 "$work/evening.log" >&2; exit 1; }
echo "wrote $out/evening-*.png"
