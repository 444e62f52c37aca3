package supervisor

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
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

// A notice says in plain words what happened; the watchdog's full reason,
// with every layer's evidence and the windows' names, stays on the card.

// nudgeNotice is the nudge notice's text, once the nudge is typed (which
// notes when the silence began and the line then on screen).
func (s *session) nudgeNotice(now time.Time) string {
	from := s.silentSince
	if from.IsZero() {
		from = s.lastLife()
	}
	return fmt.Sprintf("Silent %s, so it was nudged; blocked in %s without a sign of life%s",
		spoken(now.Sub(from)), spoken(s.spec.BlockWindow), lastLineText(s.lineAtNudge, "."))
}

// blockNotice is the watchdog's block notice's text.
func (s *session) blockNotice(now time.Time) string {
	if !s.nudgedAt.IsZero() {
		return "Silent " + spoken(now.Sub(s.nudgedAt)) + " after a nudge" + lastLineText(s.lineAtNudge, "")
	}
	return "Silent " + spoken(now.Sub(s.lastLife())) + lastLineText(lastLine(s.con.snapshot()), "")
}

// lastLife is when the session last printed, or when it started if it never
// did.
func (s *session) lastLife() time.Time {
	if lo := s.con.lastOutputAt(); !lo.IsZero() {
		return lo
	}
	return s.startedAt
}

// lastLineText is " — last line: 'line'" (cut to a readable length), or
// end when the session printed nothing.
func lastLineText(line, end string) string {
	line = strings.TrimSpace(line)
	if line == "" {
		return " — it printed nothing" + end
	}
	if r := []rune(line); len(r) > 80 {
		line = strings.TrimSpace(string(r[:79])) + "…"
	}
	return " — last line: '" + line + "'"
}

// spoken says a duration the way a person would: "40 s", "5 min",
// "5 min 30 s", "1 h 5 min".
func spoken(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		m, sec := int(d.Minutes()), int(d.Seconds())%60
		if sec == 0 {
			return fmt.Sprintf("%d min", m)
		}
		return fmt.Sprintf("%d min %d s", m, sec)
	}
	h, m := int(d.Hours()), int(d.Minutes())%60
	if m == 0 {
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}
