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
func (st *Station) AddTask(ctx context.Context, nt supervisor.NewTask) (supervisor.Task, error) {
	nt.Title = strings.TrimSpace(nt.Title)
	if nt.Title == "" {
		return supervisor.Task{}, supervisor.Invalidf("a task needs a title; pass --title")
	}
	if _, ok := st.Config().Project(nt.Project); !ok {
		if w := st.configWarning(); w != "" {
			return supervisor.Task{}, supervisor.NotFoundf("unknown project %q; config.toml was edited but not applied: %s", nt.Project, w)
		}
		return supervisor.Task{}, supervisor.NotFoundf("unknown project %q; use one of %s, or add it to config.toml (the station picks it up at once)", nt.Project, st.projectNames())
	}
	t, err := st.board.AddTask(ctx, nt)
	if err != nil {
		return supervisor.Task{}, err // the board's error says "add task" already
	}
	st.publishTask(t)
	st.poke()
	return t, nil
}

func (st *Station) projectNames() string {
	var names []string
	for _, p := range st.Config().Projects {
		names = append(names, fmt.Sprintf("%q", p.Name))
	}
	if len(names) == 0 {
		return "(none configured yet)"
	}
	return strings.Join(names, ", ")
}

// Task returns one task.
func (st *Station) Task(ctx context.Context, id string) (supervisor.Task, error) {
	t, err := st.board.Task(ctx, id)
	if errors.Is(err, supervisor.ErrNotFound) {
		return supervisor.Task{}, supervisor.NotFoundf("task %s not found; list tasks with \"buildstation task ls\"", id)
	}
	return t, err
}

// Tasks lists tasks, oldest first.
func (st *Station) Tasks(ctx context.Context, f supervisor.TaskFilter) ([]supervisor.Task, error) {
	if f.State != "" && !f.State.Valid() {
		return nil, supervisor.Invalidf("unknown state %q; use one of todo, working, review, blocked, done, cancelled", f.State)
	}
	return st.board.Tasks(ctx, f)
}

// BoardGeneration is the board's generation (supervisor.Generational);
// ok is false when the board cannot tell, so nothing read from it may be
// kept.
func (st *Station) BoardGeneration(ctx context.Context) (g uint64, ok bool) {
	b, can := st.board.(supervisor.Generational)
	if !can {
		return 0, false
	}
	g, err := b.Generation(ctx)
	return g, err == nil
}

// History returns a task's transitions, oldest first.
func (st *Station) History(ctx context.Context, id string) ([]supervisor.Transition, error) {
	if _, err := st.Task(ctx, id); err != nil {
		return nil, err
	}
	return st.board.History(ctx, id)
}

// Requeue moves a blocked task back to the queue for a fresh attempt. The
// old reason stays in the history. On a shared board a task pinned to
// another station (its work is only there) is refused: see
// RequeueAnywhere.
func (st *Station) Requeue(ctx context.Context, id, note string) (supervisor.Task, error) {
	return st.requeue(ctx, id, note, false)
}

// RequeueAnywhere is Requeue that lifts the task's pin to another station
// first, for a station gone for good: the task starts from what its
// project's remote holds of it, or from its base.
func (st *Station) RequeueAnywhere(ctx context.Context, id, note string) (supervisor.Task, error) {
	return st.requeue(ctx, id, note, true)
}

func (st *Station) requeue(ctx context.Context, id, note string, anywhere bool) (supervisor.Task, error) {
	cur, err := st.Task(ctx, id)
	if err != nil {
		return supervisor.Task{}, err
	}
	if cur.State != supervisor.TaskBlocked && cur.State != supervisor.TaskCancelled {
		return supervisor.Task{}, supervisor.Conflictf("task %s is %s; only a blocked or cancelled task can be requeued", id, cur.State)
	}
	if err := st.branches.requeuePinned(cur, anywhere); err != nil {
		return supervisor.Task{}, err
	}
	elsewhere := ""
	if anywhere && cur.Pinned != "" && cur.Pinned != st.stationName() {
		if err := st.branches.liftPin(ctx, cur); err != nil {
			return supervisor.Task{}, err
		}
		elsewhere = cur.Pinned
	}
	// Resume before the move: if the worktree cannot be reset, the task
	// stays blocked and nothing has changed.
	notes, err := st.resume(ctx, cur, elsewhere)
	if err != nil {
		return supervisor.Task{}, err
	}
	if n := strings.TrimSpace(note); n != "" {
		notes = append([]string{n}, notes...)
	}
	t, err := st.board.Move(ctx, id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskBlocked, supervisor.TaskCancelled}, To: supervisor.TaskTodo,
		BumpAttempt: true, Note: strings.Join(notes, "\n\n"), Actor: operator(ctx), Reason: ""})
	if err != nil {
		var se *supervisor.StateError
		if errors.As(err, &se) {
			return supervisor.Task{}, supervisor.Conflictf("task %s is %s; only a blocked or cancelled task can be requeued", id, se.Have)
		}
		return supervisor.Task{}, fmt.Errorf("requeue task %s: %w", id, err)
	}
	st.publishTask(t)
	st.poke()
	return t, nil
}

// Cancel takes a task off the board for good, ending its session if one runs.
func (st *Station) Cancel(ctx context.Context, id string) (supervisor.Task, error) {
	if _, err := st.Task(ctx, id); err != nil {
		return supervisor.Task{}, err
	}
	t, err := st.board.Move(ctx, id, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskTodo, supervisor.TaskWorking, supervisor.TaskReview, supervisor.TaskBlocked}, To: supervisor.TaskCancelled,
		Reason: "cancelled by " + operatorWho(ctx), Actor: operator(ctx), KeepLease: st.sessionForTask(id) != nil})
	if err != nil {
		var se *supervisor.StateError
		if errors.As(err, &se) {
			return supervisor.Task{}, supervisor.Conflictf("task %s is already %s; nothing to cancel", id, se.Have)
		}
		return supervisor.Task{}, fmt.Errorf("cancel task %s: %w", id, err)
	}
	st.publishTask(t)
	if s := st.sessionForTask(id); s != nil {
		if err := s.send(ctx, command{kind: cmdEnd, result: outEnded}); err != nil {
			st.log.Warn("end cancelled session", "session", s.spec.ID, "err", err)
		}
	} else {
		st.finish(ctx, id) // no session will settle it: remove its worktree now
	}
	return t, nil
}

// Sessions lists live sessions: this station's in start order, then, on a
// shared board, the other stations' (Station names where each runs).
func (st *Station) Sessions() []supervisor.SessionInfo {
	return append(st.ownSessions(), st.remoteSessions()...)
}

// Session returns one live session, of this station or, on a shared board,
// of another.
func (st *Station) Session(id string) (supervisor.SessionInfo, bool) {
	s := st.lookup(id)
	if s == nil {
		return st.remoteSession(id)
	}
	return s.Info(), true
}

// lookup finds a live session by its id, or by its task's id.
func (st *Station) lookup(id string) *session { return st.reg.lookup(id) }

// agentSession finds the live session an agent's report names (by its
// session or task id); none is a not-found error.
func (st *Station) agentSession(id string) (*session, error) {
	return st.localSession(id, "")
}

// localSession finds a live session of this station for a request that
// needs its console (verb: "attach", "send", …). A session another station
// runs is a conflict that names the machine to go to.
func (st *Station) localSession(id, verb string) (*session, error) {
	s := st.lookup(id)
	if s != nil {
		return s, nil
	}
	if verb != "" {
		if si, ok := st.remoteSession(id); ok {
			return nil, supervisor.Conflictf("session %s runs on station %s; %s from that machine", id, si.Station, verb)
		}
	}
	return nil, supervisor.NotFoundf("no live session %s; session ids look like t2.3 (task t2, attempt 3) and a task id picks its live session; list them with \"buildstation session ls\"", id)
}

// Send types text into a session, then Enter as a separate write.
func (st *Station) Send(ctx context.Context, id, text string) error {
	if strings.TrimSpace(textsafe.Typed(text)) == "" {
		return supervisor.Invalidf("send needs text to type; control characters (line breaks, escapes) are not typed, the station sends the one Enter itself")
	}
	s, err := st.localSession(id, "send")
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
func (st *Station) Nudge(ctx context.Context, id string) error {
	s, err := st.localSession(id, "nudge")
	if err != nil {
		return err
	}
	return s.send(ctx, command{kind: cmdNudge})
}

// Block blocks a session's task now and ends its process tree.
func (st *Station) Block(ctx context.Context, id, reason string) error {
	s, err := st.localSession(id, "block")
	if err != nil {
		return err
	}
	if strings.TrimSpace(reason) == "" {
		reason = "blocked by a person"
	}
	return s.send(ctx, command{kind: cmdBlock, text: reason})
}

// Attach opens a console on a session: its last screens, then live output.
func (st *Station) Attach(id string) (*supervisor.Attachment, error) {
	s, err := st.localSession(id, "attach")
	if err != nil {
		return nil, err
	}
	replay, v := s.con.attach(1024)
	var once atomic.Bool
	return &supervisor.Attachment{
		Replay: replay,
		Output: v.c,
		Input:  consoleKeys{s, st.life},
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
func (st *Station) Status(ctx context.Context) (supervisor.Status, error) {
	s := supervisor.Status{Tasks: map[supervisor.TaskState]int{}, Sessions: map[string]int{}}
	for _, ts := range supervisor.TaskStates {
		s.Tasks[ts] = 0
	}
	if _, shared := st.shared(); shared {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, st.writeTimeout())
		defer cancel()
	}
	err := st.countTasks(ctx, &s)
	if err == nil {
		var paused map[string]string
		if paused, err = st.board.Paused(ctx); err == nil && len(paused) > 0 {
			s.Paused = paused
		}
	}
	if err != nil && unreachable(err) && st.Link() != nil {
		st.writes.link.down(err)
		down := supervisor.Status{Tasks: map[supervisor.TaskState]int{}, Sessions: map[string]int{}, Board: st.Link(), Phone: st.phoneLink()}
		st.countSessions(&down, st.ownSessions())
		return down, nil
	}
	if err != nil {
		return supervisor.Status{}, fmt.Errorf("status: %w", err)
	}
	st.countSessions(&s, st.Sessions())
	s.Blocked = s.Tasks[supervisor.TaskBlocked]
	s.Board = st.Link()
	if st.opt.Sources != nil {
		s.Sources = st.opt.Sources()
	}
	s.Warnings = st.opt.Warnings
	if w := st.configWarning(); w != "" {
		s.Warnings = append(slices.Clone(s.Warnings), w)
	}
	if ws := st.branches.warnings(); len(ws) > 0 {
		s.Warnings = append(slices.Clone(s.Warnings), ws...)
	}
	if ws := st.setupWarnings(); len(ws) > 0 {
		s.Warnings = append(slices.Clone(s.Warnings), ws...)
	}
	s.Phone = st.phoneLink()
	for _, p := range st.Config().Projects {
		if p.Gate == "" {
			s.NoGate = append(s.NoGate, p.Name)
		}
	}
	return s, nil
}

// countTasks counts the board's tasks per column into s.
func (st *Station) countTasks(ctx context.Context, s *supervisor.Status) error {
	if c, ok := st.board.(supervisor.TaskCounter); ok {
		n, err := c.CountTasks(ctx)
		if err != nil {
			return err
		}
		for k, v := range n {
			s.Tasks[k] = v
		}
		return nil
	}
	tasks, err := st.board.Tasks(ctx, supervisor.TaskFilter{})
	if err != nil {
		return err
	}
	for _, t := range tasks {
		s.Tasks[t.State]++
	}
	return nil
}

// countSessions counts list into s by state.
func (st *Station) countSessions(s *supervisor.Status, list []supervisor.SessionInfo) {
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
	st.meterStatus(s, list)
}

// ownSessions lists this station's live sessions only.
func (st *Station) ownSessions() []supervisor.SessionInfo {
	live := st.liveSessions()
	out := make([]supervisor.SessionInfo, 0, len(live))
	for _, s := range live {
		out = append(out, s.Info())
	}
	return out
}

// Projects lists projects with their effective settings.
func (st *Station) Projects(ctx context.Context) ([]supervisor.ProjectInfo, error) {
	return st.projects(ctx, "")
}

// Project is one project's line of Projects: `project show NAME`.
func (st *Station) Project(ctx context.Context, name string) (supervisor.ProjectInfo, error) {
	infos, err := st.projects(ctx, name)
	if err != nil {
		return supervisor.ProjectInfo{}, err
	}
	if len(infos) == 0 {
		return supervisor.ProjectInfo{}, supervisor.NotFoundf("no project %q here; buildstation project ls lists them", name)
	}
	return infos[0], nil
}

// projects are the lines of Projects, of project only unless it is "".
func (st *Station) projects(ctx context.Context, only string) ([]supervisor.ProjectInfo, error) {
	paused, err := st.board.Paused(ctx)
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	todo, err := st.board.Tasks(ctx, supervisor.TaskFilter{State: supervisor.TaskTodo})
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	cfg := st.Config()
	out := make([]supervisor.ProjectInfo, 0, len(cfg.Projects))
	for _, p := range cfg.Projects {
		if only != "" && p.Name != only {
			continue
		}
		out = append(out, st.info(p, paused, todo))
	}
	return out, nil
}

// PauseProject stops a project's queue; running sessions go on.
func (st *Station) PauseProject(ctx context.Context, name, reason string) error {
	if _, ok := st.Config().Project(name); !ok {
		return supervisor.NotFoundf("unknown project %q; use one of %s", name, st.projectNames())
	}
	if reason == "" {
		reason = "paused by a person"
	}
	if err := st.board.SetPaused(ctx, name, true, reason); err != nil {
		return fmt.Errorf("pause project %s: %w", name, err)
	}
	st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	return nil
}

// ResumeProject restarts a project's queue.
func (st *Station) ResumeProject(ctx context.Context, name string) error {
	if _, ok := st.Config().Project(name); !ok {
		return supervisor.NotFoundf("unknown project %q; use one of %s", name, st.projectNames())
	}
	if err := st.board.SetPaused(ctx, name, false, ""); err != nil {
		return fmt.Errorf("resume project %s: %w", name, err)
	}
	st.sched.breaker.reset(name) // a person looked: the breaker counts afresh
	st.liftBudget(ctx, today(time.Now()), name)
	st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	st.poke()
	return nil
}

// SessionByToken finds the live session a session token belongs to.
func (st *Station) SessionByToken(token string) (supervisor.SessionInfo, bool) {
	if token == "" {
		return supervisor.SessionInfo{}, false
	}
	found, wait := st.reg.byToken(token)
	if found == nil && wait != nil {
		// Its session is being spawned: answer once it is registered.
		select {
		case <-wait:
		case <-time.After(10 * time.Second):
		}
		return st.SessionByToken(token)
	}
	if found == nil {
		return supervisor.SessionInfo{}, false
	}
	return found.Info(), true
}

// AgentComplete settles a session's task as done and ends the session.
func (st *Station) AgentComplete(ctx context.Context, id, summary string) error {
	s, err := st.agentSession(id)
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
	if err := st.refuseRed(ctx, s, "complete_task"); err != nil {
		return err
	}
	to := supervisor.TaskDone
	if p, ok := st.Config().Project(s.spec.Project); ok && p.Review {
		to = supervisor.TaskReview // a review session judges it before it is done
	}
	t, queued, err := st.writes.move(ctx, s.spec.TaskID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: to, Summary: summary, Actor: "agent", KeepLease: true, Attempt: s.spec.Attempt})
	if err != nil {
		return st.agentMoveErr(s, err)
	}
	if !queued {
		st.publishTask(t)
	}
	if to == supervisor.TaskDone {
		st.notify(finishedNotice(s.spec.TaskID, s.spec.Title, summary, s))
	}
	st.endLater(s, outEnded)
	return nil
}

// AgentBlock blocks a session's task with the agent's reason.
func (st *Station) AgentBlock(ctx context.Context, id, reason string) error {
	s, err := st.agentSession(id)
	if err != nil {
		return err
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return supervisor.Invalidf("block needs a reason a person can act on; pass --reason")
	}
	from := []supervisor.TaskState{s.spec.Kind.TaskState()}
	t, queued, err := st.writes.move(ctx, s.spec.TaskID, supervisor.Move{From: from, To: supervisor.TaskBlocked, Reason: "agent: " + reason, Actor: "agent", KeepLease: true, Attempt: s.spec.Attempt})
	if err != nil {
		return st.agentMoveErr(s, err)
	}
	if queued {
		st.endLater(s, outEnded)
		return nil
	}
	st.publishTask(t)
	st.notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: t.ID, SessionID: id, Title: "Blocked: " + t.Title, Body: t.Reason})
	st.breakerTrip(ctx, t, "agent")
	st.endLater(s, outEnded)
	return nil
}

func (st *Station) agentMoveErr(s *session, err error) error {
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
func (st *Station) endLater(s *session, how outcomeKind) {
	st.goWork(func() {
		ctx, cancel := context.WithTimeout(st.life, time.Minute)
		defer cancel()
		if err := s.send(ctx, command{kind: cmdEnd, result: how}); err != nil {
			st.log.Debug("end session", "session", s.spec.ID, "err", err)
		}
	})
}

// AgentProgress records a progress report: evidence of life on the board.
func (st *Station) AgentProgress(ctx context.Context, id, message string) error {
	s, err := st.agentSession(id)
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
func (st *Station) AgentStatus(ctx context.Context, id, status string) error {
	s, err := st.agentSession(id)
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
func (st *Station) Subscribe(buffer int) *supervisor.Subscription { return st.bus.Subscribe(buffer) }

// SessionProof is HMAC-SHA256 of msg keyed with session id's token: the
// station proves to the session's agent that it holds the token, before the
// agent sends it (api.Client.verify). ok is false when no live session has
// that id.
func (st *Station) SessionProof(id string, msg []byte) ([]byte, bool) {
	token, wait := st.reg.tokenOf(id)
	if token == "" && wait != nil {
		select {
		case <-wait:
		case <-time.After(10 * time.Second):
		}
		token, _ = st.reg.tokenOf(id)
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
