//go:build unix

// The harness is a trimmed copy of e2e/station's.

package tmux_test

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
	if _, err := exec.LookPath("tmux"); err != nil {
		fmt.Println("tmux is not installed; skipping the tmux backend's end-to-end tests")
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "bs-e2e-tmux-")
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
}

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

// newHome writes config.toml in a fresh home, and kills the home's tmux
// server after the test: it outlives every station by design.
func newHome(t *testing.T, cfg string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tmux(home, "kill-server").Run() })
	return home
}

// tmux is a tmux command on the home's server.
func tmux(home string, args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", append([]string{"-S", filepath.Join(home, "tmux.sock")}, args...)...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	return cmd
}

// startStation runs `buildstation daemon` on home and waits for its API.
func startStation(t *testing.T, home string) *station {
	t.Helper()
	s := &station{t: t, home: home, log: &syncBuffer{}}
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

func (s *station) env() []string {
	return append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "BUILDSTATION_HOME="+s.home)
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
	ID      string `json:"id"`
	State   string `json:"state"`
	Attempt int    `json:"attempt"`
	Reason  string `json:"reason"`
	Summary string `json:"summary"`
	History []struct {
		From, To, Reason, Actor string
	} `json:"history"`
}

type session struct {
	ID     string `json:"id"`
	TaskID string `json:"task_id"`
	State  string `json:"state"`
	PID    int    `json:"pid"`
}

func (s *station) task(id string) task {
	s.t.Helper()
	var t task
	if err := json.Unmarshal([]byte(s.must("task", "show", id, "--json")), &t); err != nil {
		s.t.Fatal(err)
	}
	return t
}

func (s *station) sessionOf(taskID string) (session, bool) {
	s.t.Helper()
	var ss []session
	if err := json.Unmarshal([]byte(s.must("session", "ls", "--json")), &ss); err != nil {
		s.t.Fatal(err)
	}
	for _, x := range ss {
		if x.TaskID == taskID {
			return x, true
		}
	}
	return session{}, false
}

// waitState polls until task id is in state, or fails after d.
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

// waitTranscript polls until the task's transcript holds want.
func (s *station) waitTranscript(id, want string, d time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for !strings.Contains(s.transcript(id, 1), want) {
		if time.Now().After(deadline) {
			s.t.Fatalf("transcript of %s never held %q:\n%s\nstation log:\n%s", id, want, s.transcript(id, 1), s.log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *station) transcript(taskID string, attempt int) string {
	b, _ := os.ReadFile(filepath.Join(s.home, "logs", fmt.Sprintf("%s.%d.log", taskID, attempt)))
	return string(b)
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !os.IsNotExist(err) // no /proc (macOS): kill said it runs
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// projectTOML is a [[projects]] table running the fake agent in tmux.
func projectTOML(name, path, idle, block string) string {
	return fmt.Sprintf("\n[[projects]]\nname = %q\npath = %q\ncommand = [\"buildstation\", \"fake-agent\"]\nbackend = \"tmux\"\nidle_window = %q\nblock_window = %q\n",
		name, path, idle, block)
}
