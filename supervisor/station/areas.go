package station

import (
	"context"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// The station's areas: each holds the engine (the *Station) and has a small
// method set of its own, what one area of the API serves (supervisor/api's
// Areas) or one part of the engine needs, in a file of its own:
//
//	Tasks       tasks.go, work.go    add, list, requeue, cancel, accept, merge
//	Projects    projects.go, …       list, add, remove, pause, settings, setup
//	Sessions    sessions.go          list, send, nudge, block, attach, events
//	Asks        asks.go              a session asks a person, who decides
//	AgentVerbs  agentverbs.go        a session's agent reports on its task
//	Control     control.go           status, agent CLIs, reload, stop
//	Phone       phone.go             the phone's service and settings
//	Shared      shared.go, …         a shared board: claims, leases, others
//	host        host.go              what a session asks of its station
//	costs       budget.go, usage.go  what sessions spend
//	gates       gate.go              a project's gate on a task's work
//	dispatch    scheduler.go         what a scheduler pass asks
//
// Station itself keeps running, spawning, settling and recovery.

// The scheduler's host (dispatch, scheduler.go): what it needs of the
// other areas and of the station itself.

func (dp *dispatch) Config() *config.Config { return dp.st.Config() }

func (dp *dispatch) runsHere(p config.Project) (runs, missing bool) {
	return dp.st.Shared.runsHere(p)
}

func (dp *dispatch) claim(ctx context.Context, p config.Project) (supervisor.Task, bool, error) {
	return dp.st.Shared.claim(ctx, p)
}

func (dp *dispatch) start(ctx context.Context, p config.Project, task supervisor.Task, kind supervisor.SessionKind) {
	dp.st.start(ctx, p, task, kind)
}

func (dp *dispatch) publishTask(t supervisor.Task) { dp.st.host.publishTask(t) }

// poke wakes the scheduler after a renewal (leaseHost).
func (sh *Shared) poke() { sh.st.poke() }
