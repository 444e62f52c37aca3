package station

import (
	"context"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// The station's areas: each holds the engine (the *Station) and has a small
// method set of its own, what one area of the API serves (supervisor/api's
// Areas) or one part of the engine needs. Station itself keeps running,
// spawning, settling and recovery.

// Tasks is the tasks' area: add, list, show, requeue, cancel, accept and
// merge them, and read their work and cost.
type Tasks struct{ st *Station }

// Projects is the projects' area: list, add, remove, pause and resume
// them, and edit their settings and setup.
type Projects struct{ st *Station }

// Sessions is the sessions' area: list them, type into them, nudge, block
// or attach to them, read their transcripts, and follow the station's
// events.
type Sessions struct{ st *Station }

// Asks is a session's requests for a person (a permission, a question) and
// the person's decision.
type Asks struct{ st *Station }

// AgentVerbs is what a session's own agent says about its task, over its
// session token: complete, block, progress, status, hooks and reviews.
type AgentVerbs struct{ st *Station }

// Control is the station as a whole: its status, the agent CLIs it can
// run, its config's reload, and a stop asked through the API.
type Control struct{ st *Station }

// Phone is how the phone's service stands and its settings.
type Phone struct{ st *Station }

// Shared is the station's part on a shared board: claims and leases, the
// fence, other stations' sessions and tasks, the board's reachability.
type Shared struct{ st *Station }

// host is what a session asks of the station that runs it (sessionHost):
// the evidence layers, the gate's notes, its task's board writes, the bus
// and the notices.
type host struct{ st *Station }

// costs meters what sessions spend against each project's budget.
type costs struct{ st *Station }

// gates runs and reads a project's gate on a task's work.
type gates struct{ st *Station }

// dispatch is what a scheduler pass asks of the station (schedHost).
type dispatch struct{ st *Station }

// The scheduler's host: what it needs of the other areas and of the
// station itself.

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
