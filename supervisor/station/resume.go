package station

import (
	"context"
	"fmt"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// resume resets a blocked task's worktree to its last green commit and
// returns the notes its next session is handed: why it was blocked, the
// failing gate's output, what was kept and where the rest went. With a
// remote, it first takes the newest work any station pushed of the task,
// and pushes the reset branch and the save after, before the task is
// requeued: whichever station takes it up fetches exactly that. elsewhere
// names the station that held the task's work, when a person let any
// station take it (requeue --anywhere).
func (st *Station) resume(ctx context.Context, t supervisor.Task, elsewhere string) ([]string, error) {
	var notes []string
	if t.Reason != "" {
		notes = append(notes, fmt.Sprintf("Attempt %d was blocked: %s", t.Attempt, t.Reason))
	}
	ws := st.opt.Workspaces
	p, ok := st.Config().Project(t.Project)
	if ws == nil || !ok {
		return notes, nil
	}
	sctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	synced, err := ws.Sync(sctx, p.Repo, t.ID)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("requeue task %s: %w; try again when the remote answers", t.ID, err)
	}
	w, err := ws.Prepare(ctx, p.Repo, t.ID)
	if err != nil {
		return nil, fmt.Errorf("requeue task %s: prepare its worktree: %w", t.ID, err)
	}
	if !w.Git {
		return notes, nil
	}
	r, err := ws.Resume(ctx, p.Repo, t.ID, t.Attempt)
	if err != nil {
		return nil, fmt.Errorf("requeue task %s: resume from the last green commit: %w", t.ID, err)
	}
	notes = append(notes, resumeNote(r, w.Branch))
	if elsewhere != "" {
		notes = append(notes, fmt.Sprintf("Work of earlier attempts that station %s did not push is on that station only (branch %s there); this attempt goes on without it.",
			elsewhere, w.Branch))
	}
	if synced.Remote != "" {
		// Before the move to todo: the station that takes the task up
		// fetches what this push leaves on the remote. A failed push
		// keeps the task pinned here, where the reset worktree is.
		pctx, cancel := context.WithTimeout(ctx, pushTimeout)
		pub, err := ws.Publish(pctx, p.Repo, t.ID)
		cancel()
		st.branches.pushed(t.ID, pushReq{p: p, why: "requeue", settle: true}, pub, err)
	} else if _, shared := st.Shared.shared(); shared && elsewhere == "" {
		// No remote: the worktree reset here is the task's work now.
		st.branches.pin(ctx, t.ID)
	}
	return notes, nil
}

// resumeNote tells the next session, in words, where it starts from.
func resumeNote(r supervisor.Resumed, branch string) string {
	var b strings.Builder
	if r.BaseGate != nil && !r.BaseGate.Passed {
		// Nothing is green: say where it starts, not that it is green.
		fmt.Fprintf(&b, "Your worktree (branch %s) was reset to %s", branch, supervisor.ShortSHA(r.Green))
		if r.GreenSubject != "" {
			fmt.Fprintf(&b, " %q", r.GreenSubject)
		}
		b.WriteString(", the commit the task started from: no commit of this task passed the gate, and the gate fails there too.")
	} else {
		fmt.Fprintf(&b, "Your worktree (branch %s) was reset to the last green commit %s", branch, supervisor.ShortSHA(r.Green))
		if r.GreenSubject != "" {
			fmt.Fprintf(&b, " %q", r.GreenSubject)
		}
		b.WriteString(".")
	}
	if len(r.Kept) > 0 {
		fmt.Fprintf(&b, " Commits kept: %s.", strings.Join(r.Kept, "; "))
	}
	if r.Saved != "" {
		what := "later commits"
		if r.Dirty && len(r.SavedCommits) <= 1 {
			what = "uncommitted work"
		} else if r.Dirty {
			what = "later commits and uncommitted work"
		}
		verb := "were"
		if what == "uncommitted work" {
			verb = "was"
		}
		fmt.Fprintf(&b, " The %s %s saved on branch %s (%s); look there before redoing anything.", what, verb, r.Saved, strings.Join(r.SavedCommits, "; "))
	}
	if r.Failed == nil && r.BaseGate != nil && !r.BaseGate.Passed {
		r.Failed = r.BaseGate
	}
	if r.Failed != nil && !r.Failed.Passed {
		if tail := strings.TrimSpace(r.Failed.Tail); tail != "" {
			fmt.Fprintf(&b, " The gate failed on %s; the end of its output:\n%s", supervisor.ShortSHA(r.Failed.SHA), tail)
		} else {
			fmt.Fprintf(&b, " The gate failed on %s, printing nothing.", supervisor.ShortSHA(r.Failed.SHA))
		}
	}
	return b.String()
}
