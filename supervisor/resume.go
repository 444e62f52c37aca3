package supervisor

import (
	"context"
	"fmt"
	"strings"
)

// resume resets a blocked task's worktree to its last green commit and
// returns the notes its next session is handed: why it was blocked, the
// failing gate's output, what was kept and where the rest went.
func (st *Station) resume(ctx context.Context, t Task) ([]string, error) {
	var notes []string
	if t.Reason != "" {
		notes = append(notes, fmt.Sprintf("Attempt %d was blocked: %s", t.Attempt, t.Reason))
	}
	ws := st.opt.Workspaces
	p, ok := st.Config().Project(t.Project)
	if ws == nil || !ok {
		return notes, nil
	}
	w, err := ws.Prepare(ctx, p, t.ID)
	if err != nil {
		return nil, fmt.Errorf("requeue task %s: prepare its worktree: %w", t.ID, err)
	}
	if !w.Git {
		return notes, nil
	}
	r, err := ws.Resume(ctx, p, t.ID, t.Attempt)
	if err != nil {
		return nil, fmt.Errorf("requeue task %s: resume from the last green commit: %w", t.ID, err)
	}
	return append(notes, resumeNote(r, w.Branch)), nil
}

// resumeNote tells the next session, in words, where it starts from.
func resumeNote(r Resumed, branch string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Your worktree (branch %s) was reset to the last green commit %s", branch, short(r.Green))
	if r.GreenSubject != "" {
		fmt.Fprintf(&b, " %q", r.GreenSubject)
	}
	b.WriteString(".")
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
	if r.Failed != nil && !r.Failed.Passed {
		if tail := strings.TrimSpace(r.Failed.Tail); tail != "" {
			fmt.Fprintf(&b, " The gate failed on %s; the end of its output:\n%s", short(r.Failed.SHA), tail)
		} else {
			fmt.Fprintf(&b, " The gate failed on %s, printing nothing.", short(r.Failed.SHA))
		}
	}
	return b.String()
}
