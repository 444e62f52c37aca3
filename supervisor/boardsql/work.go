package boardsql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/buildstation/buildstation/supervisor"
)

// SaveTaskWork records what task id's branch holds (supervisor.WorkBoard);
// a later record replaces it. Commits are kept one a line.
func (b Board[Tx]) SaveTaskWork(ctx context.Context, id string, w supervisor.TaskWork) error {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return supervisor.NotFoundf("no task %q", id)
	}
	commits := supervisor.BoardText(strings.Join(w.Commits, "\n"))
	err := b.db.Write(ctx, func(tx Tx) error {
		return b.db.Conn(tx).Exec(ctx, `INSERT INTO task_work (task_id, branch, base, head, commits, diff_stat) VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (task_id) DO UPDATE SET branch = excluded.branch, base = excluded.base, head = excluded.head, commits = excluded.commits, diff_stat = excluded.diff_stat`,
			n, w.Branch, w.Base, w.Head, commits, supervisor.BoardText(w.DiffStat))
	})
	if err != nil {
		return fmt.Errorf("record the work of task %s: %w", id, err)
	}
	return nil
}

// SaveTaskMerged records task id's first merge.
func (b Board[Tx]) SaveTaskMerged(ctx context.Context, id string, m supervisor.MergeRecord) error {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return supervisor.NotFoundf("no task %q", id)
	}
	err := b.db.Write(ctx, func(tx Tx) error {
		return b.db.Conn(tx).Exec(ctx, `INSERT INTO task_merges (task_id, into_branch, commit_sha, at) VALUES ($1, $2, $3, $4)
ON CONFLICT (task_id) DO NOTHING`, n, m.Into, m.Commit, b.db.TimeArg(m.At))
	})
	if err != nil {
		return fmt.Errorf("record the merge of task %s: %w", id, err)
	}
	return nil
}

// TaskWorkRecord is what was recorded of task id's work and its merge.
func (b Board[Tx]) TaskWorkRecord(ctx context.Context, id string) (supervisor.TaskWork, bool, error) {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return supervisor.TaskWork{}, false, nil
	}
	var w supervisor.TaskWork
	var commits string
	err := b.db.Read().QueryRow(ctx, "SELECT branch, base, head, commits, diff_stat FROM task_work WHERE task_id = $1", n).
		Scan(&w.Branch, &w.Base, &w.Head, &commits, &w.DiffStat)
	recorded := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return supervisor.TaskWork{}, false, fmt.Errorf("read the work of task %s: %w", id, err)
	}
	w.Commits = []string{}
	if commits != "" {
		w.Commits = strings.Split(commits, "\n")
	}
	var m supervisor.MergeRecord
	err = b.db.Read().QueryRow(ctx, "SELECT into_branch, commit_sha, at FROM task_merges WHERE task_id = $1", n).
		Scan(&m.Into, &m.Commit, b.db.Time(&m.At))
	switch {
	case err == nil:
		m.At = m.At.UTC()
		w.Merged = &m
	case !errors.Is(err, sql.ErrNoRows):
		return supervisor.TaskWork{}, false, fmt.Errorf("read the merge of task %s: %w", id, err)
	}
	return w, recorded, nil
}

var _ supervisor.WorkBoard = Board[any]{}
