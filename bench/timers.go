//go:build linux

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	creack "github.com/creack/pty"

	"github.com/buildstation/buildstation/e2e/rig"
	"github.com/buildstation/buildstation/supervisor"
)

const (
	timerWindow   = 2 * time.Second
	timerSessions = 100
	floodAgent    = "exec yes 0123456789012345678901234567890123456789"
)

// benchTimers measures how late nudges and blocks fire with 100 wedged
// sessions whose windows run out together, on each backend, with and
// without one more session flooding its terminal.
func benchTimers(t *table) error {
	progress("timers: baseline: %d plain Go timers beside a bare PTY flooded by `yes`", timerSessions)
	bn, bb, err := timerBaseline()
	if err != nil {
		return err
	}
	p := func(v []time.Duration, q float64) time.Duration { return percentile(v, q) }
	var notes []string
	for _, c := range []struct {
		backend string
		flood   bool
	}{{"pty", false}, {"pty", true}, {"tmux", true}} {
		nudge, block, note, err := timerRun(c.backend, c.flood)
		if err != nil {
			return fmt.Errorf("%s backend: %w", c.backend, err)
		}
		notes = append(notes, note)
		what := c.backend
		if c.flood {
			what += ", flood"
		}
		t.add(row{figure: "nudge lateness p50/p99, " + what, ours: ms(p(nudge, 50)) + " / " + ms(p(nudge, 99)), baseline: ms(p(bn, 50)) + " / " + ms(p(bn, 99)),
			target: "p99 < 1 s", met: metString(p(nudge, 99) < time.Second)})
		t.add(row{figure: "block lateness p50/p99, " + what, ours: ms(p(block, 50)) + " / " + ms(p(block, 99)), baseline: ms(p(bb, 50)) + " / " + ms(p(bb, 99)),
			target: "p99 < 1 s", met: metString(p(block, 99) < time.Second)})
	}
	t.rows[len(t.rows)-1].note = fmt.Sprintf("%d sessions `fake-agent \"print ready; wedge\"` started together, idle_window = block_window = 2s, so their deadlines coincide; "+
		"flood: beside one more session running `yes`; "+
		"nudge lateness = station.log time of msg=nudged − (its silent_since + 2s); block lateness = time of msg=\"task blocked\" − (first nudge + 2s); "+
		"baseline: the same number of plain time.AfterFunc timers in a Go process that reads a `yes` PTY flood; %s", timerSessions, strings.Join(notes, "; "))
	return nil
}

// timerRun is one station, one backend: 100 wedged sessions, maybe a flood.
func timerRun(backend string, flood bool) (nudge, block []time.Duration, note string, err error) {
	home, err := timersHome(backend, flood)
	if err != nil {
		return nil, nil, "", err
	}
	defer endTmux(home)
	st, err := startStation(home)
	if err != nil {
		return nil, nil, "", err
	}
	defer st.stop()
	var flooding []string
	if flood {
		if flooding, err = st.addTasks("flood", 1); err != nil {
			return nil, nil, "", err
		}
		if _, err := st.waitState(flooding, supervisor.TaskWorking, 10*time.Second); err != nil {
			return nil, nil, "", err
		}
		time.Sleep(time.Second)
	}
	progress("timers %s: %d wedged sessions on %s windows (flood: %v)", backend, timerSessions, timerWindow, flood)
	ids, err := st.addTasks("wedge", timerSessions)
	if err != nil {
		return nil, nil, "", err
	}
	if _, err := st.waitState(ids, supervisor.TaskBlocked, 2*time.Minute); err != nil {
		return nil, nil, "", err
	}
	floodAlive := false
	if ss, err := st.c.Sessions(contextBG()); err == nil && flood {
		for _, s := range ss {
			floodAlive = floodAlive || s.TaskID == flooding[0]
		}
	}
	st.stop()
	nudge, block, extra, err := lateness(filepath.Join(home, "logs", "station.log"), ids)
	note = fmt.Sprintf("%s%s: %d sessions nudged more than once", backend, map[bool]string{true: fmt.Sprintf(" with flood (still flooding at the end: %v)", floodAlive), false: ""}[flood], extra)
	return nudge, block, note, err
}

func ms(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }

func percentile(v []time.Duration, q float64) time.Duration {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	i := int(float64(len(s))*q/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// lateness reads the station log for each task's first nudge and its
// block; extra counts the tasks nudged again (their echo or output taken
// for life, and a fresh window).
func lateness(path string, ids []string) (nudge, block []time.Duration, extra int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, err
	}
	defer f.Close()
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	nudgedAt := map[string]time.Time{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		e, ok := rig.ParseWatchdog(sc.Text())
		switch {
		case !ok:
		case e.Nudged:
			if !want[e.Task] {
				continue
			}
			if _, again := nudgedAt[e.Task]; again {
				extra++
				continue
			}
			nudge = append(nudge, e.At.Sub(e.Silent.Add(timerWindow)))
			nudgedAt[e.Task] = e.At
		default:
			if n, ok := nudgedAt[e.Task]; ok {
				block = append(block, e.At.Sub(n.Add(timerWindow)))
			}
		}
	}
	if len(nudge) != len(ids) || len(block) != len(ids) {
		return nudge, block, extra, fmt.Errorf("station.log has first nudges for %d and blocks for %d of %d sessions", len(nudge), len(block), len(ids))
	}
	return nudge, block, extra, sc.Err()
}

// timerBaseline is how late plain Go timers fire on this machine under the
// same flood: two 2 s stages on each of 100 staggered timers.
func timerBaseline() (first, second []time.Duration, err error) {
	cmd := exec.Command("sh", "-c", floodAgent)
	m, err := creack.Start(cmd)
	if err != nil {
		return nil, nil, err
	}
	go func() { _, _ = io.Copy(io.Discard, m) }()
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); m.Close() }()
	time.Sleep(time.Second)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range timerSessions {
		wg.Add(1)
		due := time.Now().Add(timerWindow)
		time.AfterFunc(timerWindow, func() {
			now := time.Now()
			due2 := now.Add(timerWindow)
			mu.Lock()
			first = append(first, now.Sub(due))
			mu.Unlock()
			time.AfterFunc(timerWindow, func() {
				mu.Lock()
				second = append(second, time.Since(due2))
				mu.Unlock()
				wg.Done()
			})
		})
		if i%10 == 9 {
			time.Sleep(10 * time.Millisecond) // staggered, as sessions start
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		return nil, nil, errors.New("baseline timers did not fire in a minute")
	}
	return first, second, nil
}

// timersHome makes the home of one timers run: the wedged agents' project
// and the flooding agent's, both on 2s windows with the given backend.
func timersHome(backend string, flood bool) (string, error) {
	wedge, _ := os.MkdirTemp(workDir, "wedge-")
	fl, _ := os.MkdirTemp(workDir, "flood-")
	name := "timers-" + backend
	if flood {
		name += "-flood"
	}
	return newHome(name, fmt.Sprintf(`max_sessions = 120
[[projects]]
name = "wedge"
path = %q
command = ["buildstation", "fake-agent", "print ready; wedge"]
backend = %q
idle_window = "2s"
block_window = "2s"
concurrency = 110
# Its blocks are the figure: the breaker would pause the queue after three,
# before the last of the 100 has started.
breaker = "off"

[[projects]]
name = "flood"
path = %q
command = ["sh", "-c", %q]
backend = %q
idle_window = "2s"
block_window = "2s"
`, wedge, backend, fl, floodAgent, backend))
}
