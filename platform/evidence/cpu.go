package evidence

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// ticksPerSecond is Linux's USER_HZ, the unit of /proc/<pid>/stat times. It
// is 100 on every Linux the station targets; reading it with
// sysconf(_SC_CLK_TCK) would need cgo, which the station must not.
const ticksPerSecond = 100

// Defaults for CPUOptions.
const (
	DefaultCPUShare    = 0.10                   // 30 s of CPU in a 5-minute window
	DefaultSnapshotTTL = 250 * time.Millisecond // checks that fall together share one read
	DefaultSampleSlack = time.Second            // a sample this much after since still starts the window
)

// maxSamples bounds the samples kept per session: the first one, plus the
// latest few, which is more than the watchdog's one check per window needs.
const maxSamples = 8

// CPUOptions configures NewCPU. The zero value is usable.
type CPUOptions struct {
	// Share is the share of one core the descendants must average over the
	// window to count as alive: 0.10 is 30 s of CPU in 5 minutes. Zero
	// means DefaultCPUShare.
	Share float64
	// ShareFor gives a session's own share (projects differ: a Go build is
	// busier than a Python test run). A result <= 0, or a nil func, means
	// Share.
	ShareFor func(sessionID string) float64
	// Root is where the process table is mounted; "" reads the live table
	// (proctree.Current: /proc on Linux). Tests point it at a synthetic tree.
	Root string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// SnapshotTTL is how long one read of the process table serves every
	// probe, so 50 sessions checked in the same instant read it once. Zero
	// means DefaultSnapshotTTL.
	SnapshotTTL time.Duration
	// SampleSlack lets a sample taken just after since (the session's
	// Observe, a moment after its timer armed) still start the window. Zero
	// means DefaultSampleSlack.
	SampleSlack time.Duration
}

// CPU is the "cpu" layer: proof of life is CPU time used by the agent's
// descendants, including children that already exited, never the agent's
// own. The same arithmetic (takeSample, diff) serves every OS; only where
// the times come from differs:
//   - Linux: /proc/<pid>/stat, whose cutime/cstime hold reaped children;
//   - macOS: proc_pid_rusage, whose ri_child_* times hold reaped children;
//   - Windows: the session's Job Object counts every process the agent
//     ever started (ProbeTarget.TreeCPU); the agent's own time, from
//     GetProcessTimes, is taken off it.
//
// It is safe for concurrent use: every session's goroutine may call Probe.
type CPU struct {
	opts  CPUOptions
	procs *procCache
	times timesFunc

	mu       sync.Mutex
	sessions map[string]*cpuSession
}

// cpuSession is what CPU remembers of one session between checks.
type cpuSession struct {
	agent   procKey  // the agent process; a new one restarts the history
	samples []sample // samples[0] is the first ever taken; then the latest
}

var _ supervisor.Prober = (*CPU)(nil)

// NewCPU returns the CPU layer.
func NewCPU(opts CPUOptions) *CPU {
	if opts.Share <= 0 {
		opts.Share = DefaultCPUShare
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.SnapshotTTL <= 0 {
		opts.SnapshotTTL = DefaultSnapshotTTL
	}
	if opts.SampleSlack <= 0 {
		opts.SampleSlack = DefaultSampleSlack
	}
	times := osTimes
	if opts.Root != "" {
		times = linuxTimes // a synthetic /proc, on any OS
	}
	return &CPU{
		opts:     opts,
		times:    times,
		procs:    newProcCache(opts.Root, opts.Now, opts.SnapshotTTL),
		sessions: make(map[string]*cpuSession),
	}
}

// Layer names the layer in records and block reasons.
func (c *CPU) Layer() string { return "cpu" }

// Observe takes a session's first sample, so that its first check measures
// from here rather than from the agent's start. The station calls it when a
// session starts; calling it later is harmless.
func (c *CPU) Observe(t supervisor.ProbeTarget) error {
	snap, err := c.procs.get()
	if err != nil {
		return fmt.Errorf("cpu evidence: observe session %s: %w", t.SessionID, err)
	}
	if s, ok := takeSample(snap, t.PID, c.times, t.TreeCPU); ok {
		c.remember(t.SessionID, s)
	}
	return nil
}

// Probe reports whether the agent's descendants averaged at least the
// session's share of one core since since.
func (c *CPU) Probe(ctx context.Context, t supervisor.ProbeTarget, since time.Time) (supervisor.Life, bool, error) {
	if err := ctx.Err(); err != nil {
		return supervisor.Life{}, false, err
	}
	snap, err := c.procs.get()
	if err != nil {
		return supervisor.Life{}, false, fmt.Errorf("cpu evidence: session %s: %w", t.SessionID, err)
	}
	now, ok := takeSample(snap, t.PID, c.times, t.TreeCPU)
	if !ok {
		// The agent is gone: its tree is no longer the session's work.
		return supervisor.Life{}, false, nil
	}
	base, ok := c.baseline(t.SessionID, now, since)
	if !ok {
		base = c.startBaseline(now)
	}
	c.remember(t.SessionID, now)

	window := now.at.Sub(base.at).Seconds()
	if window <= 0 {
		return supervisor.Life{}, false, nil
	}
	d := diff(base, now, snap.procs)
	if d.total.Seconds()/window < c.share(t) {
		return supervisor.Life{}, false, nil
	}
	return supervisor.Life{Layer: c.Layer(), At: c.opts.Now(), Detail: d.detail()}, true, nil
}

// Forget drops what CPU keeps for a session that ended.
func (c *CPU) Forget(sessionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.sessions, sessionID)
}

// share is the threshold for one session: ShareFor's, else the project's
// cpu_alive carried by the target, else the default.
func (c *CPU) share(t supervisor.ProbeTarget) float64 {
	if c.opts.ShareFor != nil {
		if s := c.opts.ShareFor(t.SessionID); s > 0 {
			return s
		}
	}
	if t.CPUAlive > 0 {
		return t.CPUAlive
	}
	return c.opts.Share
}

// remember stores a sample; a different agent process (a restarted session,
// or a reused pid) starts the history over.
func (c *CPU) remember(sessionID string, s sample) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ss := c.sessions[sessionID]
	if ss == nil || ss.agent != s.agent {
		c.sessions[sessionID] = &cpuSession{agent: s.agent, samples: []sample{s}}
		return
	}
	if len(ss.samples) >= maxSamples {
		// Keep the first sample: it is the fallback baseline.
		ss.samples = append(ss.samples[:1], ss.samples[2:]...)
	}
	ss.samples = append(ss.samples, s)
}

// baseline picks the sample that starts the window: the latest one taken
// at or just after since, else the first one ever taken for the session.
func (c *CPU) baseline(sessionID string, now sample, since time.Time) (sample, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ss := c.sessions[sessionID]
	if ss == nil || ss.agent != now.agent || len(ss.samples) == 0 {
		return sample{}, false
	}
	limit := since.Add(c.opts.SampleSlack)
	for i := len(ss.samples) - 1; i >= 0; i-- {
		if !ss.samples[i].at.After(limit) {
			return ss.samples[i], true
		}
	}
	return ss.samples[0], true
}

// startBaseline is the window's start when nothing was sampled before: no
// CPU at the agent's start, so the check counts everything its descendants
// ever used. Where the start time is unknown the fresh sample is its own
// baseline, and this first check shows no life.
func (c *CPU) startBaseline(now sample) sample {
	boot, ok := c.procs.bootTime()
	if !ok || now.agent.start == 0 {
		return now
	}
	start := boot.Add(time.Duration(now.agent.start) * time.Second / ticksPerSecond)
	return sample{at: start, agent: now.agent}
}
