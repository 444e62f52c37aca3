package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/noticefollow"
	"github.com/buildstation/buildstation/internal/phone"
	"github.com/buildstation/buildstation/internal/wiring/boardopen"
	"github.com/buildstation/buildstation/platform/gitwt"
	"github.com/buildstation/buildstation/platform/guard"
	"github.com/buildstation/buildstation/platform/instance"
	"github.com/buildstation/buildstation/platform/notifier"
	"github.com/buildstation/buildstation/platform/osdefaults"
	"github.com/buildstation/buildstation/platform/peer"
	"github.com/buildstation/buildstation/platform/secretenv"
	"github.com/buildstation/buildstation/platform/stationfs"
	"github.com/buildstation/buildstation/platform/treekill"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/outbox"
	"github.com/buildstation/buildstation/supervisor/pgstore"
	"github.com/buildstation/buildstation/supervisor/source"
	"github.com/buildstation/buildstation/supervisor/station"
)

// Options are the edges a station gets from the wiring: the engine's own
// options, of which the wiring sets the edges it knows (Home, Spawner,
// Notifier, Probers, Log, Self, Agents) and Run sets what it opens (Config,
// Board, Files, URL, Spawners, Workspaces, Outbox, Guard, Sources,
// Warnings), and the few only a daemon takes.
type Options struct {
	station.Options
	// NewSpawners makes the other session backends by name ("tmux") for
	// a home: the tmux backend's server socket lives there. nil: pty only.
	NewSpawners func(home string) map[string]supervisor.Spawner
	// NewWorkspaces makes the task worktree manager, given the board as
	// its gate cache; nil runs tasks in their project folders.
	NewWorkspaces func(cache supervisor.GateCache, log *slog.Logger) supervisor.Workspaces
	// Desktop opens this desktop's notifier for the station's own notices
	// (shown while no tray is connected); nil or an error: none.
	Desktop func(home string) (noticefollow.Desktop, error)
	// Ready, if set, is called once the API answers, with its base URL.
	Ready func(url string)
	// Agents finds the agent CLIs on this machine (platform/agentcli), for
	// adding projects; nil: an added project's agent is not checked.
	Agents supervisor.AgentFinder
	// Stopping, if set, is told in one sentence what stopping does to the
	// running sessions: when ctx ends (Ctrl-C, SIGTERM) and the drain
	// begins, and again when it ends and the rest is stopped.
	Stopping func(plan string)
	// Now, closed, ends a drain at once (a second Ctrl-C): the sessions
	// still running are ended as a stop without a drain would. nil: no
	// drain, a stop ends them at once (the demo, whose agents are
	// scripts).
	Now <-chan struct{}
	// SourceInterval is the time between polls of each [[sources]] entry;
	// 0 is source.MinInterval (tests pass less).
	SourceInterval time.Duration
}

// Run loads the home's config and runs a station on it until ctx ends. A bad
// config stops it before anything is changed.
func Run(ctx context.Context, o Options) error {
	var r run
	defer r.close()
	cfg, warnings, err := r.openHome(o)
	if err != nil {
		return err
	}
	board, err := boardopen.Open(ctx, o.Home, cfg)
	if err != nil {
		return fmt.Errorf("open the board: %w", err)
	}
	r.defer_(func() { board.Close() })
	// The board is open (PostgreSQL's password read): from here on no
	// process the station starts — a gate running the agent's tests, a
	// setup, git, tmux, a hook — inherits a secret it reads from its own
	// environment (docs/security.md, "Secrets stay out of sessions").
	secretenv.Take(cfg.SecretEnv())
	token, err := apitype.LoadOrCreateToken(o.Home)
	if err != nil {
		return err
	}
	ln, err := listen(o.Home, o.Log)
	if err != nil {
		return err
	}
	r.defer_(func() { ln.Close() })
	url := "http://" + ln.Addr().String()
	if r.sy, err = r.sources(o, cfg, board); err != nil {
		return err
	}
	st, err := r.station(ctx, o, cfg, board, url, warnings)
	if err != nil {
		return err
	}
	if err := r.phone.openOutbox(&r, o.Home); err != nil {
		return err
	}
	if r.sy != nil {
		r.defer_(startSources(ctx, r.sy, st, r.ws, cfg))
	}
	srv := api.NewServer(apiAreas(st), token, o.Log)
	srv.SetCallers(newSessionCallers(ownSessions(st, cfg)))
	if peer.Supported {
		// Another user's flood of connections never closes the
		// owner's or the agents' (api's ConnOwners).
		srv.SetConnOwners(peer.SameUser)
	}
	srv.Mount("/mcp", srv.RequireSession(api.NewMCPHandler(apiAreas(st), o.Log)))
	srv.Mount("POST /v1/phone/test", srv.RequireStation(phone.TestHandler(func() config.Phone { return st.Config().Phone }, phoneService)))
	return serve(ctx, o, cfg, board, st, srv, ln, token, &r.phone)
}

// apiAreas are the station's areas the API serves.
func apiAreas(st *station.Station) api.Areas {
	return api.Areas{Tasks: st.Tasks, Projects: st.Projects, Sessions: st.Sessions, Asks: st.Asks,
		Agent: st.Agent, Control: st.Control, Phone: st.Phone}
}

// run holds what Run opened, to close in reverse order whatever way it
// returns.
type run struct {
	closers []func()
	sy      *source.Syncer        // the [[sources]]' syncer; nil: none
	ws      supervisor.Workspaces // the station's worktrees, once made
	phone   phonePart             // the [phone] forwarder's outbox
}

func (r *run) defer_(f func()) { r.closers = append(r.closers, f) }

func (r *run) close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// openHome takes the home for this station and loads its config. The home
// is this station's for its whole life: a second station (a login item
// racing the tray, a double click) gets an *instance.OwnedError and its
// caller exits 0.
func (r *run) openHome(o Options) (*config.Config, []string, error) {
	if err := os.MkdirAll(o.Home, 0o700); err != nil {
		return nil, nil, fmt.Errorf("create home %s: %w", o.Home, err)
	}
	if err := apitype.SecureHome(o.Home); err != nil {
		return nil, nil, err
	}
	lock, err := instance.LockHome(o.Home)
	if err != nil {
		return nil, nil, err
	}
	r.defer_(func() { lock.Release() })
	recorded := adoptRecordedPath(o.Home)
	cfg, err := config.Load(o.Home, osdefaults.Config())
	if err != nil {
		return nil, nil, err
	}
	if cfg.Migrated != "" {
		o.Log.Info("config.toml migrated to live defaults", "what", cfg.Migrated)
	}
	// The PATH decides which agent, tmux and git the station runs: say
	// which it is, and what it lacks.
	o.Log.Info("station PATH", "PATH", os.Getenv("PATH"), "added_from", recorded)
	warnings, dirs := envWarnings(cfg, goos, exec.LookPath, osFinder(goos))
	addToPath(dirs)
	if w := notifier.Warning(); w != "" {
		warnings = append(warnings, w)
	}
	for _, w := range warnings {
		o.Log.Warn(w)
	}
	return cfg, warnings, nil
}

// station makes the supervisor with its edges: worktrees named for the
// board, the backends, and for a shared board the outbox and the fence
// guard.
func (r *run) station(ctx context.Context, o Options, cfg *config.Config, board boardopen.Board, url string, warnings []string) (*station.Station, error) {
	ws, err := workspaces(ctx, o, board)
	if err != nil {
		return nil, err
	}
	r.ws = ws
	probers := o.Probers
	var sources func() []supervisor.SourceState
	if r.sy != nil {
		probers = append(slices.Clone(probers), r.sy.Prober(board))
		sources = r.sy.State
	}
	var spawners map[string]supervisor.Spawner
	if o.NewSpawners != nil {
		spawners = o.NewSpawners(o.Home)
	}
	var box supervisor.Outbox
	if cfg.Shared() {
		// What a shared board cannot take while it is away waits here.
		ob, err := outbox.Open(filepath.Join(o.Home, outbox.File))
		if err != nil {
			return nil, err
		}
		r.defer_(func() { ob.Close() })
		box = ob
	}
	files, err := stationfs.New(o.Home, "")
	if err != nil {
		return nil, fmt.Errorf("new station: %w", err)
	}
	so := o.Options
	so.Files, so.Environ, so.Config, so.Board, so.Spawners = files, os.Environ, cfg, board, spawners
	so.Probers, so.URL, so.Workspaces, so.Warnings, so.Outbox = probers, url, ws, warnings, box
	so.EndMarked, so.Guard, so.Sources = treekill.EndMarked, r.fenceGuard(o, cfg), sources
	so.OpenPullRequest = pullRequests(ws, cfg.StationName())
	return station.New(so)
}

// workspaces makes the worktree manager. Task branches carry the board's
// id (bs/<board>/<task>): ids restart at t1 on every board, and another
// home on the same repository must never hand this one its old branches.
func workspaces(ctx context.Context, o Options, board boardopen.Board) (supervisor.Workspaces, error) {
	if o.NewWorkspaces == nil {
		return nil, nil
	}
	ws := o.NewWorkspaces(board, o.Log)
	m, ok := ws.(*gitwt.Manager)
	b, hasID := board.(interface {
		BoardID(context.Context) (string, error)
	})
	if !ok || !hasID {
		return ws, nil
	}
	id, err := b.BoardID(ctx)
	if err != nil {
		return nil, err
	}
	m.BoardID = id
	return ws, nil
}

// fenceGuard starts, for a shared board, a process of its own that ends
// this station's agents if the station stops while they run on (see
// platform/guard). Without it the station still fences itself whenever it
// runs at all.
func (r *run) fenceGuard(o Options, cfg *config.Config) supervisor.Guard {
	if !cfg.Shared() || o.Self == "" {
		return nil
	}
	g, err := guard.Start(o.Self, o.Home, supervisor.GuardGrace, o.Log)
	if err != nil {
		o.Log.Error("no fence guard: agents of a stopped station would run on", "err", err)
		return nil
	}
	r.defer_(func() {
		if err := g.Close(); err != nil {
			o.Log.Warn("stop the fence guard", "err", err)
		}
	})
	return g
}

// serve runs the API and the station until ctx ends or either fails.
// The config watcher starts before station.json says where the station
// is, so no edit made once a client can find the station goes unseen.
func serve(stop context.Context, o Options, cfg *config.Config, board boardopen.Board, st *station.Station, srv *api.Server, ln net.Listener, token string, ph *phonePart) error {
	// ctx outlives stop by the drain: the API must answer the agents that
	// finish meanwhile.
	ctx, cancel := context.WithCancel(context.WithoutCancel(stop))
	defer cancel()
	defer follow(ctx, o, st, srv)()
	defer forwardToPhone(ctx, o, st, token, ph)()
	watcher := newConfigWatcher(cfg.Path, o.Log)
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ctx, ln) }()
	// The board's changes are followed before the station is announced: a
	// tray or script that finds it through station.json must not miss
	// another station's move made in between.
	if pg, ok := board.(*pgstore.Store); ok {
		o.Log.Info("working a shared board", "station", pg.Station(), "lease", cfg.Lease)
		if err := wakeOnChanges(ctx, pg, st); err != nil {
			cancel()
			<-errc
			return err
		}
	}
	if err := announce(o, ln); err != nil {
		cancel()
		<-errc
		return err
	}
	defer os.Remove(filepath.Join(o.Home, config.FileStation))
	o.Log.Info("station ready", "url", urlOf(ln), "home", o.Home, "config", cfg.Path, "projects", len(cfg.Projects))
	if o.Ready != nil {
		o.Ready(urlOf(ln))
	}
	go func() {
		select {
		case <-stop.Done():
		case <-st.StopRequested(): // service stop of a logon task
			o.Log.Info("a person asked the station to stop (service stop)")
		case <-ctx.Done():
			return // failed: no drain
		}
		if o.Now != nil {
			drain(ctx, o, st)
		}
		plan := st.Control.StopPlan()
		o.Log.Info(plan)
		if o.Stopping != nil {
			o.Stopping(plan)
		}
		cancel()
	}()
	go followConfig(ctx, watcher, cfg.Path, o.Log, func(ctx context.Context) error {
		err := st.Control.ReloadConfig(ctx)
		secretenv.Take(st.Config().SecretEnv()) // a token_env the new config names
		return err
	})
	go func() { errc <- st.Run(ctx) }()
	err := <-errc
	cancel()
	if err2 := <-errc; err == nil {
		err = err2
	}
	if errors.Is(err, http.ErrServerClosed) || errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// drain lets the running sessions finish, within stop_grace or until
// o.Now says to end them now: no new task starts meanwhile.
func drain(ctx context.Context, o Options, st *station.Station) {
	grace := st.Config().StopGrace
	msg := st.Drain(grace)
	if msg == "" {
		return // nothing to wait for
	}
	o.Log.Info(msg)
	if o.Stopping != nil {
		o.Stopping(msg)
	}
	gctx, cancel := context.WithTimeout(ctx, grace)
	defer cancel()
	if o.Now != nil {
		go func() {
			select {
			case <-o.Now:
				cancel()
			case <-gctx.Done():
			}
		}()
	}
	if st.Drained(gctx) {
		o.Log.Info("every running session finished")
	}
}

// ownSessions lists the sessions this station runs, not those of other
// stations on a shared board.
func ownSessions(st *station.Station, cfg *config.Config) func() []supervisor.SessionInfo {
	return func() []supervisor.SessionInfo {
		var out []supervisor.SessionInfo
		for _, s := range st.Sessions.Sessions() {
			if s.Station == "" || s.Station == cfg.StationName() {
				out = append(out, s)
			}
		}
		return out
	}
}

func urlOf(ln net.Listener) string { return "http://" + ln.Addr().String() }

// follow has hooks and the desktop follow the station's events on a
// goroutine of their own; the func it returns stops them and waits.
func follow(ctx context.Context, o Options, st *station.Station, srv *api.Server) func() {
	ctx, cancel := context.WithCancel(ctx)
	sub := st.Sessions.Subscribe(1024)
	followed := make(chan struct{})
	go func() {
		defer close(followed)
		noticefollow.Follow(ctx, sub.C, noticefollow.Options{
			Hooks:     func() config.Hooks { return st.Config().Hooks },
			Desktop:   desktopFor(o),
			TrayShows: srv.NoticesShown,
			Log:       o.Log,
		})
	}()
	return func() { cancel(); sub.Close(); <-followed }
}

// announce writes station.json, how clients find the station (it goes
// with the station), and the port, which stays for the next one (listen),
// also after a clean stop.
func announce(o Options, ln net.Listener) error {
	if err := apitype.WriteStationFile(o.Home, apitype.StationFile{URL: urlOf(ln), PID: os.Getpid(), StartedAt: time.Now().UTC()}); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(o.Home, filePort), []byte(portOf(ln)+"\n"), 0o600); err != nil {
		o.Log.Warn("remember the API port for the next start", "err", err)
	}
	return nil
}

// wakeOnChanges follows the other stations' changes to the shared board
// (this station's own are announced here already). A task's move wakes the
// scheduler, so a task added there starts here without waiting for the
// next heartbeat, and is republished on the station's event bus with every
// session change, so trays and event streams here see every station's
// work live.
func wakeOnChanges(ctx context.Context, pg *pgstore.Store, st *station.Station) error {
	changes, err := pg.Listen(ctx)
	if err != nil {
		return fmt.Errorf("listen to the shared board: %w", err)
	}
	go func() {
		for c := range changes {
			switch {
			case c.Gap:
				st.Shared.Wake()
			case c.Station == pg.Station():
			case c.Session != nil:
				st.Shared.RemoteSession(*c.Session)
			default:
				st.Shared.Wake()
				st.Shared.RemoteTask(ctx, c.TaskID)
			}
		}
	}()
	return nil
}

// listen opens the API on the loopback port the last station of this home
// used, when it is free, else on a new one. Sessions that outlive a station
// (tmux) keep the BUILDSTATION_URL they were started with — and claude its
// MCP address — so an adopted agent can still report after a restart.
//
// The port is read from station.json (left by a station that crashed) or
// from station.port, which a station keeps after a clean stop too: a clean
// restart must not strand the sessions it leaves running either. A port
// someone else took meanwhile is not ours: the station takes a new one and
// says so, and writes the new address into each session it adopts
// (station.url in the session's folder), where the agent's client looks
// when the old address does not prove itself its station
// (supervisor/client/prove.go, supervisor/client/rediscover.go).
func listen(home string, log *slog.Logger) (net.Listener, error) {
	var ports []string
	if f, err := apitype.ReadStationFile(home); err == nil {
		if u, err := neturl.Parse(f.URL); err == nil && u.Hostname() == "127.0.0.1" && u.Port() != "" {
			ports = append(ports, u.Port())
		}
	}
	if b, err := os.ReadFile(filepath.Join(home, filePort)); err == nil {
		if p := strings.TrimSpace(string(b)); p != "" {
			ports = append(ports, p)
		}
	}
	var taken []string
	var lastErr error
	for _, p := range ports {
		if n, err := strconv.Atoi(p); err != nil || n <= 0 || n > 65535 || slices.Contains(taken, p) {
			continue
		}
		ln, err := net.Listen("tcp", "127.0.0.1:"+p)
		if err == nil {
			return ln, nil
		}
		taken, lastErr = append(taken, p), err
	}
	ln, err := api.Listen()
	if err == nil && len(taken) > 0 {
		log.Warn(fmt.Sprintf("the API's port %s, where sessions of the last station look for it, is taken by another program; "+
			"the station listens on %s instead and tells each session it adopts the new address (station.url in its folder); "+
			"an agent's MCP connection made at its start keeps the old address until the task is requeued",
			strings.Join(taken, ", "), portOf(ln)), "err", lastErr)
	}
	return ln, err
}

// filePort keeps the API's port across restarts (listen).
const filePort = "station.port"

func portOf(ln net.Listener) string {
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	return p
}

func desktopFor(o Options) func() (noticefollow.Desktop, error) {
	if o.Desktop == nil {
		return nil
	}
	return func() (noticefollow.Desktop, error) { return o.Desktop(o.Home) }
}
