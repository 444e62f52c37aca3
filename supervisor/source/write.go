package source

import (
	"fmt"
	"strings"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

// WriteKind is what a write-back does upstream.
type WriteKind string

const (
	WriteComment WriteKind = "comment" // a comment on the issue (Text)
	WriteState   WriteKind = "state"   // the state: a Linear state, a label on GitHub (State)
	WritePR      WriteKind = "pr"      // push the task's branch and open a pull request (PR)
	WritePRNote  WriteKind = "pr-note" // a comment on the task's pull request (Text, Target)
	WriteAttach  WriteKind = "attach"  // link the task's pull request to the issue (Target; Linear)
	// WritePush pushes a later run's work to the task's branch: its pull
	// request, opened by the first run, shows it (no second one).
	WritePush WriteKind = "push"
	// WriteDone is a comment on the issue that the task is done, linking
	// its pull request (Target, filled in when it is sent).
	WriteDone WriteKind = "done"
	// WriteClose closes the issue with a comment (Text) once its pull
	// request was merged: GitHub's closed, Linear's completed state.
	WriteClose WriteKind = "close"
)

// Issue states the station writes.
const (
	StateInProgress = "In Progress"
	StateBlocked    = "Blocked"
	StateInReview   = "In Review"
)

// Write is one write-back owed to an issue. Key makes it once-only: the
// outbox takes a key once, ever, and a write is removed only when it has
// landed.
type Write struct {
	Key    string              `json:"key"` // "t3/1/start/comment"
	Kind   WriteKind           `json:"kind"`
	Source string              `json:"source"` // config.Source.Name of the source it goes through
	TaskID string              `json:"task_id"`
	Ref    supervisor.External `json:"ref"`
	Text   string              `json:"text,omitempty"`
	State  string              `json:"state,omitempty"`
	PR     *PullRequest        `json:"pr,omitempty"`
	// Target is the task's pull request's URL, filled in when it is sent
	// (WritePRNote, WriteAttach).
	Target string `json:"target,omitempty"`
	// Tried is set once a send was attempted: a replay checks upstream
	// for the write before it sends it again.
	Tried bool `json:"tried,omitempty"`
}

// PullRequest is the request a done task opens.
type PullRequest struct {
	Project string `json:"project"`
	Head    string `json:"head"` // the task's branch
	Base    string `json:"base"` // "" = the repository's default branch
	Title   string `json:"title"`
	Body    string `json:"body"`
}

// Marker is the hidden line a comment carries so that a replay can tell
// it landed already: `<!-- buildstation:KEY -->`.
func Marker(key string) string { return "<!-- buildstation:" + key + " -->" }

// Context is what Writes needs besides the task: who the station is and
// where a task's work is.
type Context struct {
	Station string                         // this station's name
	Branch  func(taskID string) string     // the task's branch
	Gate    func(t supervisor.Task) string // the gate's result on the task's head, for the PR ("" unknown)
}

// Writes is what task t's history h owes its issue, in order: for each
// start, a comment naming the station and the branch and the state In
// Progress; for each block, a comment with the reason (the watchdog's
// evidence) and the state Blocked; when the agent completes, the pull
// request, or for a later run its push to the same one; for each move to
// done, a comment on the issue linking the pull request; for each review
// verdict, a comment on the pull request; when the pull request was
// merged, the issue closed. The keys are stable, so asking again after
// more history yields the same writes first.
func Writes(t supervisor.Task, h []supervisor.Transition, c Context) []Write {
	ref := *t.External
	var ws []Write
	add := func(key string, kind WriteKind, text, state string) {
		ws = append(ws, Write{Key: t.ID + "/" + key, Kind: kind, TaskID: t.ID, Ref: ref, Text: text, State: state})
	}
	opened := false
	for i, tr := range h {
		n := fmt.Sprint(tr.Attempt)
		switch {
		case tr.From == tr.To && tr.Actor == PullActor && strings.HasSuffix(tr.Reason, mergedWord):
			add("close", WriteClose, fmt.Sprintf("Build Station: the pull request of %s was merged; this issue is done.", t.ID), "")
		case tr.From == tr.To:
			// A note or an ask on the task, not a move: nothing to write.
		case tr.To == supervisor.TaskWorking && tr.From != supervisor.TaskWorking:
			add(n+"/start/comment", WriteComment, fmt.Sprintf("Build Station started %s (attempt %d) on station %s, branch `%s`.", t.ID, tr.Attempt, c.Station, c.Branch(t.ID)), "")
			add(n+"/start/state", WriteState, "", StateInProgress)
		case tr.To == supervisor.TaskBlocked:
			add(fmt.Sprintf("%s/block%d/comment", n, i), WriteComment, fmt.Sprintf("Build Station blocked %s (attempt %d): %s", t.ID, tr.Attempt, tr.Reason), "")
			add(fmt.Sprintf("%s/block%d/state", n, i), WriteState, "", StateBlocked)
		case tr.From == supervisor.TaskWorking && (tr.To == supervisor.TaskReview || tr.To == supervisor.TaskDone):
			if !opened {
				ws = append(ws, Write{Key: t.ID + "/pr", Kind: WritePR, TaskID: t.ID, Ref: ref, PR: pullRequest(t, h, c)})
			} else {
				ws = append(ws, Write{Key: pushKey(t.ID, tr.Attempt), Kind: WritePush, TaskID: t.ID, Ref: ref, PR: &PullRequest{Project: t.Project, Head: c.Branch(t.ID)}})
			}
			opened = true
			// Per attempt: after a round that asked for changes, the
			// next attempt's In Progress is followed by In Review again.
			if tr.Attempt <= 1 {
				add("pr/state", WriteState, "", StateInReview) // the key before attempts were counted here
			} else {
				add(n+"/pr/state", WriteState, "", StateInReview)
			}
		case tr.From == supervisor.TaskReview && tr.Actor == "reviewer":
			add(fmt.Sprintf("%s/review%d", n, i), WritePRNote, verdict(t, tr), "")
		}
		if tr.To == supervisor.TaskDone && tr.From != supervisor.TaskDone && opened {
			// After the run's pull request or push.
			add(n+"/done", WriteDone, fmt.Sprintf("Build Station finished %s (attempt %d): its work is in the pull request.", t.ID, tr.Attempt), "")
		}
	}
	return dedupe(ws)
}

// dedupe keeps the first write of each key: a task that completes twice
// (a review asked for changes) opens one pull request.
func dedupe(ws []Write) []Write {
	seen := map[string]bool{}
	out := ws[:0]
	for _, w := range ws {
		if !seen[w.Key] {
			seen[w.Key] = true
			out = append(out, w)
		}
	}
	return out
}

// pullRequest is a done task's pull request: the agent's summary, the
// gate's result and the attempts, linked to the issue.
func pullRequest(t supervisor.Task, h []supervisor.Transition, c Context) *PullRequest {
	var b strings.Builder
	if t.Summary == "" {
		b.WriteString("The agent gave no summary.\n\n")
	} else {
		// The agent's words, quoted and neutralized: what it wrote may
		// not close issues, mention people or load images.
		fmt.Fprintf(&b, "The agent's summary:\n\n%s\n\n", Neutral(t.Summary))
	}
	gate := "no gate configured"
	if c.Gate != nil {
		if g := c.Gate(t); g != "" {
			gate = g
		}
	}
	fmt.Fprintf(&b, "- gate: %s\n- attempts: %d\n- task: %s on station %s\n", gate, attempts(h), t.ID, c.Station)
	if t.External.Kind == "github" {
		if n, ok := GitHubNumber(t.External.ID); ok {
			fmt.Fprintf(&b, "\nCloses #%d\n", n)
		}
	} else {
		fmt.Fprintf(&b, "\n%s: %s\n", t.External.ID, t.External.URL)
	}
	return &PullRequest{Project: t.Project, Head: c.Branch(t.ID), Title: textsafe.Line(t.Title), Body: b.String()}
}

// attempts counts the runs in h: the highest attempt it names.
func attempts(h []supervisor.Transition) int {
	n := 1
	for _, tr := range h {
		n = max(n, tr.Attempt)
	}
	return n
}

// verdict is a review's verdict as a pull request comment, with the notes
// the reviewer left on the task.
func verdict(t supervisor.Task, tr supervisor.Transition) string {
	prefix, word := "review approved", "approved"
	if tr.To != supervisor.TaskDone {
		prefix, word = "review asked for changes", "asked for changes"
	}
	line := fmt.Sprintf("Build Station review of %s %s.", t.ID, word)
	for i := len(t.Notes) - 1; i >= 0; i-- {
		if n, ok := strings.CutPrefix(t.Notes[i], prefix); ok {
			if n = strings.TrimSpace(strings.TrimPrefix(n, ":")); n != "" {
				line += "\n\n" + n
			}
			break
		}
	}
	return line
}
