package station

import (
	"context"
	"strings"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

// Sessions is the sessions' area: list them, type into them, nudge, block
// or attach to them, read their transcripts, and follow the station's
// events.
type Sessions struct{ st *Station }

// Sessions lists live sessions: this station's in start order, then, on a
// shared board, the other stations' (Station names where each runs).
func (ss *Sessions) Sessions() []supervisor.SessionInfo {
	return append(ss.st.Control.ownSessions(), ss.st.Shared.remoteSessions()...)
}

// Session returns one live session, of this station or, on a shared board,
// of another.
func (ss *Sessions) Session(id string) (supervisor.SessionInfo, bool) {
	s := ss.lookup(id)
	if s == nil {
		return ss.st.Shared.remoteSession(id)
	}
	return s.Info(), true
}

// lookup finds a live session by its id, or by its task's id.
func (ss *Sessions) lookup(id string) *session { return ss.st.reg.lookup(id) }

// agentSession finds the live session an agent's report names (by its
// session or task id); none is a not-found error.
func (ss *Sessions) agentSession(id string) (*session, error) {
	return ss.localSession(id, "")
}

// localSession finds a live session of this station for a request that
// needs its console (verb: "attach", "send", …). A session another station
// runs is a conflict that names the machine to go to.
func (ss *Sessions) localSession(id, verb string) (*session, error) {
	s := ss.lookup(id)
	if s != nil {
		return s, nil
	}
	if verb != "" {
		if si, ok := ss.st.Shared.remoteSession(id); ok {
			return nil, supervisor.Conflictf("session %s runs on station %s; %s from that machine", id, si.Station, verb)
		}
	}
	return nil, supervisor.NotFoundf("no live session %s; session ids look like t2.3 (task t2, attempt 3) and a task id picks its live session; list them with \"buildstation session ls\"", id)
}

// Send types text into a session, then Enter as a separate write.
func (ss *Sessions) Send(ctx context.Context, id, text string) error {
	if strings.TrimSpace(textsafe.Typed(text)) == "" {
		return supervisor.Invalidf("send needs text to type; control characters (line breaks, escapes) are not typed, the station sends the one Enter itself")
	}
	s, err := ss.localSession(id, "send")
	if err != nil {
		return err
	}
	// Sent is typed: a healthy terminal takes it at once. One whose agent
	// does not read keeps it queued, and the caller is not kept waiting.
	return s.sendWithin(ctx, command{kind: cmdSend, text: text}, time.After(sendPatience))
}

// Nudge types the nudge into a session now.
func (ss *Sessions) Nudge(ctx context.Context, id string) error {
	s, err := ss.localSession(id, "nudge")
	if err != nil {
		return err
	}
	return s.send(ctx, command{kind: cmdNudge})
}

// Block blocks a session's task now and ends its process tree.
func (ss *Sessions) Block(ctx context.Context, id, reason string) error {
	s, err := ss.localSession(id, "block")
	if err != nil {
		return err
	}
	if strings.TrimSpace(reason) == "" {
		reason = "blocked by a person"
	}
	return s.send(ctx, command{kind: cmdBlock, text: reason})
}

// Attach opens a console on a session: its last screens, then live output.
func (ss *Sessions) Attach(id string) (*supervisor.Attachment, error) {
	s, err := ss.localSession(id, "attach")
	if err != nil {
		return nil, err
	}
	replay, v := s.con.attach(1024)
	var once atomic.Bool
	return &supervisor.Attachment{
		Replay: replay,
		Output: v.c,
		Input:  consoleKeys{s, ss.st.life},
		Resize: s.proc.Resize,
		Close: func() {
			if once.CompareAndSwap(false, true) {
				s.con.detach(v)
			}
		},
		Dropped: v.dropped.Load,
	}, nil
}

// Subscribe streams station events.
func (ss *Sessions) Subscribe(buffer int) *supervisor.Subscription {
	return ss.st.bus.Subscribe(buffer)
}
