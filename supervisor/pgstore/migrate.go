package pgstore

import (
	"context"
	"fmt"

	"github.com/buildstation/buildstation/supervisor/boardsql"

	"github.com/jackc/pgx/v5"
)

// migrateLock is the advisory lock key every station's migration takes
// before it reads the schema version ("bsmigrat" in ASCII): stations that
// start at the same moment apply each step once between them, one after
// another, instead of racing on CREATE TABLE. Project locks use the
// two-key form of advisory locks, a separate key space.
const migrateLock int64 = 0x62736d6967726174

// migrations are the schema, one step per version; migrations[i] takes the
// database to version i+1. Steps are append-only: a released step never
// changes, a change is a new step. The tables mirror the SQLite store's
// (as of its version 2), with PostgreSQL types: times are timestamptz kept
// to the millisecond, notes a text array.
var migrations = []string{
	// 1: the board.
	`
CREATE TABLE tasks (
	id         BIGSERIAL   PRIMARY KEY,
	project    text        NOT NULL,
	title      text        NOT NULL,
	body       text        NOT NULL DEFAULT '',
	state      text        NOT NULL CHECK (state IN ('todo','working','review','blocked','done','cancelled')),
	attempt    integer     NOT NULL DEFAULT 1 CHECK (attempt >= 1),
	reason     text        NOT NULL DEFAULT '',
	summary    text        NOT NULL DEFAULT '',
	notes      text[]      NOT NULL DEFAULT '{}',
	created_at timestamptz NOT NULL,
	updated_at timestamptz NOT NULL
);
-- Claim: the oldest todo task of one project.
CREATE INDEX tasks_project_state ON tasks (project, state, id);
CREATE INDEX tasks_state ON tasks (state, id);

CREATE TABLE transitions (
	id         BIGSERIAL   PRIMARY KEY,
	task_id    bigint      NOT NULL REFERENCES tasks (id),
	from_state text        NOT NULL, -- '' for the row AddTask writes
	to_state   text        NOT NULL,
	attempt    integer     NOT NULL, -- the task's attempt after the move
	reason     text        NOT NULL DEFAULT '',
	actor      text        NOT NULL DEFAULT '',
	at         timestamptz NOT NULL
);
CREATE INDEX transitions_task ON transitions (task_id, id);

-- Session ids are made by each station, so two stations may both have an
-- "s1": the station is part of the key.
CREATE TABLE sessions (
	station        text        NOT NULL,
	id             text        NOT NULL,
	task_id        bigint      NOT NULL REFERENCES tasks (id),
	kind           text        NOT NULL,
	pid            integer     NOT NULL DEFAULT 0,
	state          text        NOT NULL,
	started_at     timestamptz NOT NULL,
	ended_at       timestamptz,          -- NULL while the session lives
	backend        text        NOT NULL DEFAULT '',
	handle         text        NOT NULL DEFAULT '',
	token          text        NOT NULL DEFAULT '',
	last_output_at timestamptz,
	PRIMARY KEY (station, id)
);
CREATE INDEX sessions_live ON sessions (station, started_at) WHERE ended_at IS NULL;

CREATE TABLE paused (
	project text        PRIMARY KEY,
	reason  text        NOT NULL DEFAULT '',
	at      timestamptz NOT NULL
);

-- A gate verdict depends on the project's gate command as well as the
-- commit, so it is keyed by both.
CREATE TABLE gate_results (
	project     text        NOT NULL,
	sha         text        NOT NULL,
	passed      boolean     NOT NULL,
	output_tail text        NOT NULL DEFAULT '',
	at          timestamptz NOT NULL,
	PRIMARY KEY (project, sha)
);
`,
	// 2: stations sharing the board, and their leases on tasks.
	`
CREATE TABLE stations (
	name      text        PRIMARY KEY,
	last_seen timestamptz NOT NULL
);

-- A lease is a station's claim on a task and on one of its project's slots,
-- until expires_at unless renewed.
CREATE TABLE leases (
	task_id    bigint      PRIMARY KEY REFERENCES tasks (id),
	project    text        NOT NULL,
	station    text        NOT NULL,
	expires_at timestamptz NOT NULL
);
CREATE INDEX leases_project ON leases (project, expires_at);
CREATE INDEX leases_station ON leases (station);
CREATE INDEX leases_expires ON leases (expires_at);
`,
	// 3: fencing. Every lease carries an epoch from one sequence, so a
	// lease let again is told from the one before it, and the instance of
	// the station process that holds it; a station records its instance
	// and where it runs, so a second live process under one name is
	// refused. project_settings are the board's caps, which every
	// station obeys (its own config may only narrow them).
	`
CREATE SEQUENCE lease_epochs;
ALTER TABLE leases ADD COLUMN epoch bigint NOT NULL DEFAULT 0,
	ADD COLUMN instance text NOT NULL DEFAULT '';
ALTER TABLE stations ADD COLUMN instance text NOT NULL DEFAULT '',
	ADD COLUMN origin text NOT NULL DEFAULT '';
CREATE TABLE project_settings (
	project     text        PRIMARY KEY,
	concurrency integer     CHECK (concurrency >= 1), -- NULL: no board cap
	stations    text[]      NOT NULL DEFAULT '{}',    -- empty: any station
	updated_at  timestamptz NOT NULL
);
`,
	// 4: a task whose work is only in one station's worktree (its project
	// pushes no branches) is pinned to that station: no other claims it.
	`
ALTER TABLE tasks ADD COLUMN pinned_to text NOT NULL DEFAULT '';
`,
	// 5: the board's watchdog windows for a project, in milliseconds
	// (NULL: none). They are the team's floor: a station may wait longer
	// before it nudges or blocks, never less.
	`
ALTER TABLE project_settings
	ADD COLUMN idle_window_ms        bigint CHECK (idle_window_ms >= 1000),
	ADD COLUMN block_window_ms       bigint CHECK (block_window_ms >= 1000),
	ADD COLUMN review_idle_window_ms bigint CHECK (review_idle_window_ms >= 1000);
`,
	// 6: a task imported from an issue (GitHub, Linear) names it; one
	// task per issue, ever, whichever station imported it.
	`
ALTER TABLE tasks
	ADD COLUMN ext_kind text NOT NULL DEFAULT '',
	ADD COLUMN ext_id   text NOT NULL DEFAULT '',
	ADD COLUMN ext_url  text NOT NULL DEFAULT '';
CREATE UNIQUE INDEX tasks_external ON tasks (ext_kind, ext_id) WHERE ext_id <> '';
`,
	// 7: what was spent, so a restart does not reset a daily budget: per
	// project and day (the adding station's local date) in millionths of a
	// dollar, every station's together, with the day's budget state (1
	// paused by it, 2 lifted by a person), and per task.
	`
CREATE TABLE spend (
	day          text     NOT NULL,
	project      text     NOT NULL,
	micro        bigint   NOT NULL DEFAULT 0,
	budget_state smallint NOT NULL DEFAULT 0 CHECK (budget_state IN (0, 1, 2)),
	PRIMARY KEY (day, project)
);
CREATE TABLE task_spend (
	task_id bigint PRIMARY KEY REFERENCES tasks (id),
	micro   bigint NOT NULL DEFAULT 0
);
`,
	// 8: a task's work on record, written when it is made, so that it
	// outlives the worktree and a merge; and where and when it was merged.
	`
CREATE TABLE task_work (
	task_id   bigint PRIMARY KEY REFERENCES tasks (id),
	branch    text   NOT NULL,
	base      text   NOT NULL,
	head      text   NOT NULL,
	commits   text   NOT NULL DEFAULT '',
	diff_stat text   NOT NULL DEFAULT ''
);
CREATE TABLE task_merges (
	task_id     bigint      PRIMARY KEY REFERENCES tasks (id),
	into_branch text        NOT NULL,
	commit_sha  text        NOT NULL,
	at          timestamptz NOT NULL
);
`,
	// 9: the count of tasks per state, so `status` sums a few rows instead
	// of reading every task (a GROUP BY over 100,000 tasks scans them all).
	// A trigger adds a row of +1 or -1 per state in the transaction of
	// each insert, state change and delete, and never updates one: moves
	// on two stations take no common lock (one count row per state would
	// be a lock every claim waits on, and two opposite moves would take
	// its rows in opposite orders and deadlock). foldCounts folds the rows
	// into one per state now and then. The functions run as their owner
	// (who migrated the board), so a station's role, granted the tables
	// that existed when it was made, needs no grant on task_counts.
	`
CREATE TABLE task_counts (
	state text   NOT NULL,
	n     bigint NOT NULL
);
INSERT INTO task_counts (state, n) SELECT state, COUNT(*) FROM tasks GROUP BY state;
CREATE FUNCTION task_counts_follow() RETURNS trigger LANGUAGE plpgsql
	SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		INSERT INTO task_counts (state, n) VALUES (OLD.state, -1);
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO task_counts (state, n) VALUES (NEW.state, 1);
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER task_counts_add AFTER INSERT OR DELETE ON tasks
	FOR EACH ROW EXECUTE PROCEDURE task_counts_follow();
CREATE TRIGGER task_counts_move AFTER UPDATE OF state ON tasks
	FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE PROCEDURE task_counts_follow();
CREATE FUNCTION task_counts_sum() RETURNS TABLE (state text, n bigint) LANGUAGE sql STABLE
	SECURITY DEFINER SET search_path FROM CURRENT AS $$
	SELECT c.state, SUM(c.n)::bigint FROM task_counts c GROUP BY c.state
$$;
-- One statement folds: the rows it deletes are those its snapshot sees,
-- each deleted by one fold only (a second fold waits, then skips them),
-- and their sums go back in the same commit. A board with a row per state
-- already is not written: an idle board stays idle.
CREATE FUNCTION task_counts_fold() RETURNS void LANGUAGE plpgsql
	SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
	IF (SELECT COUNT(*) > COUNT(DISTINCT state) FROM task_counts) THEN
		WITH d AS (DELETE FROM task_counts RETURNING state, n)
		INSERT INTO task_counts (state, n) SELECT state, SUM(n) FROM d GROUP BY state HAVING SUM(n) <> 0;
	END IF;
END $$;
`,
}

// migrate brings the database to the newest schema in one transaction, so a
// failed step leaves it as it was, under migrateLock, so stations starting
// together take turns. A database from a newer station is refused rather
// than written by code that does not know its schema.
func migrate(ctx context.Context, db beginner) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback(ctx)
	// Held until commit or rollback; the next station's migration then sees
	// what this one wrote (READ COMMITTED reads anew at each statement).
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrateLock); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	// Created only when missing: CREATE … IF NOT EXISTS needs the right to
	// create tables even when there is nothing to do, and a station whose
	// user may only use the board's tables must still open it.
	var exists bool
	if err := tx.QueryRow(ctx, "SELECT to_regclass('schema_version') IS NOT NULL").Scan(&exists); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if !exists {
		if _, err := tx.Exec(ctx, `CREATE TABLE schema_version (
	version    integer     PRIMARY KEY,
	applied_at timestamptz NOT NULL
)`); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	if err := boardsql.Migrate(ctx, dialect{}, conn{q: tx}, migrations); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("migrate: commit: %w", err)
	}
	return nil
}

// beginner is the pool, or a connection in tests.
type beginner interface {
	Begin(ctx context.Context) (pgx.Tx, error)
}
