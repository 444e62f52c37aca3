package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/buildstation/buildstation/supervisor/boardsql"
)

// migrations are the schema, one step per version; migrations[i] takes the
// database to version i+1. Steps are append-only: a released step never
// changes, a change is a new step.
var migrations = []string{
	// 1: the board.
	`
CREATE TABLE tasks (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	project    TEXT    NOT NULL,
	title      TEXT    NOT NULL,
	body       TEXT    NOT NULL DEFAULT '',
	state      TEXT    NOT NULL CHECK (state IN ('todo','working','review','blocked','done','cancelled')),
	attempt    INTEGER NOT NULL DEFAULT 1 CHECK (attempt >= 1),
	reason     TEXT    NOT NULL DEFAULT '',
	summary    TEXT    NOT NULL DEFAULT '',
	notes      TEXT    NOT NULL DEFAULT '[]', -- JSON array of strings
	created_at INTEGER NOT NULL,              -- Unix ms, UTC
	updated_at INTEGER NOT NULL
);
-- Claim: the oldest todo task of one project.
CREATE INDEX tasks_project_state ON tasks (project, state, id);
CREATE INDEX tasks_state ON tasks (state, id);

CREATE TABLE transitions (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	task_id    INTEGER NOT NULL REFERENCES tasks (id),
	from_state TEXT    NOT NULL, -- '' for the row AddTask writes
	to_state   TEXT    NOT NULL,
	attempt    INTEGER NOT NULL, -- the task's attempt after the move
	reason     TEXT    NOT NULL DEFAULT '',
	actor      TEXT    NOT NULL DEFAULT '',
	at         INTEGER NOT NULL
);
CREATE INDEX transitions_task ON transitions (task_id, id);

CREATE TABLE sessions (
	id         TEXT    PRIMARY KEY,
	task_id    INTEGER NOT NULL REFERENCES tasks (id),
	kind       TEXT    NOT NULL,
	pid        INTEGER NOT NULL DEFAULT 0,
	state      TEXT    NOT NULL,
	started_at INTEGER NOT NULL,
	ended_at   INTEGER           -- NULL while the session lives
);
CREATE INDEX sessions_live ON sessions (started_at) WHERE ended_at IS NULL;

CREATE TABLE paused (
	project TEXT    PRIMARY KEY,
	reason  TEXT    NOT NULL DEFAULT '',
	at      INTEGER NOT NULL
);

-- A gate verdict depends on the project's gate command as well as the
-- commit, so it is keyed by both: two projects on one repository may gate
-- differently.
CREATE TABLE gate_results (
	project     TEXT    NOT NULL,
	sha         TEXT    NOT NULL,
	passed      INTEGER NOT NULL CHECK (passed IN (0, 1)),
	output_tail TEXT    NOT NULL DEFAULT '',
	at          INTEGER NOT NULL,
	PRIMARY KEY (project, sha)
);
`,
	// 2: sessions that outlive the station (tmux) are found again by their
	// backend handle, keep reporting with their token, and restart their
	// watchdog from their last output.
	`ALTER TABLE sessions ADD COLUMN backend TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN handle TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN token TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN last_output_at INTEGER NOT NULL DEFAULT 0;`,
	// 3: a task imported from an issue (GitHub, Linear) names it; one
	// task per issue, ever.
	`ALTER TABLE tasks ADD COLUMN ext_kind TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN ext_id TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN ext_url TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX tasks_external ON tasks (ext_kind, ext_id) WHERE ext_id <> '';`,
	// 4: what was spent, so a restart does not reset a daily budget: per
	// project and day (the station's local date) in millionths of a
	// dollar, with the day's budget state (1 paused by it, 2 lifted by a
	// person), and per task.
	`CREATE TABLE spend (
	day          TEXT    NOT NULL,
	project      TEXT    NOT NULL,
	micro        INTEGER NOT NULL DEFAULT 0,
	budget_state INTEGER NOT NULL DEFAULT 0 CHECK (budget_state IN (0, 1, 2)),
	PRIMARY KEY (day, project)
);
CREATE TABLE task_spend (
	task_id INTEGER PRIMARY KEY REFERENCES tasks (id),
	micro   INTEGER NOT NULL DEFAULT 0
);`,
	// 5: a task's work on record, written when it is made, so that it
	// outlives the worktree and a merge; and where and when it was merged.
	`CREATE TABLE task_work (
	task_id   INTEGER PRIMARY KEY REFERENCES tasks (id),
	branch    TEXT    NOT NULL,
	base      TEXT    NOT NULL,
	head      TEXT    NOT NULL,
	commits   TEXT    NOT NULL DEFAULT '', -- "sha subject", one a line, newest first
	diff_stat TEXT    NOT NULL DEFAULT ''
);
CREATE TABLE task_merges (
	task_id     INTEGER PRIMARY KEY REFERENCES tasks (id),
	into_branch TEXT    NOT NULL,
	commit_sha  TEXT    NOT NULL,
	at          INTEGER NOT NULL -- Unix ms, UTC
);`,
	// 6: the count of tasks per state, so `status` reads a row per state
	// instead of walking the state index (on 100,000 tasks 6 ms a call on a
	// quiet machine, 12–45 ms on a loaded one; 16 µs this way). Triggers keep it, in the
	// transaction of every insert, state change and delete, whoever
	// writes: the board's own paths, imports, or SQL run on the file. A step that rebuilds tasks (SQLite
	// drops a table's triggers with it) must create them again; a REPLACE
	// into tasks would delete without firing them (recursive_triggers is
	// off), so the board never writes one.
	`CREATE TABLE task_counts (
	state TEXT    PRIMARY KEY,
	n     INTEGER NOT NULL CHECK (n >= 0)
) WITHOUT ROWID;
INSERT INTO task_counts (state, n) SELECT state, COUNT(*) FROM tasks GROUP BY state;
CREATE TRIGGER task_counts_insert AFTER INSERT ON tasks BEGIN
	INSERT INTO task_counts (state, n) VALUES (NEW.state, 1)
		ON CONFLICT (state) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER task_counts_delete AFTER DELETE ON tasks BEGIN
	UPDATE task_counts SET n = n - 1 WHERE state = OLD.state;
END;
CREATE TRIGGER task_counts_move AFTER UPDATE OF state ON tasks WHEN OLD.state IS NOT NEW.state BEGIN
	UPDATE task_counts SET n = n - 1 WHERE state = OLD.state;
	INSERT INTO task_counts (state, n) VALUES (NEW.state, 1)
		ON CONFLICT (state) DO UPDATE SET n = n + 1;
END;`,
}

// migrate brings db to the newest schema in one transaction: a failed step
// leaves the file as it was. d stamps the steps.
func migrate(ctx context.Context, db *sql.DB, d boardsql.Dialect) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (
	version    INTEGER PRIMARY KEY,
	applied_at INTEGER NOT NULL
)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if err := boardsql.Migrate(ctx, d, conn{tx}, migrations); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}

// Version is the board's schema version: what `buildstation board status`
// reports. Open has migrated it, so it is the newest this build knows.
func (s *Store) Version(ctx context.Context) (int, error) {
	var v int
	if err := s.rd.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read board %s: schema version: %w", s.path, err)
	}
	return v, nil
}
