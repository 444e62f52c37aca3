package apitest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/platform/gitwt"
	"github.com/buildstation/buildstation/platform/pty"
	"github.com/buildstation/buildstation/platform/stationfs"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/api"
	"github.com/buildstation/buildstation/supervisor/config"
	"github.com/buildstation/buildstation/supervisor/pgstore"
	"github.com/buildstation/buildstation/supervisor/station"
	"github.com/buildstation/buildstation/supervisor/store"
)

// Board is the real station (supervisor/station) over a real SQLite board
// (supervisor/store) in a temp home whose config.toml has the projects
// named (each in a folder of its own), with its scheduler not running: the
// API's verbs answer as a station's do, and no session starts. A new verb
// is tested with it, so it needs nothing here.
func Board(t testing.TB, projects ...string) *station.Station {
	t.Helper()
	return NewEnv(t, projects...).Station
}

// Areas are st's areas, as the API serves them: api.NewServer(Areas(st), …).
func Areas(st *station.Station) api.Areas {
	return api.Areas{Tasks: st.Tasks, Projects: st.Projects, Sessions: st.Sessions, Asks: st.Asks,
		Agent: st.Agent, Control: st.Control, Phone: st.Phone}
}

// Env is Board's station with the board under it: a test puts a task in
// a state that no person's verb reaches without a session (blocked, say)
// by a move on the board, as a session's end would have.
type Env struct {
	Station *station.Station
	Board   supervisor.Board
	// Files are the station's files (platform/stationfs): a test leaves a
	// transcript there as an earlier run's session would have.
	Files   supervisor.Files
	spawned *tokens // the tokens of the sessions started (Token)
	faults  *faults // Rig.Faults' board; nil without
}

// NewEnv is Board, with its board.
func NewEnv(t testing.TB, projects ...string) Env {
	t.Helper()
	return Start(t, Rig{Projects: projects})
}

// Sessions is NewEnv with its station running: each task added starts a
// session of its project, a real process in a pseudo-terminal started
// from command with the agent's environment (BUILDSTATION_SESSION_ID,
// BUILDSTATION_TOKEN, …). The station stops, ending them, as the test
// ends.
func Sessions(t testing.TB, command []string, projects ...string) Env {
	t.Helper()
	return Start(t, Rig{Projects: projects, Command: command, Run: true})
}

// Rig says what Start builds.
type Rig struct {
	Projects []string // each in a folder of its own
	// Command is the projects' agent; nil: "agent", which no test runs.
	Command []string
	// Run runs the station: a task added starts a session.
	Run bool
	// Git makes each project's folder a git repository (on main, one
	// commit), whose tasks get worktrees of their own (platform/gitwt,
	// its gate verdicts kept on the board); Gate is then their gate.
	Git  bool
	Gate string
	// Dirs, when not nil, is given each project's folder by name.
	Dirs map[string]string
	// Concurrency is each project's sessions at once; 0: the default (1).
	Concurrency int
	// Review sends each project's completed work to a review session.
	Review bool
	// Faults lets the test break the board on demand (Env.BreakNextMove).
	Faults bool
	// Board is a shared board's URL (PostgreSQL, supervisor/pgstore: a
	// test's from internal/testsupport/pgtest), which the station joins as
	// Station; "": the station's own SQLite board in its home.
	Board, Station string
}

// Start builds the real station over a real SQLite board as r says.
func Start(t testing.TB, r Rig) Env {
	t.Helper()
	e := newEnv(t, r)
	if !r.Run {
		return e
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Station.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the station's Run: %v", err)
		}
	})
	return e
}

func newEnv(t testing.TB, r Rig) Env {
	t.Helper()
	home := t.TempDir()
	command := r.Command
	if command == nil {
		command = []string{"agent"}
	}
	var argv []string
	for _, a := range command {
		argv = append(argv, strconv.Quote(a))
	}
	text := ""
	if r.Board != "" {
		text = "board = " + strconv.Quote(r.Board) + "\nstation = " + strconv.Quote(r.Station) + "\n\n"
	}
	for _, name := range r.Projects {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if r.Git {
			gitRepo(t, dir)
		}
		if r.Dirs != nil {
			r.Dirs[name] = dir
		}
		text += "[[projects]]\nname = " + strconv.Quote(name) + "\npath = " + strconv.Quote(dir) +
			"\ncommand = [" + strings.Join(argv, ", ") + "]\n"
		if r.Concurrency != 0 {
			text += "concurrency = " + strconv.Itoa(r.Concurrency) + "\n"
		}
		if r.Review {
			text += "review = true\n"
		}
		if r.Gate != "" {
			text += "gate = " + strconv.Quote(r.Gate) + "\n"
		}
		text += "\n"
	}
	path := filepath.Join(home, "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(path, []byte(text), config.Platform{})
	if err != nil {
		t.Fatal(err)
	}
	var board interface {
		supervisor.Board
		supervisor.GateCache
		Close() error
	}
	if r.Board != "" {
		board, err = pgstore.Open(context.Background(), r.Board, r.Station)
	} else {
		board, err = store.Open(filepath.Join(home, "station.db"))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { board.Close() })
	files, err := stationfs.New(home, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	spawned := &tokens{Spawner: pty.New(), by: map[string]string{}}
	e := Env{Board: board, Files: files, spawned: spawned}
	if r.Faults {
		e.faults = &faults{Board: board}
		e.Board = e.faults
	}
	o := station.Options{Home: home, Config: cfg, Board: e.Board, Spawner: spawned, Files: files, Environ: os.Environ}
	if r.Git {
		o.Workspaces = gitwt.New(board, nil)
	}
	if e.Station, err = station.New(o); err != nil {
		t.Fatal(err)
	}
	return e
}

// gitRepo makes dir a git repository on main with one commit, whose
// commits (the agents' in their worktrees too) need no identity of the
// machine's.
func gitRepo(t testing.TB, dir string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "user.name", "Agent"},
		{"config", "user.email", "agent@example.com"},
		{"commit", "-q", "--allow-empty", "-m", "initial"},
	} {
		cmd := childproc.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// Transcript leaves data as session id's transcript in the station's
// files, as a session of an earlier run would have (its output, escapes
// and all): what `logs` and the API's transcript route read.
func (e Env) Transcript(t testing.TB, id string, data []byte) {
	t.Helper()
	w, err := e.Files.AppendTranscript(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
