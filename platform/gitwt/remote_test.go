//go:build !windows

package gitwt

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/buildstation/buildstation/supervisor"
)

// twoStations makes a bare repository as the team's remote and two clones
// of it, the project folders of stations A and B, each with its Manager on
// one board (b1) sharing one gate cache, as two stations of a shared board do.
func twoStations(t *testing.T, gate string) (ctx context.Context, bare string, a, b *Manager, pa, pb supervisor.Repo) {
	t.Helper()
	ctx = context.Background()
	bare = filepath.Join(t.TempDir(), "remote.git")
	run(t, filepath.Dir(bare), "init", "-q", "--bare", "-b", "main", bare)
	seed := newRepo(t)
	run(t, seed, "push", "-q", bare, "main")
	cache := newCache()
	clone := func() (*Manager, supervisor.Repo) {
		dir := filepath.Join(t.TempDir(), "web")
		run(t, filepath.Dir(dir), "clone", "-q", bare, dir)
		setIdentity(t, dir)
		m := New(cache, nil)
		m.BoardID = "b1"
		p := project(dir, gate)
		p.Remote = "origin"
		return m, p
	}
	a, pa = clone()
	b, pb = clone()
	return ctx, bare, a, b, pa, pb
}

// remoteRefs lists the branches the remote holds.
func remoteRefs(t *testing.T, bare string) []string {
	t.Helper()
	return strings.Fields(run(t, bare, "for-each-ref", "--format=%(refname)"))
}

// A task runs on A, is resumed there and requeued; B takes it up from the
// last green commit A pushed, with A's save as a branch of its own; then A,
// taking it back, starts from what B pushed, its own stray file kept.
func TestSyncTakesUpAnotherStationsWork(t *testing.T) {
	t.Parallel()
	ctx, bare, a, b, pa, pb := twoStations(t, "test -f ok.txt")

	if s, err := a.Sync(ctx, pa, "t1"); err != nil || s.Remote != "origin" || s.Fetched {
		t.Fatalf("first Sync on A = %+v, %v; want nothing fetched", s, err)
	}
	wa, err := a.Prepare(ctx, pa, "t1")
	if err != nil {
		t.Fatal(err)
	}
	green := commitFile(t, wa.Dir, "ok.txt", "ok\n", "c1 green")
	if pub, err := a.Publish(ctx, pa, "t1"); err != nil || !pub.Complete || !slices.Equal(pub.Pushed, []string{"bs/b1/t1"}) {
		t.Fatalf("Publish at the green commit = %+v, %v", pub, err)
	}
	run(t, wa.Dir, "rm", "-q", "ok.txt")
	run(t, wa.Dir, "commit", "-q", "-m", "c2 red")
	red := rev(t, wa.Dir, "rev-parse", "HEAD")
	if _, err := a.Publish(ctx, pa, "t1"); err != nil {
		t.Fatal(err)
	}
	res, err := a.Resume(ctx, pa, "t1", 1)
	if err != nil || res.Green != green {
		t.Fatalf("Resume on A = %+v, %v; want green %s", res, err, green)
	}
	// The branch goes back to green: a forced push, allowed by its lease.
	pub, err := a.Publish(ctx, pa, "t1")
	if err != nil || !pub.Complete || !slices.Equal(pub.Pushed, []string{"bs/b1/t1", "bs/b1/t1-attempt-1"}) {
		t.Fatalf("Publish after the resume = %+v, %v", pub, err)
	}
	if got := rev(t, bare, "rev-parse", "bs/b1/t1"); got != green {
		t.Fatalf("remote's branch at %s, want the green %s", got, green)
	}

	s, err := b.Sync(ctx, pb, "t1")
	if err != nil || !s.Fetched || s.From != green || s.FromSubject != "c1 green" || s.Saved != "" {
		t.Fatalf("Sync on B = %+v, %v; want A's green commit fetched", s, err)
	}
	wb, err := b.Prepare(ctx, pb, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if head := rev(t, wb.Dir, "rev-parse", "HEAD"); head != green {
		t.Fatalf("B's worktree at %s, want A's green %s", head, green)
	}
	if got := rev(t, pb.Path, "rev-parse", "bs/b1/t1-attempt-1"); got != red {
		t.Fatalf("A's save is at %s on B, want %s", got, red)
	}
	if wb.Base != wa.Base {
		t.Errorf("B's base %s, A's %s: the task started at one commit", wb.Base, wa.Base)
	}
	// Nothing new on either side: Sync fetches and changes nothing.
	if s, err := b.Sync(ctx, pb, "t1"); err != nil || s.Fetched {
		t.Fatalf("second Sync on B = %+v, %v", s, err)
	}

	mine := commitFile(t, wb.Dir, "b.txt", "b\n", "c3 on B")
	if _, err := b.Publish(ctx, pb, "t1"); err != nil {
		t.Fatal(err)
	}

	// A still has its worktree at green, and a file it never committed.
	writeFile(t, wa.Dir, "stray.txt", "A's own\n")
	s, err = a.Sync(ctx, pa, "t1")
	if err != nil || !s.Fetched || s.From != mine || s.Saved != "bs/b1/t1-local" {
		t.Fatalf("Sync back on A = %+v, %v; want B's commit, A's file saved", s, err)
	}
	if head := rev(t, wa.Dir, "rev-parse", "HEAD"); head != mine {
		t.Fatalf("A's worktree at %s, want B's %s", head, mine)
	}
	if _, err := os.Stat(filepath.Join(wa.Dir, "stray.txt")); !os.IsNotExist(err) {
		t.Errorf("the stray file is still in A's worktree: %v", err)
	}
	if got := run(t, pa.Path, "show", "bs/b1/t1-local:stray.txt"); got != "A's own\n" {
		t.Fatalf("stray.txt on the save: %q", got)
	}
	// Only the task's own branches ever reach the remote.
	if _, err := a.Publish(ctx, pa, "t1"); err != nil {
		t.Fatal(err)
	}
	want := []string{"refs/heads/bs/b1/t1", "refs/heads/bs/b1/t1-attempt-1", "refs/heads/bs/b1/t1-local", "refs/heads/main"}
	if got := remoteRefs(t, bare); !slices.Equal(got, want) {
		t.Fatalf("remote refs %v, want %v", got, want)
	}
}

// A station whose view is stale never overwrites what another pushed: its
// push of the branch is refused by the lease, and its commit stays here.
func TestPublishNeverOverwritesAnotherStation(t *testing.T) {
	t.Parallel()
	ctx, bare, a, b, pa, pb := twoStations(t, "")
	wa, err := a.Prepare(ctx, pa, "t1")
	if err != nil {
		t.Fatal(err)
	}
	commitFile(t, wa.Dir, "a.txt", "a\n", "A's first")
	if _, err := a.Publish(ctx, pa, "t1"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Sync(ctx, pb, "t1"); err != nil {
		t.Fatal(err)
	}
	wb, err := b.Prepare(ctx, pb, "t1")
	if err != nil {
		t.Fatal(err)
	}
	theirs := commitFile(t, wb.Dir, "b.txt", "b\n", "B's")
	if _, err := b.Publish(ctx, pb, "t1"); err != nil {
		t.Fatal(err)
	}
	ours := commitFile(t, wa.Dir, "a.txt", "a2\n", "A's second, unaware")
	pub, err := a.Publish(ctx, pa, "t1")
	if err == nil || pub.Complete || !strings.Contains(err.Error(), "refused: bs/b1/t1") {
		t.Fatalf("stale Publish = %+v, %v; want refused", pub, err)
	}
	if got := rev(t, bare, "rev-parse", "bs/b1/t1"); got != theirs {
		t.Fatalf("remote at %s, want B's %s kept", got, theirs)
	}
	if got := rev(t, wa.Dir, "rev-parse", "HEAD"); got != ours {
		t.Fatalf("A's commit moved: HEAD %s", got)
	}
}

// Without the remote: the default (origin on a shared board) is quietly
// off; a remote named in config.toml is an error that says what to do.
func TestRemoteMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := project(newRepo(t), "")
	m := New(nil, nil)
	p.Remote, p.RemoteAuto = "origin", true
	if s, err := m.Sync(ctx, p, "t1"); err != nil || s != (supervisor.Synced{}) {
		t.Fatalf("Sync with no origin = %+v, %v", s, err)
	}
	if pub, err := m.Publish(ctx, p, "t1"); err != nil || pub.Remote != "" {
		t.Fatalf("Publish with no origin = %+v, %v", pub, err)
	}
	p.RemoteAuto = false
	_, err := m.Sync(ctx, p, "t1")
	if err == nil || !strings.Contains(err.Error(), `has no remote "origin": add it (git remote add origin URL) or set remote = "off"`) {
		t.Fatalf("Sync with a named remote missing: %v", err)
	}
}

// A station whose worktree of the task was removed (the task finished
// there once) takes another station's newer push: its branch moves to it,
// its own commit the push lacks kept on -local, and the worktree is added
// again at the push.
func TestSyncMovesABranchWithoutWorktree(t *testing.T) {
	t.Parallel()
	ctx, _, a, b, pa, pb := twoStations(t, "")
	wa, err := a.Prepare(ctx, pa, "t1")
	if err != nil {
		t.Fatal(err)
	}
	commitFile(t, wa.Dir, "a.txt", "a\n", "A's")
	if _, err := a.Publish(ctx, pa, "t1"); err != nil {
		t.Fatal(err)
	}
	unpushed := commitFile(t, wa.Dir, "a.txt", "a2\n", "A's unpushed")
	if err := a.Remove(ctx, pa, "t1"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Sync(ctx, pb, "t1"); err != nil {
		t.Fatal(err)
	}
	wb, err := b.Prepare(ctx, pb, "t1")
	if err != nil {
		t.Fatal(err)
	}
	theirs := commitFile(t, wb.Dir, "b.txt", "b\n", "B's")
	if _, err := b.Publish(ctx, pb, "t1"); err != nil {
		t.Fatal(err)
	}
	s, err := a.Sync(ctx, pa, "t1")
	if err != nil || !s.Fetched || s.From != theirs || s.Saved != "bs/b1/t1-local" {
		t.Fatalf("Sync on A = %+v, %v; want B's push, A's commit saved", s, err)
	}
	if got := rev(t, pa.Path, "rev-parse", "bs/b1/t1-local"); got != unpushed {
		t.Fatalf("-local at %s, want A's unpushed %s", got, unpushed)
	}
	w, err := a.Prepare(ctx, pa, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if head := rev(t, w.Dir, "rev-parse", "HEAD"); head != theirs {
		t.Fatalf("A's new worktree at %s, want %s", head, theirs)
	}
}
