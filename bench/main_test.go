//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// A bench whose figure fails still removes its scratch folder (it used to
// exit before its deferred removal ran).
func TestFailedBenchLeavesNoScratch(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "bench")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	// false is no station: the figure fails at its start.
	c := exec.Command(exe, "-only", "cli", "-bin", "/bin/false")
	c.Env = append(os.Environ(), "TMPDIR="+tmp)
	out, err := c.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("bench with a failing figure: %v, want exit 1\n%s", err, out)
	}
	left, _ := filepath.Glob(filepath.Join(tmp, "bs-bench-*"))
	if len(left) > 0 {
		t.Errorf("the failed bench left %v behind\n%s", left, out)
	}
}
