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
	"regexp"
	"slices"
	"sync"
	"time"

	creack "github.com/creack/pty"

	"github.com/buildstation/buildstation/supervisor"
)

const (
	timerWindow   = 2 * time.Second
	timerSessions = 100
	floodAgent    = "exec yes 0123456789012345678901234567890123456789"
)

// benchTimers measures how late nudges and blocks fire with 100 wedged
// sessions on 2 s windows while one more session floods its terminal.
func benchTimers(t *table) error {
	wedge, _ := os.MkdirTemp(workDir, "wedge-")
	flood, _ := os.MkdirTemp(workDir, "flood-")
	home, err := newHome("timers", fmt.Sprintf(`max_sessions = 120
[[projects]]
name = "wedge"
path = %q
command = ["buildstation", "fake-agent", "print ready; wedge"]
idle_window = "2s"
block_window = "2s"
concurrency = 110

[[projects]]
name = "flood"
path = %q
command = ["sh", "-c", %q]
idle_window = "2s"
block_window = "2s"
`, wedge, flood, floodAgent))
	if err != nil {
		return err
	}
	st, err := startStation(home)
	if err != nil {
		return err
	}
	defer st.stop()
	fl, err := st.addTasks("flood", 1)
	if err != nil {
		return err
	}
	if _, err := st.waitState(fl, supervisor.TaskWorking, 10*time.Second); err != nil {
		return err
	}
	time.Sleep(time.Second)
	progress("timers: `yes` floods one session; starting %d wedged sessions on %s windows", timerSessions, timerWindow)
	ids, err := st.addTasks("wedge", timerSessions)
	if err != nil {
		return err
	}
	if _, err := st.waitState(ids, supervisor.TaskBlocked, 2*time.Minute); err != nil {
		return err
	}
	floodAlive := false
	if ss, err := st.c.Sessions(contextBG()); err == nil {
		for _, s := range ss {
			floodAlive = floodAlive || s.TaskID == fl[0]
		}
	}
	st.stop()
	nudge, block, err := lateness(filepath.Join(home, "logs", "station.log"), ids)
	if err != nil {
		return err
	}
	progress("timers: baseline: %d plain Go timers beside a bare PTY flooded by `yes`", timerSessions)
	bn, bb, err := timerBaseline()
	if err != nil {
		return err
	}
	p := func(v []time.Duration, q float64) time.Duration { return percentile(v, q) }
	note := fmt.Sprintf("%d sessions `fake-agent \"print ready; wedge\"`, idle_window = block_window = 2s, beside one session running `yes` (still flooding at the end: %v); "+
		"nudge lateness = station.log time of msg=nudged − (its silent_since + 2s); block lateness = time of msg=\"task blocked\" − (nudge time + 2s); "+
		"baseline: the same number of plain time.AfterFunc timers in a Go process that reads a `yes` PTY flood", timerSessions, floodAlive)
	t.add(row{figure: "nudge lateness p50", ours: ms(p(nudge, 50)), baseline: ms(p(bn, 50))})
	t.add(row{figure: "nudge lateness p99", ours: ms(p(nudge, 99)), baseline: ms(p(bn, 99)), target: "< 1 s", met: metString(p(nudge, 99) < time.Second)})
	t.add(row{figure: "block lateness p50", ours: ms(p(block, 50)), baseline: ms(p(bb, 50))})
	t.add(row{figure: "block lateness p99", ours: ms(p(block, 99)), baseline: ms(p(bb, 99)), target: "< 1 s", met: metString(p(block, 99) < time.Second), note: note})
	return nil
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

var (
	logTime   = regexp.MustCompile(`^time=(\S+)`)
	logNudged = regexp.MustCompile(` msg=nudged session=(\S+) .*silent_since=(\S+)`)
	logBlock  = regexp.MustCompile(` msg="task blocked" task=(\S+)`)
)

// lateness reads the station log for each task's nudge and block.
func lateness(path string, ids []string) (nudge, block []time.Duration, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
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
		line := sc.Text()
		m := logTime.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, m[1])
		if err != nil {
			continue
		}
		if n := logNudged.FindStringSubmatch(line); n != nil {
			task := taskOfSession(n[1])
			silent, err := time.Parse(time.RFC3339Nano, n[2])
			if err != nil || !want[task] {
				continue
			}
			nudge = append(nudge, at.Sub(silent.Add(timerWindow)))
			nudgedAt[task] = at
		}
		if b := logBlock.FindStringSubmatch(line); b != nil {
			if n, ok := nudgedAt[b[1]]; ok {
				block = append(block, at.Sub(n.Add(timerWindow)))
			}
		}
	}
	if len(nudge) != len(ids) || len(block) != len(ids) {
		return nudge, block, fmt.Errorf("station.log has %d nudges and %d blocks for %d sessions", len(nudge), len(block), len(ids))
	}
	return nudge, block, sc.Err()
}

// taskOfSession cuts the attempt (".1") off a session id.
func taskOfSession(id string) string {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] == '.' {
			return id[:i]
		}
	}
	return id
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
