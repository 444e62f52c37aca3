package station

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// budgets keeps what each project's sessions cost today and each task so
// far, as this station measured them (in memory: a restart starts the day's
// count afresh), and which projects a person resumed past their budget.
type budgets struct {
	mu     sync.Mutex
	day    string
	spent  map[string]float64 // project → today's cost
	paused map[string]bool    // project → paused for its budget today
	lifted map[string]bool    // project → a person resumed it today
	tasks  map[string]float64 // task → its cost so far
}

// add counts usd for project and task on day and returns the project's
// day so far, and whether the budget should pause it now: not yet paused
// or lifted today.
func (b *budgets) add(day, project, task string, usd, budget float64) (spent float64, pause bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.day != day || b.spent == nil {
		b.day, b.spent, b.paused, b.lifted = day, map[string]float64{}, map[string]bool{}, map[string]bool{}
	}
	if b.tasks == nil {
		b.tasks = map[string]float64{}
	}
	b.spent[project] += usd
	b.tasks[task] += usd
	spent = b.spent[project]
	if budget > 0 && spent >= budget && !b.paused[project] && !b.lifted[project] {
		b.paused[project] = true
		return spent, true
	}
	return spent, false
}

// lift lets project run past its budget for the rest of day.
func (b *budgets) lift(day, project string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.day == day && b.lifted != nil {
		b.lifted[project] = true
	}
}

// today is each project's cost on day.
func (b *budgets) today(day string) map[string]float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := map[string]float64{}
	if b.day == day {
		for p, v := range b.spent {
			out[p] = roundCents(v)
		}
	}
	return out
}

// task is a task's cost so far.
func (b *budgets) task(id string) float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tasks[id]
}

// today is the budget's day: the local date, as a person reads "today".
func today(now time.Time) string { return now.Local().Format(time.DateOnly) }

// spend counts usd of s's cost toward its project's day and its task; a
// project crossing its daily_budget_usd is paused the way the breaker
// pauses it (running sessions finish their task) and a person is told.
func (st *Station) spend(s *session, usd float64) {
	budget := 0.0
	if p, ok := st.Config().Project(s.spec.Project); ok {
		budget = st.effective(p).DailyBudgetUSD
	}
	spent, pause := st.budget.add(today(time.Now()), s.spec.Project, s.spec.TaskID, usd, budget)
	if !pause {
		return
	}
	name := s.spec.Project
	said := fmt.Sprintf("%s spent %s of %s today", name, dollars(spent), dollars(budget))
	reason := "budget: " + said + "; running sessions finish their task; \"buildstation project resume " + name + "\" lifts it for today"
	ctx, cancel := context.WithTimeout(context.Background(), st.writeTimeout())
	defer cancel()
	if err := st.board.SetPaused(ctx, name, true, reason); err != nil {
		st.log.Error("budget: pause project", "project", name, "err", err)
		return
	}
	st.log.Warn("project paused by its daily budget", "project", name, "reason", reason)
	st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	st.notify(supervisor.Notice{Kind: supervisor.NoticeBudget, TaskID: s.spec.TaskID, Title: "Paused: " + said, Body: reason})
}

// dollars is an amount as a person writes it: "$20", "$20.40".
func dollars(usd float64) string {
	c := roundCents(usd)
	if c == float64(int64(c)) {
		return "$" + strconv.FormatInt(int64(c), 10)
	}
	return fmt.Sprintf("$%.2f", c)
}

func roundCents(usd float64) float64 { return float64(int64(usd*100+0.5)) / 100 }

// TaskCost is what task id's sessions cost so far, to the cent.
func (st *Station) TaskCost(id string) float64 { return roundCents(st.budget.task(id)) }
