package app

import (
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// StationStart is the tray's part in starting a station that stopped:
// whether it can (the tray of `buildstation` can; the demo's, whose
// station lives in its own process, cannot), whether it is starting one
// now, and why the last try failed.
type StationStart struct {
	Can      bool
	Starting bool
	Err      string
}

// StartStationLine is the menu line that starts a stopped station.
const StartStationLine = "Start station"

// StationLoss follows the station's connection from snapshot to snapshot
// and says, once each, that the station stopped and that it is back: the
// connection retries every few seconds, and each retry's snapshot must
// not raise the notice again. The zero value is ready; one goroutine
// (the station's handler) calls it.
type StationLoss struct {
	lost bool // the stopped notice went out, and nothing has connected since
	seen bool // a snapshot came before
}

// Note is the notice s calls for, or nil: "stopped" on the first snapshot
// without a station after one with (or on the first snapshot of all, when
// no station could be reached or started), "running again" on the first
// snapshot with one after that.
func (l *StationLoss) Note(s Snapshot, now time.Time) *supervisor.Notice {
	first := !l.seen
	l.seen = true
	switch {
	case s.Connected && l.lost:
		l.lost = false
		return &supervisor.Notice{Kind: supervisor.NoticeStation, Title: "The station is running again",
			Body: "Build Station watches its sessions again since " + now.Format("15:04") + "."}
	case s.Connected:
		return nil
	case l.lost:
		return nil
	case !s.StoppedAt.IsZero():
		l.lost = true
		return &supervisor.Notice{Kind: supervisor.NoticeStation, Title: "The station stopped at " + s.StoppedAt.Format("15:04"),
			Body: "No task starts and no session is watched until it runs again" + startHint(s)}
	case first && s.Err != "":
		l.lost = true
		return &supervisor.Notice{Kind: supervisor.NoticeStation, Title: "No station is running",
			Body: clip(s.Err, 160) + startHint(s)}
	}
	return nil
}

// startHint ends a station notice: what to do, where the tray can do it.
func startHint(s Snapshot) string {
	if s.Start.Can {
		return ": choose " + StartStationLine + " in the Build Station menu."
	}
	return "."
}

// StationGone is what the tray says first while no station answers: when
// it stopped, or that none runs.
func StationGone(s Snapshot) string {
	if !s.StoppedAt.IsZero() {
		return "The station stopped at " + s.StoppedAt.Format("15:04")
	}
	return "No station running"
}

// stationLines are the tray menu's lines while no station answers.
func stationLines(s Snapshot) []MenuLine {
	lines := []MenuLine{{Label: StationGone(s), Action: ActDashboard}}
	st := s.Start
	switch {
	case st.Starting:
		lines = append(lines, MenuLine{Label: "Starting the station…", Action: ActDashboard})
	case st.Can:
		if st.Err != "" {
			lines = append(lines, MenuLine{Label: clip("Could not start it: "+st.Err, 90), Action: ActDashboard})
		}
		lines = append(lines, MenuLine{Label: StartStationLine, Action: ActStartStation})
	default:
		lines = append(lines, MenuLine{Label: "Reconnect now", Action: ActReconnect})
	}
	return lines
}
