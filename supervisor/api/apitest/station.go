package apitest

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
)

// Call is one recorded call on the fake: which method, for which session
// (agent calls: the session the token resolved to) and its argument.
type Call struct {
	Method    string
	SessionID string
	Arg       string
}

// Station is an in-memory api.Station. Tasks get ids t1, t2, …; sessions,
// their tokens and projects are added by the test. It is frozen: it
// answers the verbs it had, and a verb added since is the embedded
// interface's, nil, so calling it panics; test a new verb with Board.
type Station struct {
	// Diff, when set, is what TaskDiff answers (without --stat).
	Diff        string
	api.Station // nil: the verbs added since the fake was frozen
	mu          sync.Mutex
	tasks       []supervisor.Task
	history     map[string][]supervisor.Transition
	sessions    []supervisor.SessionInfo
	tokens      map[string]string // session token → session id
	projects    []supervisor.ProjectInfo
	consoles    map[string]*Console
	calls       []Call
	fail        map[string]error // method → the error its next call returns
	subs        chan struct{}
	bus         supervisor.Bus
	// transcripts by session id and by task id (SetTranscript)
	transcripts map[string]supervisor.Transcript
	// Now stamps tasks; fixed so tests compare exact output.
	Now time.Time
	// IdleFloor stands in for a shared board's idle window: an idle_window
	// set shorter takes effect as IdleFloor, as on a real station.
	IdleFloor time.Duration
	// AskDecision is what AgentAsk answers: a person's decision, or
	// empty for nobody deciding in time.
	AskDecision supervisor.Decision
	// Work is what TaskWork answers for every task; nil: no branch.
	Work *supervisor.TaskWork
}

// New returns an empty fake.
func New() *Station {
	return &Station{
		history:  map[string][]supervisor.Transition{},
		tokens:   map[string]string{},
		consoles: map[string]*Console{},
		fail:     map[string]error{},
		subs:     make(chan struct{}, 16),
		Now:      time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

// PutProject adds a project the fake knows.
func (f *Station) PutProject(p supervisor.ProjectInfo) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.projects = append(f.projects, p)
}

// AddSession adds a live session with its token.
func (f *Station) AddSession(s supervisor.SessionInfo, token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions = append(f.sessions, s)
	if token != "" {
		f.tokens[token] = s.ID
	}
}

// Calls returns the calls recorded so far.
func (f *Station) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// Subscribed receives a value each time Subscribe is called, so a test can
// publish only once a stream listens.
func (f *Station) Subscribed() <-chan struct{} { return f.subs }

// Publish sends e to every subscriber.
func (f *Station) Publish(e supervisor.Event) { f.bus.Publish(e) }

func (f *Station) record(method, session, arg string) {
	f.calls = append(f.calls, Call{Method: method, SessionID: session, Arg: arg})
}

func notFound(what, id string) error {
	return fmt.Errorf("%s %s: %w", what, id, supervisor.ErrNotFound)
}

func (f *Station) project(name string) bool {
	return slices.ContainsFunc(f.projects, func(p supervisor.ProjectInfo) bool { return p.Name == name })
}

func (f *Station) task(id string) (int, bool) {
	i := slices.IndexFunc(f.tasks, func(t supervisor.Task) bool { return t.ID == id })
	return i, i >= 0
}

func (f *Station) session(id string) (supervisor.SessionInfo, bool) {
	i := slices.IndexFunc(f.sessions, func(s supervisor.SessionInfo) bool { return s.ID == id })
	if i < 0 {
		return supervisor.SessionInfo{}, false
	}
	return f.sessions[i], true
}

func (f *Station) AddTask(ctx context.Context, nt supervisor.NewTask) (supervisor.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.project(nt.Project) {
		return supervisor.Task{}, notFound("project", nt.Project)
	}
	t := supervisor.Task{
		ID: fmt.Sprintf("t%d", len(f.tasks)+1), Project: nt.Project, Title: nt.Title, Body: nt.Body,
		State: supervisor.TaskTodo, Attempt: 1, CreatedAt: f.Now, UpdatedAt: f.Now,
	}
	f.tasks = append(f.tasks, t)
	f.history[t.ID] = []supervisor.Transition{{TaskID: t.ID, To: supervisor.TaskTodo, Attempt: 1, Actor: "cli", At: f.Now}}
	f.record("AddTask", "", nt.Title)
	return t, nil
}

func (f *Station) Task(ctx context.Context, id string) (supervisor.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	i, ok := f.task(id)
	if !ok {
		return supervisor.Task{}, notFound("task", id)
	}
	return f.tasks[i], nil
}

func (f *Station) Tasks(ctx context.Context, flt supervisor.TaskFilter) ([]supervisor.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []supervisor.Task // nil when empty, as a real board may return
	for _, t := range f.tasks {
		if (flt.State == "" || t.State == flt.State) && (flt.Project == "" || t.Project == flt.Project) {
			out = append(out, t)
		}
	}
	return flt.Page(out), nil
}

func (f *Station) History(ctx context.Context, id string) ([]supervisor.Transition, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.task(id); !ok {
		return nil, notFound("task", id)
	}
	return slices.Clone(f.history[id]), nil
}

// move applies a transition the way the board does: only from one of from.
func (f *Station) move(id string, to supervisor.TaskState, bump bool, from ...supervisor.TaskState) (supervisor.Task, error) {
	i, ok := f.task(id)
	if !ok {
		return supervisor.Task{}, notFound("task", id)
	}
	t := &f.tasks[i]
	if !slices.Contains(from, t.State) {
		return supervisor.Task{}, &supervisor.StateError{ID: id, Have: t.State, Want: from}
	}
	f.history[id] = append(f.history[id], supervisor.Transition{TaskID: id, From: t.State, To: to, Attempt: t.Attempt, At: f.Now})
	t.State = to
	if bump {
		t.Attempt++
	}
	return *t, nil
}

// SetTaskState forces a task's column, for tests that need a blocked or
// done task.
func (f *Station) SetTaskState(id string, s supervisor.TaskState, reason string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if i, ok := f.task(id); ok {
		f.tasks[i].State, f.tasks[i].Reason = s, reason
	}
}

func (f *Station) Requeue(ctx context.Context, id, note string) (supervisor.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("Requeue", "", note)
	return f.move(id, supervisor.TaskTodo, true, supervisor.TaskBlocked)
}

func (f *Station) RequeueAnywhere(ctx context.Context, id, note string) (supervisor.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("RequeueAnywhere", "", note)
	return f.move(id, supervisor.TaskTodo, true, supervisor.TaskBlocked)
}

func (f *Station) TaskWork(ctx context.Context, id string) (supervisor.TaskWork, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.task(id); !ok {
		return supervisor.TaskWork{}, false, notFound("task", id)
	}
	if f.Work == nil {
		return supervisor.TaskWork{}, false, nil
	}
	return *f.Work, true, nil
}

func (f *Station) TaskDiff(ctx context.Context, id string, stat bool) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("TaskDiff", "", id)
	if _, ok := f.task(id); !ok {
		return "", notFound("task", id)
	}
	if stat {
		return " work.txt | 1 +\n", nil
	}
	if f.Diff != "" {
		return f.Diff, nil
	}
	return "+work\n", nil
}

func (f *Station) Accept(ctx context.Context, id, note string) (supervisor.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("Accept", "", note)
	return f.move(id, supervisor.TaskDone, false, supervisor.TaskBlocked, supervisor.TaskReview)
}

func (f *Station) Merge(ctx context.Context, id, into string) (supervisor.Merged, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("Merge", "", into)
	if _, ok := f.task(id); !ok {
		return supervisor.Merged{}, notFound("task", id)
	}
	if into == "" {
		into = "main"
	}
	return supervisor.Merged{Into: into, Commit: "0123456789abcdef", FastForward: true}, nil
}

func (f *Station) Cancel(ctx context.Context, id string) (supervisor.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.record("Cancel", "", id)
	return f.move(id, supervisor.TaskCancelled, false, supervisor.TaskTodo, supervisor.TaskWorking, supervisor.TaskReview, supervisor.TaskBlocked)
}

func (f *Station) Sessions() []supervisor.SessionInfo {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sessions)
}

func (f *Station) Session(id string) (supervisor.SessionInfo, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.session(id)
}

// Fail makes the next call of a session method (Send, Nudge, Block, the
// Agent* reports) return err, as a station that refuses or breaks.
func (f *Station) Fail(method string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail[method] = err
}

func (f *Station) sessionCall(method, id, arg string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err, ok := f.fail[method]; ok {
		delete(f.fail, method)
		return err
	}
	s, ok := f.session(id)
	if !ok {
		return notFound("session", id)
	}
	if s.State == supervisor.SessEnded {
		return fmt.Errorf("session %s has ended: %w", id, supervisor.ErrConflict)
	}
	f.record(method, id, arg)
	return nil
}

func (f *Station) Send(ctx context.Context, id, text string) error {
	return f.sessionCall("Send", id, text)
}

func (f *Station) Nudge(ctx context.Context, id string) error {
	return f.sessionCall("Nudge", id, "")
}

func (f *Station) Block(ctx context.Context, id, reason string) error {
	return f.sessionCall("Block", id, reason)
}

func (f *Station) Status(ctx context.Context) (supervisor.Status, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := supervisor.Status{Tasks: map[supervisor.TaskState]int{}, Sessions: map[string]int{}}
	for _, t := range f.tasks {
		st.Tasks[t.State]++
	}
	for _, s := range f.sessions {
		st.Sessions[s.State.String()]++
		switch s.State {
		case supervisor.SessReviewing:
			st.Reviewing++
		case supervisor.SessIdle:
			st.Idle++
		case supervisor.SessEnded:
		default:
			st.Working++
		}
	}
	st.Blocked = st.Tasks[supervisor.TaskBlocked]
	return st, nil
}

func (f *Station) Projects(ctx context.Context) ([]supervisor.ProjectInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.projects), nil
}

func (f *Station) setPaused(name string, paused bool, reason string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := slices.IndexFunc(f.projects, func(p supervisor.ProjectInfo) bool { return p.Name == name })
	if i < 0 {
		return notFound("project", name)
	}
	f.projects[i].Paused, f.projects[i].PauseReason = paused, reason
	if paused {
		f.record("PauseProject", "", name+": "+reason)
	} else {
		f.record("ResumeProject", "", name)
	}
	return nil
}

func (f *Station) PauseProject(ctx context.Context, name, reason string) error {
	return f.setPaused(name, true, reason)
}

func (f *Station) ResumeProject(ctx context.Context, name string) error {
	return f.setPaused(name, false, "")
}

// SetProjectSettings records the edit; the fake applies idle_window only.
func (f *Station) SetProjectSettings(ctx context.Context, name string, set map[string]string) (supervisor.ProjectInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err, ok := f.fail["SetProjectSettings"]; ok {
		delete(f.fail, "SetProjectSettings")
		return supervisor.ProjectInfo{}, err
	}
	i := slices.IndexFunc(f.projects, func(p supervisor.ProjectInfo) bool { return p.Name == name })
	if i < 0 {
		return supervisor.ProjectInfo{}, notFound("project", name)
	}
	if v, ok := set["idle_window"]; ok {
		f.projects[i].IdleWindow = v
		if d, err := time.ParseDuration(v); err == nil && d < f.IdleFloor {
			f.projects[i].IdleWindow = f.IdleFloor.String()
		}
	}
	if v, ok := set["agent"]; ok {
		f.projects[i].Agent = v
	}
	f.record("SetProjectSettings", "", name)
	return f.projects[i], nil
}

func (f *Station) SessionByToken(token string) (supervisor.SessionInfo, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.tokens[token]
	if !ok {
		return supervisor.SessionInfo{}, false
	}
	return f.session(id)
}

// SessionProof is HMAC-SHA256 of msg keyed with session id's token.
func (f *Station) SessionProof(id string, msg []byte) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for tok, sid := range f.tokens {
		if sid == id {
			m := hmac.New(sha256.New, []byte(tok))
			m.Write(msg)
			return m.Sum(nil), true
		}
	}
	return nil, false
}

func (f *Station) AgentComplete(ctx context.Context, id, summary string) error {
	return f.sessionCall("AgentComplete", id, summary)
}

func (f *Station) AgentBlock(ctx context.Context, id, reason string) error {
	return f.sessionCall("AgentBlock", id, reason)
}

func (f *Station) AgentProgress(ctx context.Context, id, message string) error {
	return f.sessionCall("AgentProgress", id, message)
}

func (f *Station) AgentStatus(ctx context.Context, id, status string) error {
	return f.sessionCall("AgentStatus", id, status)
}

// AgentHook records the hook as "Event type tool message", empty parts left
// out, and refuses a nameless one as the station does.
func (f *Station) AgentHook(ctx context.Context, id string, h supervisor.HookEvent) error {
	if strings.TrimSpace(h.Event) == "" {
		return supervisor.Invalidf("a hook needs its hook_event_name")
	}
	var parts []string
	for _, p := range []string{h.Event, h.NotificationType, h.Tool, h.Message} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return f.sessionCall("AgentHook", id, strings.Join(parts, " "))
}

// AgentReview records "verdict: notes" and checks the verdict and notes as
// the station does.
func (f *Station) AgentReview(ctx context.Context, id, verdict, notes string) error {
	switch {
	case verdict != supervisor.VerdictApprove && verdict != supervisor.VerdictChanges:
		return supervisor.Invalidf("unknown verdict %q; use approve or changes", verdict)
	case verdict == supervisor.VerdictChanges && strings.TrimSpace(notes) == "":
		return supervisor.Invalidf("a review asking for changes needs notes saying what must change")
	}
	return f.sessionCall("AgentReview", id, verdict+": "+notes)
}

func (f *Station) Subscribe(buffer int) *supervisor.Subscription {
	s := f.bus.Subscribe(buffer)
	select {
	case f.subs <- struct{}{}:
	default:
	}
	return s
}

// SetTranscript gives session id (of task taskID) a transcript, as its
// log file would hold it; live says whether it still runs.
func (f *Station) SetTranscript(id, taskID string, data []byte, live bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.transcripts == nil {
		f.transcripts = map[string]supervisor.Transcript{}
	}
	f.transcripts[id] = supervisor.Transcript{SessionID: id, Live: live, Size: int64(len(data)), Data: data}
	f.transcripts[taskID] = f.transcripts[id]
}

// Transcript serves what SetTranscript gave, from byte from on.
func (f *Station) Transcript(id string, from int64) (supervisor.Transcript, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.transcripts[id]
	if !ok {
		return supervisor.Transcript{}, supervisor.NotFoundf("no session or task %s has a transcript; session ids look like t2.3", id)
	}
	if from < 0 {
		from = max(0, t.Size+from)
	}
	from = min(from, t.Size)
	t.From, t.Data = from, t.Data[from:]
	return t, nil
}

// AgentAsk records "kind tool: input [options]" and answers AskDecision.
func (f *Station) AgentAsk(ctx context.Context, id string, req supervisor.AskRequest) (supervisor.Decision, error) {
	arg := req.Kind + " " + req.Tool + ": " + req.Input
	if len(req.Options) > 0 {
		arg += " [" + strings.Join(req.Options, "|") + "]"
	}
	if err := f.sessionCall("AgentAsk", id, arg); err != nil {
		return supervisor.Decision{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.AskDecision, nil
}

// Decide records "behavior note answer request=ID", empty parts left out.
func (f *Station) Decide(ctx context.Context, id string, d supervisor.Decision) error {
	if sid, ok := supervisor.Origin(ctx); ok {
		return supervisor.Conflictf("session %s may not decide", sid)
	}
	var parts []string
	req := ""
	if d.Request != "" {
		req = "request=" + d.Request
	}
	for _, p := range []string{d.Behavior, d.Note, d.Answer, req} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return f.sessionCall("Decide", id, strings.Join(parts, " "))
}

// AddProject adds the project to the fake's list; a name already taken is
// refused as the station refuses it.
func (f *Station) AddProject(ctx context.Context, np supervisor.NewProject) (supervisor.AddedProject, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err, ok := f.fail["AddProject"]; ok {
		delete(f.fail, "AddProject")
		return supervisor.AddedProject{}, err
	}
	if slices.ContainsFunc(f.projects, func(p supervisor.ProjectInfo) bool { return p.Name == np.Name }) {
		return supervisor.AddedProject{}, supervisor.Invalidf("a project named %q already exists; pass --name with another name", np.Name)
	}
	p := supervisor.ProjectInfo{Name: np.Name, Path: np.Path, Agent: np.Agent, Concurrency: 1}
	f.projects = append(f.projects, p)
	f.record("AddProject", "", np.Name)
	return supervisor.AddedProject{Project: p}, nil
}

// RemoveProject drops the project from the fake's list.
func (f *Station) RemoveProject(ctx context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := slices.IndexFunc(f.projects, func(p supervisor.ProjectInfo) bool { return p.Name == name })
	if i < 0 {
		return notFound("project", name)
	}
	f.projects = slices.Delete(f.projects, i, i+1)
	f.record("RemoveProject", "", name)
	return nil
}

// AgentCLIs are none: the fake finds no CLI.
func (f *Station) AgentCLIs(ctx context.Context) []supervisor.AgentCLI { return nil }

// TaskCost is 0: the fake runs no sessions.
func (f *Station) TaskCost(id string) float64 { return 0 }
