package station

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

// The methods below are what the local API serves to the tray, the CLI and
// agents. Errors are one sentence that says what to do; board errors keep
// ErrNotFound / ErrConflict underneath for the API's status codes.

// AddTask puts a task on a project's queue.
func (ts *Tasks) AddTask(ctx context.Context, nt supervisor.NewTask) (supervisor.Task, error) {
	nt.Title = strings.TrimSpace(nt.Title)
	if nt.Title == "" {
		return supervisor.Task{}, supervisor.Invalidf("a task needs a title; pass --title")
	}
	if _, ok := ts.st.Config().Project(nt.Project); !ok {
		if w := ts.st.Control.configWarning(); w != "" {
			return supervisor.Task{}, supervisor.NotFoundf("unknown project %q; config.toml was edited but not applied: %s", nt.Project, w)
		}
		return supervisor.Task{}, supervisor.NotFoundf("unknown project %q; use one of %s, or add it to config.toml (the station picks it up at once)", nt.Project, ts.projectNames())
	}
	t, err := ts.st.board.AddTask(ctx, nt)
	if err != nil {
		return supervisor.Task{}, err // the board's error says "add task" already
	}
	ts.st.host.publishTask(t)
	ts.st.poke()
	return t, nil
}

func (ts *Tasks) projectNames() string {
	var names []string
	for _, p := range ts.st.Config().Projects {
		names = append(names, fmt.Sprintf("%q", p.Name))
	}
	if len(names) == 0 {
		return "(none configured yet)"
	}
	return strings.Join(names, ", ")
}

// Task returns one task.
func (ts *Tasks) Task(ctx context.Context, id string) (supervisor.Task, error) {
	t, err := ts.st.board.Task(ctx, id)
	if errors.Is(err, supervisor.ErrNotFound) {
		return supervisor.Task{}, supervisor.NotFoundf("task %s not found; list tasks with \"buildstation task ls\"", id)
	}
	return t, err
}

// Tasks lists tasks, oldest first.
func (ts *Tasks) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	if f.State != "" && !f.State.Valid() {
		return nil, supervisor.Invalidf("unknown state %q; use one of todo, working, review, blocked, done, cancelled", f.State)
	}
	return ts.st.board.Tasks(ctx, f)
}

// BoardGeneration is the board's generation (supervisor.Generational);
// ok is false when the board cannot tell, so nothing read from it may be
// kept.
func (ts *Tasks) BoardGeneration(ctx context.Context) (g uint64, ok bool) {
	b, can := ts.st.board.(supervisor.Generational)
	if !can {
		return 0, false
	}
	g, err := b.Generation(ctx)
	return g, err == nil
}

// History returns a task's transitions, oldest first.
func (ts *Tasks) History(ctx context.Context, id string) ([]supervisor.Transition, error) {
	if _, err := ts.Task(ctx, id); err != nil {
		return nil, err
	}
	return ts.st.board.History(ctx, id)
}

// Requeue moves a blocked task back to the queue for a fresh attempt. The
// old reason stays in the history. On a shared board a task pinned to
// another station (its work is only there) is refused: see
// RequeueAnywhere.
func (ts *Tasks) Requeue(ctx context.Context, id, note string) (supervisor.Task, error) {
	return ts.requeue(ctx, id, note, false)
}

// RequeueAnywhere is Requeue that lifts the task's pin to another station
// first, for a station gone for good: the task starts from what its
// project's remote holds of it, or from its base.
func (ts *Tasks) RequeueAnywhere(ctx context.Context, id, note string) (supervisor.Task, error) {
	return ts.requeue(ctx, id, note, true)
}

func (ts *Tasks) requeue(ctx context.Context, id, note string, anywhere bool) (supervisor.Task, error) {
	cur, err := ts.Task(ctx, id)
	if err != nil {
		return supervisor.Task{}, err
	}
	if cur.State != supervisor.TaskBlocked && cur.State != supervisor.TaskCancelled {
		return supervisor.Task{}, supervisor.Conflictf("task %s is %s; only a blocked or cancelled task can be requeued", id, cur.State)
	}
	if err := ts.st.branches.requeuePinned(cur, anywhere); err != nil {
		return supervisor.Task{}, err
	}
	elsewhere := ""
	if anywhere && cur.Pinned != "" && cur.Pinned != ts.st.host.stationName() {
		if err := ts.st.branches.liftPin(ctx, cur); err != nil {
			return supervisor.Task{}, err
		}
		elsewhere = cur.Pinned
	}
	// Resume before the move: if the worktree cannot be reset, the task
	// stays blocked and nothing has changed.
	notes, err := ts.st.resume(ctx, cur, elsewhere)
	if err != nil {
		return supervisor.Task{}, err
	}
	if n := strings.TrimSpace(note); n != "" {
		notes = append([]string{n}, notes...)
	}
	t, err := ts.st.board.Move(ctx, id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskBlocked, supervisor.TaskCancelled}, To: supervisor.TaskTodo,
		BumpAttempt: true, Note: strings.Join(notes, "\n\n"), Actor: operator(ctx), Reason: ""})
	if err != nil {
		var se *supervisor.StateError
		if errors.As(err, &se) {
			return supervisor.Task{}, supervisor.Conflictf("task %s is %s; only a blocked or cancelled task can be requeued", id, se.Have)
		}
		return supervisor.Task{}, fmt.Errorf("requeue task %s: %w", id, err)
	}
	ts.st.host.publishTask(t)
	ts.st.poke()
	return t, nil
}

// Cancel takes a task off the board for good, ending its session if one runs.
func (ts *Tasks) Cancel(ctx context.Context, id string) (supervisor.Task, error) {
	if _, err := ts.Task(ctx, id); err != nil {
		return supervisor.Task{}, err
	}
	t, err := ts.st.board.Move(ctx, id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo, supervisor.TaskWorking, supervisor.TaskReview, supervisor.TaskBlocked}, To: supervisor.TaskCancelled,
		Reason: "cancelled by " + operatorWho(ctx), Actor: operator(ctx), KeepLease: ts.st.sessionForTask(id) != nil})
	if err != nil {
		var se *supervisor.StateError
		if errors.As(err, &se) {
			return supervisor.Task{}, supervisor.Conflictf("task %s is already %s; nothing to cancel", id, se.Have)
		}
		return supervisor.Task{}, fmt.Errorf("cancel task %s: %w", id, err)
	}
	ts.st.host.publishTask(t)
	if s := ts.st.sessionForTask(id); s != nil {
		if err := s.send(ctx, command{kind: cmdEnd, result: outEnded}); err != nil {
			ts.st.log.Warn("end cancelled session", "session", s.spec.ID, "err", err)
		}
	} else {
		ts.st.finish(ctx, id) // no session will settle it: remove its worktree now
	}
	return t, nil
}

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

// sendPatience is how long Send waits to see its text typed.
const sendPatience = 2 * time.Second

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

// Status counts tasks per column and sessions per state.
//
// On a shared board that does not answer, status degrades instead of
// failing: it counts this station's own sessions, leaves the board's
// counts out, and Board says since when the board is away and how many
// writes wait for it.
func (ct *Control) Status(ctx context.Context) (supervisor.Status, error) {
	s := supervisor.Status{Tasks: map[supervisor.TaskState]int{}, Sessions: map[string]int{}}
	for _, ts := range supervisor.TaskStates {
		s.Tasks[ts] = 0
	}
	if _, shared := ct.st.Shared.shared(); shared {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, ct.st.host.writeTimeout())
		defer cancel()
	}
	err := ct.countTasks(ctx, &s)
	if err == nil {
		var paused map[string]string
		if paused, err = ct.st.board.Paused(ctx); err == nil && len(paused) > 0 {
			s.Paused = paused
		}
	}
	if err != nil && unreachable(err) && ct.st.Shared.Link() != nil {
		ct.st.writes.link.down(err)
		down := supervisor.Status{Tasks: map[supervisor.TaskState]int{}, Sessions: map[string]int{}, Board: ct.st.Shared.Link(), Phone: ct.st.Phone.phoneLink()}
		ct.countSessions(&down, ct.ownSessions())
		return down, nil
	}
	if err != nil {
		return supervisor.Status{}, fmt.Errorf("status: %w", err)
	}
	ct.countSessions(&s, ct.st.Sessions.Sessions())
	s.Blocked = s.Tasks[supervisor.TaskBlocked]
	s.Board = ct.st.Shared.Link()
	if ct.st.opt.Sources != nil {
		s.Sources = ct.st.opt.Sources()
	}
	s.Warnings = ct.st.opt.Warnings
	if w := ct.configWarning(); w != "" {
		s.Warnings = append(slices.Clone(s.Warnings), w)
	}
	if ws := ct.st.branches.warnings(); len(ws) > 0 {
		s.Warnings = append(slices.Clone(s.Warnings), ws...)
	}
	if ws := ct.st.Projects.setupWarnings(); len(ws) > 0 {
		s.Warnings = append(slices.Clone(s.Warnings), ws...)
	}
	s.Phone = ct.st.Phone.phoneLink()
	for _, p := range ct.st.Config().Projects {
		if p.Gate == "" {
			s.NoGate = append(s.NoGate, p.Name)
		}
	}
	return s, nil
}

// countTasks counts the board's tasks per column into s.
func (ct *Control) countTasks(ctx context.Context, s *supervisor.Status) error {
	if c, ok := ct.st.board.(supervisor.TaskCounter); ok {
		n, err := c.CountTasks(ctx)
		if err != nil {
			return err
		}
		for k, v := range n {
			s.Tasks[k] = v
		}
		return nil
	}
	tasks, err := ct.st.board.Tasks(ctx, supervisor.TaskFilter{})
	if err != nil {
		return err
	}
	for _, t := range tasks {
		s.Tasks[t.State]++
	}
	return nil
}

// countSessions counts list into s by state.
func (ct *Control) countSessions(s *supervisor.Status, list []supervisor.SessionInfo) {
	for i := supervisor.SessStarting; i < supervisor.SessEnded; i++ {
		s.Sessions[i.String()] = 0
	}
	for _, si := range list {
		s.Sessions[si.State.String()]++
		switch si.State.Group() {
		case supervisor.GroupWorking:
			s.Working++
		case supervisor.GroupReviewing:
			s.Reviewing++
		case supervisor.GroupIdle:
			s.Idle++
		}
	}
	ct.st.costs.meterStatus(s, list)
}

// ownSessions lists this station's live sessions only.
func (ct *Control) ownSessions() []supervisor.SessionInfo {
	live := ct.st.liveSessions()
	out := make([]supervisor.SessionInfo, 0, len(live))
	for _, s := range live {
		out = append(out, s.Info())
	}
	return out
}

// Projects lists projects with their effective settings.
func (ps *Projects) Projects(ctx context.Context) ([]supervisor.ProjectInfo, error) {
	return ps.projects(ctx, "")
}

// Project is one project's line of Projects: `project show NAME`.
func (ps *Projects) Project(ctx context.Context, name string) (supervisor.ProjectInfo, error) {
	infos, err := ps.projects(ctx, name)
	if err != nil {
		return supervisor.ProjectInfo{}, err
	}
	if len(infos) == 0 {
		return supervisor.ProjectInfo{}, supervisor.NotFoundf("no project %q here; buildstation project ls lists them", name)
	}
	return infos[0], nil
}

// projects are the lines of Projects, of project only unless it is "".
func (ps *Projects) projects(ctx context.Context, only string) ([]supervisor.ProjectInfo, error) {
	paused, err := ps.st.board.Paused(ctx)
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	todo, err := ps.st.board.Tasks(ctx, supervisor.TaskFilter{State: supervisor.TaskTodo})
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	cfg := ps.st.Config()
	out := make([]supervisor.ProjectInfo, 0, len(cfg.Projects))
	for _, p := range cfg.Projects {
		if only != "" && p.Name != only {
			continue
		}
		out = append(out, ps.info(p, paused, todo))
	}
	return out, nil
}

// PauseProject stops a project's queue; running sessions go on.
func (ps *Projects) PauseProject(ctx context.Context, name, reason string) error {
	if _, ok := ps.st.Config().Project(name); !ok {
		return supervisor.NotFoundf("unknown project %q; use one of %s", name, ps.st.Tasks.projectNames())
	}
	if reason == "" {
		reason = "paused by a person"
	}
	if err := ps.st.board.SetPaused(ctx, name, true, reason); err != nil {
		return fmt.Errorf("pause project %s: %w", name, err)
	}
	ps.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	return nil
}

// ResumeProject restarts a project's queue.
func (ps *Projects) ResumeProject(ctx context.Context, name string) error {
	if _, ok := ps.st.Config().Project(name); !ok {
		return supervisor.NotFoundf("unknown project %q; use one of %s", name, ps.st.Tasks.projectNames())
	}
	if err := ps.st.board.SetPaused(ctx, name, false, ""); err != nil {
		return fmt.Errorf("resume project %s: %w", name, err)
	}
	ps.st.sched.breaker.reset(name) // a person looked: the breaker counts afresh
	ps.st.costs.liftBudget(ctx, today(time.Now()), name)
	ps.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	ps.st.poke()
	return nil
}

// SessionByToken finds the live session a session token belongs to.
func (av *AgentVerbs) SessionByToken(token string) (supervisor.SessionInfo, bool) {
	if token == "" {
		return supervisor.SessionInfo{}, false
	}
	found, wait := av.st.reg.byToken(token)
	if found == nil && wait != nil {
		// Its session is being spawned: answer once it is registered.
		select {
		case <-wait:
		case <-time.After(10 * time.Second):
		}
		return av.SessionByToken(token)
	}
	if found == nil {
		return supervisor.SessionInfo{}, false
	}
	return found.Info(), true
}

// AgentComplete settles a session's task as done and ends the session.
func (av *AgentVerbs) AgentComplete(ctx context.Context, id, summary string) error {
	s, err := av.st.Sessions.agentSession(id)
	if err != nil {
		return err
	}
	summary = strings.TrimSpace(summary)
	if summary == "" {
		return supervisor.Invalidf("complete needs a summary of what was done; pass --summary")
	}
	if s.spec.Kind == supervisor.KindReview {
		return supervisor.Invalidf("this is a review session; finish it with complete_review (approve or changes)")
	}
	// Done means the gate passes: on a red HEAD the task stays working
	// and the agent is told why.
	if err := av.st.gates.refuseRed(ctx, s, "complete_task"); err != nil {
		return err
	}
	to := supervisor.TaskDone
	if p, ok := av.st.Config().Project(s.spec.Project); ok && p.Review {
		to = supervisor.TaskReview // a review session judges it before it is done
	}
	t, queued, err := av.st.writes.move(ctx, s.spec.TaskID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: to, Summary: summary, Actor: "agent", KeepLease: true, Attempt: s.spec.Attempt})
	if err != nil {
		return av.agentMoveErr(s, err)
	}
	if !queued {
		av.st.host.publishTask(t)
	}
	if to == supervisor.TaskDone {
		av.st.host.notify(finishedNotice(s.spec.TaskID, s.spec.Title, summary, s))
	}
	av.endLater(s, outEnded)
	return nil
}

// AgentBlock blocks a session's task with the agent's reason.
func (av *AgentVerbs) AgentBlock(ctx context.Context, id, reason string) error {
	s, err := av.st.Sessions.agentSession(id)
	if err != nil {
		return err
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return supervisor.Invalidf("block needs a reason a person can act on; pass --reason")
	}
	from := []supervisor.TaskState{s.spec.Kind.TaskState()}
	t, queued, err := av.st.writes.move(ctx, s.spec.TaskID, supervisor.Move{From: from, To: supervisor.TaskBlocked, Reason: "agent: " + reason, Actor: "agent", KeepLease: true, Attempt: s.spec.Attempt})
	if err != nil {
		return av.agentMoveErr(s, err)
	}
	if queued {
		av.endLater(s, outEnded)
		return nil
	}
	av.st.host.publishTask(t)
	av.st.host.notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: t.ID, SessionID: id, Title: "Blocked: " + t.Title, Body: t.Reason})
	av.st.breakerTrip(ctx, t, "agent")
	av.endLater(s, outEnded)
	return nil
}

func (av *AgentVerbs) agentMoveErr(s *session, err error) error {
	var se *supervisor.StateError
	if errors.As(err, &se) {
		return supervisor.Conflictf("task %s is already %s; nothing to do", s.spec.TaskID, se.Have)
	}
	var ae *supervisor.AttemptError
	if errors.As(err, &ae) {
		return supervisor.Conflictf("session %s was attempt %d of task %s, which is on attempt %d now; stop working on it, the work so far stays in the worktree", s.spec.ID, ae.Want, s.spec.TaskID, ae.Have)
	}
	if errors.Is(err, supervisor.ErrConflict) {
		// Fenced: the lease went to another station, or was reaped.
		// Retrying cannot help; the agent should stop.
		return supervisor.Conflictf("this station no longer holds task %s (its lease was lost); stop working on it, the work so far stays in the worktree", s.spec.TaskID)
	}
	return fmt.Errorf("settle task %s: %w", s.spec.TaskID, err)
}

// endLater ends a session without holding up the agent's own request: the
// agent gets its answer, then its tree is ended. After a stop there is
// nothing to do: the stop ended the session.
func (av *AgentVerbs) endLater(s *session, how outcomeKind) {
	av.st.goWork(func() {
		ctx, cancel := context.WithTimeout(av.st.life, time.Minute)
		defer cancel()
		if err := s.send(ctx, command{kind: cmdEnd, result: how}); err != nil {
			av.st.log.Debug("end session", "session", s.spec.ID, "err", err)
		}
	})
}

// AgentProgress records a progress report: evidence of life on the board.
func (av *AgentVerbs) AgentProgress(ctx context.Context, id, message string) error {
	s, err := av.st.Sessions.agentSession(id)
	if err != nil {
		return err
	}
	message = strings.TrimSpace(message)
	if message == "" {
		return supervisor.Invalidf("progress needs a message saying what you are doing")
	}
	return s.send(ctx, command{kind: cmdReport, input: inReport, layer: "board", text: progressPrefix + message})
}

// AgentStatus sets whether the agent is working or reviewing.
func (av *AgentVerbs) AgentStatus(ctx context.Context, id, status string) error {
	s, err := av.st.Sessions.agentSession(id)
	if err != nil {
		return err
	}
	var in wdInput
	switch status {
	case "working":
		in = inWorking
	case "reviewing":
		in = inReviewing
	default:
		return supervisor.Invalidf("unknown status %q; use working or reviewing", status)
	}
	return s.send(ctx, command{kind: cmdReport, input: in, layer: "board"})
}

// Subscribe streams station events.
func (ss *Sessions) Subscribe(buffer int) *supervisor.Subscription {
	return ss.st.bus.Subscribe(buffer)
}

// SessionProof is HMAC-SHA256 of msg keyed with session id's token: the
// station proves to the session's agent that it holds the token, before the
// agent sends it (api.Client.verify). ok is false when no live session has
// that id.
func (av *AgentVerbs) SessionProof(id string, msg []byte) ([]byte, bool) {
	token, wait := av.st.reg.tokenOf(id)
	if token == "" && wait != nil {
		select {
		case <-wait:
		case <-time.After(10 * time.Second):
		}
		token, _ = av.st.reg.tokenOf(id)
	}
	if token == "" {
		return nil, false
	}
	m := hmac.New(sha256.New, []byte(token))
	m.Write(msg)
	return m.Sum(nil), true
}

// operator is the actor of an operator action: "person", "session ID"
// when it came from inside a session, or "unverified origin" when the
// station could not tell where it came from.
func operator(ctx context.Context) string {
	if id, ok := supervisor.Origin(ctx); ok {
		return "session " + id
	}
	if supervisor.OriginUnverified(ctx) {
		return supervisor.ActorUnverified
	}
	return "person"
}

func operatorWho(ctx context.Context) string {
	if id, ok := supervisor.Origin(ctx); ok {
		return "a program in session " + id + " (with the station token)"
	}
	if supervisor.OriginUnverified(ctx) {
		return "a caller of unverified origin (with the station token)"
	}
	return "a person"
}
