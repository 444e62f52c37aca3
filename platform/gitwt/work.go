package gitwt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// Finished work one command away: what a task's branch holds, its diff,
// and taking it into a branch of the project. These read the branch, not
// the worktree, so they work after the worktree is gone.

// taskRange is where the task's branch starts and ends; ok is false when
// the project is not git or the branch does not exist yet.
func (m *Manager) taskRange(ctx context.Context, p supervisor.Repo, taskID string) (base, head string, ok bool, err error) {
	if err := checkTaskID(taskID); err != nil {
		return "", "", false, err
	}
	if _, isGit, err := m.repo(ctx, p); err != nil || !isGit {
		return "", "", false, err
	}
	branch := m.Branch(taskID)
	head, err = git(ctx, p.Path, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch+"^{commit}")
	if err != nil {
		return "", "", false, nil // no branch yet
	}
	dir := m.worktreeDir(p, taskID)
	if _, serr := os.Stat(filepath.Join(dir, ".git")); serr == nil {
		base, err = m.base(ctx, p, dir, taskID)
	} else {
		// The worktree is gone with its record: the fork point.
		var start string
		if start, err = m.start(ctx, p); err == nil {
			base, err = git(ctx, p.Path, "merge-base", start, head)
		}
	}
	if err != nil {
		return "", "", false, fmt.Errorf("find where %s started: %w", branch, err)
	}
	return base, head, true, nil
}

// Work says what the task's branch holds.
func (m *Manager) Work(ctx context.Context, p supervisor.Repo, taskID string) (supervisor.TaskWork, bool, error) {
	base, head, ok, err := m.taskRange(ctx, p, taskID)
	if err != nil || !ok {
		return supervisor.TaskWork{}, false, err
	}
	w := supervisor.TaskWork{Branch: m.Branch(taskID), Base: base, Head: head, Commits: []string{}}
	cs, err := firstParentLog(ctx, p.Path, base+".."+head)
	if err != nil {
		return supervisor.TaskWork{}, false, fmt.Errorf("list the commits of %s: %w", w.Branch, err)
	}
	for _, c := range cs {
		w.Commits = append(w.Commits, c.sha[:min(10, len(c.sha))]+" "+c.subject)
	}
	if w.DiffStat, err = git(ctx, p.Path, "diff", "--shortstat", base, head, "--"); err != nil {
		return supervisor.TaskWork{}, false, fmt.Errorf("diff of %s: %w", w.Branch, err)
	}
	w.DiffStat = strings.TrimSpace(w.DiffStat)
	if into, err := m.startBranch(ctx, p); err == nil {
		w.MergeInto = into
	}
	if p.Gate != "" && m.cache != nil {
		passed, _, known, err := m.cache.GateResult(ctx, p.Name, head)
		if err != nil {
			return supervisor.TaskWork{}, false, err
		}
		if known {
			w.Gate = &supervisor.GateCheck{Commit: head, Passed: passed}
			if gt, ok := m.cache.(supervisor.GateTimes); ok {
				if at, ok, err := gt.GateCheckedAt(ctx, p.Name, head); err == nil && ok {
					w.Gate.CheckedAt = at
				}
			}
		}
	}
	w.Setup = m.setupOf(ctx, p, taskID)
	return w, true, nil
}

// setupOf is how taskID's worktree was readied, without the output (task
// show says how long it took and whether it passed; the transcript has
// the rest); nil when it needed nothing or is gone.
func (m *Manager) setupOf(ctx context.Context, p supervisor.Repo, taskID string) *supervisor.SetupRun {
	path, err := m.setupRecord(ctx, p, taskID)
	if err != nil {
		return nil
	}
	run, ok := readRecord(path)
	if !ok || !run.Ran() {
		return nil
	}
	run.Output = ""
	return &run
}

// Diff is the task's committed work from its base to its head.
func (m *Manager) Diff(ctx context.Context, p supervisor.Repo, taskID string, stat bool) (string, error) {
	base, head, ok, err := m.taskRange(ctx, p, taskID)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", supervisor.NotFoundf("task %s has no branch in %s yet: nothing to diff", taskID, p.Path)
	}
	return m.DiffRange(ctx, p, base, head, stat)
}

// DiffRange is the diff from base to head in the project's repository.
func (m *Manager) DiffRange(ctx context.Context, p supervisor.Repo, base, head string, stat bool) (string, error) {
	for _, sha := range []string{base, head} {
		if !isSHA(sha) {
			return "", supervisor.Invalidf("%q is not a commit id", sha)
		}
		if ok, err := gitCheck(ctx, p.Path, "rev-parse", "--verify", "--quiet", sha+"^{commit}"); err != nil || !ok {
			return "", supervisor.NotFoundf("commit %s is no longer in %s: its work cannot be shown", supervisor.ShortSHA(sha), p.Path)
		}
	}
	args := []string{"diff", "--no-color", "--no-ext-diff"}
	if stat {
		args = append(args, "--stat")
	}
	return git(ctx, p.Path, append(args, base, head, "--")...)
}

// Merge takes the task's branch into the branch into: a fast-forward when
// into has not moved on, else a merge commit built without touching any
// worktree (git merge-tree); a conflict changes nothing. A branch checked
// out somewhere is moved there with a fast-forward to the result, so that
// worktree follows, and only when it has no uncommitted changes.
func (m *Manager) Merge(ctx context.Context, p supervisor.Repo, taskID, into string) (supervisor.Merged, error) {
	_, head, ok, err := m.taskRange(ctx, p, taskID)
	if err != nil {
		return supervisor.Merged{}, err
	}
	if !ok {
		return supervisor.Merged{}, supervisor.NotFoundf("task %s has no branch in %s yet: nothing to merge", taskID, p.Path)
	}
	if into == "" {
		if into, err = m.startBranch(ctx, p); err != nil {
			return supervisor.Merged{}, err
		}
	}
	target, err := git(ctx, p.Path, "rev-parse", "--verify", "--quiet", "refs/heads/"+into+"^{commit}")
	if err != nil {
		return supervisor.Merged{}, supervisor.NotFoundf("no branch %q in %s; name an existing branch with --into", into, p.Path)
	}
	res := supervisor.Merged{Into: into, Commit: target}
	if done, _ := gitCheck(ctx, p.Path, "merge-base", "--is-ancestor", head, target); done {
		res.Already = true
		return res, nil
	}
	result := head
	if ff, _ := gitCheck(ctx, p.Path, "merge-base", "--is-ancestor", target, head); ff {
		res.FastForward = true
	} else if result, err = m.mergeCommit(ctx, p, taskID, into, target, head); err != nil {
		return supervisor.Merged{}, err
	}
	if err := moveBranch(ctx, p.Path, into, target, result); err != nil {
		return supervisor.Merged{}, err
	}
	res.Commit = result
	m.log.Info("merged task", "project", p.Name, "task", taskID, "into", into, "commit", result, "fast_forward", res.FastForward)
	return res, nil
}

// startBranch is the branch new worktrees start from: p.Base when it names
// a branch, else the branch checked out in the project folder.
func (m *Manager) startBranch(ctx context.Context, p supervisor.Repo) (string, error) {
	if p.Base != "" {
		if ok, _ := gitCheck(ctx, p.Path, "rev-parse", "--verify", "--quiet", "refs/heads/"+p.Base); ok {
			return p.Base, nil
		}
	}
	b, err := git(ctx, p.Path, "symbolic-ref", "--quiet", "--short", "HEAD")
	if err != nil || b == "" {
		return "", supervisor.Invalidf("the project folder %s is on no branch; name one with --into", p.Path)
	}
	return b, nil
}

// mergeCommit builds the merge of head into target as a commit object,
// changing no ref and no worktree; a conflict is errConflict naming the
// files.
func (m *Manager) mergeCommit(ctx context.Context, p supervisor.Repo, taskID, into, target, head string) (string, error) {
	out, err := gitOut(ctx, p.Path, nil, "merge-tree", "--write-tree", "--name-only", "--no-messages", target, head)
	ls := lines(out)
	if err != nil {
		if len(ls) > 1 {
			return "", supervisor.Conflictf("%s into %s conflicts in %s; nothing was changed: merge it by hand (git merge %s), or requeue the task with a note to rebase on %s",
				m.Branch(taskID), into, strings.Join(ls[1:], ", "), m.Branch(taskID), into)
		}
		return "", fmt.Errorf("merge %s into %s: %w", m.Branch(taskID), into, err)
	}
	if len(ls) == 0 {
		return "", fmt.Errorf("merge %s into %s: git merge-tree gave no tree", m.Branch(taskID), into)
	}
	args, err := identity(ctx, p.Path)
	if err != nil {
		return "", err
	}
	msg := fmt.Sprintf("Merge task %s (%s) into %s", taskID, m.Branch(taskID), into)
	args = append(args, "commit-tree", "--no-gpg-sign", "-p", target, "-p", head, "-m", msg, ls[0])
	return git(ctx, p.Path, args...)
}

// moveBranch points branch at to, from from: where it is checked out, by a
// fast-forward in that worktree (which must be clean), else by updating
// the ref only if it still holds from.
func moveBranch(ctx context.Context, repo, branch, from, to string) error {
	if wt, err := checkedOut(ctx, repo, branch); err != nil {
		return err
	} else if wt != "" {
		status, err := git(ctx, wt, "status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return err
		}
		if status != "" {
			return supervisor.Conflictf("%s is checked out in %s with uncommitted changes; commit or stash them, then merge again (nothing was changed)", branch, wt)
		}
		if _, err := git(ctx, wt, "merge", "--ff-only", "--quiet", to); err != nil {
			return fmt.Errorf("move %s in %s: %w", branch, wt, err)
		}
		return nil
	}
	if _, err := git(ctx, repo, "update-ref", "-m", "buildstation: merge", "refs/heads/"+branch, to, from); err != nil {
		return fmt.Errorf("move %s: %w", branch, err)
	}
	return nil
}

// checkedOut is the worktree branch is checked out in, "" when none.
func checkedOut(ctx context.Context, repo, branch string) (string, error) {
	out, err := git(ctx, repo, "worktree", "list", "--porcelain")
	if err != nil {
		return "", err
	}
	var wt string
	for _, l := range lines(out) {
		if p, ok := strings.CutPrefix(l, "worktree "); ok {
			wt = p
		}
		if l == "branch refs/heads/"+branch {
			return wt, nil
		}
	}
	return "", nil
}

// isSHA reports whether s is a full commit id (SHA-1 or SHA-256), so that
// a recorded one is never read by git as an option or a revision range.
func isSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}
