package station

import (
	"context"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
)

// panicsOnce is a board whose first read of the paused projects panics,
// as a bug in a scheduling pass would.
type panicsOnce struct {
	*memBoard
	panicked atomic.Bool
}

func (b *panicsOnce) Paused(ctx context.Context) (map[string]string, error) {
	if b.panicked.CompareAndSwap(false, true) {
		panic("a bug in a scheduling pass")
	}
	return b.memBoard.Paused(ctx)
}

// A scheduler that panics is started again by the station's tree: the
// station goes on, and the next task still gets its session.
func TestSchedulerPanicIsRestartedNotFatal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var board *panicsOnce
		var logged testwait.Buffer
		h := startWith(t, func(o *Options) {
			board = &panicsOnce{memBoard: o.Board.(*memBoard)}
			o.Board = board
			o.Log = slog.New(slog.NewTextHandler(&logged, nil))
		}, project("web", time.Minute, time.Minute))
		synctest.Wait()
		if !board.panicked.Load() {
			t.Fatal("the first pass never read the paused projects")
		}
		select {
		case err := <-h.done:
			t.Fatalf("the station stopped after its scheduler panicked: %v", err)
		default:
		}
		task := h.add("web", "after the panic")
		p := h.proc()
		if p == nil {
			t.Fatalf("task %s got no session after the scheduler's panic", task.ID)
		}
		p.exit(0)
		if out := logged.String(); !strings.Contains(out, "station part panicked") || !strings.Contains(out, "part=scheduler") {
			t.Fatalf("the log does not say which part panicked:\n%s", out)
		}
	})
}
