//go:build linux

package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/buildstation/buildstation/supervisor/store"
)

const startupRuns = 5

// benchStartup times `buildstation daemon` from exec to an answered status,
// on an empty board and on one that has seen 10,000 tasks.
func benchStartup(t *table) error {
	proj, _ := os.MkdirTemp(workDir, "startup-")
	cfg := fmt.Sprintf("[[projects]]\nname = \"p\"\npath = %q\n", proj)
	empty, err := newHome("startup-empty", cfg)
	if err != nil {
		return err
	}
	full, err := newHome("startup-10k", cfg)
	if err != nil {
		return err
	}
	progress("startup: writing a board with 10,000 finished tasks")
	if err := seedBoard(filepath.Join(full, "station.db"), 10_000); err != nil {
		return fmt.Errorf("seed board: %w", err)
	}
	// A first start creates the empty board; it is not counted.
	if st, err := startStation(empty); err == nil {
		st.stop()
	} else {
		return err
	}
	var e, f []time.Duration
	for i := range startupRuns {
		progress("startup: run %d of %d", i+1, startupRuns)
		for _, h := range []struct {
			home string
			out  *[]time.Duration
		}{{empty, &e}, {full, &f}} {
			st, err := startStation(h.home)
			if err != nil {
				return err
			}
			*h.out = append(*h.out, st.Ready)
			st.stop()
		}
	}
	me, mf := medianD(e), medianD(f)
	note := fmt.Sprintf("median of %d; exec of `buildstation daemon` until the API answers status (a Go client polling every 2 ms); the 10,000 tasks are done, each with 3 history rows and a session record", startupRuns)
	t.add(row{figure: "start-up, empty board", ours: ms(me)})
	t.add(row{figure: "start-up, 10,000 tasks", ours: ms(mf), baseline: ms(me) + " (empty)", ratio: ratio(float64(mf), float64(me)),
		target: "< 300 ms", met: metString(mf < 300*time.Millisecond), note: note})
	return nil
}

func medianD(v []time.Duration) time.Duration {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// seedBoard makes a board with the store (its schema), then fills it with
// n finished tasks in one transaction straight through SQL: through the
// store it would be 30,000 fsynced commits, the setup and not the figure.
// It writes what the store would: a task, its "" → todo → working → done
// history, and an ended session record.
func seedBoard(path string, n int) error {
	return seedWith(path, func(ctx context.Context, tx *sql.Tx) error {
		return seedFinished(ctx, tx, n)
	})
}

// seedWith makes a board with the store (its schema), then runs fill in
// one transaction straight on its file.
func seedWith(path string, fill func(ctx context.Context, tx *sql.Tx) error) error {
	s, err := store.Open(path)
	if err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", "file://"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fill(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// seedFinished writes n done tasks with their history and sessions.
func seedFinished(ctx context.Context, tx *sql.Tx, n int) error {
	now := time.Now().Add(-24 * time.Hour).UnixMilli()
	for i := range n {
		at := now + int64(i)*10
		res, err := tx.ExecContext(ctx, `INSERT INTO tasks (project, title, body, state, attempt, summary, created_at, updated_at)
VALUES ('p', ?, 'script: print hi; complete done', 'done', 1, 'ok', ?, ?)`, fmt.Sprint("task ", i), at, at+3)
		if err != nil {
			return err
		}
		id, err := res.LastInsertId()
		if err != nil {
			return err
		}
		for k, tr := range [][2]string{{"", "todo"}, {"todo", "working"}, {"working", "done"}} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO transitions (task_id, from_state, to_state, attempt, reason, actor, at)
VALUES (?, ?, ?, 1, '', 'station', ?)`, id, tr[0], tr[1], at+int64(k)); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, task_id, kind, pid, state, started_at, ended_at)
VALUES (?, ?, 'work', 1, 'ended', ?, ?)`, fmt.Sprintf("t%d.1", id), id, at+1, at+2); err != nil {
			return err
		}
	}
	return nil
}
