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

const addTasksN = 1000

// benchAdds times 1,000 task adds through the API to a paused project (no
// session starts), first one client at a time, then 16 at once: the
// board's group commit lets a burst share commits, each add still durable
// when its answer comes.
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
	progress("adds: %d adds, one at a time", addTasksN)
	t0 := time.Now()
	if _, err := st.addTasks("adds", addTasksN); err != nil {
		return err
	}
	seq := float64(addTasksN) / time.Since(t0).Seconds()
	progress("adds: %d adds, 16 clients at once", addTasksN)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	t0 = time.Now()
	for range 16 {
		wg.Go(func() {
			if _, err := st.addTasks("adds", addTasksN/16); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	par := float64(addTasksN/16*16) / time.Since(t0).Seconds()
	t.add(row{figure: "task adds, 16 clients at once", ours: fmt.Sprintf("%.0f adds/s", par), baseline: fmt.Sprintf("%.0f adds/s", seq), ratio: ratio(par, seq),
		note: fmt.Sprintf("%d adds through the API to a paused project, each answered only once committed (synchronous=FULL); baseline: the same adds one client at a time, same station, same run", addTasksN)})
	return nil
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
