package source

import (
	"context"
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
// window, so a busy session costs no requests.
type Prober struct {
	Syncer *Syncer
	Tasks  TaskReader
	Now    func() time.Time
}

var _ supervisor.Prober = (*Prober)(nil)

// Layer names the layer.
func (p *Prober) Layer() string { return Layer }

// Forget keeps nothing per session.
func (p *Prober) Forget(string) {}

// Probe asks the task's source for activity on its issue since.
func (p *Prober) Probe(ctx context.Context, t supervisor.ProbeTarget, since time.Time) (supervisor.Life, bool, error) {
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
	now := time.Now()
	if p.Now != nil {
		now = p.Now()
	}
	detail := "board: " + a.Detail + " " + now.Sub(a.At).Round(time.Second).String() + " ago"
	return supervisor.Life{At: a.At, Detail: detail}, true, nil
}
