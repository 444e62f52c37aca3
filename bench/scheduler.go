//go:build linux

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	creack "github.com/creack/pty"

	"github.com/buildstation/buildstation/internal/testsupport/testwait"
	"github.com/buildstation/buildstation/supervisor"
)

const schedTasks = 300

// benchScheduler runs 300 tasks through add → start → complete with an
// agent that completes at once, 8 sessions at a time.
func benchScheduler(t *table) error {
	proj, _ := os.MkdirTemp(workDir, "sched-")
	st, _, err := stationOn("scheduler", fmt.Sprintf(`max_sessions = 8
[[projects]]
name = "sched"
path = %q
command = ["buildstation", "agent", "complete", "--summary", "ok"]
idle_window = "1h"
block_window = "1h"
concurrency = 8
`, proj))
	if err != nil {
		return err
	}
	defer st.stop()
	progress("scheduler: adding %d tasks whose agent completes at once", schedTasks)
	t0 := time.Now()
	ids, err := st.addTasks("sched", schedTasks)
	if err != nil {
		return err
	}
	addTook := time.Since(t0)
	last, blocked, err := waitSettled(st, "sched", len(ids))
	if err != nil {
		return err
	}
	took := last.Sub(t0)
	ours := float64(len(ids)) / took.Seconds()
	progress("scheduler: baseline: %d × `buildstation version` in bare PTYs, 8 at a time", schedTasks)
	bt, err := spawnBaseline(schedTasks, 8)
	if err != nil {
		return err
	}
	base := float64(schedTasks) / bt.Seconds()
	var fail string
	if blocked > 0 {
		fail = fmt.Sprintf("; %d tasks did not end done", blocked)
	}
	t.add(row{figure: fmt.Sprintf("scheduler, %d tasks", schedTasks), ours: fmt.Sprintf("%.0f tasks/s", ours), baseline: fmt.Sprintf("%.0f spawns/s", base), ratio: ratio(ours, base),
		note: fmt.Sprintf("max_sessions = concurrency = 8, agent `buildstation agent complete --summary ok`; first add to last done %s (adding all took %s)%s; "+
			"baseline: the process-start floor, %d runs of `buildstation version` each in a fresh PTY, 8 at a time", took.Round(time.Millisecond), addTook.Round(time.Millisecond), fail, schedTasks)})
	return nil
}

// spawnBaseline runs `buildstation version` n times in fresh PTYs, par at
// a time, reading each dry.
func spawnBaseline(n, par int) (time.Duration, error) {
	jobs := make(chan struct{}, n)
	for range n {
		jobs <- struct{}{}
	}
	close(jobs)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	t0 := time.Now()
	for range par {
		wg.Go(func() {
			for range jobs {
				cmd := exec.Command(bin, "version")
				m, err := creack.Start(cmd)
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					return
				}
				_, _ = io.Copy(io.Discard, m)
				_ = cmd.Wait()
				m.Close()
			}
		})
	}
	wg.Wait()
	return time.Since(t0), errors.Join(errs...)
}

// addsFor is how long each half of the adds figure adds tasks: a rate
// over a fixed time, so a slow disk (each add is an fsync) makes the
// figure lower and not the bench longer. addsAtLeast bounds the count
// below, so the rate stays a mean over many adds.
const (
	addsFor     = 10 * time.Second
	addsAtLeast = 50
)

// benchAdds times task adds through the API to a paused project (no
// session starts), first one client at a time, then 16 at once, for
// addsFor each: the board's group commit lets a burst share commits, each
// add still durable when its answer comes.
func benchAdds(t *table) error {
	proj, _ := os.MkdirTemp(workDir, "adds-")
	st, home, err := stationOn("adds", fmt.Sprintf("[[projects]]\nname = \"adds\"\npath = %q\n", proj))
	if err != nil {
		return err
	}
	defer st.stop()
	if _, err := timeCLI(home, "project", "pause", "adds", "--reason", "bench: adds only"); err != nil {
		return err
	}
	progress("adds: one at a time for %s", addsFor)
	seqN, seqTook, err := addFor(st, 1)
	if err != nil {
		return err
	}
	progress("adds: 16 clients at once for %s", addsFor)
	parN, parTook, err := addFor(st, 16)
	if err != nil {
		return err
	}
	seq, par := float64(seqN)/seqTook.Seconds(), float64(parN)/parTook.Seconds()
	t.add(row{figure: "task adds, 16 clients at once", ours: fmt.Sprintf("%.0f adds/s", par), baseline: fmt.Sprintf("%.0f adds/s", seq), ratio: ratio(par, seq),
		note: fmt.Sprintf("adds through the API to a paused project for %s (at least %d), each answered only once committed (synchronous=FULL): %d from 16 clients in %s; baseline: %d one client at a time in %s, same station, same run",
			addsFor, addsAtLeast, parN, parTook.Round(time.Millisecond), seqN, seqTook.Round(time.Millisecond))})
	return nil
}

// addFor adds tasks from clients at once until addsFor has passed and at
// least addsAtLeast were added; it returns how many and how long.
func addFor(st *station, clients int) (int, time.Duration, error) {
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		n    int
		errs []error
	)
	t0 := time.Now()
	for range clients {
		wg.Go(func() {
			for {
				mu.Lock()
				done := time.Since(t0) >= addsFor && n >= addsAtLeast
				mu.Unlock()
				if done {
					return
				}
				_, err := st.addTasks("adds", 1)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					n++
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	return n, time.Since(t0), errors.Join(errs...)
}

// waitSettled waits until n tasks of project are done or blocked, and
// returns when the last of them changed and how many did not end done:
// the figure is read off the tasks' own times, not off this wait.
func waitSettled(st *station, project string, n int) (last time.Time, blocked int, err error) {
	if err := testwait.Poll(5*time.Minute, "every task done", func() error {
		s, err := st.c.Status(contextBG())
		if err != nil {
			return err
		}
		if s.Tasks[supervisor.TaskDone]+s.Tasks[supervisor.TaskBlocked] < n {
			return fmt.Errorf("%v", s.Tasks)
		}
		return nil
	}); err != nil {
		return time.Time{}, 0, err
	}
	tasks, err := st.c.Tasks(contextBG(), supervisor.TaskFilter{Project: project})
	if err != nil {
		return time.Time{}, 0, err
	}
	for _, x := range tasks {
		if x.State != supervisor.TaskDone {
			blocked++
		}
		if x.UpdatedAt.After(last) {
			last = x.UpdatedAt
		}
	}
	return last, blocked, nil
}
