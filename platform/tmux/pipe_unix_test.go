//go:build unix

package tmux

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/platform/internal/proctest"
	"github.com/buildstation/buildstation/supervisor"
)

// TestMain lets the test binary stand in for buildstation where a spawner
// runs it as pipe-pane's command (see PipeVerb).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == PipeVerb {
		os.Exit(HandOff(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// TestNoCopierBetweenTmuxAndStation: once a session runs, the tmux
// server's only children are the panes' processes; the output pipe is read
// by the station itself, with no process copying it (a copier costs a
// core's share at full output, and a hop).
func TestNoCopierBetweenTmuxAndStation(t *testing.T) {
	t.Parallel()
	s := newSpawner(t)
	p := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sh", "-c", "echo up; exec sleep 300"},
		Env: append(os.Environ(), "BUILDSTATION_SESSION_ID=t1.1")})
	t.Cleanup(func() { _ = p.Stop(0); _ = p.Close() })
	out := proctest.Collect(p)
	out.WaitFor(t, "up\r\n")
	server, err := s.run(t.Context(), "display-message", "-p", "#{pid}")
	if err != nil {
		t.Fatal(err)
	}
	panes, err := s.run(t.Context(), "list-panes", "-a", "-F", "#{pane_pid}")
	if err != nil {
		t.Fatal(err)
	}
	isPane := map[string]bool{}
	for _, f := range strings.Fields(panes) {
		isPane[f] = true
	}
	srv := strings.TrimSpace(server)
	if _, err := strconv.Atoi(srv); err != nil {
		t.Fatalf("server pid %q", server)
	}
	// The hand-over's own process exits once the pipe is handed over;
	// give it a moment to be gone and reaped.
	var extra []string
	for range 100 {
		ps, err := exec.Command("ps", "-A", "-o", "pid=,ppid=,stat=,comm=").Output()
		if err != nil {
			t.Fatal(err)
		}
		extra = nil
		for line := range strings.SplitSeq(string(ps), "\n") {
			f := strings.Fields(line)
			if len(f) >= 4 && f[1] == srv && !isPane[f[0]] {
				extra = append(extra, line)
			}
		}
		if len(extra) == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, line := range extra {
		t.Errorf("the tmux server has a child besides the panes: %s", line)
	}
	// The output still flows after the check.
	if _, err := p.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
}

// TestLongHomeHandsThePipeOver: a station home whose run folder is too
// deep for a unix socket (macOS: 104 bytes) still gets each pane's output,
// through a private folder of its own under the temporary one, removed
// once the pipe is handed over.
func TestLongHomeHandsThePipeOver(t *testing.T) {
	if !Available() {
		t.Skip("tmux is not installed")
	}
	t.Parallel()
	base, err := os.MkdirTemp("", "bs-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	// The server's socket itself stays within the limit; the hand-over's,
	// in the run folder beside it, would not.
	home := filepath.Join(base, strings.Repeat("h", maxSocketPath-len(base)-len(SocketName)-2))
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(home, SocketName)
	t.Cleanup(func() {
		killServer(sock)
		os.RemoveAll(base)
	})
	s := New(sock)
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "bs-pipe-*"))
	p := proctest.Spawn(t, s, supervisor.SpawnSpec{Argv: []string{"sh", "-c", "echo long home; exec sleep 300"},
		Env: append(os.Environ(), "BUILDSTATION_SESSION_ID=t1.1")})
	t.Cleanup(func() { _ = p.Stop(0); _ = p.Close() })
	proctest.Collect(p).WaitFor(t, "long home\r\n")
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "bs-pipe-*"))
	for _, d := range after {
		if !slices.Contains(before, d) {
			t.Errorf("the hand-over's folder %s is left behind", d)
		}
	}
}
