package supervisor

import (
	"context"
	"log/slog"
)

// NoticeKind says why the station wants a person's attention.
type NoticeKind string

const (
	NoticeNudge      NoticeKind = "nudge"
	NoticeBlock      NoticeKind = "block"
	NoticePermission NoticeKind = "needs-permission"
	NoticeBreaker    NoticeKind = "breaker"
)

// Notice is one desktop notification. SessionID is what a click opens.
type Notice struct {
	Kind      NoticeKind
	TaskID    string
	SessionID string
	Title     string
	Body      string
}

// Notifier shows notices to a person. The station calls it from session
// goroutines, so an implementation must not block for long.
type Notifier interface {
	Notify(ctx context.Context, n Notice)
}

// LogNotifier writes notices to the station log; the headless default.
type LogNotifier struct{ Log *slog.Logger }

func (l LogNotifier) Notify(ctx context.Context, n Notice) {
	l.Log.LogAttrs(ctx, slog.LevelWarn, "notify",
		slog.String("kind", string(n.Kind)), slog.String("task", n.TaskID),
		slog.String("session", n.SessionID), slog.String("title", n.Title), slog.String("body", n.Body))
}
