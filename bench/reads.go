//go:build linux

package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

const readRuns = 7

// readCmd is a CLI read measured on boards of growing size, with its
// goal on the largest.
type readCmd struct {
	name string
	args []string
	goal time.Duration
}

// benchReads times the CLI's reads against a running station on boards of
// 10,000 and 100,000 tasks: `status` (counts per column) and `task ls` of
// one page, and of one column of one project. The baseline is the same
// command on a board of one task, in the same run: what the process, the
// connection and the rendering cost before the board's size does.
func benchReads(t *table) error {
	proj, _ := os.MkdirTemp(workDir, "reads-")
	cfg := fmt.Sprintf("[[projects]]\nname = \"p0\"\npath = %q\n", proj)
	cmds := []readCmd{
		{"status", []string{"status"}, 50 * time.Millisecond},
		{"task ls --limit 100", []string{"task", "ls", "--limit", "100"}, 50 * time.Millisecond},
		{"task ls --state blocked --project p3 --limit 100 --json", []string{"task", "ls", "--state", "blocked", "--project", "p3", "--limit", "100", "--json"}, 50 * time.Millisecond},
	}
	res := map[int]map[string]time.Duration{}
	for _, n := range []int{1, 10_000, 100_000} {
		home, err := newHome(fmt.Sprintf("reads-%d", n), cfg)
		if err != nil {
			return err
		}
		progress("reads: writing a board of %d tasks", n)
		if err := seedTasks(filepath.Join(home, "station.db"), n); err != nil {
			return fmt.Errorf("seed board: %w", err)
		}
		if err := seedWith(filepath.Join(home, "station.db"), pauseSeeded); err != nil {
			return fmt.Errorf("seed board: %w", err)
		}
		st, err := startStation(home)
		if err != nil {
			return err
		}
		res[n] = map[string]time.Duration{}
		for _, c := range cmds {
			d, err := medianCLI(home, c.args)
			if err != nil {
				st.stop()
				return fmt.Errorf("%s on %d tasks: %w", c.name, n, err)
			}
			res[n][c.name] = d
		}
		st.stop()
	}
	for _, c := range cmds {
		base := res[1][c.name]
		for _, n := range []int{10_000, 100_000} {
			v := res[n][c.name]
			r := row{figure: fmt.Sprintf("`%s`, %dk tasks", c.name, n/1000), ours: ms(v), baseline: ms(base) + " (1 task)", ratio: ratio(float64(v), float64(base))}
			if c.goal > 0 && n == 100_000 {
				r.target, r.met = "< "+ms(c.goal), metString(v < c.goal)
			}
			t.add(r)
		}
	}
	_, what := userCLI()
	t.rows[len(t.rows)-1].note = fmt.Sprintf("median of %d runs (after one untimed) of %s against a running station, from exec to exit; boards of 7 projects, paused (the station claims nothing while timed), a tenth of the tasks blocked, a tenth todo, the rest done, each with a history row", readRuns, what)
	return nil
}

// medianCLI is the median time of readRuns runs of the CLI with args
// against the station of home, after one untimed run: the station's first
// answer on a new board also warms SQLite's page cache.
func medianCLI(home string, args []string) (time.Duration, error) {
	if _, err := timeCLI(home, args...); err != nil {
		return 0, err
	}
	var runs []time.Duration
	for range readRuns {
		d, err := timeCLI(home, args...)
		if err != nil {
			return 0, err
		}
		runs = append(runs, d)
	}
	return medianD(runs), nil
}

// userCLI is the command line a person runs: the installed one when the
// bench has it (-cli-bin), else the whole build.
func userCLI() (path, what string) {
	if cliBin != "" {
		return cliBin, "the installed command line (cmd/buildstation)"
	}
	return bin, "the whole build (no -cli-bin)"
}

// timeCLI runs the CLI on home and returns how long it took.
func timeCLI(home string, args ...string) (time.Duration, error) {
	path, _ := userCLI()
	c := exec.Command(path, append([]string{"--home", home}, args...)...)
	c.Env = env(home)
	t0 := time.Now()
	out, err := c.CombinedOutput()
	d := time.Since(t0)
	if err != nil {
		return 0, fmt.Errorf("%v: %v: %s", args, err, tailString(string(out)))
	}
	return d, nil
}

func tailString(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}

// seedTasks makes a board of n tasks, as seedBoard does.
func seedTasks(path string, n int) error {
	return seedWith(path, func(ctx context.Context, tx *sql.Tx) error { return seedMixed(ctx, tx, n) })
}

// pauseSeeded pauses seedMixed's projects before the station starts, so
// it claims none of their todo tasks while the reads are timed: it would
// start p0's agent on each, or, with no agent on PATH, block them one
// after another (1,428 on the board of 100,000, a fifth of a core all
// through the timing).
func pauseSeeded(ctx context.Context, tx *sql.Tx) error {
	for i := range 7 {
		if _, err := tx.ExecContext(ctx, "INSERT INTO paused (project, reason, at) VALUES (?, 'bench: reads only', ?)", fmt.Sprintf("p%d", i), time.Now().UnixMilli()); err != nil {
			return err
		}
	}
	return nil
}

// seedMixed writes n tasks over 7 projects: a tenth blocked, a tenth todo,
// the rest done, each with its first history row.
func seedMixed(ctx context.Context, tx *sql.Tx, n int) error {
	task, err := tx.PrepareContext(ctx, `INSERT INTO tasks (project, title, body, state, attempt, reason, summary, created_at, updated_at)
VALUES (?, ?, 'script: print hi; complete done', ?, 1, ?, '', ?, ?)`)
	if err != nil {
		return err
	}
	hist, err := tx.PrepareContext(ctx, `INSERT INTO transitions (task_id, from_state, to_state, attempt, reason, actor, at) VALUES (?, '', 'todo', 1, '', 'cli', ?)`)
	if err != nil {
		return err
	}
	now := time.Now().Add(-24 * time.Hour).UnixMilli()
	for i := range n {
		state, reason := "done", ""
		switch i % 10 {
		case 3:
			state, reason = "blocked", "watchdog: no sign of life"
		case 7:
			state = "todo"
		}
		at := now + int64(i)
		r, err := task.ExecContext(ctx, fmt.Sprintf("p%d", i%7), fmt.Sprint("task ", i), state, reason, at, at)
		if err != nil {
			return err
		}
		id, _ := r.LastInsertId()
		if _, err := hist.ExecContext(ctx, id, at); err != nil {
			return err
		}
	}
	return nil
}
