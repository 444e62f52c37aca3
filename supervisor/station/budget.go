package station

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// costs meters what sessions spend against each project's budget.
type costs struct{ st *Station }

// budgets keeps what each project's sessions cost today and each task so
// far, and which projects a person resumed past their budget, in memory:
// the count of a board that keeps none (a test's fake), or of spends the
// board did not take. A SQL board keeps them (supervisor.SpendBoard), so a
// restart goes on from what was spent; see spendBoard.
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

// lift lets project run past its budget for the rest of day, once its
// budget paused it.
func (b *budgets) lift(day, project string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.day == day && b.paused[project] {
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
func (co *costs) spend(s *session, usd float64) {
	budget := 0.0
	if p, ok := co.st.Config().Project(s.spec.Project); ok {
		budget = co.st.Projects.effective(p).DailyBudgetUSD
	}
	spent, pause := co.addSpend(today(time.Now()), s.spec.Project, s.spec.TaskID, usd, budget)
	if !pause {
		return
	}
	name := s.spec.Project
	said := fmt.Sprintf("%s spent %s of %s today", name, dollars(spent), dollars(budget))
	reason := "budget: " + said + "; running sessions finish their task; \"buildstation project resume " + name + "\" lifts it for today"
	ctx, cancel := context.WithTimeout(co.st.life, co.st.host.writeTimeout())
	defer cancel()
	if err := co.st.board.SetPaused(ctx, name, true, reason); err != nil {
		co.st.log.Error("budget: pause project", "project", name, "err", err)
		return
	}
	co.st.log.Warn("project paused by its daily budget", "project", name, "reason", reason)
	co.st.bus.Publish(supervisor.Event{Kind: supervisor.EventProject, Project: name})
	co.st.host.notify(supervisor.Notice{Kind: supervisor.NoticeBudget, TaskID: s.spec.TaskID, Title: "Paused: " + said, Body: reason})
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
func (ts *Tasks) TaskCost(id string) float64 {
	if sb := ts.st.costs.spendBoard(); sb != nil {
		ctx, cancel := context.WithTimeout(ts.st.life, ts.st.host.writeTimeout())
		defer cancel()
		m, err := sb.TaskSpent(ctx, id)
		if err == nil {
			return roundCents(dollarsOf(m) + ts.st.budget.task(id))
		}
		ts.st.log.Warn("budget: read a task's cost from the board", "task", id, "err", err)
	}
	return roundCents(ts.st.budget.task(id))
}

// spendBoard is the board's record of what was spent, or nil when the
// board keeps none.
func (co *costs) spendBoard() supervisor.SpendBoard {
	sb, _ := co.st.board.(supervisor.SpendBoard)
	return sb
}

// addSpend counts usd toward project's day and task, on the board when it
// keeps them (the day's total there is every station's on a shared board,
// and survives a restart), else in memory; pause says this addition
// crossed budget. A spend the board does not take is counted in memory,
// and the log says so.
func (co *costs) addSpend(day, project, task string, usd, budget float64) (spent float64, pause bool) {
	if sb := co.spendBoard(); sb != nil {
		ctx, cancel := context.WithTimeout(co.st.life, co.st.host.writeTimeout())
		defer cancel()
		total, pause, err := sb.AddSpend(ctx, supervisor.Spend{Day: day, Project: project, TaskID: task, Micro: microOf(usd), Budget: microOf(budget)})
		if err == nil {
			return dollarsOf(total), pause
		}
		co.st.log.Warn("budget: the board did not keep a spend; it is counted in memory until the station restarts", "project", project, "err", err)
	}
	return co.st.budget.add(day, project, task, usd, budget)
}

// liftBudget lets project run past its budget for the rest of day.
func (co *costs) liftBudget(ctx context.Context, day, project string) {
	co.st.budget.lift(day, project)
	if sb := co.spendBoard(); sb != nil {
		if err := sb.LiftBudget(ctx, day, project); err != nil {
			co.st.log.Warn("budget: the board did not keep a lift; the budget may pause the project again after a restart", "project", project, "err", err)
		}
	}
}

// spentToday is each project's cost on day, to the cent: the board's
// count (with what it did not take) when it keeps one.
func (co *costs) spentToday(day string) map[string]float64 {
	out := co.st.budget.today(day)
	sb := co.spendBoard()
	if sb == nil {
		return out
	}
	ctx, cancel := context.WithTimeout(co.st.life, co.st.host.writeTimeout())
	defer cancel()
	m, err := sb.SpentOn(ctx, day)
	if err != nil {
		co.st.log.Warn("budget: read today's spend from the board", "err", err)
		return out
	}
	for p, v := range m {
		out[p] = roundCents(out[p] + dollarsOf(v))
	}
	return out
}

// microOf is usd in millionths of a dollar, as the board keeps it.
// microOf is usd in millionths, never negative and never past
// supervisor.MaxSpendMicro: a cost from an agent's absurd token counts (or
// NaN) must not wrap to a negative spend that resets a budget.
func microOf(usd float64) int64 {
	m := math.Round(usd * 1e6)
	switch {
	case !(m > 0): // NaN, zero or negative
		return 0
	case m >= float64(supervisor.MaxSpendMicro):
		return supervisor.MaxSpendMicro
	}
	return int64(m)
}

func dollarsOf(micro int64) float64 { return float64(micro) / 1e6 }
