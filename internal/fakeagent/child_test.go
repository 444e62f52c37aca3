//go:build unix

package fakeagent

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// waitUntil polls cond: the processes under test run in real time, so there
// is no fake clock to advance.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Eventually(t, 10*time.Second, cond, what)
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

var pidLine = regexp.MustCompile(`(?m)^(\S+): pid (\d+)\r$`)

// pids reads the "VERB: pid N" lines the children wrote to file.
func pids(t *testing.T, file string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range pidLine.FindAllStringSubmatch(string(b), -1) {
		got[m[1]], _ = strconv.Atoi(m[2])
	}
	return got
}

// killOnCleanup makes sure a test's sleepers do not outlive it.
func killOnCleanup(t *testing.T, pid int) {
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
}

func TestChildSpin(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut testwait.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, "child-spin 1m; print never", Env{Stdout: &out, Stderr: &errOut, Self: self()})
	}()

	var child int
	waitUntil(t, "the spinning child exists", func() bool {
		child = childRunning(t, "spin 1m0s")
		return child != 0
	})
	killOnCleanup(t, child)
	cancel()
	if code := <-done; code != 130 {
		t.Errorf("exit code %d, want 130", code)
	}
	if out.String() != "" {
		t.Errorf("child-spin printed %q", out.String())
	}
	if alive(child) {
		t.Errorf("child %d outlived the cancelled run", child)
	}
}

func TestChildSpinBurnsChildCPU(t *testing.T) {
	before := childCPU(t)
	var out, errOut testwait.Buffer
	code := Run(context.Background(), "child-spin 500ms; print done", Env{Stdout: &out, Stderr: &errOut, Self: self()})
	if code != 0 || out.String() != lines("done") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	// A busy machine (CI runs the suites in parallel on 2 cores) gives the
	// child less than its wall time; a child that only slept would use ~0.
	if burnt := childCPU(t) - before; burnt < 50*time.Millisecond {
		t.Errorf("children used %v of CPU during child-spin 500ms", burnt)
	}
}

func TestChildSpinWithoutSelf(t *testing.T) {
	var errOut testwait.Buffer
	if code := Run(context.Background(), "child-spin 1s", Env{Stderr: &errOut}); code != 0 {
		t.Errorf("exit code %d", code)
	}
	if errOut.String() == "" {
		t.Error("no error printed for a missing Self")
	}
}

func TestChildSleep(t *testing.T) {
	outFile := filepath.Join(t.TempDir(), "console")
	out, err := os.Create(outFile)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()

	start := time.Now()
	code := Run(context.Background(), "child-sleep 1m", Env{Stdout: out, Stderr: out, Self: self()})
	if code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("child-sleep waited for its child (%v)", d)
	}
	child := pids(t, outFile)["child-sleep"]
	if child == 0 {
		t.Fatalf("no child pid printed")
	}
	killOnCleanup(t, child)
	if !alive(child) {
		t.Errorf("child %d is not running after the run ended", child)
	}
	syscall.Kill(child, syscall.SIGKILL)
	// The run reaps its background child, so it vanishes once killed.
	waitUntil(t, "the killed child is reaped", func() bool { return !alive(child) })
}

func TestGrandchildSleep(t *testing.T) {
	outFile := filepath.Join(t.TempDir(), "console")
	out, err := os.Create(outFile)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()

	if code := Run(context.Background(), "grandchild-sleep 1m", Env{Stdout: out, Stderr: out, Self: self()}); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	var got map[string]int
	waitUntil(t, "both levels print their pids", func() bool {
		got = pids(t, outFile)
		return got["grandchild-sleep"] != 0 && got["child-sleep"] != 0
	})
	child, grandchild := got["grandchild-sleep"], got["child-sleep"]
	killOnCleanup(t, child)
	killOnCleanup(t, grandchild)
	if !alive(child) || !alive(grandchild) {
		t.Errorf("child %d alive %v, grandchild %d alive %v", child, alive(child), grandchild, alive(grandchild))
	}
	if ppid := parentOf(t, grandchild); ppid != 0 && ppid != child {
		t.Errorf("grandchild %d has parent %d, want %d", grandchild, ppid, child)
	}
}
