package station

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/agent"
)

// gates runs and reads a project's gate on a task's work.
type gates struct{ st *Station }

// gateVerdict returns the project's gate verdict on a session's HEAD from
// the cache only: the session goroutine must never wait for a build.
func (ga *gates) gateVerdict(spec sessionSpec) (supervisor.GateVerdict, bool) {
	ws := ga.st.opt.Workspaces
	p, ok := ga.st.Config().Project(spec.Project)
	if ws == nil || !ok || p.Gate == "" || spec.Branch == "" {
		return supervisor.GateVerdict{}, false
	}
	ctx, cancel := context.WithTimeout(ga.st.life, 2*time.Second)
	defer cancel()
	v, ran, err := ws.HeadGate(ctx, p.Repo, spec.TaskID, false)
	if err != nil || !ran {
		return supervisor.GateVerdict{}, false
	}
	return v, true
}

// gateNote is what the nudge adds when the gate already failed on HEAD: an
// agent stuck on a red build is told so, not just asked whether it is done.
func (ho *host) gateNote(spec sessionSpec) string {
	v, ok := ho.st.gates.gateVerdict(spec)
	if !ok || v.Passed {
		return ""
	}
	p, _ := ho.st.Config().Project(spec.Project)
	return agent.GateNote(spec.Profile, p.Gate, supervisor.ShortSHA(v.SHA), strings.TrimSpace(lastLine([]byte(v.Tail))))
}

// judgeHead runs the gate on a nudged session's HEAD in the background, so
// that by the block its verdict is known and named in the reason. A stop
// ends the run (owner.go).
func (ho *host) judgeHead(spec sessionSpec) {
	ws := ho.st.opt.Workspaces
	p, ok := ho.st.Config().Project(spec.Project)
	if ws == nil || !ok || spec.Branch == "" {
		return
	}
	if p.Gate == "" {
		ho.checkpoint(spec) // every commit is green
		return
	}
	ho.st.goWork(func() {
		ctx, cancel := context.WithTimeout(ho.st.running, gateTimeout)
		defer cancel()
		v, _, err := ws.HeadGate(ctx, p.Repo, spec.TaskID, true)
		if err != nil {
			ho.st.log.Warn("gate on nudged session's HEAD", "task", spec.TaskID, "err", err)
			return
		}
		if v.Passed && p.Remote != "" {
			ho.st.branches.push(p, spec.TaskID, "gate passed", false)
		}
	})
}

// gateReason is the gate's part of a block reason.
func (ho *host) gateReason(spec sessionSpec) string {
	v, ok := ho.st.gates.gateVerdict(spec)
	if !ok {
		return ""
	}
	if v.Passed {
		return fmt.Sprintf("; gate: passes on HEAD %s", supervisor.ShortSHA(v.SHA))
	}
	last := strings.TrimSpace(lastLine([]byte(v.Tail)))
	if last == "" {
		return fmt.Sprintf("; gate: fails on HEAD %s, printing nothing", supervisor.ShortSHA(v.SHA))
	}
	return fmt.Sprintf("; gate: fails on HEAD %s (%s)", supervisor.ShortSHA(v.SHA), last)
}

// gateWait is how long a completion waits for the gate's verdict on its
// HEAD: longer than most test suites of a small change, shorter than the
// client's request timeout. A slower gate goes on running and is cached;
// the agent is told to ask again.
const gateWait = 20 * time.Second

// refuseRed is nil when the session's task may settle on its HEAD: the
// project has no gate, is not git, or the gate passes there. Otherwise it
// is the answer to the agent: the failure's last lines and what to do. It
// runs the gate when no verdict is cached, waiting at most gateWait.
//
// A gate that fails for an ignored file its checkout lacked (Missing) is
// the project's setup at fault, not the agent's work: the task blocks
// for a person, naming the file and .worktreeinclude, without counting
// toward the breaker, and the agent is told to stop.
func (ga *gates) refuseRed(ctx context.Context, s *session, verb string) error {
	spec := s.spec
	ws := ga.st.opt.Workspaces
	p, ok := ga.st.Config().Project(spec.Project)
	if ws == nil || !ok || p.Gate == "" || spec.Branch == "" {
		return nil
	}
	type answer struct {
		v   supervisor.GateVerdict
		ran bool
		err error
	}
	done := make(chan answer, 1)
	started := ga.st.goWork(func() {
		// Not the request's context: a verdict that comes late is still
		// worth caching for the agent's next call. The station's: a stop
		// ends it (owner.go).
		gctx, cancel := context.WithTimeout(ga.st.running, gateTimeout)
		defer cancel()
		v, ran, err := ws.HeadGate(gctx, p.Repo, spec.TaskID, true)
		done <- answer{v, ran, err}
	})
	if !started {
		done <- answer{err: errStopping}
	}
	var a answer
	select {
	case a = <-done:
	case <-time.After(gateWait):
		return supervisor.Conflictf("the gate (%s) is still running on your HEAD; wait a minute and call %s again (its verdict is kept, it does not run twice)", p.Gate, verb)
	case <-ctx.Done():
		return ctx.Err()
	}
	if a.err != nil {
		return supervisor.Conflictf("the gate (%s) could not be run on your HEAD: %v; make sure your work is committed on %s, then call %s again, or block_task with this", p.Gate, a.err, spec.Branch, verb)
	}
	if !a.ran || a.v.Passed {
		return nil
	}
	if len(a.v.Missing) > 0 {
		return ga.blockLacking(ctx, s, p.Gate, a.v)
	}
	ga.st.log.Info("completion refused: the gate fails on HEAD", "task", spec.TaskID, "sha", a.v.SHA)
	return supervisor.Conflictf("the gate (%s) fails on your HEAD %s, so the task is not done and stays in progress; fix it and commit, then call %s again, or call block_task if you cannot. The end of its output:\n%s",
		p.Gate, supervisor.ShortSHA(a.v.SHA), verb, lastLines(a.v.Tail, 12))
}

// lastLines is the last n non-empty lines of s.
func lastLines(s string, n int) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			keep = append(keep, strings.TrimRight(l, "\r "))
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	if len(keep) == 0 {
		return "(it printed nothing)"
	}
	return strings.Join(keep, "\n")
}

// blockLacking blocks s's task because its gate failed for ignored files
// the checkout lacked (v.Missing), and answers the agent.
func (ga *gates) blockLacking(ctx context.Context, s *session, gate string, v supervisor.GateVerdict) error {
	files := strings.Join(v.Missing, ", ")
	reason := fmt.Sprintf("the gate (%s) fails on HEAD %s for want of %s, which git ignores: the project's folder has it, but worktrees and gate checkouts start without it. Not the agent: add %s to the project's .worktreeinclude (or have its setup make it), then requeue. The end of its output:\n%s",
		gate, supervisor.ShortSHA(v.SHA), files, files, lastLines(v.Tail, 8))
	ga.st.log.Warn("gate fails for a file its checkout lacks", "task", s.spec.TaskID, "missing", v.Missing)
	from := []supervisor.TaskState{s.spec.Kind.TaskState()}
	t, queued, err := ga.st.writes.move(ctx, s.spec.TaskID, supervisor.Move{From: from, To: supervisor.TaskBlocked, Reason: reason, Actor: "station", KeepLease: true, Attempt: s.spec.Attempt})
	if err != nil {
		return ga.st.Agent.agentMoveErr(s, err)
	}
	if !queued {
		ga.st.host.publishTask(t)
		ga.st.host.notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: t.ID, SessionID: s.spec.ID, Title: "Blocked: " + t.Title,
			Body: fmt.Sprintf("The gate needs %s, which task worktrees do not get: add it to the project's .worktreeinclude, then requeue.", files)})
	}
	ga.st.Agent.endLater(s, outEnded)
	return supervisor.Conflictf("the gate (%s) fails because its checkout lacks %s, a file git ignores that the project's folder has: not your work. The task is blocked for a person to add it to .worktreeinclude; stop now, your commits are kept", gate, files)
}
