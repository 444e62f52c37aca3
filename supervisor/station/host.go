package station

import (
	"context"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// host is what a session asks of the station that runs it (sessionHost):
// the evidence layers, the gate's notes, its task's board writes, the bus
// and the notices.
type host struct{ st *Station }

// sessionHost is everything a session asks of the station that runs it. A
// session holds this, not the *Station: what it may do to the rest of the
// station is written down here, and a session can be run against a small
// fake host (session_test.go) without a board, a scheduler or a spawner.
// The session's goroutine calls every method (stationName is called by
// readers of the session's info too), so none may wait long: a session
// that waits on its host does not watch its agent.
type sessionHost interface {
	// Evidence: the pull layers (git, files, CPU) beside the console.
	// observe gives them a baseline for a new session; probe asks for a
	// sign of life after since; layers names them (and "board"), in the
	// order a block reason lists them.
	observe(t supervisor.ProbeTarget)
	probe(ctx context.Context, t supervisor.ProbeTarget, since time.Time) []supervisor.Life
	layers() []string

	// The project's gate on the task's HEAD, from its cache only: a note
	// for the nudge and a part of the block reason; judgeHead starts a run
	// in the background, so the block can name its verdict.
	gateNote(spec sessionSpec) string
	gateReason(spec sessionSpec) string
	judgeHead(spec sessionSpec)

	// Board writes for the session's own task: block it (the watchdog's or
	// a person's word; body is the notice's plain text, "" shows the
	// reason), push its green commits, and queue its live state for a
	// shared board.
	blockFromSession(spec sessionSpec, reason, body, actor string)
	checkpoint(spec sessionSpec)
	recordState(id string, state supervisor.SessionState)

	// Telling others: the session's new info to the bus's subscribers, a
	// notice to the person, and the station's name on a shared board ("" on
	// its own board) for the session's info.
	publishSession(info supervisor.SessionInfo)
	notify(n supervisor.Notice)
	stationName() string

	// The clock: the wall clock without its monotonic reading, to notice a
	// laptop sleep (the monotonic clock comes from package time).
	wall() time.Time
}

// The station's host area is its sessions' host.
var _ sessionHost = (*host)(nil)

// publishSession tells the bus's subscribers a session's new info.
func (ho *host) publishSession(info supervisor.SessionInfo) {
	ho.st.bus.Publish(supervisor.Event{Kind: supervisor.EventSession, Session: &info})
}

// wall reads the wall clock without its monotonic reading.
func (ho *host) wall() time.Time { return ho.st.opt.Wall().Round(0) }

func (ho *host) notify(n supervisor.Notice) {
	ho.st.bus.Publish(supervisor.Event{Kind: supervisor.EventNotice, Notice: &n})
	ho.st.opt.Notifier.Notify(ho.st.life, n)
}

func (ho *host) publishTask(t supervisor.Task) {
	ho.st.bus.Publish(supervisor.Event{Kind: supervisor.EventTask, Task: &t})
}

// probe asks every pull layer whether the session showed life after since.
func (ho *host) probe(ctx context.Context, t supervisor.ProbeTarget, since time.Time) []supervisor.Life {
	var lives []supervisor.Life
	for _, p := range ho.st.opt.Probers {
		l, ok, err := p.Probe(ctx, t, since)
		if err != nil {
			ho.st.log.Warn("probe evidence", "layer", p.Layer(), "session", t.SessionID, "err", err)
			continue
		}
		if ok {
			l.Layer = p.Layer()
			lives = append(lives, l)
		}
	}
	return lives
}

// observe gives every prober that wants one a baseline for a new session.
func (ho *host) observe(t supervisor.ProbeTarget) {
	for _, p := range ho.st.opt.Probers {
		if o, ok := p.(supervisor.Observer); ok {
			if err := o.Observe(t); err != nil {
				ho.st.log.Debug("observe", "layer", p.Layer(), "session", t.SessionID, "err", err)
			}
		}
	}
}

// layers names every layer besides the console, for block reasons.
func (ho *host) layers() []string {
	names := []string{"board"}
	for _, p := range ho.st.opt.Probers {
		names = append(names, p.Layer())
	}
	return names
}
