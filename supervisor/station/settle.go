package station

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// settle records how a session ended, frees its slot and looks for work.
func (st *Station) settle(s *session, o outcome) {
	ctx := st.life // not cut short by the stop that may have ended s (owner.go)
	from := []supervisor.TaskState{s.spec.Kind.TaskState()}
	if st.guard.unwatch(s) && o.kind == outExited {
		// The guard ended it while this station could not prove the
		// lease: settled as this station's own fence would.
		st.log.Warn("the fence guard ended this session while the station could not prove its lease", "session", s.spec.ID, "task", s.spec.TaskID)
		o.kind = outFenced
	}
	switch o.kind {
	case outExited:
		reason := fmt.Sprintf("agent exited with code %d before completing the task", o.code)
		if o.exitErr != "" {
			reason = o.exitErr + ", before completing the task"
		}
		if o.lastLine != "" {
			reason += fmt.Sprintf("; its last line: %q", o.lastLine)
		}
		st.settleBlock(ctx, s.spec.TaskID, from, reason, "station", s.spec.ID)
	case outStopped:
		st.settleBlock(ctx, s.spec.TaskID, from, "station stopped while the session ran; requeue the task to resume it", "station", s.spec.ID)
	case outDetached:
		// Still running: its record stays live for the next station.
		st.release(s)
		st.log.Info("session left running for the next station", "session", s.spec.ID)
		return
	case outFenced:
		st.Shared.settleFenced(ctx, s)
	}
	st.release(s)
	st.Shared.releaseLease(ctx, s)
	st.Sessions.dropSessionDir(s.spec.ID)
	if p, ok := st.Config().Project(s.spec.Project); ok && s.spec.Branch != "" {
		st.branches.push(p, s.spec.TaskID, "session end", true)
	}
	info := s.Info()
	info.State = supervisor.SessEnded
	st.bus.Publish(supervisor.Event{Kind: supervisor.EventSession, Session: &info})
	if st.leases != nil {
		st.leases.ended(s.spec.ID)
	}
	if err := st.writes.saveSession(ctx, supervisor.SessionRecord{ID: s.spec.ID, TaskID: s.spec.TaskID, Kind: s.spec.Kind,
		PID: s.proc.Pid(), State: supervisor.SessEnded.String(), StartedAt: s.startedAt.UTC(), EndedAt: time.Now().UTC()}); err != nil {
		st.log.Error("record session end", "session", s.spec.ID, "err", err)
	}
	st.writes.forgetToken(ctx, s.spec.ID)
	st.log.Info("session ended", "session", s.spec.ID, "how", o.kind, "code", o.code)
	st.finish(ctx, s.spec.TaskID)
	st.poke()
}

// finish removes a done or cancelled task's worktree; its branch stays.
// Nothing is removed while a session still runs there.
func (st *Station) finish(ctx context.Context, taskID string) {
	if st.opt.Workspaces == nil || st.sessionForTask(taskID) != nil {
		return
	}
	t, err := st.board.Task(ctx, taskID)
	if err != nil || !t.State.Final() {
		return
	}
	p, ok := st.Config().Project(t.Project)
	if !ok {
		return
	}
	if st.Tasks.recordWork(ctx, p, taskID) {
		// The task is told again, its work now on record: a card that
		// read the work as the session ended, while the worktree was
		// going, reads it again.
		st.host.publishTask(t)
	}
	if err := st.opt.Workspaces.Remove(ctx, p.Repo, taskID); err != nil {
		st.log.Warn("remove worktree", "task", taskID, "err", err)
	}
	// Removing it may have saved uncommitted files on a branch.
	st.branches.push(p, taskID, "worktree removed", true)
}

// release frees a session's slot and forgets it.
func (st *Station) release(s *session) {
	if s.closeTranscript != nil {
		_ = s.closeTranscript()
		s.closeTranscript = nil
	}
	for _, p := range st.opt.Probers {
		p.Forget(s.spec.ID)
	}
	st.reg.remove(s)
}

// settleBlock blocks a task unless something else already settled it (a
// completion racing an exit is not an error), and tells the person.
func (st *Station) settleBlock(ctx context.Context, taskID string, from []supervisor.TaskState, reason, actor, sessionID string) bool {
	return st.settleBlockCounting(ctx, taskID, from, reason, "", actor, sessionID, true)
}

// settleBlockCounting is settleBlock; breaker is false for a block that
// says nothing about the project (the station could not do its own part).
// body is the notice's text in plain words; "" shows the reason, which the
// card keeps in full either way.
func (st *Station) settleBlockCounting(ctx context.Context, taskID string, from []supervisor.TaskState, reason, body, actor, sessionID string, breaker bool) bool {
	return st.blockMove(ctx, taskID, supervisor.Move{From: from, To: supervisor.TaskBlocked, Reason: reason, Actor: actor}, body, sessionID, breaker)
}

// settleBlockKeeping is settleBlock from a session that is still being
// ended: a shared board's lease stays until settle releases it.
func (st *Station) settleBlockKeeping(ctx context.Context, taskID string, from []supervisor.TaskState, reason, body, actor, sessionID string) bool {
	return st.blockMove(ctx, taskID, supervisor.Move{From: from, To: supervisor.TaskBlocked, Reason: reason, Actor: actor, KeepLease: true}, body, sessionID, true)
}

func (st *Station) blockMove(ctx context.Context, taskID string, m supervisor.Move, body, sessionID string, breaker bool) bool {
	reason, actor := m.Reason, m.Actor
	t, queued, err := st.writes.move(ctx, taskID, m)
	if err != nil {
		if !errors.Is(err, supervisor.ErrConflict) {
			st.log.Error("block task", "task", taskID, "err", err)
		}
		return false
	}
	if queued {
		// Told when the board takes it (replay notifies a block).
		st.log.Warn("task block queued for the board", "task", taskID, "reason", reason)
		return true
	}
	st.host.publishTask(t)
	st.log.Warn("task blocked", "task", taskID, "reason", reason)
	if body == "" {
		body = reason
	}
	st.host.notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: taskID, SessionID: sessionID, Title: "Blocked: " + t.Title, Body: body})
	if breaker {
		st.breakerTrip(ctx, t, actor)
	}
	return true
}

// blockFromSession is the session goroutine's way to block its own task;
// body is the notice's plain text ("" shows the reason).
func (ho *host) blockFromSession(spec sessionSpec, reason, body, actor string) {
	from := []supervisor.TaskState{spec.Kind.TaskState()}
	if c := ho.st.Tasks.TaskCost(spec.TaskID); c > 0 {
		reason += fmt.Sprintf(" (cost so far $%.2f)", c)
	}
	ho.st.settleBlockKeeping(ho.st.life, spec.TaskID, from, reason, body, actor, spec.ID)
}
