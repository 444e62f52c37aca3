package gitwt

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// The commit a task's branch started from is recorded in a file in the
// worktree's own git dir (.git/worktrees/<name>/buildstation-base): it is
// per worktree, so concurrent tasks never contend for a lock the way they
// would writing .git/config, and git removes it with the worktree. When it
// is missing (the worktree was re-added from an existing branch, or made by
// hand) the base is the branch's fork point from the project's start
// branch, and is recorded then.
const baseFile = "buildstation-base"

// basePath is where dir's worktree records its base.
func basePath(ctx context.Context, dir string) (string, error) {
	path, err := git(ctx, dir, "rev-parse", "--git-path", baseFile)
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) { // git answers relative to -C
		path = filepath.Join(dir, path)
	}
	return path, nil
}

func writeBase(ctx context.Context, dir, sha string) error {
	path, err := basePath(ctx, dir)
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(sha+"\n"), 0o644)
}

// base returns the commit taskID's branch started from.
func (m *Manager) base(ctx context.Context, p supervisor.Repo, dir, taskID string) (string, error) {
	path, err := basePath(ctx, dir)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		sha := strings.TrimSpace(string(data))
		// A recorded sha that no longer names a commit (history rewritten
		// and collected) is as good as none.
		if ok, err := gitCheck(ctx, dir, "rev-parse", "--verify", "--quiet", sha+"^{commit}"); err != nil || ok {
			return sha, err
		}
	case !errors.Is(err, fs.ErrNotExist):
		return "", err
	}
	start, err := m.start(ctx, p)
	if err != nil {
		return "", err
	}
	sha, err := git(ctx, dir, "merge-base", start, m.Branch(taskID))
	if err != nil {
		return "", err
	}
	return sha, writeBase(ctx, dir, sha)
}
