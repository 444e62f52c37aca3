package station

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// breakerTrip records a block in a project and pauses its queue when the
// project's breaker ("3 in 10m") trips: a broken project must not burn
// through its whole queue overnight, restarting agent after agent.
//
// Blocks a person made, and blocks from the station's own restart or stop,
// say nothing about the project and do not count.
func (st *Station) breakerTrip(ctx context.Context, t supervisor.Task, actor string) {
	if actor == "person" || actor == supervisor.ActorUnverified || strings.HasPrefix(t.Reason, "station restarted") || strings.HasPrefix(t.Reason, "station stopped") {
		return
	}
	p, ok := st.Config().Project(t.Project)
	if !ok || p.Settings.Breaker.Count <= 0 {
		return
	}
	b := p.Settings.Breaker
	ids := st.sched.breaker.count(p.Name, t.ID, b, time.Now())
	if ids == nil {
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
	st.host.notify(supervisor.Notice{Kind: supervisor.NoticeBreaker, TaskID: t.ID, Title: "Paused: " + p.Name, Body: reason})
}

// breaker counts each project's recent blocks.
type breaker struct {
	mu    sync.Mutex
	marks map[string][]blockMark
}

// count records a block of task in project at now. When that makes b.Count
// blocks within b.Within it trips: it returns the tasks counted and
// forgets them, so the next trip counts afresh. Otherwise it returns nil.
func (k *breaker) count(project, task string, b config.Breaker, now time.Time) []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	kept := k.marks[project][:0]
	for _, x := range k.marks[project] {
		if now.Sub(x.at) < b.Within {
			kept = append(kept, x)
		}
	}
	kept = append(kept, blockMark{at: now, task: task})
	k.marks[project] = kept
	if len(kept) < b.Count {
		return nil
	}
	ids := make([]string, 0, len(kept))
	for _, x := range kept {
		ids = append(ids, x.task)
	}
	k.marks[project] = nil
	return ids
}

// reset forgets project's blocks: a person looked.
func (k *breaker) reset(project string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.marks[project] = nil
}

// blockMark is one counted block.
type blockMark struct {
	at   time.Time
	task string
}
