package supervisor

import (
	"context"
	"time"
)

// A task's work is put on record when it is made, so that what a task
// changed outlives its worktree: once a task is merged its base is no
// longer where its branch forks from the project's, and a branch can be
// deleted by hand, yet `task show` and `task diff` still say what it did.

// MergeRecord says when and where a task's work was merged.
type MergeRecord struct {
	Into   string    `json:"into"`   // the branch the work went into
	Commit string    `json:"commit"` // that branch's head after the merge
	At     time.Time `json:"at"`
}

// WorkBoard is a board that keeps each task's work on record (both SQL
// boards).
type WorkBoard interface {
	// SaveTaskWork records what task id's branch holds, replacing an
	// earlier record: the station writes it when a task's work is made
	// (its last session ended on a final state), before its worktree goes.
	// The gate's verdict is not kept: the board has it per commit.
	SaveTaskWork(ctx context.Context, id string, w TaskWork) error
	// SaveTaskMerged records a merge of task id's work; the first one
	// stays (merging again finds the work already there).
	SaveTaskMerged(ctx context.Context, id string, m MergeRecord) error
	// TaskWorkRecord is what was recorded of task id's work: ok is false
	// when its work was never recorded. Merged is set once it was merged,
	// even when no work was recorded.
	TaskWorkRecord(ctx context.Context, id string) (w TaskWork, ok bool, err error)
}
