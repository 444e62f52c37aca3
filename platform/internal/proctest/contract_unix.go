//go:build unix

package proctest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/typetest"
	"github.com/buildstation/buildstation/platform/proctree"
	"github.com/buildstation/buildstation/supervisor"
)

// What every session backend promises the supervisor, checked once here
// and run by each backend's tests, so that pty and tmux are held to the
// same contract. Each check returns what its backend must judge alone:
// Wait's error is the backend's own SignalError, and tmux has windows to
// look at.

// ExitCodeCached checks that Wait returns the agent's exit code, the same
// to every caller, and returns the exited Proc.
func ExitCodeCached(t *testing.T, sp Spawner) supervisor.Proc {
	t.Helper()
	p := Spawn(t, sp, supervisor.SpawnSpec{Argv: []string{"sh", "-c", "exit 3"}})
	for range 3 {
		if code, err := WaitCode(t, p); code != 3 || err != nil {
			t.Errorf("Wait = %d, %v; want 3, nil", code, err)
		}
	}
	return p
}

// Resize checks that the agent starts at the default size and sees a
// Resize. enter is what the backend's tests type to end a line.
func Resize(t *testing.T, sp Spawner, enter string) {
	t.Helper()
	p := Spawn(t, sp, supervisor.SpawnSpec{Argv: []string{"sh", "-c", "stty size; read go; stty size; read go"}})
	out := Collect(p)
	out.WaitFor(t, "40 120") // the default size
	if err := p.Resize(100, 30); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte(enter)); err != nil {
		t.Fatal(err)
	}
	out.WaitFor(t, "30 100")
}

// TypesEveryCharacter types every printable ASCII character and some UTF-8
// and checks the agent read exactly those bytes: both backends must type
// text alike.
func TypesEveryCharacter(t *testing.T, sp Spawner) {
	t.Helper()
	p := Spawn(t, sp, supervisor.SpawnSpec{Argv: []string{"sh", "-c", typetest.Program}})
	out := Collect(p)
	for _, in := range typetest.Lines() {
		if _, err := p.Write([]byte(in + "\r")); err != nil {
			t.Fatal(err)
		}
		out.WaitFor(t, "hex:"+fmt.Sprintf("%x", in)+":end")
	}
}

// StopKillsGrandchildren checks that Stop ends an agent and both of its
// children, and returns the Proc and what Wait said (the backend checks
// that SIGTERM ended it).
func StopKillsGrandchildren(t *testing.T, sp Spawner) (p supervisor.Proc, code int, err error) {
	t.Helper()
	p = Spawn(t, sp, supervisor.SpawnSpec{Argv: []string{"sh", "-c", "sleep 300 & sleep 300 & wait"}})
	kids := WaitTree(t, p.Pid(), func(procs map[int]proctree.Proc, kids []int) bool {
		return CountComm(procs, kids, "sleep") == 2
	})
	if err := p.Stop(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	AssertAllDead(t, append(kids, p.Pid())...)
	code, err = WaitCode(t, p)
	return p, code, err
}

// StopKillsAfterGrace checks that Stop gives an agent that ignores SIGTERM
// and SIGHUP the whole grace, then kills it and its child; it returns what
// Wait said (the backend checks that SIGKILL ended it).
func StopKillsAfterGrace(t *testing.T, sp Spawner) (code int, err error) {
	t.Helper()
	p := Spawn(t, sp, supervisor.SpawnSpec{Argv: []string{"sh", "-c", `trap "" TERM HUP; echo armed; sleep 300; echo after`}})
	out := Collect(p)
	out.WaitFor(t, "armed")
	kids := WaitTree(t, p.Pid(), func(procs map[int]proctree.Proc, kids []int) bool {
		return CountComm(procs, kids, "sleep") == 1
	})
	const grace = 300 * time.Millisecond
	start := time.Now()
	if err := p.Stop(grace); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < grace {
		t.Errorf("Stop returned after %v, before the %v grace", took, grace)
	}
	AssertAllDead(t, append(kids, p.Pid())...)
	return WaitCode(t, p)
}

// EnvAndDir checks that the agent runs in the spec's folder with the spec's
// environment, values sh or tmux could misread kept to the letter, and
// none of the station's own (BS_SERVER_ONLY: a tmux server starts with the
// environment of the station that started it). It sets the test's
// environment, so its test must not be parallel.
func EnvAndDir(t *testing.T, sp Spawner) {
	t.Helper()
	t.Setenv("BS_SERVER_ONLY", "leak")
	dir := t.TempDir()
	p := Spawn(t, sp, supervisor.SpawnSpec{
		Argv: []string{"sh", "-c", `echo "foo=$BS_FOO"; echo "quote=$BS_Q"; echo "server=${BS_SERVER_ONLY-unset}"; pwd -P`},
		Dir:  dir,
		Env:  []string{"PATH=" + os.Getenv("PATH"), "BS_FOO=bar baz", `BS_Q=it's "$HOME" #{pane_id}`},
		Cols: 500, // keep a long temp path on one line
	})
	out := Collect(p)
	_ = out.End(t)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"foo=bar baz", `quote=it's "$HOME" #{pane_id}`, "server=unset", real} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output %q lacks %q", out.String(), want)
		}
	}
}
