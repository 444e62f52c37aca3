package app

import (
	"context"
	"log/slog"

	"github.com/buildstation/buildstation/supervisor"
)

// Station follows the station for a process with no windows (the tray
// process, app/tray): the same connection the windows use — dial,
// read the board, follow the event stream, redial — handing each snapshot
// and notice to the handlers on its own goroutine.
type Station struct{ c *conn }

// StationHandlers are called on Station.Run's goroutine; nil ones are
// skipped.
type StationHandlers struct {
	Snapshot func(Snapshot)
	Notice   func(supervisor.Notice)
	// NoticeOver is a notice whose state is over (the nudged session
	// printed again, the blocked task was requeued): withdraw it.
	NoticeOver func(supervisor.Notice)
}

// NewStation makes a Station; nothing is dialled until Run.
func NewStation(connect Connect, log *slog.Logger) *Station {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Station{c: newConn(connect, log)}
}

// Run follows the station until ctx ends.
func (s *Station) Run(ctx context.Context, h StationHandlers) {
	s.c.onSnap = func(Snapshot) {}
	if h.Snapshot != nil {
		s.c.onSnap = h.Snapshot
	}
	s.c.onNotice = h.Notice
	s.c.onNoticeOver = h.NoticeOver
	s.c.Run(ctx)
}

// Client is the station's client now, or nil while disconnected; it may
// be called from any goroutine.
func (s *Station) Client() Client { return s.c.Client() }

// Refresh asks for a full re-read (or a redial) soon; it never blocks.
func (s *Station) Refresh() { s.c.Refresh() }
