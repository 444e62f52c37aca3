package station

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/buildstation/buildstation/supervisor"
)

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
	line = quotedLine(line)
	if line == "" {
		return " — it printed nothing" + end
	}
	return " — last line: '" + line + "'"
}

// quotedLine is a console line as a notice quotes it: trimmed, and cut to
// a readable length.
func quotedLine(line string) string {
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > 80 {
		line = strings.TrimSpace(string(r[:79])) + "…"
	}
	return line
}

// spoken says a duration the way a person would (supervisor.Spoken).
func spoken(d time.Duration) string { return supervisor.Spoken(d) }

// A notice shows a request whole up to noticeAskWhole characters (with
// the ways to answer, its body stays within what notifiers show, 400);
// a longer one is clipped to noticeAskClip, saying so.
const (
	noticeAskWhole = 300
	noticeAskClip  = 200
)

// noticeTitleMax is the longest title a notice has: notification daemons
// show a title on one line and cut the rest (xfce4-notifyd and dunst at
// about 60 characters in their default width).
const noticeTitleMax = 60

// permissionNotice tells a person the session waits on them: what its
// agent asks, when the station holds the request (answerable from the
// notice: its buttons say Allow once and Deny, as the card's do), else that
// a dialog waits in its console. The title fits a daemon's one line; the
// body says the request whole, then whose it is.
func (s *session) permissionNotice() supervisor.Notice {
	n := supervisor.Notice{Kind: supervisor.NoticePermission, TaskID: s.spec.TaskID, SessionID: s.spec.ID,
		Title: titled("Needs you: ", s.spec.Title, ""),
		Body:  "The agent waits on a dialog only a person may answer. Open its console."}
	var info supervisor.SessionInfo
	s.meter.fill(&info, time.Now())
	w := info.WaitingOn
	if w == nil {
		return n
	}
	whose := s.spec.TaskID + " · " + s.spec.Title + " (" + s.spec.Project + ")"
	if line := w.Line(); utf8.RuneCountInString(line) > noticeAskWhole {
		// Too long for a notice to show whole: clipped, saying so, with
		// no Allow (n.Ask stays nil): a person allows only what they
		// read whole, where it is shown whole.
		n.Title = titled("", s.spec.Title, " asks you to decide a long request")
		n.Body = string([]rune(line)[:noticeAskClip]) + "… (clipped: " + strconv.Itoa(utf8.RuneCountInString(line)) +
			" characters in all). Read it whole on its card in the dashboard before you decide.\n" + whose
		return n
	}
	n.Ask = w
	switch {
	case w.Kind == supervisor.AskQuestion:
		n.Title = titled("", s.spec.Title, " asks you a question")
		n.Body = w.Input + "\nAnswer: " + strings.Join(w.Options, " / ") + "\n" + whose
	case w.Tool == "Bash":
		n.Title = titled("", s.spec.Title, " asks to run a command")
		n.Body = w.Line() + "\n" + whose
	default:
		n.Title = titled("", s.spec.Title, " asks to use "+w.Tool)
		n.Body = w.Line() + "\n" + whose
	}
	return n
}

// titled is head + title + tail within noticeTitleMax runes, the task's
// title cut at a word (marked …) so that what it asks always shows.
func titled(head, title, tail string) string {
	room := noticeTitleMax - utf8.RuneCountInString(head) - utf8.RuneCountInString(tail)
	if r := []rune(title); len(r) > room {
		cut := strings.TrimSpace(string(r[:max(room-1, 1)]))
		if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
			cut = cut[:i]
		}
		title = strings.TrimRight(cut, " ,;:·-") + "…"
	}
	return head + title + tail
}

// finishedNotice tells a person a task's work reached Done (its agent
// completed, or its review approved): what was done, and, when it is on a
// branch, that it waits for them to merge it. SessionID is the session
// that finished it: a click opens the task's card, where Merge is.
func finishedNotice(taskID, title, summary string, s *session) supervisor.Notice {
	n := supervisor.Notice{Kind: supervisor.NoticeFinished, TaskID: taskID, SessionID: s.spec.ID,
		Title: titled("Finished: ", title, "")}
	var body []string
	if summary = strings.TrimSpace(summary); summary != "" {
		body = append(body, summary)
	}
	if s.spec.Branch != "" {
		body = append(body, "Not merged yet: it is ready to merge (View diff, Merge).")
		n.Branch = s.spec.Branch
	}
	body = append(body, taskID+" · "+title+" ("+s.spec.Project+")")
	n.Body = strings.Join(body, "\n")
	return n
}
