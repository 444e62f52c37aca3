package station

import (
	"context"
	"os"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// memOutbox is an Outbox in memory.
type memOutbox struct {
	mu      sync.Mutex
	seq     int64
	entries []supervisor.OutboxEntry
}

func (o *memOutbox) Add(_ context.Context, e supervisor.OutboxEntry) (int64, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seq++
	e.Seq = o.seq
	o.entries = append(o.entries, e)
	return e.Seq, nil
}

func (o *memOutbox) List(context.Context) ([]supervisor.OutboxEntry, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.entries), nil
}

func (o *memOutbox) Remove(_ context.Context, seq int64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.entries = slices.DeleteFunc(o.entries, func(e supervisor.OutboxEntry) bool { return e.Seq == seq })
	return nil
}

func (o *memOutbox) len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.entries)
}

func startFenced(t *testing.T, b *sharedMem, box supervisor.Outbox) *harness {
	t.Helper()
	h := startWith(t, func(o *Options) {
		o.Board = b
		o.Config.Lease = 3 * time.Second
		o.Outbox = box
	}, project("web", 5*time.Minute, 5*time.Minute))
	h.board = b.memBoard
	return h
}

func setDown(b *sharedMem, down bool) {
	b.mu.Lock()
	b.down = down
	b.mu.Unlock()
}

// A station that cannot renew ends its sessions itself before its lease
// could run out (self-fencing), queues the requeue of their tasks, and
// delivers it when the board is back; meanwhile it reaps nobody.
func TestSharedBoardSelfFencesWhenRenewalsFail(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, box := newSharedMem("A"), &memOutbox{}
		h := startFenced(t, b, box)
		task := h.add("web", "a")
		p := h.proc()
		setDown(b, true)
		reaps := b.reapCount()
		advance(2 * time.Second) // lease 3s: proof runs out at 3s - 750ms
		if p.stopCount() != 0 {
			t.Fatal("session ended while its lease was still proven")
		}
		advance(500 * time.Millisecond)
		if p.stopCount() == 0 || len(h.st.Sessions.Sessions()) != 0 {
			t.Fatal("session still runs past lease - margin with no renewal")
		}
		if box.len() == 0 {
			t.Fatal("nothing queued for the board while it was away")
		}
		if l := h.st.Shared.Link(); l == nil || l.Reachable || l.Queued == 0 || l.DownSince.IsZero() {
			t.Fatalf("link = %+v, want unreachable with writes queued", l)
		}
		// Status degrades instead of failing.
		if st, err := h.st.Control.Status(h.ctx); err != nil || st.Board == nil || st.Board.Reachable || st.Board.Queued == 0 {
			t.Fatalf("status while the board is away = %+v, %v; want the link, not an error", st, err)
		}
		if got := h.task(task.ID); got.State != supervisor.TaskWorking {
			t.Fatalf("task moved to %s while the board was down", got.State)
		}
		setDown(b, false)
		advance(time.Second)
		if box.len() != 0 {
			t.Fatalf("%d writes still queued after the board came back", box.len())
		}
		got := h.task(task.ID)
		if got.Attempt != 2 || got.State == supervisor.TaskBlocked {
			t.Fatalf("fenced task = %s attempt %d (%s), want requeued as attempt 2", got.State, got.Attempt, got.Reason)
		}
		if b.reapCount() != reaps {
			t.Fatalf("reaped %d times right after its own renewals failed; want a grace first", b.reapCount()-reaps)
		}
		advance(7 * time.Second) // reapGrace: twice the lease
		if b.reapCount() == reaps {
			t.Fatal("never reaped again after the grace")
		}
	})
}

// An agent's completion while the board is away is acknowledged, kept, and
// lands when the board returns.
func TestSharedBoardQueuesCompletionDuringOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, box := newSharedMem("A"), &memOutbox{}
		h := startFenced(t, b, box)
		task := h.add("web", "a")
		h.proc()
		id := h.session(task.ID).ID
		setDown(b, true)
		if err := h.st.Agent.AgentComplete(h.ctx, id, "did it"); err != nil {
			t.Fatalf("completion during an outage: %v", err)
		}
		advance(100 * time.Millisecond)
		if got := h.task(task.ID); got.State != supervisor.TaskWorking {
			t.Fatalf("task %s while the board is down", got.State)
		}
		setDown(b, false)
		advance(2 * time.Second)
		if got := h.task(task.ID); got.State != supervisor.TaskDone || got.Summary != "did it" {
			t.Fatalf("task = %s %q after the board came back, want done", got.State, got.Summary)
		}
		if box.len() != 0 {
			t.Fatalf("%d writes still queued", box.len())
		}
	})
}

func (p *fakeProc) stopCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stops
}

func (b *sharedMem) reapCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reaps
}

// recGuard records what the station tells its fence guard.
type recGuard struct {
	mu        sync.Mutex
	watched   map[string]string // id → note
	unwatched []string
	deadlines []time.Duration
}

func (g *recGuard) Watch(id string, pid int, marker, window, note string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.watched[id] = note
}

func (g *recGuard) Unwatch(id string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.unwatched = append(g.unwatched, id)
}

func (g *recGuard) Deadline(in time.Duration, _ time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.deadlines = append(g.deadlines, in)
}

// The station feeds its guard the self-fence's deadline at each renewal
// and its sessions as they start and end; a session the guard ended (its
// note written, its agent gone) is settled as a fenced one: requeued, not
// blocked as an agent that exited.
func TestSharedBoardFeedsItsGuard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newSharedMem("A")
		g := &recGuard{watched: map[string]string{}}
		h := startWith(t, func(o *Options) {
			o.Board = b
			o.Config.Lease = 3 * time.Second
			o.Guard = g
		}, project("web", 5*time.Minute, 5*time.Minute))
		h.board = b.memBoard
		task := h.add("web", "a")
		p := h.proc()
		advance(2 * time.Second)
		g.mu.Lock()
		deadlines := slices.Clone(g.deadlines)
		note, watched := g.watched[task.ID+".1"]
		g.mu.Unlock()
		if len(deadlines) < 2 || deadlines[len(deadlines)-1] != 3*time.Second*3/4 {
			t.Fatalf("deadlines fed = %v, want one per renewal, each lease - lease/4 (2.25s)", deadlines)
		}
		if !watched || note == "" {
			t.Fatalf("session %s.1 not under the guard: %v", task.ID, g.watched)
		}
		// What the guard does: its note, then the agent's end.
		if err := os.WriteFile(note, []byte("fenced by the guard\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		p.exit(-1)
		advance(time.Second)
		g.mu.Lock()
		unwatched := slices.Clone(g.unwatched)
		g.mu.Unlock()
		if !slices.Contains(unwatched, task.ID+".1") {
			t.Fatalf("ended session not taken from the guard: %v", unwatched)
		}
		if got := h.task(task.ID); got.Attempt != 2 || got.State == supervisor.TaskBlocked {
			t.Fatalf("task = %s attempt %d (%s), want requeued as attempt 2 as after the station's own fence", got.State, got.Attempt, got.Reason)
		}
	})
}
