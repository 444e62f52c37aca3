package app

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// The connection retries every few seconds while no station answers, and
// each retry hands the tray a snapshot: the notice that the station
// stopped goes out once, the one that it is back once, and a second loss
// is told again.
func TestStationLossIsToldOnceEachWay(t *testing.T) {
	stopped := time.Date(2025, 1, 2, 10, 31, 0, 0, time.Local)
	up := Snapshot{Connected: true}
	down := Snapshot{Err: "no station answers on /home/ada", StoppedAt: stopped, Start: StationStart{Can: true}}
	var l StationLoss
	var told []string
	for _, s := range []Snapshot{up, up, down, down, down, down, down, up, up, down, down} {
		if n := l.Note(s, stopped.Add(2*time.Minute)); n != nil {
			if n.Kind != supervisor.NoticeStation {
				t.Errorf("notice of kind %q, want %q", n.Kind, supervisor.NoticeStation)
			}
			told = append(told, n.Title)
			if !s.Connected && !strings.HasSuffix(n.Body, ": choose Start station in the Build Station menu.") {
				t.Errorf("the stop notice does not say what to do: %q", n.Body)
			}
		}
	}
	want := []string{"The station stopped at 10:31", "The station is running again", "The station stopped at 10:31"}
	if !slices.Equal(told, want) {
		t.Errorf("told %q, want %q", told, want)
	}

	// A tray whose first try found no station, and could not start one,
	// says so once too.
	var first StationLoss
	var n int
	for range 4 {
		if first.Note(Snapshot{Err: "the station did not answer within 20s"}, stopped) != nil {
			n++
		}
	}
	if n != 1 {
		t.Errorf("a tray that never reached a station told it %d times, want once", n)
	}
	// The demo's tray cannot start its station: its notice offers nothing.
	var demo StationLoss
	if nt := demo.Note(Snapshot{StoppedAt: stopped}, stopped); nt == nil || strings.Contains(nt.Body, StartStationLine) {
		t.Errorf("a tray that cannot start a station: notice %+v", nt)
	}
	// Connecting at first is no news.
	var quiet StationLoss
	if nt := quiet.Note(up, stopped); nt != nil {
		t.Errorf("the first connection was told: %+v", *nt)
	}
}

// While the station is stopped the menu says since when and offers Start
// station (Starting… while it starts, the failure above it if it failed),
// the tooltip says the same, and the icon is the red disc, not the grey
// ring of a tray still connecting.
func TestTrayOffersStartStationWhenItStopped(t *testing.T) {
	stopped := time.Date(2025, 1, 2, 10, 31, 0, 0, time.Local)
	s := Snapshot{Err: "no station answers", StoppedAt: stopped, Start: StationStart{Can: true}}
	labels := func(s Snapshot) []string {
		var out []string
		for _, l := range TrayLines(s) {
			out = append(out, l.Label)
		}
		return out
	}
	menu := TrayLines(s)
	if menu[0].Label != "The station stopped at 10:31" || menu[1].Label != StartStationLine || menu[1].Action != ActStartStation {
		t.Errorf("menu %q: want the stop's time, then Start station", labels(s))
	}
	if tip := TooltipFor(s); tip != "Build Station: The station stopped at 10:31 — Start station from this menu" {
		t.Errorf("tooltip %q", tip)
	}
	if b := BadgeFor(s); b.Level != LevelStopped {
		t.Errorf("badge %v, want stopped", b.Level)
	}
	if b := BadgeFor(Snapshot{}); b.Level != LevelOffline {
		t.Errorf("a tray still connecting shows %v, want offline", b.Level)
	}
	s.Start.Starting = true
	if got := labels(s); got[1] != "Starting the station…" || slices.Contains(got, StartStationLine) {
		t.Errorf("while starting, the menu is %q", got)
	}
	s.Start = StationStart{Can: true, Err: "the station did not answer within 30s; see /h/logs/station.log"}
	if got := labels(s); !strings.HasPrefix(got[1], "Could not start it: the station did not answer") || got[2] != StartStationLine {
		t.Errorf("after a failed start, the menu is %q", got)
	}
	// The demo's tray cannot start its station: no such line.
	s.Start = StationStart{}
	if got := labels(s); slices.Contains(got, StartStationLine) {
		t.Errorf("a tray that cannot start a station offers it: %q", got)
	}
}
