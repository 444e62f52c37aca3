package station

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// Asks is a session's requests for a person (a permission, a question) and
// the person's decision.
type Asks struct{ st *Station }

// recordTimeout bounds writing a decision into the task's history.
const recordTimeout = 30 * time.Second

// askWaitMin is the shortest a request waits for a person, however short
// the project's idle window: a person needs time to read it.
const askWaitMin = 5 * time.Second

// askWait is how long a session's request waits for a person before its
// agent shows its own dialog: the idle window of the session's project,
// the time the station would otherwise let it sit silent.
func (ak *Asks) askWait(s *session) time.Duration {
	d := s.spec.IdleWindow
	if p, ok := ak.st.Config().Project(s.spec.Project); ok {
		d = ak.st.Projects.effective(p).IdleWindow
	}
	return max(d, askWaitMin)
}

// AgentAsk is a session's agent asking a person (its PermissionRequest
// hook): the session is needs-permission and the person is told what is
// asked; the call waits for their decision. Nobody deciding within
// askWait, it returns an empty Decision and the agent shows its own dialog
// (its Notification hook then keeps the session needs-permission). Nothing
// is ever decided here but by a person.
func (ak *Asks) AgentAsk(ctx context.Context, id string, req supervisor.AskRequest) (supervisor.Decision, error) {
	s, err := ak.st.Sessions.agentSession(id)
	if err != nil {
		return supervisor.Decision{}, err
	}
	// An agent may post here without the hook: what it asks is kept
	// as a person will read it, whole and on one line, or refused.
	req, err = supervisor.CheckAskRequest(req)
	if err != nil {
		return supervisor.Decision{}, err
	}
	if req.Kind != supervisor.AskPermission && req.Kind != supervisor.AskQuestion {
		return supervisor.Decision{}, supervisor.Invalidf("a request's kind is %q or %q, not %q", supervisor.AskPermission, supervisor.AskQuestion, req.Kind)
	}
	a := &ask{reply: make(chan supervisor.Decision, 1), w: supervisor.WaitingOn{
		ID: newRequestID(), Kind: req.Kind, Tool: req.Tool, Input: req.Input, Options: req.Options, Since: time.Now().UTC(),
	}}
	if !s.meter.setAsk(a) {
		// One dialog at a time: the agent asks this one itself.
		return supervisor.Decision{}, nil
	}
	ak.st.log.Info("session asks a person", "session", s.spec.ID, "kind", req.Kind, "tool", req.Tool, "input", req.Input)
	if err := s.send(ctx, command{kind: cmdReport, input: inPermission, layer: "board", text: "asks: " + a.w.Line(), ask: a}); err != nil {
		s.meter.clearAsk(a)
		return supervisor.Decision{}, err
	}
	timer := time.NewTimer(ak.askWait(s))
	defer timer.Stop()
	select {
	case d := <-a.reply:
		return d, nil
	case <-timer.C:
	case <-ctx.Done():
	case <-s.done:
	}
	if !s.meter.clearAsk(a) {
		// A decision took it as the wait ended: it is on its way.
		return <-a.reply, nil
	}
	ak.st.log.Info("nobody answered the request; the agent shows its own dialog", "session", s.spec.ID, "tool", req.Tool)
	ak.st.bus.Publish(supervisor.Event{Kind: supervisor.EventSession, Session: ptr(s.Info())})
	return supervisor.Decision{}, ctx.Err()
}

// Decide is a person's decision on the request a session waits on: allow
// or deny a permission (with a note to the agent), answer or deny a
// question. Only a person decides: an operator action made from inside a
// session is refused (a session's own token cannot reach here at all).
// The decision is in the task's history with who made it.
func (ak *Asks) Decide(ctx context.Context, id string, d supervisor.Decision) error {
	if sid, ok := supervisor.Origin(ctx); ok {
		return supervisor.Conflictf("session %s may not decide a permission or a question; only a person may, from outside any session", sid)
	}
	s, err := ak.st.Sessions.localSession(id, "decide")
	if err != nil {
		return err
	}
	var changed bool
	a, msg := s.meter.takeAsk(func(a *ask) string {
		if why := requestChanged(s.spec.ID, a.w, d); why != "" {
			changed = d.Request != "" // naming none is a bad request, not a conflict
			return why
		}
		return decisionMismatch(a.w, d)
	})
	switch {
	case changed:
		return supervisor.Conflictf("%s", msg)
	case msg != "":
		return supervisor.Invalidf("%s", msg)
	case a == nil:
		return supervisor.Conflictf("session %s waits on no request; if its agent shows a dialog in its console, answer it there (buildstation session attach %s)", s.spec.ID, s.spec.ID)
	}
	d.By = operator(ctx)
	a.reply <- d
	what := decisionText(a.w, d)
	ak.st.log.Info("a person decided", "session", s.spec.ID, "decision", what, "by", d.By)
	// The decision is taken: its record must not depend on the client,
	// which may have left already. The station's own context owns it.
	rctx, cancel := context.WithTimeout(ak.st.life, recordTimeout)
	defer cancel()
	ak.recordDecision(rctx, s, what, d.By)
	_ = s.send(rctx, command{kind: cmdReport, input: inReport, layer: "board", text: what})
	return nil
}

// requestChanged says why d, made on the request d.Request names, cannot
// decide w, the one waiting now; "" when it names w. An allow or an
// answer must name the request it was made on: a person read that one,
// and the agent may have put another in its place since. A deny naming
// none denies whatever waits: refusing is never what the agent wants.
func requestChanged(session string, w supervisor.WaitingOn, d supervisor.Decision) string {
	switch {
	case d.Request == w.ID:
		return ""
	case d.Request == "" && d.Behavior == supervisor.DecideDeny && d.Answer == "":
		return ""
	case d.Request == "":
		return fmt.Sprintf("name the request you decide (request %s: %s): session %s's agent may have changed it since you looked", w.ID, w.Line(), session)
	}
	return fmt.Sprintf("%s: session %s now asks %s (request %s), not request %s", supervisor.RequestChanged, session, w.Line(), w.ID, d.Request)
}

// newRequestID is a new request's id: 48 random bits, so no two requests
// of a session share one, across station restarts too, and no agent can
// make its next request's id match one a person was shown.
func newRequestID() string {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // crypto/rand never fails on supported OSes
	}
	return hex.EncodeToString(b)
}

// decisionMismatch says why d cannot answer w, or "".
func decisionMismatch(w supervisor.WaitingOn, d supervisor.Decision) string {
	switch {
	case w.Kind == supervisor.AskQuestion && d.Behavior == supervisor.DecideAllow && strings.TrimSpace(d.Answer) == "":
		return "this session asks a question (" + w.Line() + "); answer it with \"buildstation session answer ID TEXT\", or deny it"
	case w.Kind == supervisor.AskPermission && d.Answer != "":
		return "this session asks permission for " + w.Line() + ", not a question; allow or deny it"
	case d.Behavior != supervisor.DecideAllow && d.Behavior != supervisor.DecideDeny:
		return fmt.Sprintf("a decision is %q or %q", supervisor.DecideAllow, supervisor.DecideDeny)
	}
	return ""
}

// decisionText is a decision as the history and the log say it.
func decisionText(w supervisor.WaitingOn, d supervisor.Decision) string {
	var s string
	switch {
	case d.Via != "" && d.Answer == "" && d.Behavior == supervisor.DecideAllow:
		s = "allowed from " + d.Via + ": " + w.Line()
	case d.Via != "" && d.Answer == "":
		s = "denied from " + d.Via + ": " + w.Line()
	case d.Answer != "":
		s = "answered " + w.Input + ": " + d.Answer
	case d.Behavior == supervisor.DecideAllow:
		s = "allowed once " + w.Line()
	default:
		s = "denied " + w.Line()
	}
	if d.Note != "" {
		s += " (note: " + d.Note + ")"
	}
	return s
}

// recordDecision writes a decision into the task's history: a move that
// keeps the task where it is, with the decision as its reason and the
// person as its actor. A task that moved meanwhile keeps its state; the
// decision is then only in the log.
func (ak *Asks) recordDecision(ctx context.Context, s *session, what, by string) {
	t, err := ak.st.board.Task(ctx, s.spec.TaskID)
	if err != nil {
		ak.st.log.Warn("read the task to record a decision", "task", s.spec.TaskID, "err", err)
		return
	}
	if t.State != supervisor.TaskWorking && t.State != supervisor.TaskReview {
		return
	}
	m := supervisor.Move{From: []supervisor.TaskState{t.State}, To: t.State, Reason: what, Actor: by, Attempt: s.spec.Attempt}
	if _, err := ak.st.board.Move(ctx, t.ID, m); err != nil {
		ak.st.log.Warn("record a decision in the task's history", "task", t.ID, "err", err)
	}
}

func ptr[T any](v T) *T { return &v }
