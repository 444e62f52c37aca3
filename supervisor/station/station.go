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
	"sync"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/internal/goroutines"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
	"github.com/buildstation/buildstation/supervisor/apitype"
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
	// Agents finds the agent CLIs on this machine (platform/agentcli):
	// adding a project checks its agent is there and says what one-time
	// step it still needs. nil: no check.
	Agents supervisor.AgentFinder
	// Setup suggests a new project's setup and .worktreeinclude, and
	// writes the latter (platform/gitwt.Advisor); nil: none is offered.
	Setup supervisor.SetupAdvisor
	// Sources reports the state of the config's [[sources]] (the issue
	// trackers tasks are imported from), for Status; nil: none.
	Sources func() []supervisor.SourceState
	// OpenPullRequest pushes done task t's branch to project p's remote
	// and opens its pull request on src, a GitHub source of p, or finds
	// the one its branch has already (internal/wiring/daemon); it returns
	// the pull request's URL, and its errors are sentences a person can
	// act on. nil: `task pr` says the station cannot open one.
	OpenPullRequest func(ctx context.Context, src config.Source, p config.Project, t supervisor.Task) (url string, err error)
}

// Station is the supervisor: it claims tasks from the board, runs one
// session per task within each project's slots, and settles each task when
// its session ends.
type Station struct {
	// The station's areas (areas.go), made by New.
	Tasks    *Tasks
	Projects *Projects
	Sessions *Sessions
	Asks     *Asks
	Agent    *AgentVerbs
	Control  *Control
	Phone    *Phone
	Shared   *Shared
	host     *host
	costs    *costs
	gates    *gates
	dispatch *dispatch

	opt   Options
	board supervisor.Board
	files supervisor.Files
	// setupMu guards setupTook: each project's last setup time (setup.go).
	setupMu   sync.Mutex
	setupTook map[string]time.Duration
	log       *slog.Logger
	bus       supervisor.Bus

	sched *scheduler // starts sessions for queued tasks
	// budget counts what sessions cost, per project today and per task.
	budget budgets
	reg    *registry // live sessions, and those being spawned

	cfgMu    sync.Mutex // serialises edits of config.toml
	mu       sync.Mutex // guards cfg and cfgErr
	cfg      *config.Config
	cfgErr   string         // why the last edit of config.toml was not applied; "" when it was
	states   *stateWriter   // shared board only: session states to write
	writes   *writes        // what the station owes the board, queued while it is away
	leases   *leases        // shared board only: the heartbeat and the fence
	branches *branches      // carries tasks' work between stations
	guard    guarded        // what the fence guard is told
	wg       sync.WaitGroup // live session goroutines

	// life is the context of the station's own work, which no caller
	// waits for: a session's settling, a decision's record, pushes, gate
	// checks, ending a session after its agent's own call. It is the one
	// root of the station's contexts (made by New), and Run ends it only
	// after all that work has returned: until then a write the station
	// owes its board is not cut short by the stop. running ends with
	// Run's context: the open-ended work (a gate check may take 30
	// minutes) ends with it. work owns the goroutines of that background
	// work: Run waits for them (owner.go).
	life, running       context.Context
	endLife, endRunning context.CancelFunc
	work                goroutines.Group
	// pushes is the life of pushes of tasks' branches: it ends
	// stopPushGrace after a stop's sessions have settled (owner.go).
	pushes    context.Context
	endPushes context.CancelFunc

	// windows are the shared board's watchdog windows by project, the
	// floor of config.toml's (refreshWindows); nil before the first read.
	windows atomic.Pointer[map[string]supervisor.BoardWindows]
	// phone is how the phone's service stands (ReportPhone); nil: not
	// reported.
	phone atomic.Pointer[supervisor.PhoneLink]

	// stopAsked is closed by the first RequestStop: a stop asked through
	// the API, for service managers that cannot signal (Windows' logon
	// task), drains like a first Ctrl-C.
	stopAsked chan struct{}
	stopOnce  sync.Once
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
		reg: newRegistry(), guard: guarded{g: opt.Guard, files: opt.Files},
		stopAsked: make(chan struct{}),
	}
	st.Tasks, st.Projects, st.Sessions, st.Asks = &Tasks{st}, &Projects{st}, &Sessions{st}, &Asks{st}
	st.Agent, st.Control, st.Phone, st.Shared = &AgentVerbs{st}, &Control{st}, &Phone{st}, &Shared{st}
	st.host, st.costs, st.gates, st.dispatch = &host{st}, &costs{st}, &gates{st}, &dispatch{st}
	st.life, st.endLife = context.WithCancel(context.Background())
	st.running, st.endRunning = context.WithCancel(st.life)
	st.pushes, st.endPushes = context.WithCancel(st.life)
	st.sched = newScheduler(st.dispatch, opt.Log)
	st.writes = &writes{board: opt.Board, box: opt.Outbox, reg: st.reg, log: opt.Log, bus: &st.bus, timeout: st.host.writeTimeout, delivered: st.host.delivered, life: st.life}
	st.branches = newBranches(opt.Workspaces, opt.Board, st.reg, opt.Log, st.host.stationName, st.host.writeTimeout, st.pushes, &st.work)
	// The parts only a shared board has: a station on its own board needs
	// no proof that nobody else runs its tasks, and has nobody to show
	// its sessions to.
	if sb, ok := st.Shared.shared(); ok {
		st.writes.sb = sb
		st.leases = newLeases(sb, opt.Config.Lease, st.reg, st.Shared, opt.Guard, opt.Log)
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
// session it started, and returns only once every goroutine it owns has
// (stopWork).
func (st *Station) Run(ctx context.Context) error {
	defer context.AfterFunc(ctx, st.endRunning)()
	defer st.stopWork()
	if err := st.recover(ctx); err != nil {
		return err
	}
	st.poke()
	err := st.tree().Serve(ctx)
	st.wg.Wait()
	st.stopWork()
	// The home's parent of session folders goes too once no session (an
	// adopted tmux one) still has a folder in it.
	st.files.Tidy()
	if ctx.Err() != nil {
		return nil // stopped as asked
	}
	if st.leases != nil && st.leases.goneErr() != nil {
		return st.leases.goneErr() // not the tree's wrapping: the reason alone
	}
	return err
}

// poke asks the scheduler to look for work; it never blocks.
func (st *Station) poke() { st.sched.poke() }

// sessionName is what a session id looks like (t12.3, t12.3.review): a
// window named otherwise is not a session's (a person's own window on
// the station's tmux server).
var sessionName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^t[0-9]+\.[0-9]+(\.review)?$`) })

// free says whether project p may start one more session now.
func (dp *dispatch) free(ctx context.Context, p config.Project, max int) bool {
	return ctx.Err() == nil && dp.st.reg.free(p.Name, p.Concurrency, max)
}

// paused lists the board's paused projects with their reasons.
func (dp *dispatch) paused(ctx context.Context) (map[string]string, error) {
	return dp.st.board.Paused(ctx)
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
	// Recorded before it runs: a station killed between the spawn and
	// register's record would leave an agent no restart could find (a pty
	// agent's orphans are found by the token in their environment), and a
	// requeue would start a second one in the same worktree.
	started := time.Now()
	pending := supervisor.SessionRecord{ID: id, TaskID: task.ID, Kind: kind, State: supervisor.SessStarting.String(),
		StartedAt: started.UTC(), Backend: p.Settings.Backend, Token: token}
	st.writes.keepToken(ctx, id, token)
	if err := st.writes.saveSession(ctx, pending); err != nil {
		st.log.Error("record session", "session", id, "err", err)
	}
	s, err := st.spawn(p, task, kind, id, ws, token)
	if err != nil {
		pending.State, pending.EndedAt = supervisor.SessEnded.String(), time.Now().UTC()
		if err := st.writes.saveSession(ctx, pending); err != nil {
			st.log.Error("record session", "session", id, "err", err)
		}
		st.writes.forgetToken(ctx, id)
		st.blockUnstarted(ctx, task, id, err)
		return
	}
	st.register(ctx, s, started)
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
	var setupErr *supervisor.SetupError
	if errors.As(err, &setupErr) {
		// The project's setup, not the agent: its output goes to the
		// session's transcript, and the block does not count toward
		// the project's breaker.
		st.Projects.noteSetup(p.Name, setupErr.Run)
		st.Projects.writeSetupLog(id, setupErr.Run)
		st.log.Warn("setup failed", "task", task.ID, "project", p.Name, "timed_out", setupErr.Run.TimedOut)
		st.settleBlockCounting(ctx, task.ID, []supervisor.TaskState{supervisor.TaskWorking, supervisor.TaskReview},
			err.Error()+"\nfix the project's setup in config.toml (or what it needs), then requeue", "", "station", id, false)
		return task, supervisor.Workspace{}, false
	}
	if err != nil {
		st.log.Error("prepare worktree", "task", task.ID, "err", err)
		st.settleBlock(ctx, task.ID, []supervisor.TaskState{supervisor.TaskWorking, supervisor.TaskReview},
			fmt.Sprintf("cannot prepare the task's worktree: %v; fix the repository, then requeue", err), "station", id)
		return task, supervisor.Workspace{}, false
	}
	if _, shared := st.Shared.shared(); shared && ws.Git && task.Pinned != st.host.stationName() {
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
	return st.opt.Workspaces.Prepare(ctx, p.Repo, taskID)
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
		s.cmds <- command{kind: cmdSettings, settings: st.Projects.effective(p)}
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
	st.guard.watch(s)
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
		st.Sessions.dropSessionDir(id)
		return nil, sessionFilesError(err)
	}
	if ws.Setup != nil {
		// Above the agent's own output, under a header.
		st.Projects.noteSetup(p.Name, *ws.Setup)
		if _, err := io.WriteString(transcript, ws.Setup.Log()+"\n"); err != nil {
			st.log.Warn("write the setup's output to the transcript", "session", id, "err", err)
		}
	}
	env := st.sessionEnv(task, id, token, promptFile)
	l, err := agent.Build(agent.LaunchSpec{Agent: ag, PermissionMode: p.Settings.PermissionMode, SessionID: id,
		URL: st.opt.URL, Self: st.opt.Self, Prompt: prompt, PromptFile: promptFile,
		WriteFile: func(name string, data []byte) (string, error) { return st.files.WriteSessionFile(id, name, data) }})
	if err != nil {
		transcript.Close()
		st.Sessions.dropSessionDir(id)
		return nil, err
	}
	env = append(env, l.Env...)
	for k, v := range ag.Env {
		env = append(env, k+"="+v)
	}
	st.guard.spawning(id, token)
	proc, err := sp.Spawn(supervisor.SpawnSpec{Argv: l.Argv, Dir: ws.Dir, Env: env, Marker: sessionMarker(token)})
	if err != nil {
		st.guard.forget(id)
		transcript.Close()
		st.Sessions.dropSessionDir(id)
		return nil, err
	}
	s := st.newSession(p, task, kind, id, ws, token, proc, transcript)
	s.backend = backend
	if d, ok := sp.(supervisor.PasteDropper); ok && d.DropsPastes() && l.TypePasted && l.TypeLine != "" {
		// A paste would arrive as keystrokes, each line break a message
		// of its own: point the agent at its prompt file in one line.
		l.Type, l.TypePasted = l.TypeLine, false
	}
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
	if err == nil {
		err = st.writeSessionURL(id)
	}
	if err != nil {
		st.Sessions.dropSessionDir(id)
		return "", sessionFilesError(err)
	}
	return promptFile, nil
}

// writeSessionURL tells session id where this station listens: its
// BUILDSTATION_URL names the station that started it, which a session that
// outlives it (tmux) may no longer find there (apitype.SessionURLFile).
func (st *Station) writeSessionURL(id string) error {
	_, err := st.files.WriteSessionFile(id, apitype.SessionURLFile, []byte(st.opt.URL+"\n"))
	return err
}

// sessionEnv is the environment every agent gets, whatever the agent: the
// station's address and the session's token, ids and prompt file, so its
// hooks and MCP calls can reach the station as this session.
func (st *Station) sessionEnv(task supervisor.Task, id, token, promptFile string) []string {
	var environ []string
	if st.opt.Environ != nil {
		environ = st.opt.Environ()
	}
	env := append(agentEnv(environ, st.opt.Home, st.Config().SecretEnv()),
		"BUILDSTATION_URL="+st.opt.URL,
		"BUILDSTATION_TOKEN="+token,
		"BUILDSTATION_TASK_ID="+task.ID,
		"BUILDSTATION_SESSION_ID="+id,
		"BUILDSTATION_PROMPT_FILE="+promptFile,
	)
	if sb, ok := st.Shared.shared(); ok {
		// The lease's fencing token: what a session's writes are judged
		// by, and what a test's agents log to show who ran when.
		env = append(env, fmt.Sprintf("BUILDSTATION_LEASE_EPOCH=%d", sb.Epoch(task.ID)))
	}
	return append(env, selfEnv(st.opt.Self, environ)...)
}

// newSession builds the session object around a running process.
func (st *Station) newSession(p config.Project, task supervisor.Task, kind supervisor.SessionKind, id string, ws supervisor.Workspace, token string, proc supervisor.Proc, transcript io.WriteCloser) *session {
	set := st.Projects.effective(p)
	spec := sessionSpec{ID: id, TaskID: task.ID, Attempt: task.Attempt, Project: p.Name, Kind: kind, Token: token, Title: task.Title, Dir: ws.Dir,
		IdleWindow: kind.Window(set.IdleWindow, set.ReviewIdleWindow), BlockWindow: set.BlockWindow, Nudge: set.Nudge, CPUAlive: set.CPUAlive,
		Branch: ws.Branch, Base: ws.Base, Summary: task.Summary}
	if a, err := st.Config().AgentFor(p); err == nil {
		spec.Profile = a.Profile
	}
	log := st.log.With("session", id)
	tw := newTranscriptWriter(transcript, log)
	tw.max.Store(st.Config().TranscriptMax)
	con := newConsole(tw, log)
	s := newSession(st.host, st.log, spec, proc, con, kind.Base())
	s.closeTranscript = tw.Close
	return s
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
