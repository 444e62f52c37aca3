//go:build linux

package fault

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor/api"
)

var bin string // the buildstation binary under test

func TestMain(m *testing.M) {
	if spec := os.Getenv(envFlood); spec != "" {
		os.Exit(flood(spec)) // this test binary is a session's agent
	}
	dir, err := os.MkdirTemp("", "bs-fault-")
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

// station is one `buildstation daemon` subprocess on a home.
type station struct {
	t    *testing.T
	home string
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
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

func writeConfig(t *testing.T, cfg string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// env puts the binary under test first on PATH, so agents may run it.
func env(home string) []string {
	return append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "BUILDSTATION_HOME="+home)
}

// startStation runs the daemon on home and waits for status to answer.
func startStation(t *testing.T, home string) *station {
	t.Helper()
	s := &station{t: t, home: home, out: &syncBuffer{}, done: make(chan struct{})}
	s.cmd = exec.Command(bin, "daemon", "--home", home)
	s.cmd.Env = env(home)
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	t.Cleanup(s.stop)
	deadline := time.Now().Add(15 * time.Second)
	for {
		if c, err := api.Dial(home); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_, err := c.Status(ctx)
			cancel()
			if err == nil {
				return s
			}
		}
		select {
		case <-s.done:
			t.Fatalf("station exited before it answered:\n%s", s.out)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("station did not come up:\n%s", s.out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *station) pid() int { return s.cmd.Process.Pid }

func (s *station) alive() bool {
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// stop ends the station politely, and its group if it lingers.
func (s *station) stop() {
	if !s.alive() {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-s.pid(), syscall.SIGKILL)
		<-s.done
	}
}

// kill9 crashes the station.
func (s *station) kill9() {
	_ = s.cmd.Process.Kill()
	<-s.done
}

// client dials the running station's API (for reads; acts go through the CLI).
func (s *station) client() *api.Client {
	s.t.Helper()
	c, err := api.Dial(s.home)
	if err != nil {
		s.t.Fatalf("dial station: %v", err)
	}
	return c
}

// cli runs the CLI on home; it never fails the test, so goroutines may call it.
func cli(home string, args ...string) (stdout, stderr string, code int) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env(home)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), ee.ExitCode()
	} else if err != nil {
		return "", err.Error(), -1
	}
	return o.String(), e.String(), 0
}

func (s *station) must(args ...string) string {
	s.t.Helper()
	out, errOut, code := cli(s.home, args...)
	if code != 0 {
		s.t.Fatalf("buildstation %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

type task struct {
	ID        string    `json:"id"`
	Project   string    `json:"project"`
	State     string    `json:"state"`
	Attempt   int       `json:"attempt"`
	Reason    string    `json:"reason"`
	UpdatedAt time.Time `json:"updated_at"`
}

func (s *station) task(id string) task {
	s.t.Helper()
	var t task
	if err := json.Unmarshal([]byte(s.must("task", "show", id, "--json")), &t); err != nil {
		s.t.Fatal(err)
	}
	return t
}

func (s *station) waitState(id, state string, d time.Duration) task {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		t := s.task(id)
		if t.State == state {
			return t
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("task %s is %s (%s), not %s after %s\nstation output:\n%s", id, t.State, t.Reason, state, d, tail(s.out.String(), 4000))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// procInfo is a process as /proc shows it.
type procInfo struct {
	pid, ppid int
	state     byte
	start     uint64 // start time in ticks since boot: a pid's identity
}

func readProc(pid int) (procInfo, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procInfo{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procInfo{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return procInfo{}, false
	}
	p := procInfo{pid: pid, state: f[0][0]}
	p.ppid, _ = strconv.Atoi(f[1])
	p.start, _ = strconv.ParseUint(f[19], 10, 64)
	return p, true
}

// running reports whether the process p (same pid, same start) still runs:
// a zombie has exited.
func running(p procInfo) bool {
	now, ok := readProc(p.pid)
	return ok && now.start == p.start && now.state != 'Z' && now.state != 'X'
}

// tagged lists every process whose environment carries the session's
// prompt file (BUILDSTATION_PROMPT_FILE, under this station's home, so
// unique on the machine, unlike the session id): the session's whole
// tree, whatever it did to its parentage or process group.
func tagged(home, sessionID string) []procInfo {
	want := []byte("BUILDSTATION_PROMPT_FILE=" + filepath.Join(home, "logs", sessionID+".prompt.md") + "\x00")
	ents, _ := os.ReadDir("/proc")
	var out []procInfo
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil || !bytes.Contains(append(b, 0), want) {
			continue
		}
		if p, ok := readProc(pid); ok && p.state != 'Z' {
			out = append(out, p)
		}
	}
	return out
}

func cmdline(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(string(bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
}

func rssKiB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return n
		}
	}
	return 0
}

var (
	logTime   = regexp.MustCompile(`^time=(\S+)`)
	logNudged = regexp.MustCompile(` msg=nudged session=(\S+) .*silent_since=(\S+)`)
	logBlock  = regexp.MustCompile(` msg="task blocked" task=(\S+)`)
)

// watchdogTimes finds in the station's log when session's task was nudged
// (and the last output before it) and when it was blocked.
func watchdogTimes(log, session, taskID string) (silent, nudged, blocked time.Time) {
	for line := range strings.SplitSeq(log, "\n") {
		m := logTime.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil {
			continue
		}
		if n := logNudged.FindStringSubmatch(line); n != nil && n[1] == session && nudged.IsZero() {
			nudged = at
			silent, _ = time.Parse(time.RFC3339Nano, n[2])
		}
		if b := logBlock.FindStringSubmatch(line); b != nil && b[1] == taskID && blocked.IsZero() {
			blocked = at
		}
	}
	return silent, nudged, blocked
}

// killPid kills a process a test found left behind, if it is still that one.
func killPid(p procInfo) {
	if running(p) {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
}

func bg() context.Context { return context.Background() }
