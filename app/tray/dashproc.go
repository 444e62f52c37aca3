package tray

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"time"
)

// The tray process shows no window itself: it starts this same program as
// `buildstation dashboard` (the dashboard process: a Fyne app with the
// dashboard and the consoles, RunDashboard) when a window is wanted, and
// hands it what to show as one JSON request a line on its stdin. The
// dashboard process answers "ok" on its stdout once it took the request,
// and ends when its last window closes, or when its stdin ends (the tray
// quit). One tray per home starts at most one dashboard process at a
// time, so a home has one dashboard.

// ackTimeout bounds the wait for the dashboard process to take a request:
// the first one waits for Fyne and OpenGL to start.
const ackTimeout = 30 * time.Second

// Process is one dashboard process as the tray drives it. The wiring
// starts it (internal/wiring/tray); the tray writes requests to In and
// reads what it took from Out.
type Process struct {
	Pid int
	// In is its stdin: a Request a line; closing it ends the process.
	In io.WriteCloser
	// Out is its stdout: "ok" a line for each request it took.
	Out io.Reader
	// Wait waits for it to exit, once Out has been read to its end.
	Wait func() error
	// Kill ends it at once.
	Kill func() error
}

// Dashboards is the dashboard process the tray hands what to show: start
// starts one when a request finds none (or finds it closing), yield
// (nil: none) hands the tray's activation to it before each request
// (macOS 14's cooperative activation, platform/desktop.YieldTo).
func Dashboards(start func() (*Process, error), yield func(pid int), log *slog.Logger) Dashboard {
	if yield == nil {
		yield = func(int) {}
	}
	return &dashboards{start: start, yield: yield, log: log, reqs: make(chan Request, 32), stopped: make(chan struct{})}
}

// dashboards starts the dashboard process and hands it requests, in order,
// from one goroutine (Run).
type dashboards struct {
	start   func() (*Process, error)
	yield   func(pid int)
	log     *slog.Logger
	reqs    chan Request
	stopped chan struct{} // closed when Run has ended its process
}

// Send queues r for the dashboard process; it never blocks.
func (w *dashboards) Send(r Request) {
	select {
	case w.reqs <- r:
	default:
		w.log.Warn("dashboard requests are piling up; dropped one", "do", r.Do, "id", r.ID)
	}
}

// Run delivers requests until ctx ends, then ends the dashboard process.
func (w *dashboards) Run(ctx context.Context) {
	defer close(w.stopped)
	var p *dashProc
	defer func() { p.end() }()
	for {
		select {
		case <-ctx.Done():
			return
		case r := <-w.reqs:
			// A process that is closing its last window takes nothing
			// more: a second try starts a new one.
			for try := 0; try < 2; try++ {
				if p == nil || p.gone() {
					var err error
					if p, err = w.startOne(); err != nil {
						w.log.Warn("start the dashboard", "err", err)
						break
					}
				}
				// macOS 14+: hand the tray's activation to the dashboard
				// before it shows what was asked.
				w.yield(p.Pid)
				if p.deliver(r) {
					break
				}
				p.end()
				p = nil
			}
		}
	}
}

// Close waits (a while) for run to end the dashboard process.
func (w *dashboards) Close() {
	select {
	case <-w.stopped:
	case <-time.After(10 * time.Second):
	}
}

// dashProc is one dashboard process.
type dashProc struct {
	*Process
	acks chan struct{}
	done chan struct{} // closed once it has exited
	log  *slog.Logger
}

func (w *dashboards) startOne() (*dashProc, error) {
	proc, err := w.start()
	if err != nil {
		return nil, err
	}
	w.log.Info("started the dashboard", "pid", proc.Pid)
	p := &dashProc{Process: proc, acks: make(chan struct{}, 8), done: make(chan struct{}), log: w.log}
	go func() {
		s := bufio.NewScanner(proc.Out)
		for s.Scan() {
			if s.Text() == "ok" {
				p.acks <- struct{}{}
			}
		}
		// Every read is done: now Wait may close the pipe.
		err := proc.Wait()
		w.log.Info("the dashboard ended", "pid", proc.Pid, "err", err)
		close(p.done)
	}()
	return p, nil
}

func (p *dashProc) gone() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// deliver writes r and waits for the process to take it; false means it
// ended instead (it was closing).
func (p *dashProc) deliver(r Request) bool {
	b, _ := json.Marshal(r)
	if _, err := p.In.Write(append(b, '\n')); err != nil {
		<-p.done
		return false
	}
	select {
	case <-p.acks:
		return true
	case <-p.done:
		return false
	case <-time.After(ackTimeout):
		// Still starting, or wedged: another one would not help.
		p.log.Warn("the dashboard did not take a request in time", "do", r.Do, "pid", p.Pid)
		return true
	}
}

// end closes the process's stdin, which ends it, and waits a while before
// killing it.
func (p *dashProc) end() {
	if p == nil {
		return
	}
	p.In.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.Kill()
		<-p.done
	}
}

// takeRequests is the dashboard process's end of the pipe: it reads
// requests from in until it ends, hands each to show, and answers "ok" on
// out for each one show took. A request show refuses (the process is
// closing) ends the reading: the tray starts another process for it.
func takeRequests(in io.Reader, out io.Writer, log *slog.Logger, show func(Request) bool) {
	s := bufio.NewScanner(in)
	for s.Scan() {
		var r Request
		if err := json.Unmarshal(s.Bytes(), &r); err != nil {
			log.Warn("a request the dashboard cannot read", "line", s.Text(), "err", err)
			fmt.Fprintln(out, "ok") // answered: retrying would not help
			continue
		}
		if !show(r) {
			return
		}
		log.Info("shown", "do", r.Do, "id", r.ID)
		fmt.Fprintln(out, "ok")
	}
}
