package supervisor

import (
	"context"
	"time"
)

// Repo is what the workspaces need of a project: where it is, what makes
// a commit green, and where its task branches start and travel. The
// config's project carries one (config.Project embeds it), so the
// vocabulary itself reads no config.
type Repo struct {
	Name string
	Path string // absolute; an existing directory (on a shared board it may be missing here)
	Gate string // command that makes a commit green; "" = every commit is
	// Setup is a shell command run in each new worktree and gate checkout
	// (after .worktreeinclude's files are copied in): what the project
	// needs before an agent or a gate can work there ("npm ci"); "" none.
	Setup        string
	SetupTimeout time.Duration // a setup still running then has failed; 0: DefaultSetupTimeout
	Base         string        // branch new worktrees start from; "" = current HEAD
	WorktreeRoot string        // absolute; default <Path>/.buildstation/worktrees
	// Remote is the git remote the station pushes the task branches
	// (bs/…) to and fetches them from, so a task resumes on any station;
	// "" is off. RemoteAuto: remote was not set, and Remote is the
	// default ("origin" on a shared board), used only when the repository
	// has a remote by that name.
	Remote     string
	RemoteAuto bool
}

// Workspaces gives each task a place to run: its own git worktree on branch
// bs/<task-id> when the project is a git repo, the project folder otherwise.
// platform/gitwt implements it with the real git CLI, so the user's git
// config and hooks apply.
type Workspaces interface {
	// Prepare returns the task's workspace, creating its worktree on first use.
	Prepare(ctx context.Context, p Repo, taskID string) (Workspace, error)
	// Resume resets a blocked task's worktree to its last green commit,
	// first saving every later commit and all uncommitted or untracked work
	// on the branch bs/<task-id>-attempt-<attempt>. Nothing is thrown away.
	Resume(ctx context.Context, p Repo, taskID string, attempt int) (Resumed, error)
	// Sync brings the task's branches from the project's remote, when it
	// has one, before a session starts or a resume: a task that ran on
	// another station goes on from the work that station pushed. This
	// station's own older work is never dropped: it is moved to a branch.
	// Only call it when no session runs in the worktree.
	Sync(ctx context.Context, p Repo, taskID string) (Synced, error)
	// Publish pushes the task's branches (bs/<board>/<task> and its saves,
	// nothing else) to the project's remote, when it has one, each only if
	// the remote still holds what this station last saw there.
	Publish(ctx context.Context, p Repo, taskID string) (Published, error)
	// Remove deletes a finished task's worktree; its branch stays.
	Remove(ctx context.Context, p Repo, taskID string) error
	// HeadGate reports the gate's cached verdict on the worktree's HEAD;
	// with run, it runs the gate there when it has not run yet. ran is false
	// when there is no verdict (no gate, not git, or not cached and !run).
	HeadGate(ctx context.Context, p Repo, taskID string, run bool) (g GateVerdict, ran bool, err error)
	// Work says what the task's branch holds: its base, head, commits,
	// diff stat and the gate's verdict on its head. ok is false when the
	// project is not git or the task has no branch yet.
	Work(ctx context.Context, p Repo, taskID string) (w TaskWork, ok bool, err error)
	// Diff is the task's committed work, base to head (stat: git's
	// --stat summary).
	Diff(ctx context.Context, p Repo, taskID string, stat bool) (string, error)
	// DiffRange is the diff from base to head in the project's repository:
	// a task's recorded work, once its branch no longer says where it
	// started.
	DiffRange(ctx context.Context, p Repo, base, head string, stat bool) (string, error)
	// Merge takes the task's branch into the project's branch into ("":
	// the branch new worktrees start from): a fast-forward where it can,
	// else a merge commit. A conflict changes nothing and is an error
	// naming the files.
	Merge(ctx context.Context, p Repo, taskID, into string) (Merged, error)
}

// TaskWork is what a task's branch holds, for `task show` and its card.
type TaskWork struct {
	Branch string `json:"branch"`
	Base   string `json:"base"`
	Head   string `json:"head"`
	// Commits are the task's own commits, base..head on first parents,
	// newest first: "sha subject".
	Commits  []string   `json:"commits"`
	DiffStat string     `json:"diff_stat,omitempty"` // git's --stat summary line
	Gate     *GateCheck `json:"gate,omitempty"`      // the gate's verdict on Head; nil when none is known
	// Setup is how the task's worktree was readied (its setup's command,
	// time and verdict); nil when it needed nothing.
	Setup *SetupRun `json:"setup,omitempty"`
	// MergeInto is the branch `task merge` takes the work into by
	// default (the project's base, else the branch checked out in its
	// folder); "" when none can be named.
	MergeInto string `json:"merge_into,omitempty"`
	// Merged says where and when the work was merged; nil until it is.
	Merged *MergeRecord `json:"merged,omitempty"`
}

// GateCheck is the gate's verdict on one commit and when it was reached.
type GateCheck struct {
	Commit    string    `json:"commit"`
	Passed    bool      `json:"passed"`
	CheckedAt time.Time `json:"checked_at,omitzero"`
}

// GateTimes is a GateCache that also knows when each verdict was reached
// (the board does).
type GateTimes interface {
	GateCheckedAt(ctx context.Context, project, sha string) (time.Time, bool, error)
}

// Merged says what Workspaces.Merge did.
type Merged struct {
	Into        string `json:"into"`         // the branch the work went into
	Commit      string `json:"commit"`       // that branch's new head
	FastForward bool   `json:"fast_forward"` // no merge commit was needed
	Already     bool   `json:"already"`      // the branch held the work already: nothing changed
}

// Workspace is where a task's session runs.
type Workspace struct {
	Dir    string `json:"dir"`
	Git    bool   `json:"git"`
	Branch string `json:"branch,omitempty"` // bs/<task-id>
	Base   string `json:"base,omitempty"`   // the commit it started from
	// Setup is what readying a new worktree did (.worktreeinclude's
	// files, the project's setup); nil when nothing was run this time.
	Setup *SetupRun `json:"setup,omitempty"`
}

// GateVerdict is the project's gate on one commit.
type GateVerdict struct {
	SHA    string `json:"sha"`
	Passed bool   `json:"passed"`
	Tail   string `json:"tail,omitempty"` // the end of its output, for people and prompts
	// Missing are the files git ignores that the project's folder has,
	// its checkout lacked, and the failed gate's output names (".env"):
	// the checkout's fault, not the commit's, so such a verdict is never
	// cached, and the task blocks for a person to add them to
	// .worktreeinclude.
	Missing []string `json:"missing,omitempty"`
}

// Resumed says what a resume kept and where the rest went.
type Resumed struct {
	Green        string       `json:"green"`                   // the commit the worktree was reset to
	GreenSubject string       `json:"green_subject,omitempty"` // its subject line
	Kept         []string     `json:"kept,omitempty"`          // "sha subject" of commits kept since the base
	Saved        string       `json:"saved,omitempty"`         // the attempt branch; "" when nothing was later
	SavedCommits []string     `json:"saved_commits,omitempty"` // "sha subject" of commits moved to it
	Dirty        bool         `json:"dirty,omitempty"`         // uncommitted or untracked work was saved too
	Failed       *GateVerdict `json:"failed,omitempty"`        // the gate that failed on the first commit after Green
	// AtBase: no commit of the task passed the gate, so Green is the base
	// the task started from; BaseGate is the gate's verdict there (nil
	// without a gate). A base the gate fails on is not green.
	AtBase   bool         `json:"at_base,omitempty"`
	BaseGate *GateVerdict `json:"base_gate,omitempty"`
}

// GateCache keeps gate verdicts per commit, so a gate runs once per SHA.
// The board implements it.
type GateCache interface {
	GateResult(ctx context.Context, project, sha string) (passed bool, tail string, ok bool, err error)
	SaveGateResult(ctx context.Context, project, sha string, passed bool, tail string) error
}

// Synced says what Workspaces.Sync took from the project's remote.
type Synced struct {
	// Remote is the git remote the task's branches travel through; ""
	// when the project has none (or it is off): nothing was fetched.
	Remote string `json:"remote,omitempty"`
	// Fetched: the worktree now holds work another station pushed, at
	// From; false when this station's own worktree was already as new.
	Fetched     bool   `json:"fetched,omitempty"`
	From        string `json:"from,omitempty"`
	FromSubject string `json:"from_subject,omitempty"`
	// Saved is the branch that keeps this station's own older work on the
	// task, moved aside for the newer work fetched; "" when there was none.
	Saved string `json:"saved,omitempty"`
}

// Published says what Workspaces.Publish pushed.
type Published struct {
	Remote string   `json:"remote,omitempty"` // "" when the project has none: nothing was pushed
	Pushed []string `json:"pushed,omitempty"` // the branches pushed now
	// Complete: every branch of the task is on the remote as it is here,
	// so another station can take the task up where this one left it.
	Complete bool `json:"complete,omitempty"`
}

// ShortSHA is a commit id as people read it in a prompt or a note: its
// first ten hex digits.
func ShortSHA(sha string) string {
	if len(sha) > 10 {
		return sha[:10]
	}
	return sha
}
