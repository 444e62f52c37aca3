package supervisor

import (
	"context"
	"time"
)

// Prober is one pull layer of evidence: something the watchdog asks, only
// when the console has been silent for a whole window, whether the session
// showed life some other way (its worktree's HEAD moved, its children burned
// CPU). Asking at check time instead of polling keeps idle sessions free.
//
// The console and the board are push layers: output and reports reach the
// session goroutine as they happen, so they need no Prober.
type Prober interface {
	// Layer names the layer in records and block reasons ("commits", "cpu").
	Layer() string
	// Probe reports life seen after since, or ok=false when there was none.
	Probe(ctx context.Context, t ProbeTarget, since time.Time) (l Life, ok bool, err error)
	// Forget drops what the prober keeps for a session that ended.
	Forget(sessionID string)
}

// ProbeTarget names the session a Prober looks at.
type ProbeTarget struct {
	SessionID string
	TaskID    string
	PID       int    // the agent process; its descendants are the work
	Dir       string // the session's working directory (its worktree)
	// CPUAlive is the project's cpu_alive: the share of one core the
	// descendants must average over the window to count as life.
	CPUAlive float64
	// TreeCPU, where the backend accounts it (a Windows Job Object), is the
	// CPU time of the agent's whole tree so far, exited processes included;
	// nil elsewhere.
	TreeCPU func() time.Duration
}

// TreeAccounter is a Proc whose backend accounts the CPU of its whole tree
// (platform/pty on Windows: the session's Job Object).
type TreeAccounter interface {
	JobCPU() time.Duration
}

// Life is one layer's sign of life.
type Life struct {
	Layer  string
	At     time.Time
	Detail string // for people: "3 commits on bs/t4", "14.2s CPU in make, cc1"
}

// Observer is a Prober that wants a baseline when a session starts, so its
// first window is measured from then rather than from the process's birth.
type Observer interface {
	Observe(t ProbeTarget) error
}
