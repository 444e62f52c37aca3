package app

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/buildstation/buildstation/supervisor"
	"github.com/buildstation/buildstation/supervisor/apitype"
)

// conn keeps the tray connected to the station: it dials, reads the board
// once, then follows the event stream, and dials again when the stream
// ends (the station stopped or restarted). It owns the station's state as
// it streams in; the UI gets copies (Snapshot) through onSnap.
type conn struct {
	connect  Connect
	log      *slog.Logger
	onSnap   func(Snapshot)          // called on conn's goroutine
	onNotice func(supervisor.Notice) // likewise
	// onNoticeOver is called, likewise, for a notice whose state is over
	// (book decides), so it can be withdrawn from the desktop.
	onNoticeOver func(supervisor.Notice)
	book         supervisor.NoticeBook     // owned by conn's goroutine
	refresh      chan struct{}             // ask for a full re-read
	coalesce     time.Duration             // how long a burst of events may gather before one snapshot
	retry        func(n int) time.Duration // wait before the nth redial

	mu     sync.Mutex
	client Client // nil while not connected
}

func newConn(connect Connect, log *slog.Logger) *conn {
	return &conn{
		connect:  connect,
		log:      log,
		refresh:  make(chan struct{}, 1),
		coalesce: 150 * time.Millisecond,
		retry: func(n int) time.Duration {
			return min(time.Second<<min(n, 4), 10*time.Second)
		},
	}
}

// Client is the station's client now, or nil while disconnected.
func (c *conn) Client() Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.client
}

func (c *conn) setClient(cl Client) {
	c.mu.Lock()
	c.client = cl
	c.mu.Unlock()
}

// Refresh asks for a full re-read soon; it never blocks.
func (c *conn) Refresh() {
	select {
	case c.refresh <- struct{}{}:
	default:
	}
}

// Run connects and follows the station until ctx ends. Redials wait
// longer each time (1 s up to 10 s): a poll of station.json is the only way
// to learn that a station came back, and it costs one stat and one
// connect attempt.
func (c *conn) Run(ctx context.Context) {
	first := true
	var stoppedAt time.Time
	for n := 0; ctx.Err() == nil; n++ {
		cl, err := c.connect(ctx, first)
		first = false
		if err == nil {
			n = 0
			c.setClient(cl)
			err = c.follow(ctx, cl)
			c.setClient(nil)
			if ctx.Err() != nil {
				return
			}
			stoppedAt = time.Now()
			c.log.Info("station connection ended", "err", err)
		}
		msg := "the station stopped"
		if err != nil {
			msg = err.Error()
		}
		c.onSnap(Snapshot{Connected: false, Err: msg, StoppedAt: stoppedAt})
		select {
		case <-ctx.Done():
			return
		case <-time.After(c.retry(n)):
		case <-c.refresh: // a person asked: try now
		}
	}
}

// state is the board as the stream tells it.
type state struct {
	// tasks holds every task of the live columns, and of the done ones
	// only the newest doneShown: a board's history grows without end, and
	// the tray must not read it all on every connect.
	tasks     map[string]supervisor.Task
	doneTotal int // done tasks on the board, from its counts and events since
	sessions  map[string]supervisor.SessionInfo
	projects  []supervisor.ProjectInfo
	// board is a shared board's link, nil on a station's own board.
	// While it is down, tasks, doneTotal and projects are the last ones
	// read: the board cannot say, and an empty dashboard would say
	// everything was gone.
	board *supervisor.BoardLink
	// sources are the [[sources]]' states, as status last said them.
	sources []supervisor.SourceState
	// warnings are the station's own, as status last said them.
	warnings []string
	// phone is the [phone] service's state, from status and EventPhone.
	phone *supervisor.PhoneLink
	// agentNames are the built-in agents the station can run, read once.
	agentNames []string
	// told counts each task's events since connecting (Snapshot.TaskEvents).
	told map[string]uint64
}

// boardDown reports whether a shared board is known not to answer.
func (s *state) boardDown() bool { return s.board != nil && !s.board.Reachable }

// setTask folds one task's new version into s: it keeps the done count
// and drops what the board does not show (cancelled tasks, done ones past
// the newest doneShown).
func (s *state) setTask(t supervisor.Task) {
	prev, known := s.tasks[t.ID]
	// Every task that is not done or cancelled is in s.tasks, so a done
	// task not there was done already (an old one, updated).
	if t.State == supervisor.TaskDone && known && prev.State != supervisor.TaskDone {
		s.doneTotal++
	}
	if t.State == supervisor.TaskCancelled {
		delete(s.tasks, t.ID)
		return
	}
	s.tasks[t.ID] = t
	if t.State == supervisor.TaskDone {
		s.trimDone()
	}
}

// trimDone keeps the newest doneShown done tasks.
func (s *state) trimDone() {
	var done []supervisor.Task
	for _, t := range s.tasks {
		if t.State == supervisor.TaskDone {
			done = append(done, t)
		}
	}
	if len(done) <= doneShown {
		return
	}
	slices.SortFunc(done, func(a, b supervisor.Task) int { return compareIDs(a.ID, b.ID) })
	for _, t := range done[:len(done)-doneShown] {
		delete(s.tasks, t.ID)
	}
}

func (s *state) snapshot() Snapshot {
	snap := Snapshot{Connected: true, Projects: slices.Clone(s.projects), DoneTotal: s.doneTotal, Sources: slices.Clone(s.sources), Warnings: slices.Clone(s.warnings), AgentNames: slices.Clone(s.agentNames)}
	if s.board != nil {
		b := *s.board
		snap.Board = &b
	}
	if s.phone != nil {
		p := *s.phone
		snap.Phone = &p
	}
	for _, t := range s.tasks {
		snap.Tasks = append(snap.Tasks, t)
		if n := s.told[t.ID]; n > 0 {
			if snap.TaskEvents == nil {
				snap.TaskEvents = map[string]uint64{}
			}
			snap.TaskEvents[t.ID] = n
		}
	}
	slices.SortFunc(snap.Tasks, func(a, b supervisor.Task) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return compareIDs(a.ID, b.ID)
	})
	for _, si := range s.sessions {
		snap.Sessions = append(snap.Sessions, si)
	}
	slices.SortFunc(snap.Sessions, func(a, b supervisor.SessionInfo) int { return compareIDs(a.ID, b.ID) })
	return snap
}

// compareIDs orders "t2" before "t10".
func compareIDs(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// readAll replaces s with the station's board: the board's counts, every
// task of the live columns and the newest done ones, not its history.
//
// A shared board that does not answer is no failure: the station still
// answers for its own sessions, so those are read, and the board's tasks
// and projects stay as last read until the board is back (an EventBoard
// says when).
func readAll(ctx context.Context, cl Client, s *state) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := cl.Status(ctx)
	if err != nil {
		return err
	}
	s.board = st.Board
	s.sources = st.Sources
	s.warnings = st.Warnings
	s.phone = st.Phone
	if s.agentNames == nil {
		// Only the empty board's hint and Add project show them: a
		// station that cannot say leaves them out.
		if names, err := cl.AgentNames(ctx); err == nil {
			s.agentNames = names
		}
	}
	if !s.boardDown() {
		err = readBoard(ctx, cl, s, st)
		if err == nil {
			return nil
		}
		if !unreachable(err) {
			return err
		}
		// The board went away between the reads: the station knows
		// since when, and keeps the rest.
		if st, serr := cl.Status(ctx); serr == nil && st.Board != nil && !st.Board.Reachable {
			s.board = st.Board
		} else {
			return err
		}
	}
	sessions, err := cl.Sessions(ctx)
	if err != nil {
		return err
	}
	s.setSessions(sessions)
	if s.tasks == nil {
		s.tasks = map[string]supervisor.Task{}
	}
	return nil
}

// readBoard reads what the board holds, tasks, sessions and projects, into
// s; s changes only when every read succeeded.
func readBoard(ctx context.Context, cl Client, s *state, st supervisor.Status) error {
	var tasks []supervisor.Task
	for _, col := range Columns {
		f := supervisor.TaskFilter{State: col}
		if col == supervisor.TaskDone {
			f.Newest, f.Limit = true, doneShown
		}
		ts, err := cl.Tasks(ctx, f)
		if err != nil {
			return err
		}
		tasks = append(tasks, ts...)
	}
	sessions, err := cl.Sessions(ctx)
	if err != nil {
		return err
	}
	projects, err := cl.Projects(ctx)
	if err != nil {
		return err
	}
	s.tasks = make(map[string]supervisor.Task, len(tasks))
	for _, t := range tasks {
		s.tasks[t.ID] = t
	}
	s.doneTotal = st.Tasks[supervisor.TaskDone]
	s.setSessions(sessions)
	s.projects = projects
	return nil
}

func (s *state) setSessions(sessions []supervisor.SessionInfo) {
	s.sessions = make(map[string]supervisor.SessionInfo, len(sessions))
	for _, si := range sessions {
		if si.State != supervisor.SessEnded {
			s.sessions[si.ID] = si
		}
	}
}

// unreachable reports whether the station refused a read because its
// shared board did not answer (503).
func unreachable(err error) bool {
	var ae *apitype.Error
	return errors.As(err, &ae) && ae.Status == http.StatusServiceUnavailable
}

// follow subscribes first and reads the board second, so nothing that
// happens in between is missed, then applies events until the stream
// ends. Bursts are coalesced into one snapshot.
func (c *conn) follow(ctx context.Context, cl Client) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events, err := cl.Events(ctx)
	if err != nil {
		return err
	}
	var s state
	if err := readAll(ctx, cl, &s); err != nil {
		return err
	}
	c.onSnap(s.snapshot())
	var flush <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-events:
			if !ok {
				return nil
			}
			if c.apply(ctx, cl, &s, e) && flush == nil {
				flush = time.After(c.coalesce)
			}
		case <-flush:
			flush = nil
			c.onSnap(s.snapshot())
		case <-c.refresh:
			if err := readAll(ctx, cl, &s); err != nil {
				return err
			}
			flush = nil
			c.onSnap(s.snapshot())
		}
	}
}

// mergedOver withdraws a done task's finished notice ("ready to merge")
// once its work is merged, wherever the merge was made (the diff window,
// the CLI): the task's event after a merge says only that its work
// changed, so the work is read, for a task with that notice showing only.
func (c *conn) mergedOver(ctx context.Context, cl Client, e supervisor.Event) {
	if e.Kind != supervisor.EventTask || e.Task == nil || e.Task.State != supervisor.TaskDone {
		return
	}
	n, ok := c.book.Finished(e.Task.ID)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if td, err := cl.Task(ctx, e.Task.ID); err == nil && td.Work != nil && td.Work.Merged != nil {
		c.book.End(n)
		c.onNoticeOver(n)
	}
}

// apply folds one event into s; it reports whether the windows need a new
// snapshot.
func (c *conn) apply(ctx context.Context, cl Client, s *state, e supervisor.Event) bool {
	if c.onNoticeOver != nil {
		for _, n := range c.book.Over(e) {
			c.onNoticeOver(n)
		}
		c.mergedOver(ctx, cl, e)
	}
	switch e.Kind {
	case supervisor.EventTask:
		if e.Task != nil {
			s.setTask(*e.Task)
			if s.told == nil {
				s.told = map[string]uint64{}
			}
			s.told[e.Task.ID]++
			return true
		}
	case supervisor.EventSession:
		if e.Session == nil {
			return false
		}
		if e.Session.State == supervisor.SessEnded {
			delete(s.sessions, e.Session.ID)
		} else {
			s.sessions[e.Session.ID] = *e.Session
		}
		return true
	case supervisor.EventNotice:
		if e.Notice != nil && c.onNotice != nil {
			c.onNotice(*e.Notice)
		}
	case supervisor.EventBoard:
		if e.Board == nil {
			return false
		}
		wasDown := s.boardDown()
		b := *e.Board
		s.board = &b
		if wasDown && b.Reachable {
			// What changed on the board meanwhile was not streamed.
			c.Refresh()
		}
		return true
	case supervisor.EventPhone:
		if e.Phone == nil {
			return false
		}
		p := *e.Phone
		s.phone = &p
		return true
	case supervisor.EventProject:
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if ps, err := cl.Projects(pctx); err == nil {
			s.projects = ps
			return true
		}
	}
	return false
}
