package pgstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/buildstation/buildstation/supervisor"

	"github.com/jackc/pgx/v5"
)

// channel is the PostgreSQL notification channel every transition is
// announced on.
const channel = "buildstation"

// listenBuffer is how many changes a slow Listen reader may fall behind
// before changes are dropped (and the next one marked Gap): the listener
// never waits on its reader, so the server's notification queue drains.
const listenBuffer = 256

// Change is one committed transition on the board, as Listen delivers it:
// a task's move, or a session's change of state. It names the task, not
// its contents: a reader that cares reads the task.
type Change struct {
	TaskID  string               `json:"task_id"`
	From    supervisor.TaskState `json:"from"` // "" for a new task
	To      supervisor.TaskState `json:"to"`
	Station string               `json:"station"` // whose store made it
	Actor   string               `json:"actor,omitempty"`
	At      time.Time            `json:"at"`
	// Session is set when the change is a session's, not a task's: the
	// session as its station records it (started, changed state, ended).
	Session *supervisor.SessionInfo `json:"session,omitempty"`
	// Gap is set when changes may have been missed before this one (the
	// connection dropped, or the reader fell behind): the reader should
	// reread the board. A Change with only Gap set is sent right after a
	// reconnect.
	Gap bool `json:"-"`
}

// notify announces c when tx commits; PostgreSQL drops it if tx rolls
// back, so listeners hear of committed transitions only.
func notify(ctx context.Context, tx pgx.Tx, c Change) error {
	payload, err := json.Marshal(c)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, "SELECT pg_notify($1, $2)", channel, string(payload))
	return err
}

// Listen delivers every transition committed on the board from now on, by
// any station, until ctx ends or the store closes; then the channel closes.
// It holds one connection of its own, outside the pool. When that
// connection drops, Listen reconnects (every listenRetry until it can) and
// sends a Change with Gap set, since notifications sent meanwhile are lost.
// The error is for the first connection only: once Listen returns, it is
// listening.
func (s *Store) Listen(ctx context.Context) (<-chan Change, error) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.closed, cancel)
	conn, err := s.listenConn(ctx)
	if err != nil {
		stop()
		cancel()
		return nil, err
	}
	ch := make(chan Change, listenBuffer)
	go func() {
		defer stop()
		defer cancel()
		defer close(ch)
		s.listen(ctx, conn, ch)
	}()
	return ch, nil
}

// listenConn opens a connection and subscribes it to the channel.
func (s *Store) listenConn(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, explain(err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

// listen forwards notifications from conn to ch, reconnecting as needed,
// until ctx ends.
func (s *Store) listen(ctx context.Context, conn *pgx.Conn, ch chan<- Change) {
	defer func() { closeConn(conn) }()
	gap := false
	send := func(c Change) {
		c.Gap = c.Gap || gap
		select {
		case ch <- c:
			gap = false
		default:
			gap = true // dropped: the next one tells the reader
		}
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err == nil {
			var c Change
			if json.Unmarshal([]byte(n.Payload), &c) == nil {
				send(c)
			}
			continue
		}
		closeConn(conn)
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(s.listenRetry):
			}
			if c, err := s.listenConn(ctx); err == nil {
				conn = c
				break
			}
		}
		send(Change{Gap: true})
	}
}

func closeConn(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn.Close(ctx)
}
