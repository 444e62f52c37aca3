//go:build !windows

package gitwt

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// A gate cut short by its context (the station stopping, owner.go in
// supervisor/station) is no verdict: HeadGate says why, nothing is cached
// for the commit, so the next check runs it again, and its checkout goes.
func TestGateCutShortKeepsNoVerdict(t *testing.T) {
	t.Parallel()
	repo := newRepo(t)
	started := filepath.Join(t.TempDir(), "started")
	cache := newCache()
	m := New(cache, nil)
	p := project(repo, "touch '"+started+"'; sleep 30 | cat")
	if _, err := m.Prepare(context.Background(), p, "t1"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		ran bool
		err error
	}
	done := make(chan result, 1)
	go func() {
		_, ran, err := m.HeadGate(ctx, p, "t1", true)
		done <- result{ran, err}
	}()
	testwait.Eventually(t, 30*time.Second, func() bool { _, err := os.Stat(started); return err == nil }, "the gate to start")
	cancel()
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the gate went on running after its context ended")
	}
	if r.ran || !errors.Is(r.err, context.Canceled) {
		t.Fatalf("gate cut short: ran %v, err %v; want no verdict and the context's error", r.ran, r.err)
	}
	if cache.saves != 0 {
		t.Errorf("a gate cut short was cached (%d saves): it would read as the commit's verdict", cache.saves)
	}
	if _, ran, err := m.HeadGate(context.Background(), p, "t1", false); ran || err != nil {
		t.Errorf("after the cut: cached verdict ran %v, err %v; want none", ran, err)
	}
	if wts := run(t, repo, "worktree", "list", "--porcelain"); strings.Count(wts, "worktree ") != 2 {
		t.Errorf("the cut gate's checkout is left registered:\n%s", wts)
	}
}
