package guard

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"time"

	"github.com/buildstation/buildstation/platform/childproc"
)

// Verb is the hidden command that runs a guard: buildstation fence-guard.
const Verb = "fence-guard"

// Client is the station's end of its guard: it starts the guard process and
// feeds it. Its calls never wait on the guard (a guard stopped with the
// whole machine must not stop the station's heartbeat): lines go through a
// queue to a writer of its own. A guard that died is started again with
// what it must know.
type Client struct {
	log   *slog.Logger
	argv  []string
	mu    sync.Mutex
	cond  *sync.Cond
	queue []message
	// What a new guard is told: the live sessions and the deadline.
	sessions map[string]Session
	deadline time.Time // monotonic
	until    time.Time // wall
	closed   bool
	cmd      *exec.Cmd
	w        io.WriteCloser
	exited   chan struct{}
	done     chan struct{} // the writer has stopped
}

// Start starts a guard for the station of home (this process): self is the
// buildstation executable, grace how long a session's agent has between
// the polite signal and the kill.
func Start(self, home string, grace time.Duration, log *slog.Logger) (*Client, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Client{log: log, sessions: map[string]Session{}, done: make(chan struct{}),
		argv: []string{self, "--home", home, Verb, "--station-pid", strconv.Itoa(os.Getpid()), "--grace", grace.String()}}
	c.cond = sync.NewCond(&c.mu)
	if err := c.spawn(); err != nil {
		return nil, err
	}
	go c.write()
	return c, nil
}

// spawn starts the guard process; c.mu is held or c not yet shared.
func (c *Client) spawn() error {
	cmd := childproc.Command(c.argv[0], c.argv[1:]...)
	detach(cmd)
	w, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("start the fence guard: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the fence guard: %w", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	c.cmd, c.w, c.exited = cmd, w, exited
	c.log.Info("fence guard started", "pid", cmd.Process.Pid)
	return nil
}

// Watch tells the guard of a session that started (or was adopted), or
// that is starting (pid 0): pid is its agent's process, marker its
// environment entry, window its tmux window's handle ("" for pty), note
// the file the guard writes before it ends it. Watching an id again
// replaces what the guard knew of it.
func (c *Client) Watch(id string, pid int, marker, window, note string) {
	s := Session{ID: id, Leader: pid, Marker: marker, Window: window, Note: note}
	if pid > 0 {
		s.Ident = Ident(pid)
	}
	c.mu.Lock()
	c.sessions[id] = s
	c.enqueue(message{Op: "watch", Session: &s})
	c.mu.Unlock()
}

// Unwatch tells the guard a session ended.
func (c *Client) Unwatch(id string) {
	c.mu.Lock()
	delete(c.sessions, id)
	c.enqueue(message{Op: "unwatch", ID: id})
	c.mu.Unlock()
}

// Deadline tells the guard the station's agents must be gone within in
// (monotonic) and by until (wall clock) unless it is told again.
func (c *Client) Deadline(in time.Duration, until time.Time) {
	c.mu.Lock()
	c.deadline, c.until = time.Now().Add(in), until
	c.enqueue(message{Op: "deadline", In: in, Until: until.UnixNano()})
	c.mu.Unlock()
}

// Close tells the guard the station exits normally, and waits a moment for
// it to go.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.enqueue(message{Op: "stop"})
	c.closed = true
	c.cond.Broadcast()
	c.mu.Unlock()
	<-c.done
	c.mu.Lock()
	exited := c.exited
	c.mu.Unlock()
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		return fmt.Errorf("the fence guard did not stop within 5s")
	}
	return nil
}

func (c *Client) enqueue(m message) {
	if c.closed {
		return
	}
	c.queue = append(c.queue, m)
	c.cond.Signal()
}

// write sends the queue to the guard, in order, until Close.
func (c *Client) write() {
	defer close(c.done)
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for len(c.queue) == 0 && !c.closed {
			c.cond.Wait()
		}
		if len(c.queue) == 0 && c.closed {
			_ = c.w.Close()
			return
		}
		batch := c.queue
		c.queue = nil
		w := c.w
		c.mu.Unlock()
		err := send(w, batch)
		c.mu.Lock()
		if err == nil {
			continue
		}
		if c.closed {
			return
		}
		// The guard died (killed by someone, or crashed): start another
		// and tell it what this one knew. Its own record is now, so the
		// queue's lines are in it already.
		c.log.Warn("the fence guard is gone; starting it again", "err", err)
		_ = c.w.Close()
		if err := c.spawn(); err != nil {
			c.log.Error("start the fence guard again", "err", err)
			continue
		}
		c.queue = c.replay()
	}
}

// replay is what a new guard must be told; c.mu is held.
func (c *Client) replay() []message {
	var out []message
	for _, s := range c.sessions {
		out = append(out, message{Op: "watch", Session: &s})
	}
	if !c.deadline.IsZero() {
		out = append(out, message{Op: "deadline", In: max(time.Until(c.deadline), 0), Until: c.until.UnixNano()})
	}
	return out
}

func send(w io.Writer, batch []message) error {
	var buf []byte
	for _, m := range batch {
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		buf = append(append(buf, b...), '\n')
	}
	_, err := w.Write(buf)
	return err
}
