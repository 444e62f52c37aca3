package gitwt

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// DefaultGateTimeout bounds a gate run when Manager.GateTimeout is zero: long
// enough for a real test suite, short enough that a hung gate does not hold
// a resume forever.
const DefaultGateTimeout = 30 * time.Minute

// Manager implements supervisor.Workspaces with the git CLI.
type Manager struct {
	// GateTimeout bounds one gate run; a gate still running then has
	// failed. Zero means DefaultGateTimeout. Set it before first use.
	GateTimeout time.Duration

	cache supervisor.GateCache // may be nil: every gate then runs afresh
	log   *slog.Logger

	// BoardID, when set, goes into every branch name (bs/<board>/<task>):
	// task ids restart at t1 on every board, and two boards working one
	// repository must never find each other's branches. Set it before
	// first use.
	BoardID string

	// taskMu holds a *sync.Mutex per task (taskLock).
	taskMu sync.Map

	// excludeMu serialises edits of info/exclude, which concurrent
	// Prepares of one repo would otherwise interleave.
	excludeMu sync.Mutex
}

var _ supervisor.Workspaces = (*Manager)(nil)

// New returns a Manager that keeps gate verdicts in cache (the board), so a
// gate runs once per commit across restarts. A nil log discards.
func New(cache supervisor.GateCache, log *slog.Logger) *Manager {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{cache: cache, log: log}
}

// Branch is the branch a task's worktree is on, without a board id.
func Branch(taskID string) string { return "bs/" + taskID }

// Branch is the branch taskID's worktree is on: bs/<board>/<task>, or
// bs/<task> without a board id.
func (m *Manager) Branch(taskID string) string {
	if m.BoardID == "" {
		return Branch(taskID)
	}
	return "bs/" + m.BoardID + "/" + taskID
}

// repoInfo is what Manager needs to know about a project's repo.
type repoInfo struct {
	// prefix is the project folder relative to the repo's top, slash
	// separated with a trailing slash ("" at the top): a project may be one
	// folder of a monorepo, and its sessions and gates run in that folder
	// of the worktree.
	prefix string
}

// repo reports whether p.Path is inside a git work tree. A failure of git
// there (not a repo, a bare repo, no git installed) means "not git": the task
// then runs in the project folder itself, as the design promises for
// non-git projects. Never in a folder git refuses for its ownership, nor in
// another user's folder (CheckFolder): that is an error, which blocks the
// task with its reason instead of running the agent where another user
// can plant what it runs.
func (m *Manager) repo(ctx context.Context, p supervisor.Repo) (repoInfo, bool, error) {
	out, err := git(ctx, p.Path, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		if ctx.Err() != nil {
			return repoInfo{}, false, fmt.Errorf("look for git repo in %s: %w", p.Path, ctx.Err())
		}
		if refused := refusedFolder(err, p.Path); refused != nil {
			return repoInfo{}, false, refused
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			m.log.Debug("project is not a git work tree", "project", p.Name, "path", p.Path, "err", err)
		} else {
			m.log.Warn("cannot run git; project runs without worktrees", "project", p.Name, "err", err)
		}
		return repoInfo{}, false, nil
	}
	ls := lines(out)
	var prefix string
	if len(ls) > 1 {
		prefix = ls[1]
	}
	return repoInfo{prefix: prefix}, true, nil
}

// worktreeDir is where taskID's worktree lives: under the board's id when
// there is one, so two homes on one repository never share a folder (each
// has its own t1).
func (m *Manager) worktreeDir(p supervisor.Repo, taskID string) string {
	if m.BoardID != "" {
		return filepath.Join(p.WorktreeRoot, m.BoardID, taskID)
	}
	return filepath.Join(p.WorktreeRoot, taskID)
}

// checkTaskID refuses IDs that would escape the worktree root or make a
// bad branch name; the board's IDs (t1, t2, …) always pass.
func checkTaskID(id string) error {
	if id == "" || id[0] == '.' || id[0] == '-' || strings.HasSuffix(id, ".lock") {
		return fmt.Errorf("task id %q cannot name a worktree", id)
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		if !ok {
			return fmt.Errorf("task id %q cannot name a worktree", id)
		}
	}
	return nil
}

// Prepare returns the task's workspace: its worktree on bs/<task-id>,
// created on first use and reused as is afterwards (a requeue or a restart
// finds the agent's work where it left it), or the project folder when the
// project is not a git repo. A new worktree is readied first: the ignored
// files .worktreeinclude names are brought in and the project's setup
// runs (Workspace.Setup says how it went). A setup that fails is a
// *supervisor.SetupError, with the workspace as it is.
func (m *Manager) Prepare(ctx context.Context, p supervisor.Repo, taskID string) (supervisor.Workspace, error) {
	r, ok, err := m.repo(ctx, p)
	if err != nil {
		return supervisor.Workspace{}, err
	}
	if !ok {
		return supervisor.Workspace{Dir: p.Path}, nil
	}
	dir, base, err := m.ensure(ctx, p, r, taskID)
	if err != nil {
		return supervisor.Workspace{}, err
	}
	ws := supervisor.Workspace{
		Dir:    filepath.Join(dir, filepath.FromSlash(r.prefix)),
		Git:    true,
		Branch: m.Branch(taskID),
		Base:   base,
	}
	// Ready before the agent starts, so its windows never count the
	// setup's time as its silence.
	ws.Setup, err = m.readyTask(ctx, p, r, dir, taskID)
	if err != nil {
		var se *supervisor.SetupError
		if errors.As(err, &se) {
			return ws, err
		}
		return supervisor.Workspace{}, fmt.Errorf("ready the worktree for %s: %w", taskID, err)
	}
	return ws, nil
}

// ensure makes sure taskID's worktree exists and returns its folder and the
// commit its branch started from.
func (m *Manager) ensure(ctx context.Context, p supervisor.Repo, r repoInfo, taskID string) (dir, base string, err error) {
	if err := checkTaskID(taskID); err != nil {
		return "", "", err
	}
	// Before the worktree exists, so there is no moment where it shows
	// as untracked in the user's repo.
	if err := m.exclude(ctx, p, r); err != nil {
		return "", "", fmt.Errorf("create worktree for %s: %w", taskID, err)
	}
	dir = m.worktreeDir(p, taskID)
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		base, err := m.base(ctx, p, dir, taskID)
		if err != nil {
			return "", "", fmt.Errorf("reuse worktree for %s: %w", taskID, err)
		}
		return dir, base, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", "", fmt.Errorf("create worktree for %s: %w", taskID, err)
	}
	base, err = m.create(ctx, p, dir, taskID)
	if err != nil {
		return "", "", fmt.Errorf("create worktree for %s: %w", taskID, err)
	}
	return dir, base, nil
}

// create adds the worktree: a new branch from the project's base, or the
// task's existing branch when its worktree was removed earlier.
func (m *Manager) create(ctx context.Context, p supervisor.Repo, dir, taskID string) (string, error) {
	branch := m.Branch(taskID)
	// A worktree folder deleted by hand stays registered until pruned, and
	// git then refuses to add one at the same path or on the same branch.
	if _, err := git(ctx, p.Path, "worktree", "prune"); err != nil {
		return "", err
	}
	if err := os.MkdirAll(p.WorktreeRoot, 0o755); err != nil {
		return "", err
	}
	start, err := m.start(ctx, p)
	if err != nil {
		return "", err
	}
	exists, err := gitCheck(ctx, p.Path, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch)
	if err != nil {
		return "", err
	}
	var base string
	if exists {
		// Never silently: with the board id in the name, only this
		// board's same task can have made it (its worktree was removed,
		// its work kept); say what was found.
		m.log.Warn("found the task's branch already there; its worktree starts from it", "project", p.Name, "task", taskID, "branch", branch)
		if _, err := git(ctx, p.Path, "worktree", "add", dir, branch); err != nil {
			return "", err
		}
		// The recorded base went with the old worktree; the fork point
		// from the start branch is where the task began.
		if base, err = git(ctx, p.Path, "merge-base", start, branch); err != nil {
			return "", err
		}
	} else {
		// Branch from the resolved sha, not the name, so the base recorded
		// is exactly where the branch starts even if the name moves now.
		if _, err := git(ctx, p.Path, "worktree", "add", "-b", branch, dir, start); err != nil {
			return "", err
		}
		base = start
	}
	if err := writeBase(ctx, dir, base); err != nil {
		return "", err
	}
	m.log.Info("created worktree", "project", p.Name, "task", taskID, "dir", dir, "branch", branch, "base", base, "reused_branch", exists)
	return base, nil
}

// start resolves where new branches start: p.Base, else the repo's HEAD.
func (m *Manager) start(ctx context.Context, p supervisor.Repo) (string, error) {
	rev := "HEAD"
	if p.Base != "" {
		rev = p.Base
	}
	return git(ctx, p.Path, "rev-parse", "--verify", rev+"^{commit}")
}

// Remove deletes the task's worktree. Its branch stays: it holds the work,
// and deleting branches is the user's call.
func (m *Manager) Remove(ctx context.Context, p supervisor.Repo, taskID string) error {
	if err := checkTaskID(taskID); err != nil {
		return err
	}
	_, ok, err := m.repo(ctx, p)
	if err != nil || !ok {
		return err
	}
	dir := m.worktreeDir(p, taskID)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		_, err := git(ctx, p.Path, "worktree", "prune")
		if err != nil {
			return fmt.Errorf("remove worktree for %s: %w", taskID, err)
		}
		return nil
	}
	// A done or cancelled task may still leave uncommitted files: save them
	// on a branch first, so removing the worktree never loses a byte.
	if saved, err := saveDirty(ctx, dir, m.Branch(taskID)); err != nil {
		return fmt.Errorf("remove worktree for %s: save uncommitted work first: %w", taskID, err)
	} else if saved != "" {
		m.log.Warn("saved uncommitted work before removing the worktree", "task", taskID, "branch", saved)
	}
	if _, err := git(ctx, p.Path, "worktree", "remove", "--force", dir); err != nil {
		return fmt.Errorf("remove worktree for %s: %w", taskID, err)
	}
	if _, err := git(ctx, p.Path, "worktree", "prune"); err != nil {
		return fmt.Errorf("remove worktree for %s: %w", taskID, err)
	}
	m.log.Info("removed worktree", "project", p.Name, "task", taskID, "dir", dir)
	return nil
}

// saveDirty commits a dirty worktree's changes on bs/<task>-unsaved (or a
// free variant of it) and returns that branch; "" when there was nothing.
func saveDirty(ctx context.Context, dir, branch string) (string, error) {
	status, err := git(ctx, dir, "status", "--porcelain", "--untracked-files=all")
	if err != nil || status == "" {
		return "", err
	}
	head, err := git(ctx, dir, "rev-parse", "HEAD")
	if err != nil {
		return "", err
	}
	sha, err := commitWorkInProgress(ctx, dir, head, 0)
	if err != nil {
		return "", err
	}
	return freeBranch(ctx, dir, branch+"-unsaved", sha)
}
