package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/internal/wiring/daemon"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
	"github.com/buildstation/buildstation/supervisor/client"
	"github.com/buildstation/buildstation/supervisor/config"
)

// marker marks a folder as a demo home, which Prepare may wipe.
const marker = ".buildstation-demo"

// Window is the demo's idle and block window.
const Window = 20 * time.Second

// Task is one scripted demo task.
type Task struct {
	Title, Script, Retry string
}

// Tasks are the demo's tasks, one of each kind of agent.
var Tasks = []Task{
	{Title: "Add a health endpoint (healthy)",
		Script: "print Reading the code...; sleep 3s; print Writing the handler...; progress handler written; sleep 3s; print Running the tests... ok; sleep 2s; complete added /healthz with a test"},
	{Title: "Tidy the logging (heartbeat)",
		Script: "print Tidying log calls, one line every 5s; heartbeat 5s 45s; complete logging tidied"},
	{Title: "Fix the flaky test (forgetful: finishes, forgets to report)",
		Script: "print Fixed the race in TestUpload.; print All tests pass.; read-submit; complete fixed the flaky test (after a nudge)"},
	{Title: "Migrate the database (wedged)",
		Script: "print Running migration 0042...; wedge",
		Retry:  "print Resumed: running migration 0042 with a lock timeout...; sleep 4s; print Migration done.; complete migration 0042 applied on the second attempt"},
	{Title: "Build the release (silent builder)",
		Script: "print Building the release (the compiler prints nothing)...; child-spin 30s; print Built.; complete release built"},
}

// Prepare makes a fresh demo home and returns its path: --home, else
// BUILDSTATION_HOME, else a folder in the temp dir. A folder that is not
// empty and not an earlier demo home is refused, never wiped.
func Prepare(homeFlag, self string) (string, error) {
	home := homeFlag
	if home == "" {
		home = os.Getenv(config.EnvHome)
	}
	if home == "" {
		// The user's own cache folder, not the shared temp folder: there
		// another user could make the folder first and plant a
		// station.json that harvests the station token.
		base, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("find the user cache folder for the demo home (pass --home): %w", err)
		}
		home = filepath.Join(base, "BuildStation", "demo")
	}
	home, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("demo home %q: %w", home, err)
	}
	if err := apitype.CheckHome(home); err != nil {
		return "", err
	}
	if err := wipe(home); err != nil {
		return "", err
	}
	if err := apitype.SecureHome(home); err != nil {
		return "", err
	}
	project := filepath.Join(home, "demo-project")
	if err := os.MkdirAll(project, 0o700); err != nil {
		return "", fmt.Errorf("create demo project: %w", err)
	}
	if err := os.WriteFile(filepath.Join(home, marker), []byte("a demo home; `buildstation demo` may wipe it\n"), 0o600); err != nil {
		return "", fmt.Errorf("mark demo home: %w", err)
	}
	cfg := fmt.Sprintf(`# The demo's config: one project of scripted agents and short windows.
max_sessions = %d

[defaults]
idle_window = %q
block_window = %q
review_idle_window = %q
cpu_alive = "10%%"
nudge = "Note: I noticed you've been silent for {idle}. If you've finished the task, commit and {complete}. If you're still working, just continue."

[[projects]]
name = "demo"
path = %q
command = [%q, "fake-agent"]
concurrency = %d
`, len(Tasks), Window.String(), Window.String(), Window.String(), project, self, len(Tasks))
	if err := os.WriteFile(filepath.Join(home, config.FileConfig), []byte(cfg), 0o600); err != nil {
		return "", fmt.Errorf("write demo config: %w", err)
	}
	return home, nil
}

func wipe(home string) error {
	entries, err := os.ReadDir(home)
	if errors.Is(err, os.ErrNotExist) || (err == nil && len(entries) == 0) {
		return os.MkdirAll(home, 0o700)
	}
	if err != nil {
		return fmt.Errorf("read demo home: %w", err)
	}
	if _, err := os.Stat(filepath.Join(home, marker)); err != nil {
		return fmt.Errorf("%s is not empty and is not a demo home; pass --home with a new or empty folder", home)
	}
	if f, err := apitype.ReadStationFile(home); err == nil {
		if c, err := client.Dial(home); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			if _, err := c.Status(ctx); err == nil {
				return fmt.Errorf("a demo station is already running in %s (pid %d); stop it first", home, f.PID)
			}
		}
	}
	if err := os.RemoveAll(home); err != nil {
		return fmt.Errorf("wipe the old demo home: %w", err)
	}
	return os.MkdirAll(home, 0o700)
}

// Run starts a station on a prepared home, adds the demo tasks and narrates
// what happens on out. It returns nil once every demo task has settled
// (done, after the wedged one's retry), stopping the station; with keep it
// runs until ctx ends, so a person can look around afterwards.
func Run(ctx context.Context, home string, opt daemon.Options, out io.Writer, keep bool) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	ready := make(chan string, 1)
	opt.Home = home
	opt.Ready = func(url string) { ready <- url }
	errc := make(chan error, 1)
	go func() { errc <- daemon.Run(ctx, opt) }()
	select {
	case err := <-errc:
		return err
	case <-ready:
	}
	c, err := client.Dial(home)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Build Station demo: %d scripted agents, %s windows. Home: %s\n", len(Tasks), Window, home)
	cmd := Command(opt.Self, home)
	fmt.Fprintf(out, "Watch from another terminal:  %s status\n", cmd)
	fmt.Fprintf(out, "                              %s task ls\n\n", cmd)
	n := &narrator{c: c, out: out, cmd: cmd, start: time.Now(), tasks: map[string]string{}, titles: map[string]string{}, sessions: map[string]string{}, keep: keep, settled: make(chan struct{})}
	go n.follow(ctx)
	for _, t := range Tasks {
		body := "script: " + t.Script
		if t.Retry != "" {
			body += "\nscript-2: " + t.Retry
		}
		if _, err := c.AddTask(ctx, supervisor.NewTask{Project: "demo", Title: t.Title, Body: body}); err != nil {
			return fmt.Errorf("add demo task: %w", err)
		}
	}
	select {
	case err := <-errc:
		return err
	case <-n.settled:
	}
	stop()
	if err := <-errc; err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	fmt.Fprintf(out, "The demo station stopped. Its home is kept: %s\n", home)
	return nil
}

// narrator prints each change as a line a newcomer can follow, and requeues
// the wedged task once, as a person would from the window.
type narrator struct {
	c        *client.Client
	out      io.Writer
	cmd      string // how to run this binary on the demo home, from a shell
	start    time.Time
	tasks    map[string]string // id → state
	titles   map[string]string
	sessions map[string]string // id → state
	requeued bool
	keep     bool          // stay up once every task settled
	settled  chan struct{} // closed once every task settled (not with keep)
}

func (n *narrator) follow(ctx context.Context) {
	for ctx.Err() == nil {
		events, err := n.c.Events(ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		for e := range events {
			n.show(ctx, e)
		}
	}
}

func (n *narrator) say(format string, args ...any) {
	el := time.Since(n.start).Round(time.Second)
	// Titles, reasons and summaries come from the board and the agents.
	fmt.Fprintf(n.out, "%6s  %s\n", el, textsafe.Line(fmt.Sprintf(format, args...)))
}

func (n *narrator) show(ctx context.Context, e supervisor.Event) {
	switch e.Kind {
	case supervisor.EventTask:
		t := e.Task
		n.titles[t.ID] = t.Title
		from := n.tasks[t.ID]
		if from == string(t.State) {
			return
		}
		n.tasks[t.ID] = string(t.State)
		switch {
		case from == "":
			n.say("%s %q queued", t.ID, t.Title)
		case t.State == supervisor.TaskBlocked:
			n.say("%s %s → blocked: %s", t.ID, from, t.Reason)
			if !n.requeued && strings.Contains(t.Title, "wedged") {
				n.requeued = true
				n.say("%s requeued by the demo, as you would with: %s task requeue %s", t.ID, n.cmd, t.ID)
				if _, err := n.c.Requeue(ctx, t.ID, "demo: retried after a wedge"); err != nil {
					n.say("requeue failed: %v", err)
				}
			}
		case t.State == supervisor.TaskDone:
			n.say("%s %s → done: %s", t.ID, from, t.Summary)
		default:
			extra := ""
			if t.Attempt > 1 {
				extra = " (attempt " + strconv.Itoa(t.Attempt) + ")"
			}
			n.say("%s %s → %s%s", t.ID, from, t.State, extra)
		}
		if n.allSettled() {
			n.settle()
		}
	case supervisor.EventSession:
		s := e.Session
		if n.sessions[s.ID] == s.State.String() {
			return
		}
		n.sessions[s.ID] = s.State.String()
		switch s.State {
		case supervisor.SessNudged, supervisor.SessQuiet, supervisor.SessIdle, supervisor.SessNeedsPermission:
			why := ""
			// Why may start with the state's own name ("quiet: 4.7s CPU"):
			// say it once.
			if w := strings.TrimPrefix(s.Why, s.State.String()+": "); w != "" {
				why = " (" + w + ")"
			}
			n.say("  session %s is %s%s", s.ID, s.State, why)
		}
	}
}

// settle says the demo is over, once: the station stops, or with keep
// runs on until Ctrl-C.
func (n *narrator) settle() {
	select {
	case <-n.settled:
		return
	default:
	}
	if n.keep {
		n.say("every demo task is settled; the station keeps running (--keep; Ctrl-C to stop)")
		return
	}
	n.say("every demo task is settled; stopping the demo (pass --keep to keep the station running)")
	close(n.settled)
}

func (n *narrator) allSettled() bool {
	if len(n.tasks) < len(Tasks) || !n.requeued {
		return false
	}
	for _, s := range n.tasks {
		if s != string(supervisor.TaskDone) && s != string(supervisor.TaskCancelled) {
			return false
		}
	}
	return true
}
