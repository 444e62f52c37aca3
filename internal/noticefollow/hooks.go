package noticefollow

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/buildstation/buildstation/internal/textsafe"
	"github.com/buildstation/buildstation/platform/childproc"
	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// The events a hook can be run for ([hooks] on_<event>).
const (
	EventNudge      = "nudge"
	EventBlock      = "block"
	EventPermission = "permission"
	EventDone       = "done"
)

// HookEvent is what a hook reads on stdin, one JSON object. Its field names
// are part of the contract (docs/contract.md, "Changes").
type HookEvent struct {
	Event     string           `json:"event"` // nudge, block, permission, done
	At        time.Time        `json:"at"`
	TaskID    string           `json:"task_id"`
	SessionID string           `json:"session_id,omitempty"`
	Project   string           `json:"project,omitempty"`
	Title     string           `json:"title"`             // the notice's title, or the done task's title
	Message   string           `json:"message,omitempty"` // the notice's text, or the done task's summary
	Task      *supervisor.Task `json:"task,omitempty"`    // the task as the station last saw it
}

// EnvEvent names the event in a hook's environment too, for a hook that
// only wants to branch on it.
const EnvEvent = "BUILDSTATION_EVENT"

func hookName(k supervisor.NoticeKind) (string, bool) {
	switch k {
	case supervisor.NoticeNudge:
		return EventNudge, true
	case supervisor.NoticeBlock:
		return EventBlock, true
	case supervisor.NoticePermission:
		return EventPermission, true
	}
	return "", false
}

// maxHooks bounds the hooks running at once; past it an event's hook is
// skipped and logged, so a hook that hangs cannot pile up processes.
const maxHooks = 8

// safe is e with every text sanitized, the task's own fields too: text
// from agents and boards reaches chats, phones and terminals, so it carries
// no escape sequence (one sets a terminal's title or clipboard), and a
// title or a name no line break. JSON takes care of the rest.
func (e HookEvent) safe() HookEvent {
	e.TaskID, e.SessionID, e.Project = textsafe.Line(e.TaskID), textsafe.Line(e.SessionID), textsafe.Line(e.Project)
	e.Title, e.Message = textsafe.Line(e.Title), textsafe.Printable(e.Message)
	if e.Task != nil {
		t := *e.Task
		t.ID, t.Project, t.Title, t.Pinned = textsafe.Line(t.ID), textsafe.Line(t.Project), textsafe.Line(t.Title), textsafe.Line(t.Pinned)
		t.Body, t.Reason, t.Summary = textsafe.Printable(t.Body), textsafe.Printable(t.Reason), textsafe.Printable(t.Summary)
		t.Notes = make([]string, len(e.Task.Notes))
		for i, n := range e.Task.Notes {
			t.Notes[i] = textsafe.Printable(n)
		}
		e.Task = &t
	}
	return e
}

// runner starts hooks, each on a goroutine of its own.
type runner struct {
	ctx    context.Context
	cancel context.CancelFunc
	log    *slog.Logger
	slots  chan struct{}
	wg     sync.WaitGroup
}

func newRunner(ctx context.Context, log *slog.Logger) *runner {
	ctx, cancel := context.WithCancel(ctx)
	return &runner{ctx: ctx, cancel: cancel, log: log, slots: make(chan struct{}, maxHooks)}
}

// run starts argv with e on stdin; it never waits for the hook.
func (r *runner) run(e HookEvent, argv []string, timeout time.Duration) {
	select {
	case r.slots <- struct{}{}:
	default:
		r.log.Warn("hook skipped: too many hooks still running", "event", e.Event, "task", e.TaskID, "hook", argv[0], "running", maxHooks)
		return
	}
	payload, err := json.Marshal(e.safe())
	if err != nil {
		<-r.slots
		r.log.Error("encode a hook's event", "event", e.Event, "err", err)
		return
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer func() { <-r.slots }()
		r.exec(e, argv, payload, timeout)
	}()
}

func (r *runner) exec(e HookEvent, argv []string, payload []byte, timeout time.Duration) {
	if timeout <= 0 {
		timeout = config.DefaultHookTimeout
	}
	ctx, cancel := context.WithTimeout(r.ctx, timeout)
	defer cancel()
	cmd := childproc.CommandContext(ctx, argv[0], argv[1:]...)
	ownGroup(cmd)
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Env = append(os.Environ(), EnvEvent+"="+e.Event)
	var out tail
	cmd.Stdout, cmd.Stderr = &out, &out
	// A child the hook left behind may hold its output open; stop reading
	// then rather than wait for it.
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start).Round(time.Millisecond)
	attrs := []any{"event", e.Event, "task", e.TaskID, "hook", argv[0], "took", took}
	switch {
	case err == nil:
		r.log.Info("hook ran", attrs...)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.log.Warn(fmt.Sprintf("hook killed after its timeout of %s; raise [hooks] timeout or make the hook return sooner", timeout), append(attrs, "output", out.String())...)
	case r.ctx.Err() != nil:
		r.log.Warn("hook killed: the station is stopping", append(attrs, "output", out.String())...)
	default:
		r.log.Warn("hook failed", append(attrs, "err", err, "output", out.String())...)
	}
}

// stop waits up to grace for running hooks, then kills the rest.
func (r *runner) stop(grace time.Duration) {
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		r.cancel()
		<-done
	}
	r.cancel()
}

// tail keeps the last maxTail bytes a hook printed, for the log.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const maxTail = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > maxTail {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-maxTail:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return textsafe.Printable(string(bytes.TrimSpace(t.buf)))
}
