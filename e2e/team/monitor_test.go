//go:build linux

package team

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/jackc/pgx/v5"
)

// agent is one agent process the log announced.
type agent struct {
	task, project, station string
	epoch                  int64
	pid                    int
	since                  uint64 // its start time, against pid reuse
	dead                   bool
}

// state is the process's state letter, "" once it is gone (or the pid was
// reused).
func (a *agent) state() string {
	p, ok := rig.Process(a.pid)
	if !ok || a.since != 0 && p.StartTime != a.since {
		return ""
	}
	if a.since == 0 {
		a.since = p.StartTime
	}
	return string(p.State)
}

func (a *agent) alive() bool { s := a.state(); return s != "" && s != "Z" && s != "X" }

// dying reports whether a SIGKILL waits for the process: it runs none of
// its own code any more, though a loaded machine may show it runnable (R)
// for a while before the kernel tears it down — a frozen agent that its
// station kills is woken only to die.
func (a *agent) dying() bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", a.pid))
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(b)) {
		k, v, ok := strings.Cut(line, ":")
		if !ok || k != "SigPnd" && k != "ShdPnd" {
			continue
		}
		mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
		if err == nil && mask&(1<<(9-1)) != 0 {
			return true
		}
	}
	return false
}

// monitor samples the agents every few milliseconds and records every
// breach of the guarantees: a task run twice at once, a project over its
// cap, a slot stranded.
type monitor struct {
	t    *testing.T
	f    *fleet
	caps map[string]int
	quit chan struct{}
	done chan struct{}
	once sync.Once

	mu       sync.Mutex
	off      int64
	agents   []*agent
	acked    map[string]bool
	breaches []string
	healthy  time.Time            // faults healed at; zero while one lasts
	orphan   map[string]time.Time // leased task → first seen with no agent running
	maxRun   map[string]int
}

func newMonitor(t *testing.T, f *fleet, caps map[string]int) *monitor {
	return &monitor{t: t, f: f, caps: caps, quit: make(chan struct{}), done: make(chan struct{}),
		acked: map[string]bool{}, orphan: map[string]time.Time{}, maxRun: map[string]int{}, healthy: time.Now()}
}

// fault marks a fault begun: stranded slots are not counted until heal.
func (m *monitor) fault() {
	m.mu.Lock()
	m.healthy = time.Time{}
	m.mu.Unlock()
}

func (m *monitor) heal() {
	m.mu.Lock()
	m.healthy = time.Now()
	clear(m.orphan)
	m.mu.Unlock()
}

func (m *monitor) breach(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if len(m.breaches) < 30 && !slices.Contains(m.breaches, msg) {
		m.breaches = append(m.breaches, msg)
	}
}

func (m *monitor) run() {
	defer close(m.done)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	var (
		conn     *pgx.Conn
		lastScan time.Time
	)
	defer func() {
		if conn != nil {
			conn.Close(context.Background())
		}
	}()
	for {
		select {
		case <-m.quit:
			return
		case <-tick.C:
		}
		running := m.sample()
		if time.Since(lastScan) < 250*time.Millisecond {
			continue
		}
		lastScan = time.Now()
		if conn == nil || conn.IsClosed() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			conn, _ = pgx.Connect(ctx, m.f.c.URL(m.f.db, m.f.c.Port))
			cancel()
			if conn == nil {
				continue
			}
		}
		m.scanLeases(conn, running)
	}
}

// sample reads new log lines and counts the running agents.
func (m *monitor) sample() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, line := range readLines(m.f.log, &m.off) {
		f := strings.Fields(line)
		switch {
		case len(f) >= 6 && f[0] == "start":
			e, _ := strconv.ParseInt(f[2], 10, 64)
			pid, _ := strconv.Atoi(f[3])
			a := &agent{task: f[1], epoch: e, pid: pid, project: f[4], station: f[5]}
			a.state()
			if e == 0 {
				m.breach("task %s started at %s with no lease epoch", a.task, a.station)
			}
			m.agents = append(m.agents, a)
		case len(f) >= 4 && f[0] == "acked":
			m.acked[f[1]] = true
		}
	}
	perTask := map[string][]*agent{}
	perProject := map[string]int{}
	who := map[string][]string{}
	for _, a := range m.agents {
		if a.dead {
			continue
		}
		s := a.state()
		if s == "" || s == "Z" || s == "X" {
			a.dead = true
			continue
		}
		if s == "T" || s == "t" || a.dying() {
			continue // frozen, or killed: not running
		}
		perTask[a.task] = append(perTask[a.task], a)
		perProject[a.project]++
		who[a.project] = append(who[a.project], fmt.Sprintf("%s (pid %d at %s, epoch %d, %s)", a.task, a.pid, a.station, a.epoch, s))
	}
	for task, as := range perTask {
		if len(as) > 1 {
			var who []string
			for _, a := range as {
				who = append(who, fmt.Sprintf("pid %d at %s epoch %d", a.pid, a.station, a.epoch))
			}
			m.breach("task %s ran %d times at once: %s", task, len(as), strings.Join(who, ", "))
		}
	}
	running := map[string]int{}
	for p, n := range perProject {
		m.maxRun[p] = max(m.maxRun[p], n)
		if n > m.caps[p] {
			m.breach("project %s ran %d agents at once, its cap is %d: %s", p, n, m.caps[p], strings.Join(who[p], ", "))
		}
	}
	for task := range perTask {
		running[task]++
	}
	return running
}

// scanLeases finds leases whose task no running agent works on, and
// records one that stays so past lease + grace while nothing is faulty.
func (m *monitor) scanLeases(conn *pgx.Conn, running map[string]int) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	rows, err := conn.Query(ctx, "SELECT 't' || task_id, station FROM leases")
	if err != nil {
		conn.Close(context.Background())
		return
	}
	type lease struct{ Task, Station string }
	leases, err := pgx.CollectRows(rows, pgx.RowToStructByPos[lease])
	if err != nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.healthy.IsZero() {
		return
	}
	now := time.Now()
	seen := map[string]bool{}
	for _, l := range leases {
		if running[l.Task] > 0 {
			continue
		}
		seen[l.Task] = true
		first, ok := m.orphan[l.Task]
		if !ok {
			m.orphan[l.Task] = now
			continue
		}
		if now.Sub(first) > stranded {
			m.breach("task %s: station %s held its lease with no agent running for over %v, with no fault", l.Task, l.Station, stranded)
		}
	}
	for task := range m.orphan {
		if !seen[task] {
			delete(m.orphan, task)
		}
	}
}

func (m *monitor) stop() {
	m.once.Do(func() { close(m.quit) })
	<-m.done
}

// check fails the test with every breach seen.
func (m *monitor) check() {
	m.t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, b := range m.breaches {
		m.t.Error(b)
	}
	m.t.Logf("%d agents started; most running at once per project: %v; %d completions acknowledged", len(m.agents), m.maxRun, len(m.acked))
}

func (m *monitor) ackedTasks() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for id := range m.acked {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func (m *monitor) all() []*agent {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.agents)
}

// waitRunning waits until station runs an agent that has not yet
// completed, so a fault hits work in progress.
func (m *monitor) waitRunning(station string, d time.Duration) {
	m.t.Helper()
	rig.Eventually(m.t, d, func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, a := range m.agents {
			if a.station == station && !a.dead && !m.acked[a.task] {
				return true
			}
		}
		return false
	}, "station "+station+" to run an agent that has not completed")
}
