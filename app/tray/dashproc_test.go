package tray

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"
)

// pipeProcess is a dashboard process in this test's own process: the
// dashboard's end of the pipe (takeRequests) on a pair of pipes, showing
// what show takes.
func pipeProcess(pid int, show func(pid int, r Request) bool) *Process {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		takeRequests(inR, outW, slog.New(slog.DiscardHandler), func(r Request) bool { return show(pid, r) })
		inR.Close() // the process ended: what the tray writes now fails
		outW.Close()
	}()
	return &Process{
		Pid: pid, In: inW, Out: outR,
		Wait: func() error { <-done; return nil },
		Kill: func() error { inR.Close(); return nil },
	}
}

// The tray hands each request to the dashboard process in order, waiting
// for its "ok"; a process closing its last window refuses the request,
// and the tray starts another one for it. When the tray quits, the
// process's stdin closes and it ends.
func TestDashboardsStartAnotherProcessForARefusedRequest(t *testing.T) {
	type shown struct {
		pid int
		do  string
	}
	var mu sync.Mutex
	var got []shown
	var yielded []int
	took := make(chan struct{}, 8)
	var procs []*Process
	start := func() (*Process, error) {
		p := pipeProcess(len(procs)+1, func(pid int, r Request) bool {
			if pid == 1 && r.Do == DoSettings {
				return false // its last window is closing
			}
			mu.Lock()
			got = append(got, shown{pid, r.Do})
			mu.Unlock()
			took <- struct{}{}
			return true
		})
		procs = append(procs, p)
		return p, nil
	}
	d := Dashboards(start, func(pid int) { mu.Lock(); yielded = append(yielded, pid); mu.Unlock() }, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { d.Run(ctx); close(ran) }()
	for _, do := range []string{DoDashboard, DoSettings, DoAddTask} {
		d.Send(Request{Do: do})
		select {
		case <-took:
		case <-time.After(10 * time.Second):
			t.Fatalf("the dashboard process did not show %s", do)
		}
	}
	cancel()
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not end its process after the tray quit")
	}
	d.Close()
	mu.Lock()
	defer mu.Unlock()
	if want := []shown{{1, DoDashboard}, {2, DoSettings}, {2, DoAddTask}}; !slices.Equal(got, want) {
		t.Errorf("shown %v, want %v", got, want)
	}
	if want := []int{1, 1, 2, 2}; !slices.Equal(yielded, want) {
		t.Errorf("activation yielded to %v, want %v", yielded, want)
	}
	if len(procs) != 2 {
		t.Errorf("%d dashboard processes started, want 2", len(procs))
	}
	for _, p := range procs {
		if _, err := p.In.Write([]byte("{}\n")); err == nil {
			t.Errorf("process %d still reads requests after the tray quit", p.Pid)
		}
	}
}
