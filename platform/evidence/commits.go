package evidence

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/supervisor"
)

// CommitOptions configures NewCommits. The zero value is usable.
type CommitOptions struct {
	// Git is the git program, used only to count commits in a move and to
	// read a reftable repository; "" means "git" on the PATH.
	Git string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Commits is the "commits" layer: a session whose worktree HEAD or branch
// moved is alive, even if it printed nothing (an agent committing between
// long silent steps). It reads the git directory at check time; nothing
// polls.
//
// It is safe for concurrent use.
type Commits struct {
	opts CommitOptions

	mu   sync.Mutex
	seen map[string]seenHead // by session
}

// seenHead is the SHA a session's HEAD had at its previous check, and
// at its start.
type seenHead struct {
	gitDir string // another worktree is another history
	sha    string
	// start is HEAD's SHA when the session was first seen (Observe): a
	// HEAD still there holds nothing the session made, however recently
	// git moved it (the worktree's creation, a requeue's reset).
	start string
}

var _ supervisor.Prober = (*Commits)(nil)

// NewCommits returns the commits layer.
func NewCommits(opts CommitOptions) *Commits {
	if opts.Git == "" {
		opts.Git = "git"
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Commits{opts: opts, seen: make(map[string]seenHead)}
}

// Layer names the layer in records and block reasons.
func (c *Commits) Layer() string { return "commits" }

// Observe remembers where the session's HEAD is, so that its first check
// sees a move from here. A directory in no repository is not an error.
func (c *Commits) Observe(t supervisor.ProbeTarget) error {
	repo, h, err := c.read(context.Background(), t.Dir)
	if errors.Is(err, errNotRepo) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("commits evidence: observe session %s: %w", t.SessionID, err)
	}
	c.mu.Lock()
	c.seen[t.SessionID] = seenHead{gitDir: repo.gitDir, sha: h.sha, start: h.sha}
	c.mu.Unlock()
	return nil
}

// Probe reports life when HEAD's SHA differs from the one seen at the
// previous check (or at Observe), or when git's files date a move after
// since: the ref's or HEAD's mtime, or the newest HEAD reflog entry. The
// dates cover a commit made before the session's first check. Only the
// session's own work counts: never a HEAD still at the SHA the session
// started on, nor a move the reflog says was no commit (the worktree's
// creation, a checkout or a reset).
func (c *Commits) Probe(ctx context.Context, t supervisor.ProbeTarget, since time.Time) (supervisor.Life, bool, error) {
	if err := ctx.Err(); err != nil {
		return supervisor.Life{}, false, err
	}
	repo, h, err := c.read(ctx, t.Dir)
	if errors.Is(err, errNotRepo) {
		return supervisor.Life{}, false, nil
	}
	if err != nil {
		return supervisor.Life{}, false, fmt.Errorf("commits evidence: session %s: %w", t.SessionID, err)
	}
	prev, had := c.swap(t.SessionID, seenHead{gitDir: repo.gitDir, sha: h.sha})
	if had && prev.gitDir != repo.gitDir {
		had = false
	}
	changed := had && h.sha != prev.sha && h.sha != ""
	recent := h.moved.After(since) && h.work
	if had && prev.start != "" && h.sha == prev.start {
		// Back where it started, or never left: nothing of its own.
		changed, recent = false, false
	}
	if !changed && !recent {
		return supervisor.Life{}, false, nil
	}
	at := c.opts.Now()
	if recent && h.moved.Before(at) {
		at = h.moved
	}
	detail := "HEAD moved"
	if h.sha != "" {
		detail += " to " + short(h.sha)
	}
	if h.branch != "" {
		detail += " on " + h.branch
	}
	if changed && prev.sha != "" {
		if n, ok := c.count(ctx, repo, prev.sha, h.sha); ok && n > 0 {
			detail += fmt.Sprintf(" (%d %s)", n, plural(n, "commit", "commits"))
		}
	}
	return supervisor.Life{Layer: c.Layer(), At: at, Detail: detail}, true, nil
}

// Forget drops what Commits keeps for a session that ended.
func (c *Commits) Forget(sessionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.seen, sessionID)
}

// swap stores the session's current head and returns the previous one;
// the start stays the first one seen in that git dir.
func (c *Commits) swap(sessionID string, cur seenHead) (seenHead, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prev, had := c.seen[sessionID]
	if had && prev.gitDir == cur.gitDir {
		cur.start = prev.start
	}
	c.seen[sessionID] = cur
	return prev, had
}

// read finds dir's repository and its HEAD.
func (c *Commits) read(ctx context.Context, dir string) (gitRepo, head, error) {
	if dir == "" {
		return gitRepo{}, head{}, errNotRepo
	}
	repo, err := findRepo(dir)
	if err != nil {
		return gitRepo{}, head{}, err
	}
	h, err := repo.head()
	if err != nil {
		return gitRepo{}, head{}, err
	}
	if h.sha == "" && isReftable(repo) {
		// Reftable keeps refs in binary tables, not files: ask git.
		h.sha, _ = c.git(ctx, repo, "rev-parse", "-q", "--verify", "HEAD")
		h.branch, _ = c.git(ctx, repo, "symbolic-ref", "-q", "--short", "HEAD")
	}
	return repo, h, nil
}

// isReftable reports whether a repository stores its refs in reftable
// format (git 2.45+), where HEAD names the placeholder "refs/heads/.invalid".
func isReftable(r gitRepo) bool {
	fi, err := os.Stat(filepath.Join(r.commonDir, "reftable"))
	return err == nil && fi.IsDir()
}

// count is how many commits new has that old lacks, when git can tell.
func (c *Commits) count(ctx context.Context, r gitRepo, oldSHA, newSHA string) (int, bool) {
	out, err := c.git(ctx, r, "rev-list", "--count", oldSHA+".."+newSHA)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(out)
	return n, err == nil
}

// git runs one git command against the worktree's git dir, with a short
// deadline: evidence must never hold a check up.
func (c *Commits) git(ctx context.Context, r gitRepo, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := childproc.CommandContext(ctx, c.opts.Git, append([]string{"--git-dir", r.gitDir}, args...)...)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// short abbreviates a SHA the way people read it.
func short(sha string) string { return sha[:min(7, len(sha))] }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
