package boardsql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/buildstation/buildstation/supervisor"
)

// The day's budget state of a project (spend.budget_state).
const (
	budgetOpen   = 0 // neither paused by its budget nor lifted today
	budgetPaused = 1 // paused by its budget today
	budgetLifted = 2 // a person resumed it past its budget today
)

// AddSpend adds s to its project's day and its task in one transaction and
// says whether this addition pauses the project (supervisor.SpendBoard).
func (b Board[Tx]) AddSpend(ctx context.Context, s supervisor.Spend) (day int64, pause bool, err error) {
	if s.Micro < 0 {
		return 0, false, supervisor.Invalidf("a spend of %d millionths of a dollar for %s is negative; spend never goes down", s.Micro, s.Project)
	}
	s.Micro = min(s.Micro, supervisor.MaxSpendMicro)
	n, hasTask := supervisor.ParseTaskID(s.TaskID)
	err = b.db.Write(ctx, func(tx Tx) error {
		c := b.db.Conn(tx)
		var state int
		err := c.QueryRow(ctx, `INSERT INTO spend (day, project, micro, budget_state) VALUES ($1, $2, $3, 0)
ON CONFLICT (day, project) DO UPDATE SET micro = CASE WHEN spend.micro > $4 - excluded.micro THEN $4 ELSE spend.micro + excluded.micro END
RETURNING micro, budget_state`, s.Day, s.Project, s.Micro, supervisor.MaxSpendSum).Scan(&day, &state)
		if err != nil {
			return err
		}
		pause = s.Budget > 0 && day >= s.Budget && state == budgetOpen
		if pause {
			if err := c.Exec(ctx, "UPDATE spend SET budget_state = $3 WHERE day = $1 AND project = $2", s.Day, s.Project, budgetPaused); err != nil {
				return err
			}
		}
		if !hasTask {
			return nil
		}
		return c.Exec(ctx, `INSERT INTO task_spend (task_id, micro) VALUES ($1, $2)
ON CONFLICT (task_id) DO UPDATE SET micro = CASE WHEN task_spend.micro > $3 - excluded.micro THEN $3 ELSE task_spend.micro + excluded.micro END`, n, s.Micro, supervisor.MaxSpendSum)
	})
	if err != nil {
		return 0, false, fmt.Errorf("count the spend of %s on %s: %w", s.Project, s.Day, err)
	}
	return day, pause, nil
}

// LiftBudget records a person's resume of project past its budget for
// the rest of day; a day its budget did not pause keeps its budget.
func (b Board[Tx]) LiftBudget(ctx context.Context, day, project string) error {
	err := b.db.Write(ctx, func(tx Tx) error {
		return b.db.Conn(tx).Exec(ctx, "UPDATE spend SET budget_state = $3 WHERE day = $1 AND project = $2 AND budget_state = $4",
			day, project, budgetLifted, budgetPaused)
	})
	if err != nil {
		return fmt.Errorf("lift the budget of %s on %s: %w", project, day, err)
	}
	return nil
}

// SpentOn is each project's cost on day.
func (b Board[Tx]) SpentOn(ctx context.Context, day string) (map[string]int64, error) {
	rows, err := b.db.Read().Query(ctx, "SELECT project, micro FROM spend WHERE day = $1 AND micro > 0", day)
	if err != nil {
		return nil, fmt.Errorf("read the spend of %s: %w", day, err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var p string
		var m int64
		if err := rows.Scan(&p, &m); err != nil {
			return nil, fmt.Errorf("read the spend of %s: %w", day, err)
		}
		out[p] = m
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the spend of %s: %w", day, err)
	}
	return out, nil
}

// TaskSpent is what task id's sessions cost so far.
func (b Board[Tx]) TaskSpent(ctx context.Context, id string) (int64, error) {
	n, ok := supervisor.ParseTaskID(id)
	if !ok {
		return 0, nil
	}
	var m int64
	err := b.db.Read().QueryRow(ctx, "SELECT micro FROM task_spend WHERE task_id = $1", n).Scan(&m)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the cost of task %s: %w", id, err)
	}
	return m, nil
}

var _ supervisor.SpendBoard = Board[any]{}
