package station

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// AgentVerbs is what a session's own agent says about its task, over its
// session token: complete, block, progress, status, hooks and reviews.
type AgentVerbs struct{ st *Station }

// SessionByToken finds the live session a session token belongs to.
func (av *AgentVerbs) SessionByToken(token string) (supervisor.SessionInfo, bool) {
	if token == "" {
		return supervisor.SessionInfo{}, false
	}
	found, wait := av.st.reg.byToken(token)
	if found == nil && wait != nil {
		// Its session is being spawned: answer once it is registered.
		select {
		case <-wait:
		case <-time.After(10 * time.Second):
		}
		return av.SessionByToken(token)
	}
	if found == nil {
		return supervisor.SessionInfo{}, false
	}
	return found.Info(), true
}

// AgentComplete settles a session's task as done and ends the session.
func (av *AgentVerbs) AgentComplete(ctx context.Context, id, summary string) error {
	s, err := av.st.Sessions.agentSession(id)
	if err != nil {
		return err
	}
	summary = strings.TrimSpace(summary)
	if summary == "" {
		return supervisor.Invalidf("complete needs a summary of what was done; pass --summary")
	}
	if s.spec.Kind == supervisor.KindReview {
		return supervisor.Invalidf("this is a review session; finish it with complete_review (approve or changes)")
	}
	// Done means the gate passes: on a red HEAD the task stays working
	// and the agent is told why.
	if err := av.st.gates.refuseRed(ctx, s, "complete_task"); err != nil {
		return err
	}
	to := supervisor.TaskDone
	if p, ok := av.st.Config().Project(s.spec.Project); ok && p.Review {
		to = supervisor.TaskReview // a review session judges it before it is done
	}
	t, queued, err := av.st.writes.move(ctx, s.spec.TaskID, supervisor.Move{From: []supervisor.TaskState{supervisor.TaskWorking}, To: to, Summary: summary, Actor: "agent", KeepLease: true, Attempt: s.spec.Attempt})
	if err != nil {
		return av.agentMoveErr(s, err)
	}
	if !queued {
		av.st.host.publishTask(t)
	}
	if to == supervisor.TaskDone {
		av.st.host.notify(finishedNotice(s.spec.TaskID, s.spec.Title, summary, s))
	}
	av.endLater(s, outEnded)
	return nil
}

// AgentBlock blocks a session's task with the agent's reason.
func (av *AgentVerbs) AgentBlock(ctx context.Context, id, reason string) error {
	s, err := av.st.Sessions.agentSession(id)
	if err != nil {
		return err
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return supervisor.Invalidf("block needs a reason a person can act on; pass --reason")
	}
	from := []supervisor.TaskState{s.spec.Kind.TaskState()}
	t, queued, err := av.st.writes.move(ctx, s.spec.TaskID, supervisor.Move{From: from, To: supervisor.TaskBlocked, Reason: "agent: " + reason, Actor: "agent", KeepLease: true, Attempt: s.spec.Attempt})
	if err != nil {
		return av.agentMoveErr(s, err)
	}
	if queued {
		av.endLater(s, outEnded)
		return nil
	}
	av.st.host.publishTask(t)
	av.st.host.notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: t.ID, SessionID: id, Title: "Blocked: " + t.Title, Body: t.Reason})
	av.st.breakerTrip(ctx, t, "agent")
	av.endLater(s, outEnded)
	return nil
}

func (av *AgentVerbs) agentMoveErr(s *session, err error) error {
	var se *supervisor.StateError
	if errors.As(err, &se) {
		return supervisor.Conflictf("task %s is already %s; nothing to do", s.spec.TaskID, se.Have)
	}
	var ae *supervisor.AttemptError
	if errors.As(err, &ae) {
		return supervisor.Conflictf("session %s was attempt %d of task %s, which is on attempt %d now; stop working on it, the work so far stays in the worktree", s.spec.ID, ae.Want, s.spec.TaskID, ae.Have)
	}
	if errors.Is(err, supervisor.ErrConflict) {
		// Fenced: the lease went to another station, or was reaped.
		// Retrying cannot help; the agent should stop.
		return supervisor.Conflictf("this station no longer holds task %s (its lease was lost); stop working on it, the work so far stays in the worktree", s.spec.TaskID)
	}
	return fmt.Errorf("settle task %s: %w", s.spec.TaskID, err)
}

// endLater ends a session without holding up the agent's own request: the
// agent gets its answer, then its tree is ended. After a stop there is
// nothing to do: the stop ended the session.
func (av *AgentVerbs) endLater(s *session, how outcomeKind) {
	av.st.goWork(func() {
		ctx, cancel := context.WithTimeout(av.st.life, time.Minute)
		defer cancel()
		if err := s.send(ctx, command{kind: cmdEnd, result: how}); err != nil {
			av.st.log.Debug("end session", "session", s.spec.ID, "err", err)
		}
	})
}

// AgentProgress records a progress report: evidence of life on the board.
func (av *AgentVerbs) AgentProgress(ctx context.Context, id, message string) error {
	s, err := av.st.Sessions.agentSession(id)
	if err != nil {
		return err
	}
	message = strings.TrimSpace(message)
	if message == "" {
		return supervisor.Invalidf("progress needs a message saying what you are doing")
	}
	return s.send(ctx, command{kind: cmdReport, input: inReport, layer: "board", text: progressPrefix + message})
}

// AgentStatus sets whether the agent is working or reviewing.
func (av *AgentVerbs) AgentStatus(ctx context.Context, id, status string) error {
	s, err := av.st.Sessions.agentSession(id)
	if err != nil {
		return err
	}
	var in wdInput
	switch status {
	case "working":
		in = inWorking
	case "reviewing":
		in = inReviewing
	default:
		return supervisor.Invalidf("unknown status %q; use working or reviewing", status)
	}
	return s.send(ctx, command{kind: cmdReport, input: in, layer: "board"})
}

// SessionProof is HMAC-SHA256 of msg keyed with session id's token: the
// station proves to the session's agent that it holds the token, before the
// agent sends it (api.Client.verify). ok is false when no live session has
// that id.
func (av *AgentVerbs) SessionProof(id string, msg []byte) ([]byte, bool) {
	token, wait := av.st.reg.tokenOf(id)
	if token == "" && wait != nil {
		select {
		case <-wait:
		case <-time.After(10 * time.Second):
		}
		token, _ = av.st.reg.tokenOf(id)
	}
	if token == "" {
		return nil, false
	}
	m := hmac.New(sha256.New, []byte(token))
	m.Write(msg)
	return m.Sum(nil), true
}
