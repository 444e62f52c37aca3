package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
)

// group is the board's group commit: writes that arrive while a commit is
// in flight wait, then go together in the next transaction, one savepoint
// each, so a burst of adds costs one fsync instead of one per add. Every
// caller still returns only once its own change is committed (or has
// failed alone: a write whose fn fails is rolled back to its savepoint and
// the rest of the batch commits).
type group struct {
	mu      sync.Mutex
	pending []*groupWrite
	leading bool         // a caller is committing batches
	commits atomic.Int64 // transactions committed, for tests
}

type groupWrite struct {
	fn   func(tx *sql.Tx) error
	err  error
	done chan struct{}
}

// write runs fn in a transaction shared with the writes that arrive
// meanwhile (see group) and returns once that transaction has committed.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	w := &groupWrite{fn: fn, done: make(chan struct{})}
	g := &s.group
	g.mu.Lock()
	g.pending = append(g.pending, w)
	if g.leading {
		g.mu.Unlock()
		<-w.done
		return w.err
	}
	g.leading = true
	g.mu.Unlock()
	// This caller commits batches until none is left: its own first, then
	// whatever queued behind it.
	for {
		g.mu.Lock()
		batch := g.pending
		g.pending = nil
		if len(batch) == 0 {
			g.leading = false
			g.mu.Unlock()
			break
		}
		g.mu.Unlock()
		s.commit(context.WithoutCancel(ctx), batch)
	}
	<-w.done
	return w.err
}

// commit runs a batch in one BEGIN IMMEDIATE transaction. A lone write
// needs no savepoint.
func (s *Store) commit(ctx context.Context, batch []*groupWrite) {
	finish := func(err error) {
		for _, w := range batch {
			if w.err == nil {
				w.err = err
			}
			close(w.done)
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		finish(explain(err))
		return
	}
	ok := 0
	for _, w := range batch {
		if len(batch) == 1 {
			w.err = w.fn(tx)
		} else if w.err = savepoint(ctx, tx, w.fn); w.err != nil && isTxFatal(w.err) {
			tx.Rollback()
			finish(w.err)
			return
		}
		if w.err == nil {
			ok++
		}
	}
	if ok == 0 {
		tx.Rollback()
		finish(nil)
		return
	}
	s.group.commits.Add(1)
	finish(explainCommit(tx.Commit()))
}

func explainCommit(err error) error {
	if err != nil {
		return explain(err)
	}
	return nil
}

// savepoint runs fn so that its failure undoes only its own statements.
func savepoint(ctx context.Context, tx *sql.Tx, fn func(tx *sql.Tx) error) error {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT w"); err != nil {
		return &txFatal{err}
	}
	if err := fn(tx); err != nil {
		if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO w"); rerr != nil {
			return &txFatal{err}
		}
		if _, rerr := tx.ExecContext(ctx, "RELEASE w"); rerr != nil {
			return &txFatal{err}
		}
		return err
	}
	if _, err := tx.ExecContext(ctx, "RELEASE w"); err != nil {
		return &txFatal{err}
	}
	return nil
}

// txFatal marks a failure that leaves the shared transaction unusable:
// the whole batch fails with it.
type txFatal struct{ err error }

func (e *txFatal) Error() string { return e.err.Error() }
func (e *txFatal) Unwrap() error { return e.err }

func isTxFatal(err error) bool {
	_, ok := err.(*txFatal)
	return ok
}
