package app

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A board with a long history: the connection reads the counts and the
// live columns, and of the done tasks only the newest doneShown — never the
// whole board — yet the Done figure is the board's own, and follows
// events.
func TestConnReadsCountsAndTheVisibleColumns(t *testing.T) {
	fake := newFake()
	for i := 1; i <= 500; i++ {
		fake.tasks = append(fake.tasks, task(fmt.Sprintf("t%d", i), supervisor.TaskDone))
	}
	fake.tasks = append(fake.tasks, task("t501", supervisor.TaskCancelled), task("t502", supervisor.TaskWorking), task("t503", supervisor.TaskTodo))
	snaps := make(chan Snapshot, 16)
	c := newConn(func(context.Context, bool) (Client, error) { return fake, nil }, nil)
	c.log = discardLog()
	c.coalesce = time.Millisecond
	c.onSnap = func(s Snapshot) { snaps <- s }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Run(ctx)

	s := <-snaps
	fake.mu.Lock()
	reads := append([]supervisor.TaskFilter(nil), fake.reads...)
	fake.mu.Unlock()
	for _, f := range reads {
		if f.State == "" || f.State == supervisor.TaskDone && (!f.Newest || f.Limit != doneShown) {
			t.Errorf("the tray read %+v: every read names a column, and done only its newest %d", f, doneShown)
		}
	}
	done := func(s Snapshot) (n int, newest string) {
		for _, t := range s.Tasks {
			if t.State == supervisor.TaskDone {
				n++
				if newest == "" || compareIDs(t.ID, newest) > 0 {
					newest = t.ID
				}
			}
		}
		return n, newest
	}
	if n, newest := done(s); n != doneShown || newest != "t500" || Count(s).Done != 500 || len(s.Tasks) != doneShown+2 {
		t.Fatalf("first snapshot: %d tasks, %d done up to %s, Done figure %d; want %d done up to t500 and the figure 500",
			len(s.Tasks), n, newest, Count(s).Done, doneShown)
	}

	finished := task("t502", supervisor.TaskDone)
	fake.events <- supervisor.Event{Kind: supervisor.EventTask, Task: &finished}
	for s = range snaps {
		if n, newest := done(s); newest == "t502" {
			if n != doneShown || Count(s).Done != 501 {
				t.Fatalf("after t502 is done: %d done shown, Done figure %d; want %d and 501", n, Count(s).Done, doneShown)
			}
			break
		}
	}
}
