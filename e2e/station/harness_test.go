//go:build linux

// Package station_test runs the real buildstation binary as a user would: a
// station subprocess on a temp home, real PTYs, the scripted fake agent and
// real git repos, driven through the CLI and its --json output.
package station_test

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

var bin string // the buildstation binary under test

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bs-e2e-")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "buildstation")
	build := exec.Command("go", "build", "-o", bin, "../..")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build buildstation: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// station is one running station subprocess and its home.
type station struct {
	t    *testing.T
	home string
	cmd  *exec.Cmd
	log  *syncBuffer
	more []string // environment beyond the harness's own
}

// syncBuffer is the station's output, written by exec's copier goroutine
// while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// writeConfig writes config.toml in a fresh home.
func writeConfig(t *testing.T, cfg string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// startStation runs `buildstation daemon` on home and waits for its API.
func startStation(t *testing.T, home string, env ...string) *station {
	t.Helper()
	s := &station{t: t, home: home, log: &syncBuffer{}, more: env}
	s.cmd = exec.Command(bin, "daemon", "--home", home)
	s.cmd.Env = s.env()
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
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
			t.Fatalf("station did not come up:\n%s", s.log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// env is the environment of the station and the CLI: PATH leads to the
// binary under test, so projects may run `buildstation fake-agent`.
func (s *station) env() []string {
	return append(append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "BUILDSTATION_HOME="+s.home), s.more...)
}

// stop ends the station politely, and its whole group if it lingers.
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

// kill9 kills the station with SIGKILL, as a crash would.
func (s *station) kill9() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

// run runs the CLI against this station's home.
func (s *station) run(args ...string) (stdout, stderr string, code int) {
	cmd := exec.Command(bin, args...)
	cmd.Env = s.env()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code = 0
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

// addTask adds a task whose body holds the fake agent's script.
func (s *station) addTask(project, title, script string) string {
	s.t.Helper()
	return strings.TrimSpace(s.must("task", "add", "--project", project, "--title", title, "--body", "script: "+script))
}

type task struct {
	ID        string    `json:"id"`
	Project   string    `json:"project"`
	Title     string    `json:"title"`
	State     string    `json:"state"`
	Attempt   int       `json:"attempt"`
	Reason    string    `json:"reason"`
	Summary   string    `json:"summary"`
	Notes     []string  `json:"notes"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	History   []struct {
		From, To, Reason, Actor string
		Attempt                 int
	} `json:"history"`
}

type session struct {
	ID           string               `json:"id"`
	TaskID       string               `json:"task_id"`
	State        string               `json:"state"`
	PID          int                  `json:"pid"`
	LastOutputAt time.Time            `json:"last_output_at"`
	NudgedAt     *time.Time           `json:"nudged_at"`
	Why          string               `json:"why"`
	Evidence     map[string]time.Time `json:"evidence"`
	Dir          string               `json:"dir"`
	Station      string               `json:"station"`
}

func (s *station) task(id string) task {
	s.t.Helper()
	var t task
	if err := json.Unmarshal([]byte(s.must("task", "show", id, "--json")), &t); err != nil {
		s.t.Fatal(err)
	}
	return t
}

func (s *station) sessions() []session {
	s.t.Helper()
	var ss []session
	if err := json.Unmarshal([]byte(s.must("session", "ls", "--json")), &ss); err != nil {
		s.t.Fatal(err)
	}
	return ss
}

func (s *station) sessionOf(taskID string) (session, bool) {
	for _, x := range s.sessions() {
		if x.TaskID == taskID {
			return x, true
		}
	}
	return session{}, false
}

// waitState polls until task id is in state, or fails after d. Polling the
// CLI is what a script would do; the station itself never polls.
func (s *station) waitState(id, state string, d time.Duration) task {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		t := s.task(id)
		if t.State == state {
			return t
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("task %s is %s (%s), not %s after %s\nstation log:\n%s\ntranscript:\n%s", id, t.State, t.Reason, state, d, s.log, s.transcript(id, t.Attempt))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// transcript is what the task's session printed, from logs/.
func (s *station) transcript(taskID string, attempt int) string {
	b, _ := os.ReadFile(filepath.Join(s.home, "logs", fmt.Sprintf("%s.%d.log", taskID, attempt)))
	return string(b)
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// gitRepo makes a real repository with one commit.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	return dir
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
	return string(out)
}

// projectTOML is a [[projects]] table running the fake agent.
func projectTOML(name, path string, idle, block string, extra ...string) string {
	return fmt.Sprintf("\n[[projects]]\nname = %q\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\nidle_window = %q\nblock_window = %q\n%s\n",
		name, path, idle, block, strings.Join(extra, "\n"))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
