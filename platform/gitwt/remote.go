package gitwt

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/buildstation/buildstation/supervisor"
)

// A project with a remote keeps its task branches there too, so a task
// blocked on one station and requeued can go on at another from its last
// green commit. Only the task's own refs travel (bs/<board>/<task> and its
// -attempt-/-unsaved saves); the station writes nothing else to a remote.
//
// What the station last saw of each on the remote is kept under
// refs/buildstation/<remote>/…, not refs/remotes/: a person's own `git
// fetch` must not move it, for it is the lease of every push (a push lands
// only if the remote still holds what this station last saw) and it tells
// "another station pushed since" from "this station is ahead".

// trackPrefix is where the station keeps what it last saw on remote.
func trackPrefix(remote string) string { return "refs/buildstation/" + remote + "/" }

// taskLock serialises a task's fetches, pushes and resets: a push of the
// old tip racing a resume's push of the new one would have one refused.
func (m *Manager) taskLock(p supervisor.Repo, taskID string) func() {
	v, _ := m.taskMu.LoadOrStore(p.Path+"\x00"+taskID, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// remoteFor is the remote p's task branches travel through, or "" for
// none: remote off, or the default remote when the repository lacks it. A
// remote named in config.toml that the repository lacks is an error.
func (m *Manager) remoteFor(ctx context.Context, p supervisor.Repo) (string, error) {
	if p.Remote == "" {
		return "", nil
	}
	ok, err := gitCheck(ctx, p.Path, "config", "--get", "remote."+p.Remote+".url")
	if err != nil {
		return "", err
	}
	if !ok {
		if p.RemoteAuto {
			return "", nil
		}
		return "", fmt.Errorf("the repository at %s has no remote %q: add it (git remote add %s URL) or set remote = \"off\" for project %s in config.toml",
			p.Path, p.Remote, p.Remote, p.Name)
	}
	return p.Remote, nil
}

// remoteEnv keeps git from asking for a password on a terminal the
// station does not have: a remote that wants one fails at once instead.
var remoteEnv = []string{"GIT_TERMINAL_PROMPT=0"}

// taskRefs maps the task's refs under prefix (its branch and its saves,
// branch-*) to their commits, by branch name.
func taskRefs(ctx context.Context, dir, prefix, branch string) (map[string]string, error) {
	out, err := git(ctx, dir, "for-each-ref", "--format=%(refname)%00%(objectname)",
		prefix+branch, prefix+branch+"-*")
	if err != nil {
		return nil, err
	}
	refs := map[string]string{}
	for _, l := range lines(out) {
		name, sha, ok := strings.Cut(l, "\x00")
		if !ok {
			return nil, fmt.Errorf("git for-each-ref: unexpected line %q", l)
		}
		refs[strings.TrimPrefix(name, prefix)] = sha
	}
	return refs, nil
}

// fetch copies the remote's refs of the task into the station's record of
// the remote.
func fetch(ctx context.Context, dir, remote, branch string) error {
	track := trackPrefix(remote)
	// A refspec without a glob fails when the remote lacks the branch; a
	// glob does not. It takes bs/b/t10… along with bs/b/t1…, which costs
	// some objects but no confusion: taskRefs reads branch and branch-*.
	_, err := gitEnv(ctx, dir, remoteEnv, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", remote,
		"+refs/heads/"+branch+"*:"+track+branch+"*")
	return err
}

// Sync implements supervisor.Workspaces: it fetches the task's branches
// from the project's remote and, when another station pushed newer work
// since this one last looked, makes the worktree start from it, first
// putting this station's own older work (commits and uncommitted files) on
// a branch of its own. Saves another station pushed appear here as local
// branches, so a resume note naming one can be followed on any station.
func (m *Manager) Sync(ctx context.Context, p supervisor.Repo, taskID string) (supervisor.Synced, error) {
	if err := checkTaskID(taskID); err != nil {
		return supervisor.Synced{}, err
	}
	r, ok, err := m.repo(ctx, p)
	if err != nil || !ok {
		return supervisor.Synced{}, err
	}
	remote, err := m.remoteFor(ctx, p)
	if err != nil || remote == "" {
		return supervisor.Synced{}, err
	}
	defer m.taskLock(p, taskID)()
	res, err := m.sync(ctx, p, r, remote, taskID)
	if err != nil {
		return supervisor.Synced{Remote: remote}, fmt.Errorf("fetch %s from %s: %w", m.Branch(taskID), remote, err)
	}
	return res, nil
}

func (m *Manager) sync(ctx context.Context, p supervisor.Repo, r repoInfo, remote, taskID string) (supervisor.Synced, error) {
	res := supervisor.Synced{Remote: remote}
	branch := m.Branch(taskID)
	track := trackPrefix(remote)
	before, theirs, ours, err := fetchTaskRefs(ctx, p.Path, remote, branch)
	if err != nil {
		return res, err
	}
	newer, pushed := theirs[branch]
	if !pushed {
		// Nothing on the remote yet: this station's own worktree (or a
		// new one) is all there is.
		_, _, err := m.ensure(ctx, p, r, taskID)
		return res, err
	}
	dir := m.worktreeDir(p, taskID)
	local, hasBranch := ours[branch]
	head, hasWorktree, err := worktreeHead(ctx, dir, local)
	if err != nil {
		return res, err
	}
	switch {
	case !hasBranch:
		// A task this station never ran: its branch starts where the
		// remote's is, and ensure adds its worktree there.
		if _, err := git(ctx, p.Path, "branch", "--no-track", branch, newer); err != nil {
			return res, err
		}
	case head == newer:
		_, _, err := m.ensure(ctx, p, r, taskID)
		return res, err
	case before[branch] == newer:
		// The remote holds what this station last saw there (it pushed
		// it): nobody worked on the task elsewhere since, and what is
		// here is newer.
		_, _, err := m.ensure(ctx, p, r, taskID)
		return res, err
	default:
		// Another station pushed since this one last looked: its work
		// is the task's newest. Keep ours on a branch first.
		if res.Saved, err = takeTheirs(ctx, p.Path, dir, hasWorktree, track, branch, newer, head); err != nil {
			return res, err
		}
	}
	if _, _, err := m.ensure(ctx, p, r, taskID); err != nil {
		return res, err
	}
	c, err := describe(ctx, p.Path, newer)
	if err != nil {
		return res, err
	}
	res.Fetched, res.From, res.FromSubject = true, c.sha, c.subject
	m.log.Info("worktree takes the task's work from the remote", "project", p.Name, "task", taskID,
		"remote", remote, "from", c.sha, "saved", res.Saved)
	return res, nil
}

// fetchTaskRefs fetches the task's branches from remote and reads them as
// they were before (before), as the remote has them now (theirs) and as
// this repository has them (ours). A branch of the task's (a -local save)
// that only the remote has is created here, so no station's save is lost.
func fetchTaskRefs(ctx context.Context, repo, remote, branch string) (before, theirs, ours map[string]string, err error) {
	track := trackPrefix(remote)
	if before, err = taskRefs(ctx, repo, track, branch); err != nil {
		return nil, nil, nil, err
	}
	if err := fetch(ctx, repo, remote, branch); err != nil {
		return nil, nil, nil, err
	}
	if theirs, err = taskRefs(ctx, repo, track, branch); err != nil {
		return nil, nil, nil, err
	}
	if ours, err = taskRefs(ctx, repo, "refs/heads/", branch); err != nil {
		return nil, nil, nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(theirs)) {
		if _, have := ours[name]; name == branch || have {
			continue
		}
		if _, err := git(ctx, repo, "branch", "--no-track", name, theirs[name]); err != nil {
			return nil, nil, nil, err
		}
	}
	return before, theirs, ours, nil
}

// worktreeHead is the commit the task's worktree at dir has checked out,
// or the branch's tip local when the worktree is gone.
func worktreeHead(ctx context.Context, dir, local string) (head string, hasWorktree bool, err error) {
	_, statErr := os.Stat(filepath.Join(dir, ".git"))
	if statErr != nil && !errors.Is(statErr, fs.ErrNotExist) {
		return "", false, statErr
	}
	if statErr != nil {
		return local, false, nil
	}
	head, err = git(ctx, dir, "rev-parse", "--verify", "HEAD^{commit}")
	return head, true, err
}

// takeTheirs moves the task's branch (and its worktree, if there is one)
// to newer, another station's push, after saving this station's own work
// on a branch of its own, whose name it returns.
func takeTheirs(ctx context.Context, repo, dir string, hasWorktree bool, track, branch, newer, head string) (string, error) {
	saved, err := setAside(ctx, repo, dir, hasWorktree, track+branch, branch, head)
	if err != nil {
		return "", fmt.Errorf("save this station's own work first: %w", err)
	}
	if hasWorktree {
		if _, err := git(ctx, dir, "checkout", "--force", "--no-track", "-B", branch, newer); err != nil {
			return saved, err
		}
		if _, err := git(ctx, dir, "clean", "-fd"); err != nil {
			return saved, err
		}
		return saved, nil
	}
	// A worktree folder deleted by hand still holds its branch
	// until pruned, and git will not move a branch checked out.
	if _, err := git(ctx, repo, "worktree", "prune"); err != nil {
		return saved, err
	}
	if _, err := git(ctx, repo, "branch", "--force", "--no-track", branch, newer); err != nil {
		return saved, err
	}
	return saved, nil
}

// setAside puts this station's own work on the task — head, and with a
// worktree its uncommitted and untracked files — on the first free
// <branch>-local[-n], unless newer (the remote's work) already contains it.
func setAside(ctx context.Context, repo, dir string, hasWorktree bool, newer, branch, head string) (string, error) {
	keep := head
	if hasWorktree {
		status, err := git(ctx, dir, "status", "--porcelain", "--untracked-files=all")
		if err != nil {
			return "", err
		}
		if status != "" {
			if keep, err = commitSave(ctx, dir, head, "buildstation: uncommitted work saved before taking another station's newer work"); err != nil {
				return "", err
			}
		}
	}
	contained, err := gitCheck(ctx, repo, "merge-base", "--is-ancestor", keep, newer)
	if err != nil || contained {
		return "", err
	}
	return freeBranch(ctx, repo, branch+"-local", keep)
}

// freeBranch creates the first free branch of name, name-2, name-3… at sha.
func freeBranch(ctx context.Context, dir, name, sha string) (string, error) {
	for n := 1; ; n++ {
		try := name
		if n > 1 {
			try = fmt.Sprintf("%s-%d", name, n)
		}
		taken, err := gitCheck(ctx, dir, "rev-parse", "--verify", "--quiet", "refs/heads/"+try)
		if err != nil {
			return "", err
		}
		if !taken {
			_, err := git(ctx, dir, "branch", "--no-track", try, sha)
			return try, err
		}
	}
}

// Publish implements supervisor.Workspaces: it pushes each of the task's
// branches that differs from what the station last saw on the remote, with
// that as the lease, so a station never overwrites work another pushed
// since. A branch the remote refuses stays here as it is; the error says
// which and why.
func (m *Manager) Publish(ctx context.Context, p supervisor.Repo, taskID string) (supervisor.Published, error) {
	if err := checkTaskID(taskID); err != nil {
		return supervisor.Published{}, err
	}
	_, ok, err := m.repo(ctx, p)
	if err != nil || !ok {
		return supervisor.Published{}, err
	}
	remote, err := m.remoteFor(ctx, p)
	if err != nil || remote == "" {
		return supervisor.Published{}, err
	}
	defer m.taskLock(p, taskID)()
	res, err := m.publish(ctx, p, remote, taskID)
	if err != nil {
		return res, fmt.Errorf("push %s to %s: %w", m.Branch(taskID), remote, err)
	}
	return res, nil
}

func (m *Manager) publish(ctx context.Context, p supervisor.Repo, remote, taskID string) (supervisor.Published, error) {
	res := supervisor.Published{Remote: remote}
	branch := m.Branch(taskID)
	track := trackPrefix(remote)
	ours, err := taskRefs(ctx, p.Path, "refs/heads/", branch)
	if err != nil {
		return res, err
	}
	seen, err := taskRefs(ctx, p.Path, track, branch)
	if err != nil {
		return res, err
	}
	args, specs := pushArgs(remote, ours, seen)
	if len(specs) == 0 {
		res.Complete = true
		return res, nil
	}
	// No hooks: this is the station keeping its work safe, not the
	// user's push (as a save is not the user's commit).
	out, pushErr := gitOut(ctx, p.Path, remoteEnv, append(args, specs...)...)
	refused, done, err := recordPush(ctx, p.Path, track, out, ours, &res)
	if err != nil {
		return res, err
	}
	if len(refused) > 0 {
		return res, fmt.Errorf("refused: %s (another station pushed it since this one last fetched; the work stays here on the branch)", strings.Join(refused, "; "))
	}
	if pushErr != nil {
		return res, pushErr
	}
	if len(done) < len(specs) {
		return res, fmt.Errorf("git push did not report every branch: %q", out)
	}
	res.Complete = true
	m.log.Info("pushed the task's branches", "project", p.Name, "task", taskID, "remote", remote, "branches", res.Pushed)
	return res, nil
}

// pushArgs is the git push of every task branch of ours that the remote
// does not hold as this station last saw it, each with its lease.
func pushArgs(remote string, ours, seen map[string]string) (args, specs []string) {
	args = []string{"push", "--porcelain", "--no-verify", remote}
	for _, name := range slices.Sorted(maps.Keys(ours)) {
		if seen[name] == ours[name] {
			continue
		}
		// The lease: the remote must still hold what this station saw
		// there ("" : nothing), or the push of this branch is refused.
		args = append(args, "--force-with-lease=refs/heads/"+name+":"+seen[name])
		specs = append(specs, "refs/heads/"+name+":refs/heads/"+name)
	}
	return args, specs
}

// recordPush reads git push --porcelain's report: each branch the remote
// took is recorded as seen there (and, if it moved, in res.Pushed); each
// it refused is returned with git's reason.
func recordPush(ctx context.Context, repo, track, out string, ours map[string]string, res *supervisor.Published) (refused []string, done map[string]bool, err error) {
	done = map[string]bool{}
	for _, l := range lines(out) {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 || len(f[0]) != 1 {
			continue
		}
		name := strings.TrimPrefix(strings.SplitN(f[1], ":", 2)[0], "refs/heads/")
		if _, ok := ours[name]; !ok {
			continue
		}
		if f[0] == "!" {
			refused = append(refused, name+" "+f[2])
			continue
		}
		done[name] = true
		if _, err := git(ctx, repo, "update-ref", track+name, ours[name]); err != nil {
			return refused, done, err
		}
		if f[0] != "=" {
			res.Pushed = append(res.Pushed, name)
		}
	}
	return refused, done, nil
}
