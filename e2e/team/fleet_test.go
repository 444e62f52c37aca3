//go:build linux

package team

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/platform/proctree"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/jackc/pgx/v5"
)

const (
	lease = 2 * time.Second
	// grace is the reaper's (supervisor.reapGrace): a slot comes back at
	// most lease + grace (+ a beat and a claim) after its holder stopped.
	grace    = 2 * lease
	stranded = lease + grace + 3*time.Second
)

// agentScript logs its start (task, lease epoch, pid, project, station),
// works for $2 seconds, completes, logs the acknowledgement, and waits to
// be ended by its station.
const agentScript = `#!/bin/sh
echo "start $BUILDSTATION_TASK_ID $BUILDSTATION_LEASE_EPOCH $$ $1 $BUILDSTATION_STATION" >> "$CHAOS_LOG"
sleep "$2"
if buildstation agent complete --summary "done by $$" >/dev/null 2>>"$CHAOS_LOG.err"; then
	echo "acked $BUILDSTATION_TASK_ID $BUILDSTATION_LEASE_EPOCH $$" >> "$CHAOS_LOG"
fi
exec sleep 60
`

// fleet is the stations of one scenario, on one database of c.
type fleet struct {
	t        *testing.T
	c        *cluster
	db       string
	dir      string // project folders, the agent script, the agents' log
	log      string
	stations map[string]*rig.Station
	relays   map[string]*relay
	homes    map[string]string
	mon      *monitor
	backend  string // "pty" or "tmux"
}

// tmux runs a tmux command on the server of the station at home.
func (f *fleet) tmux(home string, args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-S", filepath.Join(home, "tmux.sock")}, args...)...)
}

// windows lists the agent windows left on the tmux server of each
// station (the server's own "station" window aside).
func (f *fleet) windows() []string {
	var out []string
	for name, home := range f.homes {
		b, err := f.tmux(home, "list-windows", "-a", "-F", "#{window_name} #{pane_dead}").Output()
		if err != nil {
			continue // no server: no window
		}
		for _, w := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if w != "" && !strings.HasPrefix(w, "station ") {
				out = append(out, name+": "+w)
			}
		}
	}
	return out
}

var dbSeq int

// newFleet makes a database with the board's cap for each project, and
// one station per name, each through its own relay, each with its own
// concurrency for every project (what its config.toml says).
func newFleet(t *testing.T, c *cluster, caps map[string]int, local map[string]int, work string) *fleet {
	t.Helper()
	return newFleetOn(t, c, "pty", caps, local, work)
}

// newFleetOn is newFleet with every project on backend ("pty" or "tmux").
func newFleetOn(t *testing.T, c *cluster, backend string, caps map[string]int, local map[string]int, work string) *fleet {
	t.Helper()
	if backend == "tmux" {
		if _, err := exec.LookPath("tmux"); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal("tmux is not on PATH: CI must install it for the chaos suite")
			}
			t.Skip("tmux is not on PATH")
		}
	}
	dbSeq++
	f := &fleet{t: t, c: c, db: fmt.Sprintf("chaos%d", dbSeq), dir: t.TempDir(), backend: backend,
		stations: map[string]*rig.Station{}, relays: map[string]*relay{}, homes: map[string]string{}}
	f.log = filepath.Join(f.dir, "agents.log")
	c.CreateDB(f.db)
	script := filepath.Join(f.dir, "agent.sh")
	if err := os.WriteFile(script, []byte(agentScript), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f.mon = newMonitor(t, f, caps)
	for name, conc := range local {
		r := newRelay(t, fmt.Sprintf("127.0.0.1:%d", c.Port))
		cfg := fmt.Sprintf("max_sessions = 8\nboard = %q\nlease = %q\n", c.URL(f.db, r.Port()), lease)
		for p := range caps {
			pdir := filepath.Join(f.dir, p)
			_ = os.MkdirAll(pdir, 0o755)
			cfg += fmt.Sprintf("\n[[projects]]\nname = %q\npath = %q\ncommand = [\"sh\", %q, %q, %q]\nidle_window = \"5m\"\nblock_window = \"5m\"\nconcurrency = %d\nbackend = %q\n",
				p, pdir, script, p, work, conc, backend)
		}
		f.relays[name] = r
		f.homes[name] = rig.WriteConfig(t, cfg)
		if backend == "tmux" {
			home := f.homes[name]
			// The station's tmux server outlives it, by design.
			t.Cleanup(func() { _ = f.tmux(home, "kill-server").Run() })
		}
		f.start(name)
	}
	// The board's caps, which every station obeys whatever its config.
	for p, n := range caps {
		for name := range local {
			out, errOut, code, err := rig.CLI(rig.Bin(), f.env(name), "board", "cap", p, strconv.Itoa(n))
			if err != nil || code != 0 || !strings.Contains(out, fmt.Sprintf("at most %d sessions", n)) {
				t.Fatalf("board cap %s %d: exit %d %v: %s%s", p, n, code, err, out, errOut)
			}
			break
		}
	}
	go f.mon.run()
	t.Cleanup(f.mon.stop)
	return f
}

func (f *fleet) env(name string) []string {
	return rig.Env(rig.Bin(), f.homes[name], "BUILDSTATION_STATION="+name, "CHAOS_LOG="+f.log)
}

// start starts (or restarts) station name.
func (f *fleet) start(name string) {
	f.stations[name] = rig.Start(f.t, rig.Bin(), f.homes[name], f.env(name))
}

// add adds n tasks to project through the stations in turn.
func (f *fleet) add(project string, n int) {
	f.t.Helper()
	var names []string
	for name := range f.stations {
		names = append(names, name)
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := range n {
		s := f.stations[names[i%len(names)]]
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			_, errOut, code, err := rig.CLI(rig.Bin(), f.env(names[i%len(names)]), "task", "add", "--project", project, "--title", fmt.Sprintf("%s %d", project, i))
			if err != nil || code != 0 {
				f.t.Errorf("task add at %s: exit %d %v: %s", s.Home, code, err, errOut)
			}
		})
	}
	wg.Wait()
}

// tree is pid and every process under it.
func tree(pid int) []int { return append([]int{pid}, proctree.Descendants(pid)...) }

// freeze stops station name and everything under it, as a machine that
// froze (a suspended VM, a closed lid); thaw resumes the station first and
// its agents a moment later, the order in which a waking machine's
// station gets to fence them.
func (f *fleet) freeze(name string) []int {
	root := f.stations[name].PID()
	_ = syscall.Kill(root, syscall.SIGSTOP)
	// A child forked just before the stop is not frozen with it: stop
	// what is there until nothing new shows up.
	stopped := map[int]bool{root: true}
	pids := []int{root}
	for quiet := 0; quiet < 3; {
		quiet++
		for _, p := range tree(root) {
			if !stopped[p] {
				_ = syscall.Kill(p, syscall.SIGSTOP)
				stopped[p] = true
				pids = append(pids, p)
				quiet = 0
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return pids
}

func (f *fleet) thaw(pids []int) {
	_ = syscall.Kill(pids[0], syscall.SIGCONT)
	time.Sleep(lease / 2)
	for _, p := range pids[1:] {
		_ = syscall.Kill(p, syscall.SIGCONT)
	}
}

// settle waits until no task is todo, working or review, and says how the
// tasks ended.
func (f *fleet) settle(d time.Duration) map[string]int {
	f.t.Helper()
	var counts map[string]int
	err := testwait.Poll(d, "the tasks to settle", func() error {
		counts = map[string]int{}
		err := f.c.Query(f.db, func(ctx context.Context, conn *pgx.Conn) error {
			rows, err := conn.Query(ctx, "SELECT state, count(*) FROM tasks GROUP BY state")
			if err != nil {
				return err
			}
			for rows.Next() {
				var s string
				var n int
				if err := rows.Scan(&s, &n); err != nil {
					return err
				}
				counts[s] = n
			}
			return rows.Err()
		})
		if err != nil {
			return err
		}
		if counts["todo"]+counts["working"]+counts["review"] > 0 {
			return fmt.Errorf("%v", counts)
		}
		return nil
	})
	if err != nil {
		f.dump()
		f.t.Fatal(err)
	}
	return counts
}

// tasksIn lists the tasks in state, by id.
func (f *fleet) tasksIn(state string) []string {
	f.t.Helper()
	var ids []string
	err := f.c.Query(f.db, func(ctx context.Context, conn *pgx.Conn) error {
		rows, err := conn.Query(ctx, "SELECT 't' || id FROM tasks WHERE state = $1 ORDER BY id", state)
		if err != nil {
			return err
		}
		ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return ids
}

// dump logs every station's log (every run of it, and its guard's), for a
// failure.
func (f *fleet) dump() {
	for name, home := range f.homes {
		b, _ := os.ReadFile(filepath.Join(home, "logs", "station.log"))
		f.t.Logf("station %s:\n%s", name, tail(string(b), 80))
	}
	b, _ := os.ReadFile(f.log + ".err")
	f.t.Logf("agents' errors:\n%s", tail(string(b), 20))
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// finish stops every station, then checks what the monitor saw, that every
// acknowledged completion is on the board, and that no agent outlived its
// station; counts (how the tasks ended) go to the log.
func (f *fleet) finish(counts map[string]int) {
	f.t.Helper()
	f.t.Logf("tasks: %v", counts)
	if f.backend == "tmux" {
		// Every task settled: every session has ended, and its window
		// is gone (a station stopped cleanly leaves live ones running).
		if err := testwait.Poll(15*time.Second, "every tmux window gone with every task settled", func() error {
			if w := f.windows(); len(w) > 0 {
				return fmt.Errorf("left: %v", w)
			}
			return nil
		}); err != nil {
			f.t.Error(err)
		}
	}
	for _, s := range f.stations {
		s.Stop()
	}
	f.mon.stop()
	f.mon.check()
	var done map[string]bool
	err := f.c.Query(f.db, func(ctx context.Context, conn *pgx.Conn) error {
		rows, err := conn.Query(ctx, "SELECT DISTINCT 't' || task_id FROM transitions WHERE to_state = 'done' AND actor = 'agent'")
		if err != nil {
			return err
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		done = map[string]bool{}
		for _, id := range ids {
			done[id] = true
		}
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	for _, a := range f.mon.ackedTasks() {
		if !done[a] {
			f.t.Errorf("task %s: its agent's completion was acknowledged, but the board never recorded it done", a)
		}
	}
	agents := f.mon.all()
	if testwait.Poll(15*time.Second, "every agent to end with its station", func() bool {
		return !slices.ContainsFunc(agents, (*agent).alive)
	}) != nil {
		for _, a := range agents {
			if a.alive() {
				f.t.Errorf("agent %d (task %s at %s) outlived its station", a.pid, a.task, a.station)
				_ = syscall.Kill(a.pid, syscall.SIGKILL)
			}
		}
	}
	if f.t.Failed() {
		f.dump()
	}
}

// readLines reads the agents' log from off and returns the new whole lines.
func readLines(path string, off *int64) []string {
	fh, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer fh.Close()
	if _, err := fh.Seek(*off, 0); err != nil {
		return nil
	}
	var out []string
	r := bufio.NewReader(fh)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return out // a partial line is read again next time
		}
		*off += int64(len(line))
		out = append(out, strings.TrimSpace(line))
	}
}
