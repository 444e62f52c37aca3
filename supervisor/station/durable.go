package station

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A shared board can be unreachable (the server restarts, the network
// drops) while sessions go on ending and agents go on reporting. What the
// station owes the board then goes to a durable outbox on this machine and
// is replayed, in order, when the board answers again: an agent's
// completion, acknowledged while the board was away, is never lost.

// writes is every write the station owes the board. On its own board a
// write goes straight there. On a shared board with an outbox a write the
// board does not answer (or one made while older ones wait) is queued, and
// the heartbeat replays the queue in order once the board answers; link
// says how the board stands meanwhile.
type writes struct {
	board   supervisor.Board
	sb      supervisor.SharedBoard // nil on the station's own board
	box     supervisor.Outbox      // nil: nothing is queued
	reg     *registry
	log     *slog.Logger
	bus     *supervisor.Bus
	timeout func() time.Duration
	// delivered is told of a queued move that reached the board.
	delivered func(t supervisor.Task)
	// life is the station's own context (owner.go).
	life context.Context

	link link
}

// keepToken stores a new session's token on this machine, on a shared
// board whose records hold only its hash.
func (w *writes) keepToken(ctx context.Context, id, token string) {
	if w.sb == nil || token == "" {
		return
	}
	if k, ok := w.box.(supervisor.TokenKeeper); ok {
		if err := k.KeepToken(ctx, id, token); err != nil {
			w.log.Warn("keep session token", "session", id, "err", err)
		}
	}
}

// forgetToken drops an ended session's token from this machine.
func (w *writes) forgetToken(ctx context.Context, id string) {
	if k, ok := w.box.(supervisor.TokenKeeper); ok && w.sb != nil {
		if err := k.ForgetToken(ctx, id); err != nil {
			w.log.Warn("forget an ended session's token", "session", id, "err", err)
		}
	}
}

// rawToken gives a board record its token back from this machine's keeper
// when the board holds only the hash; "" when it is not known here.
func (w *writes) rawToken(ctx context.Context, r supervisor.SessionRecord) string {
	if !strings.HasPrefix(r.Token, supervisor.TokenHashPrefix) {
		return r.Token
	}
	k, ok := w.box.(supervisor.TokenKeeper)
	if !ok {
		return ""
	}
	tok, ok := k.Token(ctx, r.ID)
	if !ok || supervisor.HashToken(tok) != r.Token {
		return ""
	}
	return tok
}

// link tracks the board's reachability and the outbox's length.
type link struct {
	mu        sync.Mutex
	downSince time.Time
	lastErr   string
	queued    int
	published supervisor.BoardLink // the last state told to subscribers
}

func (l *link) down(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.downSince.IsZero() {
		l.downSince = time.Now().Round(0)
	}
	l.lastErr = err.Error()
}

func (l *link) up() {
	l.mu.Lock()
	l.downSince, l.lastErr = time.Time{}, ""
	l.mu.Unlock()
}

func (l *link) add(n int) {
	l.mu.Lock()
	l.queued += n
	l.mu.Unlock()
}

func (l *link) pending() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.queued
}

// Link reports the shared board's reachability; nil on a station's own
// board.
func (sh *Shared) Link() *supervisor.BoardLink { return sh.st.writes.state() }

// state is the board link as it stands; nil on a station's own board.
func (w *writes) state() *supervisor.BoardLink {
	if w.sb == nil {
		return nil
	}
	w.link.mu.Lock()
	defer w.link.mu.Unlock()
	return &supervisor.BoardLink{Reachable: w.link.downSince.IsZero(), DownSince: w.link.downSince, Queued: w.link.queued, Error: w.link.lastErr}
}

// publish tells subscribers (trays) how the board link stands, when that
// changed.
func (w *writes) publish() {
	l := w.state()
	if l == nil {
		return
	}
	w.link.mu.Lock()
	key := supervisor.BoardLink{Reachable: l.Reachable, DownSince: l.DownSince, Queued: l.Queued}
	changed := key != w.link.published
	w.link.published = key
	w.link.mu.Unlock()
	if changed {
		w.bus.Publish(supervisor.Event{Kind: supervisor.EventBoard, Board: l})
	}
}

// unreachable reports whether err means the board did not answer.
func unreachable(err error) bool {
	return errors.Is(err, supervisor.ErrUnreachable) || errors.Is(err, context.DeadlineExceeded)
}

// writeTimeout bounds one write to a shared board: long enough for a busy
// server, short enough that an agent's report is queued well before its
// station's leases run out.
func (ho *host) writeTimeout() time.Duration {
	return min(max(ho.st.Config().Lease/4, 500*time.Millisecond), 10*time.Second)
}

// queueing reports whether writes go to the outbox first: a shared board
// with an outbox. Writes made while older ones wait are queued behind them,
// so the board gets them in the order they were made.
func (w *writes) queueing() bool { return w.sb != nil && w.box != nil }

// owe runs write against the board, or queues e when the board does not
// answer (or older writes wait); queued reports the latter.
func (w *writes) owe(ctx context.Context, e supervisor.OutboxEntry, write func(ctx context.Context) error) (queued bool, err error) {
	if !w.queueing() {
		return false, write(ctx)
	}
	if w.link.pending() == 0 {
		wctx, cancel := context.WithTimeout(ctx, w.timeout())
		err := write(wctx)
		cancel()
		if err == nil || !unreachable(err) {
			return false, err
		}
		w.link.down(err)
	}
	e.Queued = time.Now().UTC()
	// Not ctx, which the write that failed may have used up: the
	// station's own, which a stop does not cut short (owner.go).
	if _, err := w.box.Add(w.life, e); err != nil {
		return false, fmt.Errorf("the board is unreachable and the write could not be queued: %w", err)
	}
	w.link.add(1)
	w.log.Warn("board unreachable; write queued", "kind", e.Kind, "task", e.TaskID, "queued", w.link.pending())
	return true, nil
}

// move applies m to task id, or queues it; queued reports the latter, and t
// is then the zero Task.
func (w *writes) move(ctx context.Context, id string, m supervisor.Move) (t supervisor.Task, queued bool, err error) {
	var epoch int64
	if w.sb != nil {
		epoch = w.sb.Epoch(id)
	}
	attempt := 0
	if s := w.reg.forTask(id); s != nil {
		if i := strings.LastIndexByte(strings.TrimSuffix(s.spec.ID, ".review"), '.'); i > 0 {
			attempt, _ = strconv.Atoi(strings.TrimSuffix(s.spec.ID, ".review")[i+1:])
		}
	}
	queued, err = w.owe(ctx, supervisor.OutboxEntry{Kind: "move", TaskID: id, Epoch: epoch, Attempt: attempt, Move: &m}, func(ctx context.Context) error {
		var err error
		t, err = w.board.Move(ctx, id, m)
		return err
	})
	return t, queued, err
}

// saveSession records r, or queues it.
func (w *writes) saveSession(ctx context.Context, r supervisor.SessionRecord) error {
	_, err := w.owe(ctx, supervisor.OutboxEntry{Kind: "session", TaskID: r.TaskID, Session: &r}, func(ctx context.Context) error {
		return w.board.SaveSession(ctx, r)
	})
	return err
}

// releaseTask gives back the lease on task id, or queues that.
func (w *writes) releaseTask(ctx context.Context, id string) error {
	sb := w.sb
	_, err := w.owe(ctx, supervisor.OutboxEntry{Kind: "release", TaskID: id, Epoch: sb.Epoch(id)}, func(ctx context.Context) error {
		return sb.Release(ctx, id)
	})
	return err
}

// replay writes the outbox to the board in order, until it is empty or the
// board stops answering. A write the board refuses for good (the task
// moved on, the lease was reaped or let again) is dropped with a warning:
// it was superseded, and replaying it again would never succeed.
func (w *writes) replay(ctx context.Context) error {
	sb := w.sb
	box := w.box
	if box == nil {
		return nil
	}
	entries, err := box.List(ctx)
	if err != nil {
		return err
	}
	w.link.mu.Lock()
	w.link.queued = len(entries)
	w.link.mu.Unlock()
	for _, e := range entries {
		wctx, cancel := context.WithTimeout(ctx, w.timeout())
		err := w.replayOne(wctx, sb, e)
		cancel()
		if err != nil && unreachable(err) {
			return err
		}
		if err != nil {
			w.log.Warn("queued write superseded; dropped", "kind", e.Kind, "task", e.TaskID, "queued_at", e.Queued, "err", err)
		} else {
			w.log.Info("queued write delivered", "kind", e.Kind, "task", e.TaskID, "queued_at", e.Queued)
		}
		if err := box.Remove(ctx, e.Seq); err != nil {
			return err
		}
		w.link.add(-1)
	}
	return nil
}

// rescue delivers a queued report of a task the reaper blocked while this
// station was cut off (and nobody requeued since): the agent's completion
// was acknowledged, and nobody else has run the task, so it stands.
func (w *writes) rescue(ctx context.Context, sb supervisor.SharedBoard, e supervisor.OutboxEntry, refused error) (supervisor.Task, error) {
	cur, err := w.board.Task(ctx, e.TaskID)
	if err != nil {
		return supervisor.Task{}, refused
	}
	if cur.State != supervisor.TaskBlocked || cur.Reason != "station "+sb.Station()+" lost" || e.Attempt == 0 || cur.Attempt != e.Attempt {
		return supervisor.Task{}, refused
	}
	m := *e.Move
	m.From = []supervisor.TaskState{supervisor.TaskBlocked}
	m.KeepLease = false
	m.Note = fmt.Sprintf("Reported at %s while station %s was cut off from the board; delivered when it came back.",
		e.Queued.Format(time.RFC3339), sb.Station())
	return w.board.Move(ctx, e.TaskID, m)
}

func (w *writes) replayOne(ctx context.Context, sb supervisor.SharedBoard, e supervisor.OutboxEntry) error {
	if e.Epoch != 0 && sb.Epoch(e.TaskID) != e.Epoch {
		return fmt.Errorf("lease epoch %d on task %s is gone: %w", e.Epoch, e.TaskID, supervisor.ErrConflict)
	}
	switch {
	case e.Kind == "move" && e.Move != nil:
		t, err := w.board.Move(ctx, e.TaskID, *e.Move)
		var se *supervisor.StateError
		if errors.As(err, &se) && se.Have == supervisor.TaskBlocked && e.Move.To != supervisor.TaskTodo {
			t, err = w.rescue(ctx, sb, e, err)
		}
		if err == nil {
			w.delivered(t)
		}
		return err
	case e.Kind == "session" && e.Session != nil:
		return w.board.SaveSession(ctx, *e.Session)
	case e.Kind == "release":
		return sb.Release(ctx, e.TaskID)
	}
	return fmt.Errorf("unknown outbox entry %q", e.Kind)
}

// delivered tells about a queued move that reached the board.
func (ho *host) delivered(t supervisor.Task) {
	ho.publishTask(t)
	if t.State == supervisor.TaskBlocked {
		ho.notify(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: t.ID, Title: "Blocked: " + t.Title, Body: t.Reason})
	}
}
