package source

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/supervisor"
)

// The review loop: a done task's pull request is read at each poll of its
// issue's source. What its reviewers and checks say after the task's run
// finished — "changes requested", review comments, a failing check with
// its log's tail — sends the task back to its agent on the same branch
// (Reworker), with those words as the note; the next run's push lands on
// the same pull request. An approval and a merge are written to the task's
// history; the merge closes the issue (Writes).

// Pull is a task's pull request as a Reviewer reads it.
type Pull struct {
	Number int
	Merged bool
	Closed bool   // closed without merging
	Head   string // its head commit
	// Approved names who approved it, when the newest decisive review
	// since the run finished is an approval (feedback besides it still
	// sends the task back).
	Approved string
	// Feedback is what asks the agent for more since the run finished,
	// oldest first: reviews asking for changes, review comments, failing
	// checks. Only people who can act on the repository count.
	Feedback []Feedback
}

// Feedback is one thing a pull request's reviewers or checks say.
type Feedback struct {
	// ID names it upstream ("review 7001", "check 9003"): one piece of
	// feedback sends its task back once.
	ID   string
	At   time.Time
	What string // "alice asked for changes", "bob on web/login.go:12", "check test failed"
	Text string // their words, or the end of the check's log
}

// Reviewer reads a pull request (the GitHub client).
type Reviewer interface {
	// Pull reads the pull request at url: its state, and the feedback
	// after since by people who can act on it (never the station's own).
	Pull(ctx context.Context, url string, since time.Time) (Pull, error)
}

// Reworker sends a done task back to its agent on its own branch
// (*station.Station's Rework): a new attempt, resumed from its last
// green commit with note, or — after the project's review_rounds — the
// task blocked for a person. why is the history's one line.
type Reworker interface {
	Rework(ctx context.Context, id, why, note string) (supervisor.Task, error)
}

// PullActor is who moves a task for its pull request, in its history.
const PullActor = "pull request"

// The one-line reasons of a pull request's steps in a task's history;
// Writes reads the merge back from them.
const (
	mergedWord   = " was merged"
	approvedWord = " was approved by "
	closedWord   = " was closed without merging"
)

// Feedback bounds: a reviewer's words and a log's tail are the agent's
// prompt, and nobody's comment may stretch it without limit.
const (
	maxFeedback     = 4 << 10  // one review, comment or log tail
	maxFeedbackNote = 32 << 10 // all of one round
)

// reviewPulls reads the pull requests of source i's done tasks and acts
// on what they say.
func (s *Syncer) reviewPulls(ctx context.Context, i int, tasks []supervisor.Task) {
	for _, t := range tasks {
		if t.State != supervisor.TaskDone {
			continue
		}
		gh := s.byName(s.githubOf(t.Project))
		if gh < 0 {
			continue
		}
		rv, ok := s.srcs[gh].tr.(Reviewer)
		if !ok {
			continue
		}
		made, ok := s.o.Ledger.Made(ctx, t.ID+"/pr")
		if !ok || made.URL == "" {
			continue
		}
		if t.Attempt > 1 {
			// The run's push must have landed: before it, the pull
			// request still shows the last run's head and its checks.
			if _, ok := s.o.Ledger.Made(ctx, pushKey(t.ID, t.Attempt)); !ok {
				continue
			}
		}
		h, err := s.o.Board.History(ctx, t.ID)
		if err != nil {
			continue
		}
		since, over := roundOf(h)
		if over {
			continue
		}
		p, err := rv.Pull(ctx, made.URL, since)
		if err != nil {
			s.o.Log.Warn("source: read a task's pull request", "task", t.ID, "pr", made.URL, "err", err)
			continue
		}
		s.actOnPull(ctx, t, h, since, made.URL, p)
	}
}

// roundOf is when t's last run finished (its latest move to done), and
// whether its pull request was merged or closed already (nothing more to
// read).
func roundOf(h []supervisor.Transition) (since time.Time, over bool) {
	for _, tr := range h {
		if tr.To == supervisor.TaskDone && tr.From != supervisor.TaskDone {
			// GitHub's times are to the second: what came in the
			// second the run finished counts as after it.
			since = tr.At.Truncate(time.Second).Add(-time.Nanosecond)
		}
		if tr.Actor == PullActor && (strings.HasSuffix(tr.Reason, mergedWord) || strings.HasSuffix(tr.Reason, closedWord)) {
			over = true
		}
	}
	return since, over
}

// actOnPull records a merge, a close or an approval, and sends feedback
// back to the agent.
func (s *Syncer) actOnPull(ctx context.Context, t supervisor.Task, h []supervisor.Transition, since time.Time, url string, p Pull) {
	name := fmt.Sprintf("its pull request #%d", p.Number)
	s.wmu.Lock()
	fresh := p.Feedback[:0:0]
	for _, f := range p.Feedback {
		if !s.fed[t.ID+"\x00"+f.ID] {
			fresh = append(fresh, f)
		}
	}
	s.wmu.Unlock()
	// Feedback that sent the task back once does not again (GitHub's
	// times are to the second: a round's feedback may look as new as its
	// next run's end).
	p.Feedback = fresh
	switch {
	case p.Merged:
		s.pullNote(ctx, t, name+mergedWord)
	case p.Closed:
		s.pullNote(ctx, t, name+closedWord)
	case len(p.Feedback) > 0:
		rw, ok := s.o.Station.(Reworker)
		if !ok {
			return
		}
		why := fmt.Sprintf("%s asked for more: %s", name, feedbackLine(p.Feedback))
		if _, err := rw.Rework(ctx, t.ID, why, FeedbackNote(url, p.Feedback)); err != nil {
			s.o.Log.Warn("source: send a pull request's feedback to its task", "task", t.ID, "err", ignoreMoved(err))
			return
		}
		s.wmu.Lock()
		for _, f := range p.Feedback {
			s.fed[t.ID+"\x00"+f.ID] = true
		}
		s.wmu.Unlock()
		s.o.Log.Info("source: a pull request's feedback sent its task back to the agent", "task", t.ID, "pr", url)
	case p.Approved != "":
		why := name + approvedWord + textsafe.Line(p.Approved)
		for _, tr := range h {
			if tr.At.After(since) && tr.Reason == why {
				return // said already this round
			}
		}
		s.pullNote(ctx, t, why)
	}
}

// pullNote writes a step of t's pull request to its history: a move to
// the state it is in, with the step as its reason.
func (s *Syncer) pullNote(ctx context.Context, t supervisor.Task, why string) {
	if _, err := s.o.Board.Move(ctx, t.ID, supervisor.Move{From: []supervisor.TaskState{t.State}, To: t.State, Reason: why, Actor: PullActor}); err != nil {
		s.o.Log.Warn("source: note a pull request's step on its task", "task", t.ID, "err", ignoreMoved(err))
	}
}

// feedbackLine is a round's feedback in a few words, for the history:
// "alice asked for changes, 2 review comments, check test failed".
func feedbackLine(fs []Feedback) string {
	var reviews, checks []string
	comments := 0
	for _, f := range fs {
		switch {
		case strings.HasPrefix(f.What, "check "):
			checks = append(checks, textsafe.Line(f.What))
		case strings.Contains(f.What, " on "):
			comments++
		default:
			reviews = append(reviews, textsafe.Line(f.What))
		}
	}
	parts := reviews
	switch comments {
	case 0:
	case 1:
		parts = append(parts, "1 review comment")
	default:
		parts = append(parts, fmt.Sprintf("%d review comments", comments))
	}
	return strings.Join(append(parts, checks...), ", ")
}

// FeedbackNote is what the agent is told of a round: each review, comment
// and failing check with its words or its log's end, made printable and
// bounded (each, and all of them).
func FeedbackNote(url string, fs []Feedback) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The pull request %s asked for more. Address each point below on this branch and commit; your push updates the same pull request.", url)
	for _, f := range fs {
		text := strings.TrimSpace(textsafe.Printable(f.Text))
		if len(text) > maxFeedback {
			text = strings.ToValidUTF8(text[:maxFeedback], "") + " […]"
		}
		entry := "\n\n- " + textsafe.Line(f.What)
		if text != "" {
			entry += ":\n" + indent(text)
		}
		if b.Len()+len(entry) > maxFeedbackNote {
			fmt.Fprintf(&b, "\n\n[… more at %s]", url)
			break
		}
		b.WriteString(entry)
	}
	return b.String()
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("    "+l, " ")
	}
	return strings.Join(lines, "\n")
}

// pushKey is the key of attempt n's push to its task's pull request.
func pushKey(taskID string, n int) string { return fmt.Sprintf("%s/%d/push", taskID, n) }
