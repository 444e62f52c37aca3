package noticefollow

import (
	"context"
	"log/slog"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/config"
)

// Desktop shows notices on this desktop (platform/notifier's Notifier).
type Desktop interface {
	Notify(supervisor.Notice) error
	Withdraw(supervisor.Notice) error
	Close() error
}

// Options are what Follow needs from the station.
type Options struct {
	// Hooks returns the [hooks] in force now (the config may change while
	// the station runs).
	Hooks func() config.Hooks
	// Desktop opens the desktop's notifier the first time a notice needs
	// one; nil, or an error, means none (a headless box).
	Desktop func() (Desktop, error)
	// TrayShows reports whether a tray is connected and shows the notices
	// itself; then the station shows none, so none is shown twice.
	TrayShows func() bool
	Log       *slog.Logger
	// Now is the clock events are stamped with when they carry no time.
	Now func() time.Time
}

// Follow handles events until the channel closes or ctx ends, then gives
// running hooks a short grace to finish before killing them.
func Follow(ctx context.Context, events <-chan supervisor.Event, o Options) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	hooks := newRunner(context.WithoutCancel(ctx), o.Log)
	defer hooks.stop(hookGrace)
	f := follower{o: o, hooks: hooks, shown: map[string]bool{}, done: map[string]bool{}}
	defer f.close()
	for {
		select {
		case <-ctx.Done():
			return
		case e, ok := <-events:
			if !ok {
				return
			}
			f.handle(e)
		}
	}
}

// hookGrace is how long a stopping station waits for running hooks.
const hookGrace = 5 * time.Second

// follower is Follow's state, owned by its goroutine.
type follower struct {
	o       Options
	hooks   *runner
	book    supervisor.NoticeBook
	tasks   map[string]supervisor.Task // last seen, for a notice's project
	shown   map[string]bool            // notices this station put on the desktop, by key
	done    map[string]bool            // tasks whose on_done ran
	desktop Desktop
	tried   bool // Desktop was called
}

func (f *follower) handle(e supervisor.Event) {
	if e.At.IsZero() {
		e.At = f.o.Now()
	}
	for _, n := range f.book.Over(e) {
		f.withdraw(n)
	}
	switch {
	case e.Kind == supervisor.EventTask && e.Task != nil:
		t := *e.Task
		if f.tasks == nil {
			f.tasks = map[string]supervisor.Task{}
		}
		f.tasks[t.ID] = t
		if t.State == supervisor.TaskDone && !f.done[t.ID] {
			f.done[t.ID] = true
			f.hook(HookEvent{Event: EventDone, At: e.At, TaskID: t.ID, Project: t.Project, Title: t.Title, Message: t.Summary, Task: &t})
		} else if t.State != supervisor.TaskDone {
			delete(f.done, t.ID) // requeued after done: a second landing is news again
		}
	case e.Kind == supervisor.EventNotice && e.Notice != nil:
		n := *e.Notice
		if name, ok := hookName(n.Kind); ok {
			he := HookEvent{Event: name, At: e.At, TaskID: n.TaskID, SessionID: n.SessionID, Title: n.Title, Message: n.Body}
			if t, ok := f.tasks[n.TaskID]; ok {
				he.Project, he.Task = t.Project, &t
			}
			f.hook(he)
		}
		f.show(n)
	}
}

// show puts a notice on the desktop unless a tray shows it.
func (f *follower) show(n supervisor.Notice) {
	if f.o.TrayShows != nil && f.o.TrayShows() {
		return
	}
	d := f.openDesktop()
	if d == nil {
		return
	}
	if err := d.Notify(n); err != nil {
		f.o.Log.Warn("show a notification", "kind", n.Kind, "task", n.TaskID, "err", err)
		return
	}
	f.shown[key(n)] = true
}

// withdraw takes back a notice this station showed.
func (f *follower) withdraw(n supervisor.Notice) {
	if !f.shown[key(n)] || f.desktop == nil {
		return
	}
	delete(f.shown, key(n))
	if err := f.desktop.Withdraw(n); err != nil {
		f.o.Log.Warn("withdraw a notification", "kind", n.Kind, "task", n.TaskID, "err", err)
	}
}

// openDesktop opens the desktop's notifier once; a box without one says so
// once in the log.
func (f *follower) openDesktop() Desktop {
	if f.tried {
		return f.desktop
	}
	f.tried = true
	if f.o.Desktop == nil {
		return nil
	}
	d, err := f.o.Desktop()
	if err != nil {
		f.o.Log.Info("desktop notifications are off: notices go to the log and [hooks]", "why", err)
		return nil
	}
	f.desktop = d
	return d
}

func (f *follower) close() {
	if f.desktop != nil {
		f.desktop.Close()
	}
}

func (f *follower) hook(e HookEvent) {
	if f.o.Hooks == nil {
		return
	}
	h := f.o.Hooks()
	argv := h.For(e.Event)
	if len(argv) == 0 {
		return
	}
	f.hooks.run(e, argv, h.Timeout)
}

func key(n supervisor.Notice) string {
	return string(n.Kind) + "\x00" + n.SessionID + "\x00" + n.TaskID
}
