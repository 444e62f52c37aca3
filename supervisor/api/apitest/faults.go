package apitest

import (
	"context"
	"sync"

	"github.com/buildstation/buildstation/supervisor"
)

// faults is the real board under a station of Start's whose next task
// move fails when a test says so (Env.BreakNextMove): a station whose
// board breaks, as a full disk or a lost database would, with everything
// else real. It is put in only when Rig.Faults asks, since it hides the
// board's optional interfaces (supervisor.TaskCounter, …) from the
// station, which then takes its fallbacks.
type faults struct {
	supervisor.Board
	mu   sync.Mutex
	next error
}

func (b *faults) Move(ctx context.Context, id string, m supervisor.Move) (supervisor.Task, error) {
	b.mu.Lock()
	err := b.next
	b.next = nil
	b.mu.Unlock()
	if err != nil {
		return supervisor.Task{}, err
	}
	return b.Board.Move(ctx, id, m)
}

// BreakNextMove makes the board's next task move fail with err, whatever
// verb makes it (an agent's complete or block, a person's requeue, …).
// The station must have been started with Rig.Faults.
func (e Env) BreakNextMove(err error) {
	if e.faults == nil {
		panic("apitest: BreakNextMove on a station started without Rig.Faults")
	}
	e.faults.mu.Lock()
	defer e.faults.mu.Unlock()
	e.faults.next = err
}
