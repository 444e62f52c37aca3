//go:build linux

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// station is one `buildstation daemon` subprocess on a temp home, driven
// through the CLI as a user or a script would.
type station struct {
	t    *testing.T
	home string
	cmd  *exec.Cmd
	out  *syncBuffer // the daemon's stderr: its log
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startStation writes config.toml in a fresh home, runs the daemon on it and
// waits for its API.
func startStation(t *testing.T, config string) *station {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &station{t: t, home: home, out: &syncBuffer{}}
	s.cmd = exec.Command(bin, "daemon", "--home", home)
	s.cmd.Env = s.env()
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	// Its own group, so a test that fails mid-way still ends every agent.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	deadline := time.Now().Add(15 * time.Second)
	for {
		if _, _, code := s.run("status"); code == 0 {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("station did not come up:\n%s", s.out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// env is the station's environment: the test's own, without anything that
// would point Claude Code at a real account or another config; the session
// gets its wiring from [agents.claude] env in config.toml.
func (s *station) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ANTHROPIC_") || strings.HasPrefix(k, "CLAUDE") || strings.HasPrefix(k, "BUILDSTATION_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "BUILDSTATION_HOME="+s.home)
}

// stop ends the station politely (it ends its sessions), and kills its
// whole group if it lingers.
func (s *station) stop() {
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
}

// run runs the CLI against this station.
func (s *station) run(args ...string) (stdout, stderr string, code int) {
	cmd := exec.Command(bin, args...)
	cmd.Env = s.env()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatalf("run %v: %v", args, err)
	}
	return o.String(), e.String(), code
}

// must runs the CLI and fails the test unless it exits 0.
func (s *station) must(args ...string) string {
	s.t.Helper()
	out, errOut, code := s.run(args...)
	if code != 0 {
		s.t.Fatalf("buildstation %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

func (s *station) addTask(project, title, body string) string {
	s.t.Helper()
	var t task
	s.mustJSON(&t, "task", "add", "--project", project, "--title", title, "--body", body, "--json")
	return t.ID
}

func (s *station) mustJSON(v any, args ...string) {
	s.t.Helper()
	out := s.must(args...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		s.t.Fatalf("buildstation %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

type task struct {
	ID      string `json:"id"`
	State   string `json:"state"`
	Attempt int    `json:"attempt"`
	Reason  string `json:"reason"`
	Summary string `json:"summary"`
}

type session struct {
	ID       string     `json:"id"`
	TaskID   string     `json:"task_id"`
	State    string     `json:"state"`
	PID      int        `json:"pid"`
	NudgedAt *time.Time `json:"nudged_at"`
	Why      string     `json:"why"`
	Dir      string     `json:"dir"`
}

func (s *station) task(id string) task {
	s.t.Helper()
	var t task
	s.mustJSON(&t, "task", "show", id, "--json")
	return t
}

func (s *station) sessionOf(taskID string) (session, bool) {
	s.t.Helper()
	var ss []session
	s.mustJSON(&ss, "session", "ls", "--json")
	for _, x := range ss {
		if x.TaskID == taskID {
			return x, true
		}
	}
	return session{}, false
}

// log is the station's log file (the daemon also copies it to stderr).
func (s *station) log() string {
	b, _ := os.ReadFile(filepath.Join(s.home, "logs", "station.log"))
	return string(b)
}

// transcript is the raw console of a task's first session.
func (s *station) transcript(taskID string) string {
	b, _ := os.ReadFile(filepath.Join(s.home, "logs", taskID+".1.log"))
	return string(b)
}

// until polls cond every 200 ms (the CLI is what a script would poll; the
// station itself never polls) and fails with the whole story after d.
func (s *station) until(what string, d time.Duration, api *fakeAPI, taskID string, cond func() bool) {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			s.t.Fatalf("waited %s for %s\n%s", d, what, s.story(api, taskID))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// story is everything a failure report needs: the station log, the API's
// requests and the session's screen as plain text.
func (s *station) story(api *fakeAPI, taskID string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- station log\n%s", s.log())
	if api != nil {
		fmt.Fprintf(&b, "--- API requests\n%s", api.dump())
	}
	fmt.Fprintf(&b, "--- transcript (ANSI stripped, tail)\n%s\n", tail(screenText(s.transcript(taskID)), 4000))
	return b.String()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
