//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/store"
)

const (
	concClients = 100
	concFor     = 5 * time.Second
	concTasks   = 10_000
)

// benchConcurrent is requests/s for a bare `task ls` (the newest 100: GET
// /v1/tasks?limit=100&order=newest) from 100 concurrent clients against a
// station on a board of 10,000 tasks, twice: on a board nobody changes,
// and while a client adds a task every 50 ms (each addition is a commit
// that drops the station's kept answers, so the lists are read from the
// board again, and the newest page must show the last task added). A
// third run asks for pages at random cursors, which the station has not
// kept: the cost of reading the board for every answer, with no target.
// The baseline is the board's own query on a persistent connection, in
// the same run after the station stopped: the store opened in this
// process, one caller asking for the same pages back to back, each read
// into tasks (what the station does for an answer, less HTTP and JSON).
func benchConcurrent(t *table) error {
	proj, _ := os.MkdirTemp(workDir, "conc-")
	home, err := newHome("concurrent", fmt.Sprintf("[[projects]]\nname = \"p0\"\npath = %q\n", proj))
	if err != nil {
		return err
	}
	db := filepath.Join(home, "station.db")
	progress("concurrent: writing a board of %d tasks", concTasks)
	if err := seedTasks(db, concTasks); err != nil {
		return fmt.Errorf("seed board: %w", err)
	}
	// Paused before the station starts, so the tasks (and those added)
	// wait in the queue: no agent runs in this figure.
	if err := seedWith(db, pauseSeeded); err != nil {
		return fmt.Errorf("pause the board's projects: %w", err)
	}
	st, err := startStation(home)
	if err != nil {
		return err
	}
	newest := func() string { return "/v1/tasks?limit=100&order=newest" }
	still := hammerList(st.c.BaseURL+newest(), st.c.Token, nil)
	added := 0
	changing := hammerList(st.c.BaseURL+newest(), st.c.Token, func(ctx context.Context) {
		added = addEvery(ctx, st, 50*time.Millisecond)
	})
	unkept := hammerList("", st.c.Token, nil, func() string {
		return fmt.Sprintf("%s/v1/tasks?limit=100&order=newest&after=t%d", st.c.BaseURL, 200+rand.IntN(concTasks-200))
	})
	err = newestShows(st)
	st.stop()
	if err != nil {
		return err
	}

	base, err := persistentReads(db)
	if err != nil {
		return fmt.Errorf("baseline: %w", err)
	}
	baseRate := float64(base) / concFor.Seconds()
	baseName := fmt.Sprintf("%.0f/s (one connection)", baseRate)
	for _, h := range []struct {
		name string
		n    hammered
	}{{"unchanged board", still}, {fmt.Sprintf("%d tasks added meanwhile", added), changing}} {
		rate := float64(h.n.ok) / concFor.Seconds()
		t.add(row{figure: fmt.Sprintf("`task ls`, %dk tasks, %d clients, %s", concTasks/1000, concClients, h.name),
			ours: fmt.Sprintf("%.0f req/s", rate), baseline: baseName,
			ratio: ratio(rate, baseRate), target: ">= 1,000 req/s", met: metString(rate >= 1000),
			note: fmt.Sprintf("%d answered, %d refused 503 (busy), %d failed in %s (load %s); baseline: the board's own query for pages at random cursors on one persistent connection in this process, back to back for %s, each page read into tasks", h.n.ok, h.n.busy, h.n.failed, concFor, loadAvg(), concFor)})
	}
	rate := float64(unkept.ok) / concFor.Seconds()
	t.add(row{figure: fmt.Sprintf("`task ls --limit 100`, %dk tasks, %d clients, pages at random cursors", concTasks/1000, concClients),
		ours: fmt.Sprintf("%.0f req/s", rate), baseline: baseName, ratio: ratio(rate, baseRate), target: "≥ 0.5× baseline", met: metString(rate >= 0.5*baseRate),
		note: fmt.Sprintf("%d answered, %d refused 503 (busy), %d failed in %s; each a page the station has not kept, so the board is read for nearly every answer; the baseline asks for the same pages", unkept.ok, unkept.busy, unkept.failed, concFor)})
	return nil
}

// addEvery adds a task to p0 every interval until ctx ends, and says how
// many it added.
func addEvery(ctx context.Context, st *station, interval time.Duration) int {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	n := 0
	for {
		select {
		case <-ctx.Done():
			return n
		case <-tick.C:
		}
		if _, err := st.c.AddTask(ctx, supervisor.NewTask{Project: "p0", Title: fmt.Sprint("added ", n+1)}); err == nil {
			n++
		}
	}
}

// newestShows adds a task and checks that the newest page, as `task ls`
// asks for it, starts with it: a kept answer must never hide a change.
func newestShows(st *station) error {
	ctx := context.Background()
	if _, _, err := st.c.TasksPage(ctx, supervisor.TaskFilter{Limit: 100, Newest: true}); err != nil {
		return fmt.Errorf("list the newest tasks: %w", err)
	}
	last, err := st.c.AddTask(ctx, supervisor.NewTask{Project: "p0", Title: "the last"})
	if err != nil {
		return fmt.Errorf("add a task: %w", err)
	}
	page, _, err := st.c.TasksPage(ctx, supervisor.TaskFilter{Limit: 100, Newest: true})
	if err != nil {
		return fmt.Errorf("list the newest tasks: %w", err)
	}
	if len(page) == 0 || page[0].ID != last.ID {
		return fmt.Errorf("the newest page does not start with the task just added (%s): a kept answer hid a change", last.ID)
	}
	return nil
}

// hammer runs fn in concClients goroutines for concFor, and beside (if not
// nil) in one more.
func hammer(fn func(context.Context), beside func(context.Context)) {
	ctx, cancel := context.WithTimeout(context.Background(), concFor)
	defer cancel()
	var wg sync.WaitGroup
	if beside != nil {
		wg.Go(func() { beside(ctx) })
	}
	for range concClients {
		wg.Go(func() { fn(ctx) })
	}
	wg.Wait()
}

// hammered counts a hammer's answers: ok, refused as busy (503), and
// failed.
type hammered struct{ ok, busy, failed int64 }

// hammerList has concClients clients GET url (a listing of the station's
// API, or one from next, if given, for each request) back to back for
// concFor, while beside (if not nil) runs alongside them.
func hammerList(url, token string, beside func(context.Context), next ...func() string) hammered {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concClients}, Timeout: 30 * time.Second}
	defer hc.CloseIdleConnections()
	var okN, busyN, failedN atomic.Int64
	run := func(ctx context.Context) {
		for ctx.Err() == nil {
			u := url
			if len(next) > 0 {
				u = next[0]()
			}
			req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := hc.Do(req)
			if err != nil {
				if ctx.Err() == nil {
					failedN.Add(1)
				}
				continue
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			switch resp.StatusCode {
			case http.StatusOK:
				okN.Add(1)
			case http.StatusServiceUnavailable:
				busyN.Add(1)
			default:
				failedN.Add(1)
			}
		}
	}
	progress("concurrent: %d clients for %s against the station", concClients, concFor)
	hammer(run, beside)
	return hammered{okN.Load(), busyN.Load(), failedN.Load()}
}

// persistentReads is the baseline: the board opened in this process (the
// store, as the station opens it) and one caller asking for pages at
// random cursors back to back for concFor, on its persistent connection;
// it counts the pages read.
func persistentReads(db string) (int64, error) {
	board, err := store.Open(db)
	if err != nil {
		return 0, err
	}
	defer board.Close()
	progress("concurrent: one persistent connection for %s on the same file", concFor)
	ctx, cancel := context.WithTimeout(context.Background(), concFor)
	defer cancel()
	var n int64
	for ctx.Err() == nil {
		f := supervisor.TaskFilter{Limit: 100, Newest: true, After: fmt.Sprintf("t%d", 200+rand.IntN(concTasks-200))}
		ts, err := board.Tasks(ctx, f)
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			return 0, err
		}
		if len(ts) != 100 {
			return 0, fmt.Errorf("a page of %d tasks, want 100", len(ts))
		}
		n++
	}
	return n, nil
}
