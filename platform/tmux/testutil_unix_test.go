//go:build unix

package tmux

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
	"github.com/buildstation/buildstation/supervisor"
)

// deadline bounds every wait on a real process in these tests.
const deadline = 10 * time.Second

// newSpawner is a spawner on a fresh socket whose server is killed after
// the test. The socket sits in a short temp folder: a unix socket path has
// a length limit (104 bytes on macOS).
func newSpawner(t *testing.T) *Spawner {
	t.Helper()
	if !Available() {
		t.Skip("tmux is not installed")
	}
	dir, err := os.MkdirTemp("", "bs-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, SocketName)
	t.Cleanup(func() {
		killServer(sock)
		os.RemoveAll(dir)
	})
	s := New(sock)
	s.WaitCheck = 200 * time.Millisecond
	return s
}

func killServer(sock string) {
	cmd := exec.Command("tmux", "-S", sock, "kill-server")
	cmd.Env = clientEnv()
	_ = cmd.Run()
}

// spawn starts argv in a window and makes sure the tree is gone after the
// test.
func spawn(t *testing.T, s *Spawner, spec supervisor.SpawnSpec) supervisor.Proc {
	t.Helper()
	if spec.Env == nil {
		spec.Env = os.Environ()
	}
	p, err := s.Spawn(spec)
	if err != nil {
		t.Fatalf("Spawn(%q): %v", spec.Argv, err)
	}
	t.Cleanup(func() {
		_ = p.Stop(0)
		_ = p.Close()
	})
	return p
}

// output collects a Proc's output in the background, as the session reader
// does, so a test can wait for text without blocking the agent.
type output struct {
	mu   sync.Mutex
	buf  strings.Builder
	err  error
	done chan struct{}
}

func collect(r io.Reader) *output {
	o := &output{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			o.mu.Lock()
			o.buf.Write(b[:n])
			if err != nil {
				o.err = err
			}
			o.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return o
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// waitFor polls the output until it contains want.
func (o *output) waitFor(t *testing.T, want string) {
	t.Helper()
	end := time.Now().Add(deadline)
	for !strings.Contains(o.String(), want) {
		if time.Now().After(end) {
			t.Fatalf("output never contained %q; got %q", want, tail(o.String()))
		}
		select {
		case <-o.done:
			if !strings.Contains(o.String(), want) {
				t.Fatalf("output ended (%v) without %q; got %q", o.err, want, tail(o.String()))
			}
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// end waits for the reader to finish and returns its final error.
func (o *output) end(t *testing.T) error {
	t.Helper()
	select {
	case <-o.done:
	case <-time.After(deadline):
		t.Fatalf("Read never ended; output so far %q", tail(o.String()))
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// waitCode waits for the agent to exit.
func waitCode(t *testing.T, p supervisor.Proc) (int, error) {
	t.Helper()
	type result struct {
		code int
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		code, err := p.Wait()
		ch <- result{code, err}
	}()
	select {
	case r := <-ch:
		return r.code, r.err
	case <-time.After(deadline):
		t.Fatal("Wait never returned")
		return 0, nil
	}
}

// running reports whether pid is a live, non-zombie process.
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	procs, err := proctree.Current()
	if err != nil {
		return true
	}
	p, ok := procs[pid]
	return ok && !p.Zombie()
}

// waitTree polls the process table until pred holds for leader's
// descendants, and returns them.
func waitTree(t *testing.T, leader int, pred func(map[int]proctree.Proc, []int) bool) []int {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		procs, err := proctree.Current()
		if err != nil {
			t.Fatal(err)
		}
		kids := proctree.DescendantsOf(procs, leader)
		if pred(procs, kids) {
			return kids
		}
		if time.Now().After(end) {
			t.Fatalf("tree of %d never reached the expected shape; descendants %v", leader, kids)
		}
		time.Sleep(10 * time.Millisecond) // polling a process table, not a timer
	}
}

func countComm(procs map[int]proctree.Proc, pids []int, comm string) int {
	n := 0
	for _, pid := range pids {
		if procs[pid].Comm == comm {
			n++
		}
	}
	return n
}

// assertAllDead fails unless every pid has stopped running.
func assertAllDead(t *testing.T, pids ...int) {
	t.Helper()
	for _, pid := range pids {
		if running(pid) {
			t.Errorf("process %d still running after Stop", pid)
		}
	}
}

// windows lists the server's windows as "id name dead" lines.
func windows(t *testing.T, s *Spawner) string {
	t.Helper()
	out, err := s.run(t.Context(), "list-windows", "-a", "-F", "#{window_id} #{window_name} #{pane_dead}")
	if err != nil && !errors.Is(err, errNoServer) {
		t.Fatal(err)
	}
	return out
}

// tail keeps a failure message short.
func tail(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}
