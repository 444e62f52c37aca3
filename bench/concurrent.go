//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

const (
	concClients = 100
	concFor     = 5 * time.Second
	concTasks   = 10_000
)

// benchConcurrent is requests/s for a bare `task ls` (the newest 100: GET
// /v1/tasks?limit=100&order=newest) from 100 concurrent clients against a station on a
// board of 10,000 tasks. The baseline is the same query run by the sqlite3
// shell on the same file, 100 at a time, in the same run: what the file
// itself allows many processes.
func benchConcurrent(t *table) error {
	if _, err := exec.LookPath("sqlite3"); err != nil {
		return fmt.Errorf("concurrent reads need the sqlite3 shell for the baseline (apt-get install -y sqlite3)")
	}
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
	st, err := startStation(home)
	if err != nil {
		return err
	}
	ok, busy, failed := hammerList(st.c.BaseURL, st.c.Token)
	st.stop()
	oursRate := float64(ok) / concFor.Seconds()

	base := hammerSQLite(db)
	baseRate := float64(base) / concFor.Seconds()
	t.add(row{figure: fmt.Sprintf("`task ls`, %dk tasks, %d clients", concTasks/1000, concClients),
		ours: fmt.Sprintf("%.0f req/s", oursRate), baseline: fmt.Sprintf("%.0f/s (sqlite3)", baseRate),
		ratio: ratio(oursRate, baseRate), target: ">= 1,000 req/s", met: metString(oursRate >= 1000),
		note: fmt.Sprintf("%d answered, %d refused 503 (busy), %d failed in %s; baseline: the same SELECT by %d concurrent sqlite3 shells on the same file", ok, busy, failed, concFor, concClients)})
	return nil
}

// hammer runs fn in concClients goroutines for concFor.
func hammer(fn func(context.Context)) {
	ctx, cancel := context.WithTimeout(context.Background(), concFor)
	defer cancel()
	var wg sync.WaitGroup
	for range concClients {
		wg.Go(func() { fn(ctx) })
	}
	wg.Wait()
}

// hammerList has concClients clients list the newest 100 tasks from the station's API
// at url, back to back for concFor, and counts its answers: ok, refused
// as busy (503), and failed.
func hammerList(url, token string) (ok, busy, failed int64) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concClients}, Timeout: 30 * time.Second}
	var okN, busyN, failedN atomic.Int64
	run := func(ctx context.Context) {
		for ctx.Err() == nil {
			req, _ := http.NewRequestWithContext(ctx, "GET", url+"/v1/tasks?limit=100&order=newest", nil)
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
	hammer(run)
	return okN.Load(), busyN.Load(), failedN.Load()
}

// hammerSQLite is the baseline: concClients sqlite3 shells run the same
// SELECT on the board's file, back to back for concFor; it counts the
// queries that completed.
func hammerSQLite(db string) int64 {
	var base atomic.Int64
	query := "SELECT id, project, title, body, state, attempt, reason, summary, notes, created_at, updated_at FROM tasks ORDER BY id LIMIT 100"
	progress("concurrent: %d sqlite3 shells for %s on the same file", concClients, concFor)
	hammer(func(ctx context.Context) {
		for ctx.Err() == nil {
			c := exec.CommandContext(ctx, "sqlite3", "-readonly", db, query)
			if err := c.Run(); err == nil && ctx.Err() == nil {
				base.Add(1)
			}
		}
	})
	return base.Load()
}
