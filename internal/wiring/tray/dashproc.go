//go:build cgo

package tray

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"time"

	apptray "github.com/buildstation/buildstation/app/tray"
	"github.com/buildstation/buildstation/platform/childproc"
)

// The tray process shows no window itself: it starts this same program as
// `buildstation dashboard` (the dashboard process: a Fyne app with the
// dashboard and the consoles) when a window is wanted, and hands it what
// to show as one JSON request a line on its stdin. The dashboard process
// answers "ok" on its stdout once it took the request, and ends when its
// last window closes, or when its stdin ends (the tray quit). One tray
// per home starts at most one dashboard process at a time, so a home has
// one dashboard.

// childEnv marks the dashboard process the tray started: `buildstation
// dashboard` run by a person hands over to the tray instead.
const childEnv = "BUILDSTATION_DASHBOARD_CHILD"

// ackTimeout bounds the wait for the dashboard process to take a request:
// the first one waits for Fyne and OpenGL to start.
const ackTimeout = 30 * time.Second

// dashboards starts the dashboard process and hands it requests, in order,
// from one goroutine (Run).
type dashboards struct {
	self, home string
	log        *slog.Logger
	reqs       chan apptray.Request
	stopped    chan struct{} // closed when Run has ended its process
}

func newDashboards(self, home string, log *slog.Logger) *dashboards {
	return &dashboards{self: self, home: home, log: log, reqs: make(chan apptray.Request, 32), stopped: make(chan struct{})}
}

// Send queues r for the dashboard process; it never blocks.
func (w *dashboards) Send(r apptray.Request) {
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
					if p, err = w.start(); err != nil {
						w.log.Warn("start the dashboard", "err", err)
						break
					}
				}
				// macOS 14+: hand the tray's activation to the dashboard
				// before it shows what was asked (activation.go).
				yieldTo(p.cmd.Process.Pid)
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
	cmd  *exec.Cmd
	in   io.WriteCloser
	acks chan struct{}
	done chan struct{} // closed once it has exited
	log  *slog.Logger
}

func (w *dashboards) start() (*dashProc, error) {
	cmd := childproc.Command(w.self, "--home", w.home, "dashboard")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	logw, closeLog := logFile(w.home, "tray.log")
	cmd.Stderr = logw // Go copies it: the file may close once it started
	childAttrs(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		closeLog()
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		closeLog()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		closeLog()
		return nil, err
	}
	w.log.Info("started the dashboard", "pid", cmd.Process.Pid)
	p := &dashProc{cmd: cmd, in: in, acks: make(chan struct{}, 8), done: make(chan struct{}), log: w.log}
	go func() {
		s := bufio.NewScanner(out)
		for s.Scan() {
			if s.Text() == "ok" {
				p.acks <- struct{}{}
			}
		}
		// Every read is done: now Wait may close the pipe.
		err := cmd.Wait()
		closeLog()
		w.log.Info("the dashboard ended", "pid", cmd.Process.Pid, "err", err)
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
func (p *dashProc) deliver(r apptray.Request) bool {
	b, _ := json.Marshal(r)
	if _, err := p.in.Write(append(b, '\n')); err != nil {
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
		p.log.Warn("the dashboard did not take a request in time", "do", r.Do, "pid", p.cmd.Process.Pid)
		return true
	}
}

// end closes the process's stdin, which ends it, and waits a while before
// killing it.
func (p *dashProc) end() {
	if p == nil {
		return
	}
	p.in.Close()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}
