//go:build linux

package station_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
)

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func TestBadConfigsAreRefusedAndChangeNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tt := range []struct {
		name, cfg, want string
	}{
		{"unknown key", "max_sessions = 2\nmax_sesions = 3\n", "config.toml:2: max_sesions"},
		{"bad duration", "[defaults]\nidle_window = \"5 minutes\"\n", "config.toml:2: defaults.idle_window"},
		{"too short", "[defaults]\nblock_window = \"500ms\"\n", "config.toml:2: defaults.block_window"},
		{"missing path", "[[projects]]\nname = \"x\"\npath = \"/no/such/dir\"\n", "config.toml:3: projects[0].path"},
		{"unknown project key", "[[projects]]\nname = \"x\"\npath = " + strconv.Quote(dir) + "\nidle_windw = \"1m\"\n", "config.toml:4: projects[0].idle_windw"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := rig.WriteConfig(t, tt.cfg)
			cmd := exec.Command(rig.Bin(), "daemon", "--home", home)
			out, err := cmd.CombinedOutput()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 1 {
				t.Fatalf("daemon with %s: %v, want exit 1\n%s", tt.name, err, out)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Fatalf("error %q does not name %q", out, tt.want)
			}
			if _, err := os.Stat(filepath.Join(home, "station.db")); err == nil {
				t.Fatal("a refused config still created the board")
			}
			if b, _ := os.ReadFile(filepath.Join(home, "config.toml")); string(b) != tt.cfg {
				t.Fatal("the refused config was rewritten")
			}
		})
	}
}

func TestFirstRunWritesDefaultConfig(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "fresh")
	s := rig.StartOn(t, home)
	b, err := os.ReadFile(filepath.Join(home, "config.toml"))
	if err != nil || !strings.Contains(string(b), "idle_window") {
		t.Fatalf("default config not written: %v", err)
	}
	for name, want := range map[string]os.FileMode{"token": 0o600, "station.db": 0o600} {
		fi, err := os.Stat(filepath.Join(home, name))
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v mode %v, want %v", name, err, fi.Mode().Perm(), want)
		}
	}
	var sf struct {
		URL string `json:"url"`
		PID int    `json:"pid"`
	}
	b, _ = os.ReadFile(filepath.Join(home, "station.json"))
	if err := json.Unmarshal(b, &sf); err != nil || !strings.HasPrefix(sf.URL, "http://127.0.0.1:") || sf.PID != s.PID() {
		t.Fatalf("station.json %s: %v", b, err)
	}
	_, errOut, code := s.Run("task", "add", "--project", "nope", "--title", "x")
	if code != 1 || !strings.Contains(errOut, `unknown project "nope"`) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("add to an unknown project: exit %d %q", code, errOut)
	}
	// A second station on the same home says who owns it and exits 0, so a
	// supervisor (launchd KeepAlive, the logon task) does not restart it in
	// a loop; the first one goes on.
	out, err := exec.Command(rig.Bin(), "daemon", "--home", home).CombinedOutput()
	if want := fmt.Sprintf("another station owns this home (pid %d", s.PID()); err != nil || !strings.Contains(string(out), want) {
		t.Fatalf("second station: %v %s, want exit 0 and %q", err, out, want)
	}
	if _, errOut, code := s.Run("status"); code != 0 {
		t.Fatalf("the first station after a second one tried its home: exit %d %s", code, errOut)
	}
}

// TestKill9LosesNothing crashes the station mid-run and restarts it: every
// task and transition acknowledged before the crash is still there, and the
// task whose session died with it is blocked with a reason that says so.
func TestKill9LosesNothing(t *testing.T) {
	t.Parallel()
	home := rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "30s", "30s", "concurrency = 1"))
	s := rig.StartOn(t, home)
	done := s.AddTask("web", "quick", "print hi; complete quick done")
	s.WaitState(done, "done", 10*time.Second)
	running := s.AddTask("web", "long", "heartbeat 200ms forever")
	queued := s.AddTask("web", "queued", "print q; complete queued done")
	cancelled := s.AddTask("web", "cancel me", "print c")
	s.Must("task", "cancel", cancelled)
	s.WaitState(running, "working", 5*time.Second)
	before := map[string]rig.Task{}
	for _, id := range []string{done, running, queued, cancelled} {
		before[id] = s.Task(id)
	}
	s.Kill9()

	s2 := rig.StartOn(t, home)
	got := s2.WaitState(running, "blocked", 5*time.Second)
	if got.Reason != "station restarted: session lost" {
		t.Fatalf("lost session's task reason %q", got.Reason)
	}
	for id, b := range before {
		a := s2.Task(id)
		if len(a.History) < len(b.History) {
			t.Errorf("%s lost transitions: %d before, %d after", id, len(b.History), len(a.History))
		}
		for i := range b.History {
			if a.History[i] != b.History[i] {
				t.Errorf("%s history %d changed: %+v → %+v", id, i, b.History[i], a.History[i])
			}
		}
	}
	if st := s2.Task(done).State; st != "done" {
		t.Errorf("done task is %s", st)
	}
	if st := s2.Task(cancelled).State; st != "cancelled" {
		t.Errorf("cancelled task is %s", st)
	}
	// The lock is free again: the queued task runs after the restart.
	s2.WaitState(queued, "done", 10*time.Second)
	// And the blocked one resumes on requeue.
	s2.Must("task", "requeue", running)
	if a := s2.Task(running).Attempt; a != 2 {
		t.Fatalf("attempt %d", a)
	}
}

// The circuit breaker pauses a project whose tasks keep blocking, says why
// in status, and `project resume` lifts it.
func TestBreakerFromTheCLI(t *testing.T) {
	t.Parallel()
	s := rig.StartOn(t, rig.WriteConfig(t, rig.ProjectTOML("web", t.TempDir(), "30s", "30s", `breaker = "2 in 1m"`)))
	a := s.AddTask("web", "crash a", "print boom; exit 1")
	s.WaitState(a, "blocked", 10*time.Second)
	b := s.AddTask("web", "crash b", "print boom; exit 1")
	s.WaitState(b, "blocked", 10*time.Second)
	c := s.AddTask("web", "waits", "print fine; complete fine")
	time.Sleep(time.Second)
	if st := s.Task(c).State; st != "todo" {
		t.Fatalf("third task is %s; the breaker did not pause the queue", st)
	}
	status := s.Must("status")
	if !strings.Contains(status, "paused: web") || !strings.Contains(status, "circuit breaker: 2 blocks") {
		t.Fatalf("status does not say why:\n%s", status)
	}
	var st struct {
		Paused map[string]string `json:"paused"`
	}
	if err := jsonUnmarshal(s.Must("status", "--json"), &st); err != nil || st.Paused["web"] == "" {
		t.Fatalf("status --json paused: %+v %v", st, err)
	}
	s.Must("project", "resume", "web")
	s.WaitState(c, "done", 10*time.Second)
}

// Project settings edited from the CLI are validated, written back to
// config.toml with its comments, and applied at once — to the running
// session too — without a restart.
func TestProjectSetAppliesWithoutRestart(t *testing.T) {
	t.Parallel()
	home := rig.WriteConfig(t, "# my notes stay\n"+rig.ProjectTOML("web", t.TempDir(), "1h", "1h"))
	s := rig.StartOn(t, home)
	id := s.AddTask("web", "wedged", "print x; wedge")
	s.WaitState(id, "working", 5*time.Second)
	_, errOut, code := s.Run("project", "set", "web", "idle_window=5 minutes")
	if code != 1 || !strings.Contains(errOut, "config.toml:") || !strings.Contains(errOut, "projects[0].idle_window") {
		t.Fatalf("bad value: exit %d %q", code, errOut)
	}
	if _, _, code := s.Run("project", "set", "web", "idle_window"); code != 2 {
		t.Fatalf("not KEY=VALUE: exit %d, want 2", code)
	}
	s.Must("project", "set", "web", "idle_window=1s", "block_window=1s")
	s.WaitState(id, "blocked", 10*time.Second)
	cfg := readFile(t, filepath.Join(home, "config.toml"))
	if !strings.Contains(cfg, "# my notes stay") || !strings.Contains(cfg, `idle_window = "1s"`) || strings.Contains(cfg, `"1h"`) {
		t.Fatalf("config.toml after the edit:\n%s", cfg)
	}
	var projects []struct {
		IdleWindow string `json:"idle_window"`
	}
	if err := jsonUnmarshal(s.Must("project", "ls", "--json"), &projects); err != nil || projects[0].IdleWindow != "1s" {
		t.Fatalf("project ls: %+v %v", projects, err)
	}
}
