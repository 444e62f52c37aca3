//go:build linux

package main

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/buildstation/buildstation/platform/proctree"
)

// idleAgent fills its session's ring buffer (256 KiB) once, then stays
// silent until killed: an agent thinking, with a screenful behind it.
const idleAgent = `yes 'the quick brown fox jumps over the lazy dog 0123456789' | head -c 300000; exec buildstation fake-agent wedge`

// idleSample is one measurement window.
type idleSample struct {
	cpu float64 // % of one core
	rss int64   // KiB at the end (PSS where several processes are summed)
	// parts splits cpu and rss by what the process is (see partOf), so the
	// note can say where a backend's cost goes.
	parts map[string]partCost
}

// partCost is one part's share of an idleSample.
type partCost struct {
	cpu float64
	rss int64
	n   int // processes
	// runs is how many times its threads were put on a CPU in the
	// window (schedstat's third field): its wake-ups, a count that does
	// not depend on whether a rare burst fell in the window or on the
	// machine's speed. An idle tmux server wakes for nothing.
	runs int64
}

// partOf names what a measured process is: the station (the first root),
// the tmux server, a tmux client, or a pipe-pane copier.
func partOf(pid, station int) string {
	if pid == station {
		return "station"
	}
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	switch c := strings.TrimSpace(string(comm)); {
	case strings.HasPrefix(c, "tmux") && slices.Contains(args, "-C"):
		return "control client"
	case strings.HasPrefix(c, "tmux") && slices.Contains(args, "wait-for"):
		return "wait-for client"
	case strings.HasPrefix(c, "tmux") && strings.Contains(c, "server"):
		return "tmux server"
	case strings.HasPrefix(c, "tmux"):
		return "tmux (other)"
	case c == "cat":
		return "copiers"
	}
	return "other"
}

// partsString says a sample's parts, largest CPU first.
func (s idleSample) partsString() string {
	names := slices.Collect(maps.Keys(s.parts))
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(s.parts[b].cpu, s.parts[a].cpu) })
	var out []string
	for _, n := range names {
		p := s.parts[n]
		out = append(out, fmt.Sprintf("%s ×%d %s %s %d wake-ups", n, p.n, pct(p.cpu), mib(float64(p.rss)), p.runs))
	}
	return strings.Join(out, ", ")
}

// costOf samples, over d, the CPU of what a backend runs to supervise its
// sessions: the processes roots returns (each one's own time and its
// reaped children's) and, at the end, their summed PSS. roots is asked
// again at the end: the set is the same in a steady state.
//
// A process's own time is the sum of its threads' run time in
// nanoseconds (/proc/<pid>/task/*/schedstat), not utime+stime: those are
// whole clock ticks (10 ms), so over a 10 s window one tick of one
// process reads 0.10%, twice the target at 100 sessions, whatever was
// really spent. Its reaped children's time is still in ticks (cutime).
func costOf(roots func() []int, d time.Duration) (idleSample, error) {
	type mark struct {
		run      time.Duration
		runs     int64
		children int64
	}
	read := func(pid int) (mark, error) {
		c, err := readCPU(pid)
		if err != nil {
			return mark{}, err
		}
		run, runs, err := runTime(pid)
		if err != nil {
			run = ticks(c.self)
		}
		return mark{run: run, runs: runs, children: c.children}, nil
	}
	before := map[int]mark{}
	for _, pid := range roots() {
		m, err := read(pid)
		if err != nil {
			return idleSample{}, err
		}
		before[pid] = m
	}
	t0 := time.Now()
	time.Sleep(d)
	el := time.Since(t0)
	var total time.Duration
	var rss int64
	parts := map[string]partCost{}
	pids := roots()
	for _, pid := range pids {
		m, err := read(pid)
		if err != nil {
			continue // a short-lived client that ended: its time is in its parent's
		}
		b := before[pid] // zero for one that started during the window
		t := m.run - b.run + ticks(m.children-b.children)
		total += t
		r, _ := pssKiB(pid)
		rss += r
		name := partOf(pid, pids[0])
		p := parts[name]
		p.cpu += shareOf(t, el)
		p.rss += r
		p.n++
		p.runs += m.runs - b.runs
		parts[name] = p
	}
	return idleSample{cpu: shareOf(total, el), rss: rss, parts: parts}, nil
}

// runTime is a process's CPU time so far to the nanosecond: the run time
// of each of its threads (the first field of /proc/<pid>/task/<tid>/schedstat),
// and how many times they were put on a CPU (its third field).
// A thread that ended is missing from it; Go's threads and tmux's one live
// as long as their process.
func runTime(pid int) (time.Duration, int64, error) {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, err
	}
	var sum time.Duration
	var runs int64
	for _, t := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
		if err != nil {
			continue // the thread ended meanwhile
		}
		f := strings.Fields(string(b))
		if len(f) < 3 {
			return 0, 0, fmt.Errorf("%s/%s/schedstat: %q", dir, t.Name(), b)
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, err
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return 0, 0, err
		}
		sum += time.Duration(ns)
		runs += n
	}
	return sum, runs, nil
}

// shareOf is CPU time over a wall interval as a percentage of one core.
func shareOf(cpu, wall time.Duration) float64 { return cpu.Seconds() / wall.Seconds() * 100 }

// descendants lists pid and every process below it whose command name
// keep accepts (nil: all).
func descendants(root int, keep func(comm string) bool) []int {
	procs, _ := proctree.Current()
	out := []int{root}
	for _, pid := range proctree.DescendantsOf(procs, root) {
		if keep == nil || keep(procs[pid].Comm) {
			out = append(out, pid)
		}
	}
	return out
}

// tmuxHelper reports whether a process is part of the tmux backend's cost
// rather than an agent: tmux clients and the pipe-pane copiers.
func tmuxHelper(comm string) bool { return strings.HasPrefix(comm, "tmux") || comm == "cat" }

// scalePoint is one backend at one number of sessions.
type scalePoint struct {
	n    int
	cost idleSample
}

// supervisors lists the processes whose cost is the backend's: the station
// alone for pty; for tmux also its tmux clients, the tmux server (pid
// server, 0 while none runs) and the pipe-pane copiers (the agents are not
// counted). It reads /proc only: asking tmux would wake the server it
// measures (see tmuxServer).
func supervisors(backend string, station, server int) []int {
	if backend != "tmux" {
		return []int{station}
	}
	pids := descendants(station, tmuxHelper)
	if server > 0 {
		pids = append(pids, descendants(server, tmuxHelper)...)
	}
	return pids
}

// tmuxServer is the pid of the tmux server on sock, 0 if none runs. It
// asks the server, through a tmux client of its own: a connection costs
// the server a few milliseconds at 300 panes (measured: 6–9 ms, 0.06–0.09%
// of a core over a 10 s window), so it is asked before a window, never
// inside one.
func tmuxServer(sock string) int {
	out, err := exec.Command("tmux", "-S", sock, "display-message", "-p", "#{pid}").Output()
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return pid
}

// idleCurve starts a station with the given backend and measures what it
// costs idle at each number of sessions in counts (ascending).
func idleCurve(backend string, counts []int, d time.Duration) ([]scalePoint, error) {
	proj, err := os.MkdirTemp(workDir, "idle-proj-")
	if err != nil {
		return nil, err
	}
	home, err := newHome("idle-"+backend, fmt.Sprintf(`max_sessions = 400
[[projects]]
name = "idle"
path = %q
command = ["sh", "-c", %q]
backend = %q
idle_window = "1h"
block_window = "1h"
concurrency = 400
`, proj, idleAgent, backend))
	if err != nil {
		return nil, err
	}
	defer endTmux(home)
	st, err := startStation(home)
	if err != nil {
		return nil, err
	}
	defer st.stop()
	sock := filepath.Join(home, "tmux.sock")
	server := 0 // the tmux server, once it runs
	roots := func() []int { return supervisors(backend, st.PID(), server) }
	var curve []scalePoint
	have := 0
	for _, n := range counts {
		if n > have {
			progress("idle %s: starting %d more idle sessions (each prints 300 KB, then waits)", backend, n-have)
			t0 := time.Now()
			if _, err := st.addTasks("idle", n-have); err != nil {
				return nil, err
			}
			if err := st.waitSessions(n, 2*time.Second, 4*time.Minute); err != nil {
				return nil, fmt.Errorf("%s backend: %w", backend, err)
			}
			progress("idle %s: %d sessions running and quiet after %s", backend, n, time.Since(t0).Round(time.Second))
			have = n
		}
		if backend == "tmux" {
			server = tmuxServer(sock) // before the settle: asking wakes it
		}
		time.Sleep(2 * time.Second) // let start-up work (GC, spawn) finish
		progress("idle %s: measuring with %d sessions for %s", backend, n, d)
		s, err := costOf(roots, d)
		if err != nil {
			return nil, err
		}
		curve = append(curve, scalePoint{n: n, cost: s})
	}
	return curve, nil
}

// benchIdle measures both backends and the poller baseline at each count
// and adds the scaling rows: CPU and RSS against sessions, so growth that
// is worse than linear shows.
func benchIdle(t *table, d time.Duration, counts []int, backends []string, noBaseline bool) error {
	curves := map[string][]scalePoint{}
	for _, backend := range backends {
		c, err := idleCurve(backend, counts, d)
		if err != nil {
			return err
		}
		curves[backend] = c
	}
	base, rounds := map[int]idleSample{}, "not run"
	if !noBaseline {
		// The poller is measured at the smallest count only: it already
		// takes a whole core there (it cannot finish its rounds), so at a
		// larger count it costs at least as much, and its 300 worktrees
		// took a minute and a half of every bench.
		var err error
		if base, rounds, err = pollerBaseline(baselineCounts(counts), d); err != nil {
			return fmt.Errorf("poller baseline: %w", err)
		}
	}
	addIdleRows(t, d, counts, backends, curves, base, rounds)
	for _, backend := range backends {
		addScalingRows(t, backend, counts, curves[backend], backend == backends[0])
	}
	return nil
}

// baselineCounts is the counts the poller baseline is measured at: 0 and
// the smallest other count.
func baselineCounts(counts []int) []int {
	for i, n := range counts {
		if n > 0 {
			return counts[:i+1]
		}
	}
	return counts
}

// baselineFor is the poller's sample for n sessions and the count it was
// measured at: n's own, or the largest count below n that was measured
// (a poller over more sessions costs at least that).
func baselineFor(base map[int]idleSample, n int) (idleSample, int) {
	if s, ok := base[n]; ok {
		return s, n
	}
	at := 0
	for m := range base {
		if m < n && m > at {
			at = m
		}
	}
	return base[at], at
}

// addIdleRows adds a row for each backend at each count but 0: its CPU
// against the poller baseline's, with the target at 100 sessions.
func addIdleRows(t *table, d time.Duration, counts []int, backends []string, curves map[string][]scalePoint, base map[int]idleSample, rounds string) {
	last := counts[len(counts)-1]
	for i, n := range counts {
		if n == 0 {
			continue
		}
		for _, backend := range backends {
			ours := curves[backend][i].cost
			b, at := baselineFor(base, n)
			r := row{figure: fmt.Sprintf("idle CPU, %s, %d sessions", backend, n), ours: pct(ours.cpu),
				baseline: pct(b.cpu), ratio: ratio(ours.cpu, b.cpu)}
			if at != n && at > 0 {
				r.baseline = fmt.Sprintf("≥ %s (at %d)", pct(b.cpu), at)
			}
			switch n {
			case 100:
				r.target, r.met = "≤ 0.05%", metString(ours.cpu <= 0.05)
			case 300:
				r.target, r.met = "≤ 0.1%", metString(ours.cpu <= 0.1)
			}
			if n == last && backend == backends[0] {
				r.note = fmt.Sprintf("over %s: pty is the station process's CPU (its threads' run time to the nanosecond, from schedstat, and its reaped children's utime+stime); tmux adds its tmux clients, the tmux server and any pipe-pane copier, a `cat` per session before the pipe was handed to the station (agents excluded), "+
					"the server's pid read before the window (a tmux client asking for it inside the window cost the server more than everything else in it, 6–9 ms at 300 panes); "+
					"a 10 s window holds the tmux backend's safety look (one list-panes -a every 2 min on Linux) one time in 12; "+
					"baseline: a poller doing what claude-squad does each 500 ms round for every session (capture-pane -p -e -J, then git add -N . && git diff in the session's worktree), "+
					"its own and its children's CPU plus the tmux server's, measured at the smallest count only (it already falls behind its rounds there, so more sessions cost it at least as much: ≥); rounds it achieved: %s; ratio is ours / baseline", d, rounds)
			}
			t.add(r)
		}
	}
}

// addScalingRows adds one backend's curve c as rows: CPU and memory at
// each count, and memory per added session (with its target for pty). The
// first backend's rows carry the notes.
func addScalingRows(t *table, backend string, counts []int, c []scalePoint, first bool) {
	var cpus, rsss, per []string
	for i, p := range c {
		cpus = append(cpus, pct(p.cost.cpu))
		rsss = append(rsss, mib(float64(p.cost.rss)))
		if i > 0 && p.n > c[i-1].n {
			per = append(per, mib(float64(p.cost.rss-c[i-1].cost.rss)/float64(p.n-c[i-1].n)))
		}
	}
	var ns []string
	for _, n := range counts {
		ns = append(ns, strconv.Itoa(n))
	}
	label := strings.Join(ns, " / ")
	var where []string
	for _, p := range c {
		where = append(where, fmt.Sprintf("at %d: %s", p.n, p.cost.partsString()))
	}
	t.add(row{figure: fmt.Sprintf("scaling %s: CPU at %s sessions", backend, label), ours: strings.Join(cpus, " / "),
		note: "where it goes (part ×processes, CPU, PSS, wake-ups in the window: times its threads were put on a CPU, from schedstat) " + strings.Join(where, "; ") + fmt.Sprintf("; load %s at the end", loadAvg())})
	r := row{figure: fmt.Sprintf("scaling %s: memory (PSS) at %s sessions", backend, label), ours: strings.Join(rsss, " / ")}
	if first {
		r.note = "PSS after each idle window (RSS with shared pages divided among sharers; tmux: station + tmux server + clients + copiers); per session: RSS growth between successive counts / sessions added, every session having printed 300 KB (ring is 256 KiB)"
	}
	t.add(r)
	pr := row{figure: fmt.Sprintf("scaling %s: memory per added session", backend), ours: strings.Join(per, " / ")}
	if len(c) > 1 {
		// From the first count with sessions to the last: the cost of
		// a session, without the station's and the server's fixed cost
		// (from none when one count with sessions was measured).
		a, b := c[len(c)-1], c[min(1, len(c)-2)]
		v := float64(a.cost.rss-b.cost.rss) / float64(a.n-b.n)
		pr.target, pr.met = "≤ 1 MiB", metString(v <= 1024)
	}
	t.add(pr)
}

// pollerSocket is the poller baseline's tmux server's socket name (-L).
func pollerSocket() string { return fmt.Sprintf("bsbench-%d", os.Getpid()) }

// pollerBaseline runs the same idle agents as windows of a private tmux
// server, each with its own git worktree, and measures a claude-squad-like
// poller over them at each count. rounds says how many rounds it achieved
// against how many its ticker asked for, per count.
func pollerBaseline(counts []int, d time.Duration) (map[int]idleSample, string, error) {
	sock := pollerSocket()
	home, err := os.MkdirTemp(workDir, "tmux-")
	if err != nil {
		return nil, "", err
	}
	tmux := func(args ...string) *exec.Cmd {
		c := exec.Command("tmux", append([]string{"-L", sock, "-f", "/dev/null"}, args...)...)
		c.Env, c.Dir = env(home), home
		return c
	}
	defer tmux("kill-server").Run()
	repo := filepath.Join(home, "repo")
	if err := gitInit(repo); err != nil {
		return nil, "", err
	}
	out := map[int]idleSample{}
	have := 0
	var server int
	var rounds []string
	for _, n := range counts {
		if n == 0 {
			continue
		}
		progress("poller baseline: %d agents in tmux windows, each in its own worktree", n)
		if err := addAgentWindows(tmux, repo, home, have, n); err != nil {
			return nil, "", err
		}
		have = n
		if server == 0 {
			b, err := tmux("display-message", "-p", "#{pid}").Output()
			if err != nil {
				return nil, "", fmt.Errorf("tmux server pid: %w", err)
			}
			server, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		time.Sleep(4 * time.Second) // the agents print their 300 KB and settle
		s, r, err := measurePoller(sock, server, n, d)
		if err != nil {
			return nil, "", err
		}
		out[n] = s
		rounds = append(rounds, fmt.Sprintf("%d sessions: %s", n, r))
	}
	return out, strings.Join(rounds, "; "), nil
}

// addAgentWindows adds idle agents have..n-1 to the tmux server, each in a
// window of its own and in a worktree of its own of repo, as claude-squad
// runs its sessions.
func addAgentWindows(tmux func(args ...string) *exec.Cmd, repo, home string, have, n int) error {
	wtOf := func(i int) string { return filepath.Join(home, fmt.Sprintf("wt-%d", i)) }
	// One at a time: git worktree add run side by side in one repository
	// races on .git/worktrees ("failed to read .git/worktrees/wt-77/
	// commondir"), which failed the whole idle figure once.
	for i := have; i < n; i++ {
		if b, err := git(repo, "worktree", "add", "-q", "-b", fmt.Sprintf("s%d", i), wtOf(i)); err != nil {
			return fmt.Errorf("git worktree add: %v %s", err, b)
		}
	}
	for i := have; i < n; i++ {
		wt := wtOf(i)
		var c *exec.Cmd
		if i == 0 {
			c = tmux("new-session", "-d", "-s", "bench", "-x", "120", "-y", "40", "-c", wt, idleAgent)
		} else {
			c = tmux("new-window", "-d", "-t", "bench", "-c", wt, idleAgent)
		}
		if b, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("%v: %v %s", c.Args, err, b)
		}
	}
	return nil
}

// measurePoller runs the poller (this program, as "poller") over the tmux
// server on sock for d and samples it and the server; rounds is what the
// poller said it achieved.
func measurePoller(sock string, server, n int, d time.Duration) (s idleSample, rounds string, err error) {
	self, err := os.Executable()
	if err != nil {
		return idleSample{}, "", err
	}
	poller := exec.Command(self, "poller", "-L", sock, "-interval", "500ms")
	var pout strings.Builder
	poller.Stdout, poller.Stderr = &pout, os.Stderr
	if err := poller.Start(); err != nil {
		return idleSample{}, "", err
	}
	time.Sleep(600 * time.Millisecond) // its first round: the screens to compare against
	progress("poller baseline: measuring the poller and tmux with %d panes for %s", n, d)
	s, err = costOf(func() []int { return []int{poller.Process.Pid, server} }, d)
	_ = poller.Process.Signal(syscall.SIGTERM)
	_ = poller.Wait()
	if err != nil {
		return idleSample{}, "", err
	}
	s.rss, _ = rssKiB(server)
	return s, strings.TrimSpace(pout.String()), nil
}

// gitInit makes a repository with one commit, for the poller's worktrees.
func gitInit(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "README"), []byte("bench\n"), 0o600); err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "init"}} {
		if b, err := git(dir, args...); err != nil {
			return fmt.Errorf("git %v: %v %s", args, err, b)
		}
	}
	return nil
}

func git(dir string, args ...string) ([]byte, error) {
	c := exec.Command("git", args...)
	c.Dir = dir
	return c.CombinedOutput()
}
