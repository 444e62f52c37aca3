package station

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// gateVerdict returns the project's gate verdict on a session's HEAD from
// the cache only: the session goroutine must never wait for a build.
func (st *Station) gateVerdict(spec sessionSpec) (supervisor.GateVerdict, bool) {
	ws := st.opt.Workspaces
	p, ok := st.Config().Project(spec.Project)
	if ws == nil || !ok || p.Gate == "" || spec.Branch == "" {
		return supervisor.GateVerdict{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	v, ran, err := ws.HeadGate(ctx, p, spec.TaskID, false)
	if err != nil || !ran {
		return supervisor.GateVerdict{}, false
	}
	return v, true
}

// gateNote is what the nudge adds when the gate already failed on HEAD: an
// agent stuck on a red build is told so, not just asked whether it is done.
func (st *Station) gateNote(spec sessionSpec) string {
	v, ok := st.gateVerdict(spec)
	if !ok || v.Passed {
		return ""
	}
	p, _ := st.Config().Project(spec.Project)
	return fmt.Sprintf(" The gate (%s) fails on your HEAD %s: %s", p.Gate, supervisor.ShortSHA(v.SHA), lastLine([]byte(v.Tail)))
}

// judgeHead runs the gate on a nudged session's HEAD in the background, so
// that by the block its verdict is known and named in the reason.
func (st *Station) judgeHead(spec sessionSpec) {
	ws := st.opt.Workspaces
	p, ok := st.Config().Project(spec.Project)
	if ws == nil || !ok || spec.Branch == "" {
		return
	}
	if p.Gate == "" {
		st.checkpoint(spec) // every commit is green
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(st.ctx), 30*time.Minute)
		defer cancel()
		v, _, err := ws.HeadGate(ctx, p, spec.TaskID, true)
		if err != nil {
			st.log.Warn("gate on nudged session's HEAD", "task", spec.TaskID, "err", err)
			return
		}
		if v.Passed && p.Remote != "" {
			st.branches.push(p, spec.TaskID, "gate passed", false)
		}
	}()
}

// gateReason is the gate's part of a block reason.
func (st *Station) gateReason(spec sessionSpec) string {
	v, ok := st.gateVerdict(spec)
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
