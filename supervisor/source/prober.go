package source

import (
	"context"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// Layer is the name of the evidence layer Prober adds.
const Layer = "issue"

// TaskReader reads a task, for the prober to find its issue.
type TaskReader interface {
	Task(ctx context.Context, id string) (supervisor.Task, error)
}

// Prober is the board layer of the watchdog's evidence: activity on the
// task's issue after the window began (a comment, a state change, a
// commit on its pull request) is a sign of life, shown as "board: Linear
// ENG-142 moved to In Review 2m ago". The station's own write-backs do not
// count. It asks only when the console has been silent for a whole
// window, so a busy session costs no requests. Only people who can act on
// the issue count (the trackers' Activity), and the board extends a
// silent session by one window, never two in a row: a comment every few
// seconds, whoever writes it, cannot keep a dead agent alive.
type Prober struct {
	Syncer *Syncer
	Tasks  TaskReader
	Now    func() time.Time

	mu      sync.Mutex
	granted map[string]time.Time // session → when the board last counted as its life
}

var _ supervisor.Prober = (*Prober)(nil)

// Layer names the layer.
func (p *Prober) Layer() string { return Layer }

// Forget drops when the board last counted for a session that ended.
func (p *Prober) Forget(session string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.granted, session)
}

// Probe asks the task's source for activity on its issue since.
func (p *Prober) Probe(ctx context.Context, t supervisor.ProbeTarget, since time.Time) (supervisor.Life, bool, error) {
	now := time.Now()
	if p.Now != nil {
		now = p.Now()
	}
	p.mu.Lock()
	last, was := p.granted[t.SessionID]
	p.mu.Unlock()
	if was && !since.After(last) {
		// The window began before the board last counted: nothing but
		// the board has shown life since, and it had its one window.
		return supervisor.Life{}, false, nil
	}
	task, err := p.Tasks.Task(ctx, t.TaskID)
	if err != nil || task.External.IsZero() {
		return supervisor.Life{}, false, err
	}
	i := p.Syncer.find(task.External, task.Project)
	if i < 0 {
		return supervisor.Life{}, false, nil
	}
	a, ok, err := p.Syncer.srcs[i].tr.Activity(ctx, *task.External, since)
	if err != nil || !ok {
		return supervisor.Life{}, false, err
	}
	p.mu.Lock()
	if p.granted == nil {
		p.granted = map[string]time.Time{}
	}
	p.granted[t.SessionID] = now
	p.mu.Unlock()
	detail := "board: " + a.Detail + " " + now.Sub(a.At).Round(time.Second).String() + " ago"
	return supervisor.Life{At: a.At, Detail: detail}, true, nil
}
