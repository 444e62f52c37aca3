package gitwt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/buildstation/buildstation/supervisor"
)

// Resume resets the task's worktree to its last green commit. Everything
// later — commits, uncommitted changes, untracked files — is first put on
// the branch bs/<task-id>-attempt-<attempt> (suffixed -2, -3… if that name
// is taken), and nothing destructive happens until that branch exists. A
// project that is not a git repo has nothing to reset: the zero Resumed.
func (m *Manager) Resume(ctx context.Context, p supervisor.Repo, taskID string, attempt int) (supervisor.Resumed, error) {
	r, ok, err := m.repo(ctx, p)
	if err != nil || !ok {
		return supervisor.Resumed{}, err
	}
	defer m.taskLock(p, taskID)() // not while the task's branches are pushed
	res, err := m.resume(ctx, p, r, taskID, attempt)
	if err != nil {
		return supervisor.Resumed{}, fmt.Errorf("resume %s: %w", taskID, err)
	}
	return res, nil
}

func (m *Manager) resume(ctx context.Context, p supervisor.Repo, r repoInfo, taskID string, attempt int) (supervisor.Resumed, error) {
	dir, base, err := m.ensure(ctx, p, r, taskID)
	if err != nil {
		return supervisor.Resumed{}, err
	}
	branch := m.Branch(taskID)
	head, err := git(ctx, dir, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return supervisor.Resumed{}, err
	}
	if err := checkOnBranch(ctx, dir, branch, head); err != nil {
		return supervisor.Resumed{}, err
	}

	res, err := m.findGreen(ctx, p, r, dir, base, head)
	if err != nil {
		return supervisor.Resumed{}, err
	}
	if err := saveLater(ctx, dir, branch, attempt, head, &res); err != nil {
		return supervisor.Resumed{}, err
	}

	// Everything later is on the attempt branch now. checkout -B moves the
	// task's branch to green and checks it out whether or not HEAD was on
	// it; clean removes the untracked files (saved too) but not ignored
	// ones, so build caches survive.
	if _, err := git(ctx, dir, "checkout", "--force", "--no-track", "-B", branch, res.Green); err != nil {
		return supervisor.Resumed{}, err
	}
	if _, err := git(ctx, dir, "clean", "-fd"); err != nil {
		return supervisor.Resumed{}, err
	}
	m.log.Info("resumed worktree", "project", p.Name, "task", taskID, "green", res.Green,
		"kept", len(res.Kept), "saved", res.Saved, "saved_commits", len(res.SavedCommits), "dirty", res.Dirty)
	return res, nil
}

// findGreen finds the newest green commit on the task's branch (base..head,
// first parents), or base itself when none is: res names it, the failing
// verdict just after it, and the commits from it down that are kept.
func (m *Manager) findGreen(ctx context.Context, p supervisor.Repo, r repoInfo, dir, base, head string) (supervisor.Resumed, error) {
	commits, err := firstParentLog(ctx, dir, base+".."+head)
	if err != nil {
		return supervisor.Resumed{}, err
	}
	green, failed, err := m.lastGreen(ctx, p, r, dir, commits)
	if err != nil {
		return supervisor.Resumed{}, err
	}
	res := supervisor.Resumed{Failed: failed}
	var greenCommit commit
	if green < len(commits) {
		greenCommit = commits[green]
	} else {
		if greenCommit, err = describe(ctx, dir, base); err != nil {
			return supervisor.Resumed{}, err
		}
		res.AtBase = true
		if p.Gate != "" {
			// Judge the base too: a prompt must not call it green when
			// the gate fails there as well.
			v, err := m.verdict(ctx, p, r, dir, greenCommit.sha)
			if err != nil {
				return supervisor.Resumed{}, err
			}
			res.BaseGate = &v
		}
	}
	res.Green, res.GreenSubject = greenCommit.sha, greenCommit.subject
	res.Kept = strs(commits[green:])
	return res, nil
}

// saveLater keeps everything past green before the branch is moved back:
// uncommitted work becomes a work-in-progress commit, and the commits
// after green go on the attempt's own branch (res.Saved).
func saveLater(ctx context.Context, dir, branch string, attempt int, head string, res *supervisor.Resumed) error {
	status, err := git(ctx, dir, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return err
	}
	res.Dirty = status != ""
	saved := head
	if res.Dirty {
		if saved, err = commitWorkInProgress(ctx, dir, head, attempt); err != nil {
			return fmt.Errorf("save work in progress: %w", err)
		}
	}
	if saved != res.Green {
		if res.Saved, err = saveBranch(ctx, dir, branch, attempt, saved); err != nil {
			return err
		}
		later, err := firstParentLog(ctx, dir, res.Green+".."+saved)
		if err != nil {
			return err
		}
		res.SavedCommits = strs(later)
	}
	return nil
}

// checkOnBranch refuses a worktree whose HEAD left the task's branch while
// the branch holds commits HEAD lacks: resetting the branch would drop them
// from every branch, and a resume must not throw work away. HEAD elsewhere
// but ahead of the branch (a detached HEAD, a side branch) is fine: the
// attempt branch saves HEAD.
func checkOnBranch(ctx context.Context, dir, branch, head string) error {
	ref, err := git(ctx, dir, "symbolic-ref", "-q", "HEAD")
	if err == nil && ref == "refs/heads/"+branch {
		return nil
	}
	ok, err := gitCheck(ctx, dir, "merge-base", "--is-ancestor", "refs/heads/"+branch, head)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("worktree %s is not on %s, which has commits its HEAD lacks; sort it out by hand", dir, branch)
	}
	return nil
}

// lastGreen searches commits (newest first) for the newest green one and
// returns its index, len(commits) when none is (the base is then green),
// and the failing verdict of the commit just after it. Without a gate every
// commit is green, by the atomic-commit convention.
func (m *Manager) lastGreen(ctx context.Context, p supervisor.Repo, r repoInfo, dir string, commits []commit) (int, *supervisor.GateVerdict, error) {
	if p.Gate == "" {
		return 0, nil, nil
	}
	var failed *supervisor.GateVerdict
	for i, c := range commits {
		v, err := m.verdict(ctx, p, r, dir, c.sha)
		if err != nil {
			return 0, nil, err
		}
		if v.Passed {
			return i, failed, nil
		}
		failed = &v
	}
	return len(commits), failed, nil
}

// commitWorkInProgress commits everything in the worktree — tracked changes
// and untracked files, not what git ignores — on top of head, and returns
// the commit. It builds the tree in a temporary index, so the worktree's
// index and HEAD stay as they are (this works mid-merge or detached too),
// runs no hooks and signs nothing: it is a save, not the user's commit.
func commitWorkInProgress(ctx context.Context, dir, head string, attempt int) (string, error) {
	msg := fmt.Sprintf("buildstation: work in progress saved before resume (attempt %d)", attempt)
	if attempt == 0 {
		msg = "buildstation: uncommitted work saved before removing the worktree"
	}
	return commitSave(ctx, dir, head, msg)
}

// commitSave is commitWorkInProgress with its message.
func commitSave(ctx context.Context, dir, head, msg string) (string, error) {
	tmp, err := os.MkdirTemp("", "buildstation-index-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}
	if _, err := gitEnv(ctx, dir, env, "read-tree", head); err != nil {
		return "", err
	}
	if _, err := gitEnv(ctx, dir, env, "add", "--all"); err != nil {
		return "", err
	}
	tree, err := gitEnv(ctx, dir, env, "write-tree")
	if err != nil {
		return "", err
	}
	args, err := identity(ctx, dir)
	if err != nil {
		return "", err
	}
	args = append(args, "commit-tree", "--no-gpg-sign", "-p", head, "-m", msg, tree)
	return git(ctx, dir, args...)
}

// identity returns -c options naming Build Station as the author when the
// user has not configured one, where git would refuse to commit or make up
// an address from the host name.
func identity(ctx context.Context, dir string) ([]string, error) {
	var args []string
	for _, kv := range [][2]string{{"user.name", "Build Station"}, {"user.email", "buildstation@localhost"}} {
		ok, err := gitCheck(ctx, dir, "config", kv[0])
		if err != nil {
			return nil, err
		}
		if !ok {
			args = append(args, "-c", kv[0]+"="+kv[1])
		}
	}
	return args, nil
}

// saveBranch creates the attempt branch at sha, with the first free name:
// a task requeued twice at the same attempt keeps both saves.
func saveBranch(ctx context.Context, dir, branch string, attempt int, sha string) (string, error) {
	name := branch + "-attempt-" + strconv.Itoa(attempt)
	for n := 1; ; n++ {
		try := name
		if n > 1 {
			try += "-" + strconv.Itoa(n)
		}
		taken, err := gitCheck(ctx, dir, "rev-parse", "--verify", "--quiet", "refs/heads/"+try)
		if err != nil {
			return "", err
		}
		if taken {
			continue
		}
		if _, err := git(ctx, dir, "branch", "--no-track", try, sha); err != nil {
			return "", fmt.Errorf("save work on %s: %w", try, err)
		}
		return try, nil
	}
}
