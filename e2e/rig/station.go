//go:build unix

package rig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor/client"
)

// Station is one `buildstation daemon` subprocess on a home, driven through
// the CLI as a user or a script would.
type Station struct {
	*Daemon
	T   *testing.T
	Log *Buffer // the daemon's stdout and stderr

	bin string
	env []string
}

// WriteConfig writes cfg as config.toml in a fresh home.
func WriteConfig(t *testing.T, cfg string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// Env is the usual environment of a station and its CLI: the test's own,
// PATH leading to the binary under test (so projects may run `buildstation
// fake-agent`), BUILDSTATION_HOME, a cache folder beside the home (where
// sessions' own files go: gone with the test's temp folder, the same for
// every station on the home), then more.
func Env(bin, home string, more ...string) []string {
	// No test asks the real releases API (the tray's daily update check).
	return append(append(os.Environ(), "BUILDSTATION_UPDATE_URL=off", "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "BUILDSTATION_HOME="+home,
		"XDG_CACHE_HOME="+filepath.Join(filepath.Dir(home), "cache-"+filepath.Base(home))), more...)
}

// StartOn runs the binary Main built as a station on home, with Env's
// environment and more, and waits for its API to answer.
func StartOn(t *testing.T, home string, more ...string) *Station {
	t.Helper()
	return Start(t, Bin(), home, Env(Bin(), home, more...))
}

// Start runs `bin daemon --home home` with env as its whole environment
// (the CLI gets the same) and waits for its API to answer. The station runs
// in its own process group, so a test that fails mid-way still ends every
// agent; it stops at the test's cleanup.
func Start(t *testing.T, bin, home string, env []string) *Station {
	t.Helper()
	s := &Station{T: t, Log: &Buffer{}, bin: bin, env: env}
	d, err := StartDaemon(bin, home, env, s.Log)
	if err != nil {
		t.Fatal(err)
	}
	s.Daemon = d
	t.Cleanup(s.Stop)
	// Every 10 ms: a kill -9 test restarts the station often.
	if err := d.WaitReady(15*time.Second, 10*time.Millisecond); err != nil {
		t.Fatalf("%v:\n%s", err, s.Log)
	}
	return s
}

// Stop ends the station politely (it ends its sessions), and kills its
// whole group if it lingers.
func (s *Station) Stop() { s.StopWithin(15 * time.Second) }

// Client dials the running station's API, for reads; acts go through the
// CLI, as a user's would.
func (s *Station) Client() *client.Client {
	s.T.Helper()
	c, err := client.Dial(s.Home)
	if err != nil {
		s.T.Fatalf("dial station: %v", err)
	}
	return c
}

// CLI runs bin with args and env. It never touches a test, so goroutines
// may call it; err is set only when the command could not run at all.
func CLI(bin string, env []string, args ...string) (stdout, stderr string, code int, err error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode(), nil
	} else if err != nil {
		return o.String(), e.String(), -1, err
	}
	return o.String(), e.String(), 0, nil
}

// Run runs the CLI against this station's home.
func (s *Station) Run(args ...string) (stdout, stderr string, code int) {
	stdout, stderr, code, err := CLI(s.bin, s.env, args...)
	if err != nil {
		s.T.Fatalf("run %v: %v", args, err)
	}
	return stdout, stderr, code
}

// Must runs the CLI and fails the test unless it exits 0.
func (s *Station) Must(args ...string) string {
	s.T.Helper()
	out, errOut, code := s.Run(args...)
	if code != 0 {
		s.T.Fatalf("buildstation %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// Transcript is what the task's session printed on the given attempt, from
// logs/.
func (s *Station) Transcript(taskID string, attempt int) string {
	b, _ := os.ReadFile(filepath.Join(s.Home, "logs", fmt.Sprintf("%s.%d.log", taskID, attempt)))
	return string(b)
}

// ProjectTOML is a [[projects]] table running the fake agent (each task's
// body is its script) with the given watchdog windows, then the extra
// lines (`backend = "tmux"`, `concurrency = 2`).
func ProjectTOML(name, path, idle, block string, extra ...string) string {
	return fmt.Sprintf("\n[[projects]]\nname = %q\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\nidle_window = %q\nblock_window = %q\n%s\n",
		name, path, idle, block, strings.Join(extra, "\n"))
}

// Imported waits until n of the board's tasks came from an issue tracker
// (a source), and returns each one's task ID by its issue's ID.
func (s *Station) Imported(n int, within time.Duration, what string) map[string]string {
	s.T.Helper()
	ids := map[string]string{}
	Eventually(s.T, within, func() error {
		var tasks []struct {
			ID       string
			External struct{ ID string } `json:"external"`
		}
		out := s.Must("task", "ls", "--json")
		json.Unmarshal([]byte(out), &tasks)
		for _, tk := range tasks {
			if tk.External.ID != "" {
				ids[tk.External.ID] = tk.ID
			}
		}
		if len(ids) != n {
			return fmt.Errorf("tasks %s", out)
		}
		return nil
	}, what, "station log:", s.Log)
	return ids
}
