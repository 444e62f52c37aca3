package station

import (
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// meter is what a session's hooks say beside the watchdog's evidence: the
// request its agent waits on a person for, what it is doing now, and what
// it has used. API goroutines write it and Info reads it; it never feeds
// the watchdog, so it needs no trip through the session's goroutine.
type meter struct {
	mu       sync.Mutex
	ask      *ask
	activity string
	since    time.Time // when activity began
	usage    *supervisor.Usage
}

// ask is one request waiting for a person: Decide hands the decision to
// the hook's call waiting in AgentAsk.
type ask struct {
	w     supervisor.WaitingOn
	reply chan supervisor.Decision // buffered: Decide never waits
	// shown is set by the session's goroutine as it turns needs-permission
	// on this request: until then nobody reads it, so no reader ever sees a
	// request beside a session still working. Guarded by meter.mu.
	shown bool
}

// setAsk makes a the session's request; false when another one waits.
func (m *meter) setAsk(a *ask) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ask != nil {
		return false
	}
	m.ask = a
	return true
}

// show makes a readable, if it still waits; the session's goroutine calls
// it in the step that turns the session needs-permission.
func (m *meter) show(a *ask) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ask == a {
		a.shown = true
	}
}

// shownAskLocked is the request a person may read and decide, nil for
// none; m.mu is held.
func (m *meter) shownAskLocked() *ask {
	if m.ask == nil || !m.ask.shown {
		return nil
	}
	return m.ask
}

// askID is the id of the request waiting, "" for none.
func (m *meter) askID() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.shownAskLocked(); a != nil {
		return a.w.ID
	}
	return ""
}

// clearAsk withdraws a; false when a decision already took it.
func (m *meter) clearAsk(a *ask) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ask != a {
		return false
	}
	m.ask = nil
	return true
}

// takeAsk removes the waiting request for a decision when fits, which
// sees it under the lock, says nothing against it (""), or returns nil and
// no reason when none waits. Checking and taking at once keeps a refused
// decision from ever holding the request: the agent's wait may end at any
// moment, and must then find it still there to withdraw.
func (m *meter) takeAsk(fits func(*ask) string) (*ask, string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.shownAskLocked()
	if a == nil {
		return nil, ""
	}
	if why := fits(a); why != "" {
		return nil, why
	}
	m.ask = nil
	return a, ""
}

// setActivity records what the agent does now; the same activity again
// keeps its start.
func (m *meter) setActivity(what string, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if what != m.activity {
		m.activity, m.since = what, now
	}
}

// setUsage records the session's usage so far and returns what it was.
func (m *meter) setUsage(u supervisor.Usage) supervisor.Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	var old supervisor.Usage
	if m.usage != nil {
		old = *m.usage
	}
	m.usage = &u
	return old
}

// fill adds the meter's readings to a session's info.
func (m *meter) fill(info *supervisor.SessionInfo, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.shownAskLocked()
	if a != nil {
		w := a.w
		info.WaitingOn = &w
	}
	if a != nil && a.w.Kind != supervisor.AskQuestion {
		// A tool's PreToolUse comes before its permission: until a
		// person allows it, the command asks, it does not run.
		info.Activity = askingActivity(a.w)
	} else if m.activity != "" {
		info.Activity = m.activity
		if d := now.Sub(m.since).Truncate(time.Second); d >= time.Minute {
			info.Activity += " for " + spoken(d)
		}
	}
	if m.usage != nil {
		u := *m.usage
		info.Usage = &u
	}
}

// Activity says what a tool call does, as a card shows it: "running `go
// test ./...`", "editing src/x.go".
func activityOf(tool, detail string) string {
	if detail == "" {
		return "using " + tool
	}
	switch tool {
	case "Bash":
		return "running `" + detail + "`"
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		return "editing " + detail
	case "Read":
		return "reading " + detail
	case "Grep", "Glob":
		return "searching " + detail
	case "WebFetch", "WebSearch":
		return "browsing " + detail
	}
	return "using " + tool + " " + detail
}

// askingActivity is a permission request as an activity: "asks to run
// `npm publish`", "asks to use Write: src/x.go".
func askingActivity(w supervisor.WaitingOn) string {
	// One line: the request is shown whole where it is decided on.
	if w.Tool == "Bash" {
		return "asks to run `" + supervisor.ActivityDetail(w.Input) + "`"
	}
	return "asks to use " + supervisor.ActivityDetail(w.Line())
}
