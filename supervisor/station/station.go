package station

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Options wires a Station to its edges.
type Options struct {
	Home     string // holds logs/ (transcripts, prompt files)
	Config   *config.Config
	Board    supervisor.Board
	Spawner  supervisor.Spawner
	Notifier supervisor.Notifier
	Probers  []supervisor.Prober
	Log      *slog.Logger
	// URL is the station API's base, handed to sessions as BUILDSTATION_URL.
	URL string
	// Self is the buildstation executable, for agent hooks that call back.
	Self string
	// Spawners are the other session backends by name ("tmux"); Spawner
	// is "pty", the default.
	Spawners map[string]supervisor.Spawner
	// Workspaces gives tasks their worktrees; nil runs every task in its
	// project folder.
	Workspaces supervisor.Workspaces
	// Wall reads the wall clock; tests fake a laptop sleep with it.
	Wall func() time.Time
	// Outbox keeps the writes a shared board could not take, for replay;
	// nil writes straight to the board (and a failed write is lost).
	Outbox supervisor.Outbox
	// EndMarked ends every process carrying marker (a session's
	// environment entry), within grace: what a crash left of a session
	// that cannot be adopted. nil: nothing is ended.
	EndMarked func(marker string, grace time.Duration) error
	// Warnings are problems with the station's surroundings found at
	// start (a configured agent, tmux or git not on PATH; tmux wanted but
	// sessions falling back to pty): logged by the caller, and shown by
	// Status so a person sees them without reading the log.
	Warnings []string
	// Files keeps the station's files: transcripts, prompts, each
	// session's private folder, config.toml (platform/stationfs).
	Files supervisor.Files
	// Environ is the environment sessions inherit (os.Environ), less
	// what points into the home; nil: none.
	Environ func() []string
	// Guard is the fence guard (platform/guard) of a station on a shared
	// board: a process of its own that ends the station's sessions when
	// the station stops proving its leases and cannot end them itself
	// (stopped, or stuck). nil: no guard.
	Guard supervisor.Guard
}

// Station is the supervisor: it claims tasks from the board, runs one
// session per task within each project's slots, and settles each task when
// its session ends.
type Station struct {
	opt   Options
	board supervisor.Board
	files supervisor.Files
	log   *slog.Logger
	bus   supervisor.Bus

	sched *scheduler // starts sessions for queued tasks
	reg   *registry  // live sessions, and those being spawned

	cfgMu    sync.Mutex // serialises edits of config.toml
	mu       sync.Mutex // guards cfg, cfgErr and ctx
	cfg      *config.Config
	cfgErr   string         // why the last edit of config.toml was not applied; "" when it was
	states   *stateWriter   // shared board only: session states to write
	writes   *writes        // what the station owes the board, queued while it is away
	leases   *leases        // shared board only: the heartbeat and the fence
	branches *branches      // carries tasks' work between stations
	wg       sync.WaitGroup // live session goroutines
	ctx      context.Context

	// windows are the shared board's watchdog windows by project, the
	// floor of config.toml's (refreshWindows); nil before the first read.
	windows atomic.Pointer[map[string]supervisor.BoardWindows]
}

// New builds a station; Run starts it.
func New(opt Options) (*Station, error) {
	if opt.Config == nil || opt.Board == nil || opt.Spawner == nil || opt.Files == nil {
		return nil, errors.New("new station: config, board, spawner and files are required")
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.Notifier == nil {
		opt.Notifier = supervisor.LogNotifier{Log: opt.Log}
	}
	if opt.Wall == nil {
		opt.Wall = func() time.Time { return time.Now().Round(0) }
	}
	st := &Station{
		opt: opt, board: opt.Board, files: opt.Files, log: opt.Log, cfg: opt.Config,
		reg: newRegistry(),
	}
	st.sched = newScheduler(st, opt.Log)
	st.writes = &writes{board: opt.Board, box: opt.Outbox, reg: st.reg, log: opt.Log, bus: &st.bus, timeout: st.writeTimeout, delivered: st.delivered}
	st.branches = newBranches(opt.Workspaces, opt.Board, st.reg, opt.Log, st.stationName, st.writeTimeout)
	// The parts only a shared board has: a station on its own board needs
	// no proof that nobody else runs its tasks, and has nobody to show
	// its sessions to.
	if sb, ok := st.shared(); ok {
		st.writes.sb = sb
		st.leases = newLeases(sb, opt.Config.Lease, st.reg, st, opt.Guard, opt.Log)
		st.states = newStateWriter(sb, opt.Log)
	}
	return st, nil
}

// Config returns the configuration in force.
func (st *Station) Config() *config.Config {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.cfg
}

// Run recovers from an earlier crash, then runs the station's parts under
// one supervision tree until ctx is cancelled. On the way out it ends every
// session it started.
func (st *Station) Run(ctx context.Context) error {
	st.mu.Lock()
	st.ctx = ctx
	st.mu.Unlock()
	if err := st.recover(ctx); err != nil {
		return err
	}
	st.poke()
	err := st.tree().Serve(ctx)
	st.wg.Wait()
	// The home's parent of session folders goes too once no session (an
	// adopted tmux one) still has a folder in it.
	st.files.Tidy()
	if ctx.Err() != nil {
		return nil // stopped as asked
	}
	return err
}

// poke asks the scheduler to look for work; it never blocks.
func (st *Station) poke() { st.sched.poke() }

// recover settles what a crash left. A session whose backend outlives the
// station (tmux) and is still there is adopted again, its watchdog resumed
// from its last output. Any other task marked working has lost its session
// (a pty dies with the station): it is blocked with a reason that says so,
// and a requeue resumes it.
func (st *Station) recover(ctx context.Context) error {
	recs, err := st.board.Sessions(ctx, true)
	if err != nil {
		return fmt.Errorf("recover: list sessions: %w", err)
	}
	adopted, keep := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		r.Token = st.writes.rawToken(ctx, r)
		if st.adopt(ctx, r) {
			adopted[r.TaskID], keep[r.ID] = true, true
			continue
		}
		// Before its task is blocked (and perhaps requeued into the same
		// worktree), end what is left of the session.
		st.endLost(r)
		r.State, r.EndedAt = "lost", time.Now().UTC()
		if err := st.board.SaveSession(ctx, r); err != nil {
			return fmt.Errorf("recover: end session %s: %w", r.ID, err)
		}
	}
	st.endUnrecorded(keep)
	// An adopted session still reads its files; the rest were left by a
	// crash.
	st.sweepSessionDirs(keep)
	tasks, err := st.recoverable(ctx)
	if err != nil {
		return fmt.Errorf("recover: list working tasks: %w", err)
	}
	for _, t := range tasks {
		if adopted[t.ID] {
			continue
		}
		nt, err := st.board.Move(ctx, t.ID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: supervisor.TaskBlocked,
			Reason: "station restarted: session lost", Actor: "station"})
		if err != nil {
			if errors.Is(err, supervisor.ErrConflict) {
				continue
			}
			return fmt.Errorf("recover: block task %s: %w", t.ID, err)
		}
		st.log.Warn("task lost its session in a restart", "task", t.ID)
		st.publishTask(nt)
	}
	return nil
}

// adopt reattaches to a session that outlived the station, if its backend
// can and the session and its task are still live.
// endLost ends a session the station lost in a crash and will not adopt:
// a window its backend still holds (tmux: the window, and the tree under
// it), then every process that carries its marker, which finds what left
// the tree (a setsid'd or nohup'd child of a pty agent killed with the
// station). The record's pid is not used: it may name another process now.
func (st *Station) endLost(r supervisor.SessionRecord) {
	if ad, ok := st.opt.Spawners[r.Backend].(supervisor.Adopter); ok && r.Handle != "" {
		if proc, ok, err := ad.Adopt(r.Handle); err == nil && ok {
			if err := proc.Stop(stopGrace); err != nil {
				st.log.Warn("end a lost session's window", "session", r.ID, "err", err)
			}
			_ = proc.Close()
		}
	}
	if st.opt.EndMarked == nil || r.Token == "" {
		return
	}
	if err := st.opt.EndMarked(sessionMarker(r.Token), stopGrace); err != nil {
		st.log.Warn("end a lost session's processes", "session", r.ID, "err", err)
	} else {
		st.log.Info("ended what was left of a lost session", "session", r.ID, "task", r.TaskID)
	}
}

// windowLister is an Adopter that can list the windows it holds (tmux).
type windowLister interface {
	Windows() (handles []string, err error)
}

// sessionName is what a session id looks like (t12.3, t12.3.review): a
// window named otherwise is not a session's (a person's own window on
// the station's tmux server).
var sessionName = regexp.MustCompile(`^t[0-9]+\.[0-9]+(\.review)?$`)

// endUnrecorded ends the session windows no session record names, but
// those of sessions in keep (adopted): a station that died between
// starting an agent's window and recording its session left the agent
// running with nothing to find it by but its window.
func (st *Station) endUnrecorded(keep map[string]bool) {
	for name, sp := range st.opt.Spawners {
		ad, ok := sp.(supervisor.Adopter)
		wl, lists := sp.(windowLister)
		if !ok || !lists {
			continue
		}
		handles, err := wl.Windows()
		if err != nil {
			st.log.Warn("list the backend's windows", "backend", name, "err", err)
			continue
		}
		for _, h := range handles {
			_, id, _ := strings.Cut(h, "/")
			if keep[id] || !sessionName.MatchString(id) {
				continue
			}
			proc, ok, err := ad.Adopt(h)
			if err != nil || !ok {
				continue // gone, or dead (and removed by Adopt)
			}
			st.log.Warn("ending a session window no session record names (its station died before recording it)", "session", id, "handle", h)
			if err := proc.Stop(stopGrace); err != nil {
				st.log.Warn("end an unrecorded session's window", "session", id, "err", err)
			}
			_ = proc.Close()
		}
	}
}

// sessionMarker is the environment entry every process of a session
// inherits: its token, unique on the machine.
func sessionMarker(token string) string { return "BUILDSTATION_TOKEN=" + token }

func (st *Station) adopt(ctx context.Context, r supervisor.SessionRecord) bool {
	sp, ok := st.opt.Spawners[r.Backend]
	ad, isAdopter := sp.(supervisor.Adopter)
	if !ok || !isAdopter || r.Handle == "" || r.Token == "" {
		return false
	}
	task, err := st.board.Task(ctx, r.TaskID)
	want := r.Kind.TaskState()
	_, lost := st.shared()
	if sb, ok := st.shared(); ok {
		lost = !slices.Contains(sb.Held(), r.TaskID)
	}
	p, known := st.Config().Project(task.Project)
	if err == nil && (task.State != want || lost || !known) {
		// The task moved on, or was reaped and maybe let to another
		// station: its window must not go on working beside the new
		// owner's. (An error reading the task leaves the window be.)
		st.endOrphan(ad, r)
		return false
	}
	if err != nil {
		return false
	}
	proc, ok, err := ad.Adopt(r.Handle)
	if err != nil || !ok {
		st.log.Warn("cannot adopt session", "session", r.ID, "handle", r.Handle, "err", err)
		return false
	}
	ws, err := st.workspace(ctx, p, task.ID)
	if err != nil {
		ws = supervisor.Workspace{Dir: p.Path}
	}
	lastOutput, tail := r.StartedAt, []byte(nil)
	if f, err := st.files.OpenTranscript(r.ID); err == nil {
		if fi, err := f.Stat(); err == nil {
			lastOutput = fi.ModTime() // the transcript's last write is the last output
			tail = readTail(f, fi.Size(), ringSize)
		}
		_ = f.Close()
	}
	transcript, err := st.files.AppendTranscript(r.ID)
	if err != nil {
		st.log.Warn("cannot reopen transcript", "session", r.ID, "err", err)
		_ = proc.Close()
		return false
	}
	s := st.newSession(p, task, r.Kind, r.ID, ws, r.Token, proc, transcript)
	s.backend, s.resumeFrom = r.Backend, lastOutput
	s.con.restore(tail, lastOutput)
	st.register(ctx, s, r.StartedAt)
	st.log.Info("adopted a session that outlived the station", "session", r.ID, "task", r.TaskID, "silent_since", lastOutput)
	return true
}

// endOrphan ends the window of a session record nobody may adopt.
func (st *Station) endOrphan(ad supervisor.Adopter, r supervisor.SessionRecord) {
	proc, ok, err := ad.Adopt(r.Handle)
	if err != nil || !ok {
		return
	}
	st.log.Warn("ending a session whose task is no longer this station's", "session", r.ID, "task", r.TaskID, "handle", r.Handle)
	if err := proc.Stop(stopGrace); err != nil {
		st.log.Warn("end orphaned session", "session", r.ID, "err", err)
	}
	_ = proc.Close()
}

// readTail returns up to n bytes from the end of f, size bytes long.
func readTail(f io.ReaderAt, size, n int64) []byte {
	off := max(size-n, 0)
	buf := make([]byte, size-off)
	k, _ := f.ReadAt(buf, off)
	return buf[:k]
}

// free says whether project p may start one more session now.
func (st *Station) free(ctx context.Context, p config.Project, max int) bool {
	return ctx.Err() == nil && st.reg.free(p.Name, p.Concurrency, max)
}

// paused lists the board's paused projects with their reasons.
func (st *Station) paused(ctx context.Context) (map[string]string, error) {
	return st.board.Paused(ctx)
}

// start spawns a session for a claimed task. A command that cannot start
// blocks the task with a reason; the station goes on.
func (st *Station) start(ctx context.Context, p config.Project, task supervisor.Task, kind supervisor.SessionKind) {
	id := sessionID(task, kind)
	defer st.reg.starts(task.ID)()
	task, ws, ok := st.prepare(ctx, p, task, id)
	if !ok {
		return
	}
	token, err := newToken()
	if err != nil {
		st.log.Error("start session", "task", task.ID, "err", err)
		return
	}
	// A fast agent may report before spawn returns; its token must not be
	// refused meanwhile, so it is pending until the session is registered.
	defer st.reg.expect(token, id)()
	s, err := st.spawn(p, task, kind, id, ws, token)
	if err != nil {
		st.blockUnstarted(ctx, task, id, err)
		return
	}
	st.register(ctx, s, time.Now())
}

// prepare readies a claimed task's working copy: its branches fetched
// from the shared remote, its worktree, its pin. When that fails it blocks
// the task with the reason and ok is false. The task it returns carries
// the fetch's note.
func (st *Station) prepare(ctx context.Context, p config.Project, task supervisor.Task, id string) (_ supervisor.Task, _ supervisor.Workspace, ok bool) {
	// Before the worktree is prepared: a task that ran on another
	// station goes on from the work that station pushed.
	fetched, blocked := st.branches.sync(ctx, p, task)
	if blocked != "" {
		st.log.Error("fetch the task's branches", "task", task.ID, "reason", blocked)
		st.settleBlockCounting(ctx, task.ID, []supervisor.TaskState{supervisor.TaskWorking, supervisor.TaskReview}, blocked, "", "station", id, false)
		return task, supervisor.Workspace{}, false
	}
	ws, err := st.workspace(ctx, p, task.ID)
	if err != nil {
		st.log.Error("prepare worktree", "task", task.ID, "err", err)
		st.settleBlock(ctx, task.ID, []supervisor.TaskState{supervisor.TaskWorking, supervisor.TaskReview},
			fmt.Sprintf("cannot prepare the task's worktree: %v; fix the repository, then requeue", err), "station", id)
		return task, supervisor.Workspace{}, false
	}
	if _, shared := st.shared(); shared && ws.Git && task.Pinned != st.stationName() {
		// Its work is in this worktree only, until a push carries it.
		st.branches.pin(ctx, task.ID)
	}
	if fetched != "" {
		task.Notes = append(slices.Clone(task.Notes), fetched)
	}
	return task, ws, true
}

// blockUnstarted blocks a task whose session could not be spawned, saying
// whether the project's agent command or the station's own disk is at fault.
func (st *Station) blockUnstarted(ctx context.Context, task supervisor.Task, id string, err error) {
	reason := fmt.Sprintf("agent command cannot start: %v; fix the project's agent command in config.toml, then requeue", err)
	counts := true
	var fe *filesError
	if errors.As(err, &fe) {
		// The station's own failure, not the project's: it says so, and
		// it does not count toward the project's breaker.
		reason = fmt.Sprintf("cannot write the session's files in %s: %v; free disk space or fix its permissions, then requeue", fe.dir, fe.err)
		counts = false
	}
	st.log.Error("start session", "task", task.ID, "err", err)
	st.settleBlockCounting(ctx, task.ID, []supervisor.TaskState{supervisor.TaskWorking, supervisor.TaskReview}, reason, "", "station", id, counts)
}

func sessionID(task supervisor.Task, kind supervisor.SessionKind) string {
	id := fmt.Sprintf("%s.%d", task.ID, task.Attempt)
	if kind == supervisor.KindReview {
		id += ".review"
	}
	return id
}

// workspace prepares the task's worktree, or the project folder.
func (st *Station) workspace(ctx context.Context, p config.Project, taskID string) (supervisor.Workspace, error) {
	if st.opt.Workspaces == nil {
		return supervisor.Workspace{Dir: p.Path}, nil
	}
	return st.opt.Workspaces.Prepare(ctx, p, taskID)
}

// register makes a session live: counted in its project's slots, recorded
// on the board (with what a restart needs to find it again) and running.
func (st *Station) register(ctx context.Context, s *session, started time.Time) {
	st.reg.add(s)
	st.wg.Add(1)
	// The project's settings may have changed between the claim and now
	// (`project set` sends them only to sessions already live): the session
	// starts with those in force. Its command queue is free yet.
	if p, ok := st.Config().Project(s.spec.Project); ok {
		s.cmds <- command{kind: cmdSettings, settings: st.effective(p)}
	}
	rec := supervisor.SessionRecord{ID: s.spec.ID, TaskID: s.spec.TaskID, Kind: s.spec.Kind, PID: s.proc.Pid(),
		State: supervisor.SessStarting.String(), StartedAt: started.UTC(), Backend: s.backend, Token: s.spec.Token}
	if h, ok := s.proc.(supervisor.Handled); ok {
		rec.Handle = h.Handle()
	}
	st.writes.keepToken(ctx, s.spec.ID, s.spec.Token)
	if err := st.writes.saveSession(ctx, rec); err != nil {
		st.log.Error("record session", "session", s.spec.ID, "err", err)
	}
	st.guardWatch(s)
	st.log.Info("session started", "session", s.spec.ID, "task", s.spec.TaskID, "pid", s.proc.Pid(), "dir", s.spec.Dir, "backend", s.backend)
	go func() {
		defer st.wg.Done()
		o := s.run(ctx)
		st.settle(s, o)
	}()
}

// spawnerFor picks a project's backend: "pty" by default, "tmux" where
// configured and available.
func (st *Station) spawnerFor(backend string) (supervisor.Spawner, string, error) {
	if backend == "" || backend == "pty" {
		return st.opt.Spawner, "pty", nil
	}
	sp, ok := st.opt.Spawners[backend]
	if !ok {
		return nil, "", fmt.Errorf("backend %q is not available on this machine; set backend = \"pty\" in config.toml", backend)
	}
	return sp, backend, nil
}

// spawn prepares a session's files and environment and starts its process.
func (st *Station) spawn(p config.Project, task supervisor.Task, kind supervisor.SessionKind, id string, ws supervisor.Workspace, token string) (*session, error) {
	cfg := st.Config()
	ag, err := cfg.AgentFor(p)
	if err != nil {
		return nil, err
	}
	sp, backend, err := st.spawnerFor(p.Settings.Backend)
	if err != nil {
		return nil, err
	}
	prompt := agent.Prompt(task, kind, ag, ws)
	promptFile, err := st.writePrompt(id, prompt)
	if err != nil {
		return nil, err
	}
	transcript, err := st.files.AppendTranscript(id)
	if err != nil {
		st.dropSessionDir(id)
		return nil, sessionFilesError(err)
	}
	env := st.sessionEnv(task, id, token, promptFile)
	l, err := agent.Build(agent.LaunchSpec{Agent: ag, PermissionMode: p.Settings.PermissionMode, SessionID: id,
		URL: st.opt.URL, Self: st.opt.Self, Prompt: prompt, PromptFile: promptFile,
		WriteFile: func(name string, data []byte) (string, error) { return st.files.WriteSessionFile(id, name, data) }})
	if err != nil {
		transcript.Close()
		st.dropSessionDir(id)
		return nil, err
	}
	env = append(env, l.Env...)
	for k, v := range ag.Env {
		env = append(env, k+"="+v)
	}
	st.guardSpawning(id, token)
	proc, err := sp.Spawn(supervisor.SpawnSpec{Argv: l.Argv, Dir: ws.Dir, Env: env, Marker: sessionMarker(token)})
	if err != nil {
		st.guardForget(id)
		transcript.Close()
		st.dropSessionDir(id)
		return nil, err
	}
	s := st.newSession(p, task, kind, id, ws, token, proc, transcript)
	s.backend = backend
	if l.Type != "" {
		s.spec.Prompt, s.spec.PromptAfterMCP = agent.Typeable(l.Type), l.TypeAfterMCP
		if l.TypePasted {
			// Typeable left no ESC in the text, so it cannot end the paste.
			s.spec.Prompt = "\x1b[200~" + s.spec.Prompt + "\x1b[201~"
		}
	}
	return s, nil
}

// writePrompt writes a session's prompt twice: the home keeps the record
// copy; the agent is given its own, outside the home, in the session's
// private folder, which is dropped again if its prompt cannot be written.
func (st *Station) writePrompt(id, prompt string) (promptFile string, err error) {
	if err := st.files.WritePromptRecord(id, prompt); err != nil {
		return "", sessionFilesError(err)
	}
	if _, err := st.files.MakeSessionDir(id); err != nil {
		return "", sessionFilesError(err)
	}
	promptFile, err = st.files.WriteSessionFile(id, "prompt.md", []byte(prompt))
	if err != nil {
		st.dropSessionDir(id)
		return "", sessionFilesError(err)
	}
	return promptFile, nil
}

// sessionEnv is the environment every agent gets, whatever the agent: the
// station's address and the session's token, ids and prompt file, so its
// hooks and MCP calls can reach the station as this session.
func (st *Station) sessionEnv(task supervisor.Task, id, token, promptFile string) []string {
	var environ []string
	if st.opt.Environ != nil {
		environ = st.opt.Environ()
	}
	env := append(agentEnv(environ, st.opt.Home),
		"BUILDSTATION_URL="+st.opt.URL,
		"BUILDSTATION_TOKEN="+token,
		"BUILDSTATION_TASK_ID="+task.ID,
		"BUILDSTATION_SESSION_ID="+id,
		"BUILDSTATION_PROMPT_FILE="+promptFile,
	)
	if sb, ok := st.shared(); ok {
		// The lease's fencing token: what a session's writes are judged
		// by, and what a test's agents log to show who ran when.
		env = append(env, fmt.Sprintf("BUILDSTATION_LEASE_EPOCH=%d", sb.Epoch(task.ID)))
	}
	return append(env, selfEnv(st.opt.Self, environ)...)
}

// newSession builds the session object around a running process.
func (st *Station) newSession(p config.Project, task supervisor.Task, kind supervisor.SessionKind, id string, ws supervisor.Workspace, token string, proc supervisor.Proc, transcript io.WriteCloser) *session {
	set := st.effective(p)
	spec := sessionSpec{ID: id, TaskID: task.ID, Attempt: task.Attempt, Project: p.Name, Kind: kind, Token: token, Title: task.Title, Dir: ws.Dir,
		IdleWindow: kind.Window(set), BlockWindow: set.BlockWindow, Nudge: set.Nudge, CPUAlive: set.CPUAlive,
		Branch: ws.Branch, Base: ws.Base, Summary: task.Summary}
	if a, err := st.Config().AgentFor(p); err == nil {
		spec.Profile = a.Profile
	}
	log := st.log.With("session", id)
	tw := newTranscriptWriter(transcript, log)
	con := newConsole(tw, log)
	s := newSession(st, st.log, spec, proc, con, kind.Base())
	s.closeTranscript = tw.Close
	return s
}

// settle records how a session ended, frees its slot and looks for work.
func (st *Station) settle(s *session, o outcome) {
	ctx := context.WithoutCancel(st.ctx)
	from := []supervisor.TaskState{s.spec.Kind.TaskState()}
	if st.guardUnwatch(s) && o.kind == outExited {
		// The guard ended it while this station could not prove the
		// lease: settled as this station's own fence would.
		st.log.Warn("the fence guard ended this session while the station could not prove its lease", "session", s.spec.ID, "task", s.spec.TaskID)
		o.kind = outFenced
	}
	switch o.kind {
	case outExited:
		reason := fmt.Sprintf("agent exited with code %d before completing the task", o.code)
		if o.exitErr != "" {
			reason = o.exitErr + ", before completing the task"
		}
		if o.lastLine != "" {
			reason += fmt.Sprintf("; its last line: %q", o.lastLine)
		}
		st.settleBlock(ctx, s.spec.TaskID, from, reason, "station", s.spec.ID)
	case outStopped:
		st.settleBlock(ctx, s.spec.TaskID, from, "station stopped while the session ran; requeue the task to resume it", "station", s.spec.ID)
	case outDetached:
		// Still running: its record stays live for the next station.
		st.release(s)
		st.log.Info("session left running for the next station", "session", s.spec.ID)
		return
	case outFenced:
		st.settleFenced(ctx, s)
	}
	st.release(s)
	st.releaseLease(ctx, s)
	st.dropSessionDir(s.spec.ID)
	if p, ok := st.Config().Project(s.spec.Project); ok && s.spec.Branch != "" {
		st.branches.push(p, s.spec.TaskID, "session end", true)
	}
	info := s.Info()
	info.State = supervisor.SessEnded
	st.bus.Publish(supervisor.Event{Kind: supervisor.EventSession, Session: &info})
	if st.leases != nil {
		st.leases.ended(s.spec.ID)
	}
	if err := st.writes.saveSession(ctx, supervisor.SessionRecord{ID: s.spec.ID, TaskID: s.spec.TaskID, Kind: s.spec.Kind,
		PID: s.proc.Pid(), State: supervisor.SessEnded.String(), StartedAt: s.startedAt.UTC(), EndedAt: time.Now().UTC()}); err != nil {
		st.log.Error("record session end", "session", s.spec.ID, "err", err)
	}
	st.log.Info("session ended", "session", s.spec.ID, "how", o.kind, "code", o.code)
	st.finish(ctx, s.spec.TaskID)
	st.poke()
}

// finish removes a done or cancelled task's worktree; its branch stays.
// Nothing is removed while a session still runs there.
func (st *Station) finish(ctx context.Context, taskID string) {
	if st.opt.Workspaces == nil || st.sessionForTask(taskID) != nil {
		return
	}
	t, err := st.board.Task(ctx, taskID)
	if err != nil || !t.State.Final() {
		return
	}
	p, ok := st.Config().Project(t.Project)
	if !ok {
		return
	}
	if err := st.opt.Workspaces.Remove(ctx, p, taskID); err != nil {
		st.log.Warn("remove worktree", "task", taskID, "err", err)
	}
	// Removing it may have saved uncommitted files on a branch.
	st.branches.push(p, taskID, "worktree removed", true)
}

// release frees a session's slot and forgets it.
func (st *Station) release(s *session) {
	if s.closeTranscript != nil {
		_ = s.closeTranscript()
		s.closeTranscript = nil
	}
	for _, p := range st.opt.Probers {
		p.Forget(s.spec.ID)
	}
	st.reg.remove(s)
}

// settleBlock blocks a task unless something else already settled it (a
// completion racing an exit is not an error), and tells the person.
func (st *Station) settleBlock(ctx context.Context, taskID string, from []supervisor.TaskState, reason, actor, sessionID string) bool {
	return st.settleBlockCounting(ctx, taskID, from, reason, "", actor, sessionID, true)
}

// settleBlockCounting is settleBlock; breaker is false for a block that
// says nothing about the project (the station could not do its own part).
// body is the notice's text in plain words; "" shows the reason, which the
// card keeps in full either way.
func (st *Station) settleBlockCounting(ctx context.Context, taskID string, from []supervisor.TaskState, reason, body, actor, sessionID string, breaker bool) bool {
	return st.blockMove(ctx, taskID, supervisor.Move{From: from, To: supervisor.TaskBlocked, Reason: reason, Actor: actor}, body, sessionID, breaker)
}

// settleBlockKeeping is settleBlock from a session that is still being
// ended: a shared board's lease stays until settle releases it.
func (st *Station) settleBlockKeeping(ctx context.Context, taskID string, from []supervisor.TaskState, reason, body, actor, sessionID string) bool {
	return st.blockMove(ctx, taskID, supervisor.Move{From: from, To: supervisor.TaskBlocked, Reason: reason, Actor: actor, KeepLease: true}, body, sessionID, true)
}

func (st *Station) blockMove(ctx context.Context, taskID string, m supervisor.Move, body, sessionID string, breaker bool) bool {
	reason, actor := m.Reason, m.Actor
	t, queued, err := st.writes.move(ctx, taskID, m)
	if err != nil {
		if !errors.Is(err, supervisor.ErrConflict) {
			st.log.Error("block task", "task", taskID, "err", err)
		}
		return false
	}
	if queued {
		// Told when the board takes it (replay notifies a block).
		st.log.Warn("task block queued for the board", "task", taskID, "reason", reason)
		return true
	}
	st.publishTask(t)
	st.log.Warn("task blocked", "task", taskID, "reason", reason)
	if body == "" {
		body = reason
	}
	st.notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: taskID, SessionID: sessionID, Title: "Blocked: " + t.Title, Body: body})
	if breaker {
		st.breakerTrip(ctx, t, actor)
	}
	return true
}

// blockFromSession is the session goroutine's way to block its own task;
// body is the notice's plain text ("" shows the reason).
func (st *Station) blockFromSession(spec sessionSpec, reason, body, actor string) {
	from := []supervisor.TaskState{spec.Kind.TaskState()}
	st.settleBlockKeeping(context.WithoutCancel(st.ctx), spec.TaskID, from, reason, body, actor, spec.ID)
}

// wall reads the wall clock without its monotonic reading.
func (st *Station) wall() time.Time { return st.opt.Wall().Round(0) }

func (st *Station) notify(n supervisor.Notice) {
	st.bus.Publish(supervisor.Event{Kind: supervisor.EventNotice, Notice: &n})
	st.opt.Notifier.Notify(context.Background(), n)
}

func (st *Station) publishTask(t supervisor.Task) {
	st.bus.Publish(supervisor.Event{Kind: supervisor.EventTask, Task: &t})
}

// probe asks every pull layer whether the session showed life after since.
func (st *Station) probe(ctx context.Context, t supervisor.ProbeTarget, since time.Time) []supervisor.Life {
	var lives []supervisor.Life
	for _, p := range st.opt.Probers {
		l, ok, err := p.Probe(ctx, t, since)
		if err != nil {
			st.log.Warn("probe evidence", "layer", p.Layer(), "session", t.SessionID, "err", err)
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
func (st *Station) observe(t supervisor.ProbeTarget) {
	for _, p := range st.opt.Probers {
		if o, ok := p.(supervisor.Observer); ok {
			if err := o.Observe(t); err != nil {
				st.log.Debug("observe", "layer", p.Layer(), "session", t.SessionID, "err", err)
			}
		}
	}
}

// layers names every layer besides the console, for block reasons.
func (st *Station) layers() []string {
	names := []string{"board"}
	for _, p := range st.opt.Probers {
		names = append(names, p.Layer())
	}
	return names
}

func newToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make session token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// liveSessions returns the live sessions, oldest first.
func (st *Station) liveSessions() []*session { return st.reg.live() }

func (st *Station) sessionForTask(taskID string) *session { return st.reg.forTask(taskID) }
