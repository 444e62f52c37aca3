package guard

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// message is one line of the station's feed (JSON).
type message struct {
	Op      string   `json:"op"` // "watch", "unwatch", "deadline", "stop"
	Session *Session `json:"session,omitempty"`
	ID      string   `json:"id,omitempty"`
	// In is the deadline as a duration from when the guard reads the line
	// (nanoseconds); Until the same deadline by the wall clock (Unix
	// nanoseconds).
	In    time.Duration `json:"in,omitempty"`
	Until int64         `json:"until,omitempty"`
}

// Options wires Run to its edges.
type Options struct {
	Log *slog.Logger
	// End ends one session's whole process tree.
	End func(Session) error
	// EndWindow removes a session's tmux window, after End, when the
	// station has died; nil: windows are left.
	EndWindow func(Session) error
	// TakenOver reports whether another station holds the home now; it
	// is asked once the fed station is gone and its deadline has passed.
	TakenOver func() bool
	// Poll is how often the guard looks at its clocks: a timer on the
	// monotonic clock alone would sleep through a wall clock that jumped
	// when the machine slept.
	Poll time.Duration
}

// Run reads the station's feed from in and carries out next's decisions
// until the station stops it, its feed closes and there is nothing left to
// guard, or ctx ends (a signal to the guard: it leaves everything be).
func Run(ctx context.Context, in io.Reader, o Options) error {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Poll <= 0 {
		o.Poll = 50 * time.Millisecond
	}
	r := &runner{o: o, msgs: make(chan message)}
	go r.readFeed(ctx, in, r.msgs)
	tick := time.NewTicker(o.Poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m, open := <-r.msgs:
			if in, ok := r.receive(m, open); ok && r.apply(in) {
				return nil
			}
		case <-tick.C:
			if r.onTick() {
				return nil
			}
		}
	}
}

// runner is Run's state: the decision state and the feed it reads.
type runner struct {
	o    Options
	s    state
	msgs chan message // nil once the feed has closed
}

// readFeed decodes the station's lines into out until the feed ends, then
// closes it.
func (r *runner) readFeed(ctx context.Context, in io.Reader, out chan<- message) {
	defer close(out)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var m message
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			r.o.Log.Warn("fence guard: a line it cannot read from the station", "err", err)
			continue
		}
		select {
		case out <- m:
		case <-ctx.Done():
			return
		}
	}
}

// apply feeds one input to next and carries out its effects; it reports
// whether the guard is done.
func (r *runner) apply(in input) bool {
	in.at, in.wall = time.Now(), time.Now().Round(0)
	var effs []effect
	proven := !r.s.deadline.IsZero()
	r.s, effs = next(r.s, in)
	if !proven && !r.s.deadline.IsZero() {
		// Said once per proof gained (at start, and after a fence): from
		// here on a station that dies or stalls has its sessions ended
		// when its proof runs out.
		r.o.Log.Info("fence guard: the station proved its leases; guarding its sessions", "sessions", len(r.s.sessions))
	}
	for _, e := range effs {
		switch e.kind {
		case effEnd:
			end(e.sessions, r.s.gone, r.o)
		case effExit:
			if in.kind == inTick && in.takenOver {
				r.o.Log.Info("fence guard: another station took this home over; leaving its sessions to it")
			}
			return true
		}
	}
	return false
}

// receive turns what the reader got into an input; ok is false for a line
// to skip.
func (r *runner) receive(m message, open bool) (input, bool) {
	if !open {
		r.msgs = nil
		return input{kind: inClosed}, true
	}
	in, err := decode(m)
	if err != nil {
		r.o.Log.Warn("fence guard: a line it cannot read from the station", "err", err)
		return in, false
	}
	return in, true
}

// onTick checks the deadline; it reports whether the guard is done.
func (r *runner) onTick() bool {
	if now := time.Now(); r.msgs != nil && r.s.due(now, now.Round(0)) && r.drain() {
		return true
	}
	in := input{kind: inTick}
	if now := time.Now(); r.s.gone && r.o.TakenOver != nil && r.s.due(now, now.Round(0)) {
		in.takenOver = r.o.TakenOver()
	}
	return r.apply(in)
}

// drain reads what the station has sent meanwhile before a deadline is
// acted on: a guard that was itself held up (a loaded or waking machine)
// may have a newer deadline waiting in its pipe. It reports whether the
// guard is done.
func (r *runner) drain() bool {
	quiet := time.NewTimer(r.o.Poll)
	defer quiet.Stop()
	for {
		select {
		case m, open := <-r.msgs:
			if in, ok := r.receive(m, open); ok && r.apply(in) {
				return true
			}
			if r.msgs == nil {
				return false
			}
		case <-quiet.C:
			return false
		}
	}
}

// decode turns a feed line into an input.
func decode(m message) (input, error) {
	switch m.Op {
	case "watch":
		if m.Session == nil || m.Session.ID == "" {
			return input{}, fmt.Errorf("watch without a session")
		}
		return input{kind: inWatch, session: *m.Session}, nil
	case "unwatch":
		return input{kind: inUnwatch, session: Session{ID: m.ID}}, nil
	case "deadline":
		in := input{kind: inDeadline, in: m.In}
		if m.Until != 0 {
			in.until = time.Unix(0, m.Until)
		}
		return in, nil
	case "stop":
		return input{kind: inStop}, nil
	}
	return input{}, fmt.Errorf("unknown op %q", m.Op)
}

// end writes each session's note, then ends them all at once: the margin
// before the lease can run out is short.
func end(sessions []Session, gone bool, o Options) {
	why := "the station stopped proving its leases (stopped, or stuck)"
	if gone {
		why = "the station died and no station took its home over"
	}
	var wg sync.WaitGroup
	for _, s := range sessions {
		o.Log.Warn("fence guard: "+why+"; ending its session before its lease can run out, so no other station runs the task twice",
			"session", s.ID, "pid", s.Leader)
		if s.Note != "" {
			if err := os.WriteFile(s.Note, []byte("fenced by the guard\n"), 0o600); err != nil && !os.IsNotExist(err) {
				o.Log.Warn("fence guard: note the fence", "session", s.ID, "dir", filepath.Dir(s.Note), "err", err)
			}
		}
		wg.Go(func() {
			if err := o.End(s); err != nil {
				o.Log.Error("fence guard: end session", "session", s.ID, "err", err)
			}
			if gone && s.Window != "" && o.EndWindow != nil {
				if err := o.EndWindow(s); err != nil {
					o.Log.Warn("fence guard: remove the session's window", "session", s.ID, "err", err)
				}
			}
		})
	}
	wg.Wait()
}
