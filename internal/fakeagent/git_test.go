package fakeagent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// gitRepo makes a fresh repository on branch main in a temp folder.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git CLI")
	}
	dir := t.TempDir()
	gitOut(t, dir, "init", "-q", "-b", "main")
	return dir
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestCommitAndDirty(t *testing.T) {
	dir := gitRepo(t)
	// An existing dirty-1.txt must not be overwritten.
	if err := os.WriteFile(filepath.Join(dir, "dirty-1.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut testwait.Buffer
	code := Run(context.Background(), "commit first step; commit second step; dirty half a thought", Env{Dir: dir, Stdout: &out, Stderr: &errOut})
	if code != 0 || errOut.String() != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	if want := lines("committed: first step", "committed: second step", "dirty: dirty-2.txt"); out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	if log := gitOut(t, dir, "log", "--format=%s|%an"); log != "second step|fake-agent\nfirst step|fake-agent" {
		t.Errorf("git log %q", log)
	}
	if work := gitOut(t, dir, "show", "HEAD:work.txt"); work != "first step\nsecond step" {
		t.Errorf("work.txt at HEAD %q", work)
	}
	// The first commit took the pre-existing dirty-1.txt along (git add -A);
	// the new dirty file is left untracked.
	if status := gitOut(t, dir, "status", "--porcelain"); status != "?? dirty-2.txt" {
		t.Errorf("git status %q, want only dirty-2.txt untracked", status)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "dirty-2.txt")); string(b) != "half a thought\n" {
		t.Errorf("dirty-2.txt holds %q", b)
	}
}

func TestCommitFailureGoesOn(t *testing.T) {
	var out, errOut testwait.Buffer
	dir := filepath.Join(t.TempDir(), "missing")
	code := Run(context.Background(), "commit nothing here; print after", Env{Dir: dir, Stdout: &out, Stderr: &errOut})
	if code != 0 || out.String() != lines("after") {
		t.Errorf("exit %d, stdout %q", code, out.String())
	}
	if !strings.Contains(errOut.String(), "commit failed") {
		t.Errorf("stderr %q does not report the failure", errOut.String())
	}
}

// TestCommitEvery runs on the fake clock: the git processes take real time,
// but the three minutes between commits take none.
func TestCommitEvery(t *testing.T) {
	dir := gitRepo(t)
	synctest.Test(t, func(t *testing.T) {
		var out, errOut testwait.Buffer
		begin := time.Now()
		code := Run(t.Context(), "commit-every 1m 3m30s", Env{Dir: dir, Stdout: &out, Stderr: &errOut})
		if code != 0 || errOut.String() != "" {
			t.Fatalf("exit %d, stderr %q", code, errOut.String())
		}
		if d := time.Since(begin); d != 3*time.Minute+30*time.Second {
			t.Errorf("took %v, want 3m30s", d)
		}
		if out.String() != "" {
			t.Errorf("a silent agent printed %q", out.String())
		}
	})
	if log := gitOut(t, dir, "log", "--format=%s"); log != "fake-agent commit 3\nfake-agent commit 2\nfake-agent commit 1" {
		t.Errorf("git log %q", log)
	}
}
