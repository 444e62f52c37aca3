package station

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// breakerTrip records a block in a project and pauses its queue when the
// project's breaker ("3 in 10m") trips: a broken project must not burn
// through its whole queue overnight, restarting agent after agent.
//
// Blocks a person made, and blocks from the station's own restart or stop,
// say nothing about the project and do not count.
func (st *Station) breakerTrip(ctx context.Context, t supervisor.Task, actor string) {
	if actor == "person" || strings.HasPrefix(t.Reason, "station restarted") || strings.HasPrefix(t.Reason, "station stopped") {
		return
	}
	p, ok := st.Config().Project(t.Project)
	if !ok || p.Settings.Breaker.Count <= 0 {
		return
	}
	b := p.Settings.Breaker
	now := time.Now()
	st.mu.Lock()
	kept := st.blocks[p.Name][:0]
	for _, x := range st.blocks[p.Name] {
		if now.Sub(x.at) < b.Within {
			kept = append(kept, x)
		}
	}
	kept = append(kept, blockMark{at: now, task: t.ID})
	st.blocks[p.Name] = kept
	trip := len(kept) >= b.Count
	var ids []string
	if trip {
		for _, x := range kept {
			ids = append(ids, x.task)
		}
		st.blocks[p.Name] = nil
	}
	st.mu.Unlock()
	if !trip {
		return
	}
	reason := fmt.Sprintf("circuit breaker: %d blocks within %s (%s); fix the cause, then run \"buildstation project resume %s\"",
		len(ids), b.Within, strings.Join(ids, ", "), p.Name)
	if err := st.board.SetPaused(ctx, p.Name, true, reason); err != nil {
		st.log.Error("breaker: pause project", "project", p.Name, "err", err)
		return
	}
	st.log.Warn("project paused by its circuit breaker", "project", p.Name, "reason", reason)
	st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: p.Name})
	st.notify(supervisor.Notice{Kind: supervisor.NoticeBreaker, TaskID: t.ID, Title: "Paused: " + p.Name, Body: reason})
}

// blockMark is one counted block.
type blockMark struct {
	at   time.Time
	task string
}
