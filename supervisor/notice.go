package supervisor

import (
	"context"
	"log/slog"
	"slices"
	"strings"
)

// NoticeKind says why the station wants a person's attention.
type NoticeKind string

// Notice is one desktop notification. SessionID is what a click opens.
type Notice struct {
	Kind      NoticeKind
	TaskID    string
	SessionID string
	Title     string
	Body      string
	// Ask is what the session asks, for a needs-permission notice whose
	// request a person can answer from it (Allow once / Deny, or an
	// answer); nil when the agent shows its own dialog.
	Ask *WaitingOn `json:",omitempty"`
	// Branch, on a finished notice, is the branch whose work waits to be
	// merged: the notice offers View diff and Merge, as the card does.
	Branch string `json:",omitempty"`
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

// NoticeBook remembers the notices still showing and says which of them an
// event ends: a notice is withdrawn when what it announced is over (a nudged
// session shows life again, a dialog was answered, a blocked task was
// requeued), so a person never acts on a stale one. It is fed the station's
// events in order by one goroutine (the tray's, or the station's own
// notifier); it is not safe for concurrent use.
type NoticeBook struct {
	open map[string]Notice // by noticeKey
}

func noticeKey(n Notice) string {
	return string(n.Kind) + "\x00" + n.SessionID + "\x00" + n.TaskID
}

// Finished is task id's finished notice still showing, if any: what a
// merge of its work, which no event names as such, ends (the tray checks
// the task's work and Ends it).
func (b *NoticeBook) Finished(taskID string) (Notice, bool) {
	for _, n := range b.open {
		if n.Kind == NoticeFinished && n.TaskID == taskID {
			return n, true
		}
	}
	return Notice{}, false
}

// End takes n out of the book: what it announced is over.
func (b *NoticeBook) End(n Notice) { delete(b.open, noticeKey(n)) }

// Over folds one event into the book and returns the notices it ends. A
// notice event is recorded; a newer notice of the same kind for the same
// session replaces the older one without ending it.
func (b *NoticeBook) Over(e Event) []Notice {
	if b.open == nil {
		b.open = map[string]Notice{}
	}
	var ended []Notice
	end := func(match func(Notice) bool) {
		for k, n := range b.open {
			if match(n) {
				ended = append(ended, n)
				delete(b.open, k)
			}
		}
	}
	switch {
	case e.Kind == EventNotice && e.Notice != nil:
		n := *e.Notice
		if n.Kind == NoticeBlock {
			// A block says what happened to the nudge and the dialog.
			end(func(o Notice) bool {
				return o.TaskID == n.TaskID && (o.Kind == NoticeNudge || o.Kind == NoticePermission)
			})
		}
		b.open[noticeKey(n)] = n
	case e.Kind == EventSession && e.Session != nil:
		s := *e.Session
		end(func(o Notice) bool {
			if o.SessionID != s.ID {
				return false
			}
			switch o.Kind {
			case NoticeNudge:
				return s.State != SessIdle && s.State != SessNudged
			case NoticePermission:
				return s.State != SessNeedsPermission
			}
			return false
		})
	case e.Kind == EventTask && e.Task != nil:
		t := *e.Task
		end(func(o Notice) bool {
			if o.TaskID != t.ID {
				return false
			}
			switch o.Kind {
			case NoticeBlock:
				return t.State != TaskBlocked
			case NoticeNudge, NoticePermission:
				return t.State != TaskWorking && t.State != TaskReview
			}
			return false
		})
	}
	slices.SortFunc(ended, func(a, b Notice) int { return strings.Compare(noticeKey(a), noticeKey(b)) })
	return ended
}

const (
	NoticeNudge      NoticeKind = "nudge"
	NoticeBlock      NoticeKind = "block"
	NoticePermission NoticeKind = "needs-permission"
	NoticeBreaker    NoticeKind = "breaker"
	NoticeBudget     NoticeKind = "budget" // a project's sessions cost its daily budget: its queue paused
	// NoticeFinished: a task's work reached Done (its agent completed, or
	// its review approved); it is not merged yet.
	NoticeFinished NoticeKind = "finished"
	// NoticeStation is the tray's own: its station stopped answering, or
	// answers again (the second replaces the first).
	NoticeStation NoticeKind = "station"
)
