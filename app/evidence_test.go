package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A watchdog's block reason becomes a headline and a row per layer: what
// each showed and when; a quoted last line may hold "; " of its own.
func TestParseEvidence(t *testing.T) {
	reason := `watchdog: no output for 5 min, nudged, then 5 min more with no sign of life; console: last output 05:33:05 (10 min 2 s ago), last line "lock; waiting"; commits: nothing; cpu: last life 05:31:40; board: nothing; gate: passes on HEAD dfc0702`
	got := ParseEvidence(reason).String()
	want := strings.Join([]string{
		"watchdog: no output for 5 min, nudged, then 5 min more with no sign of life",
		`console | 05:33:05 (10 min 2 s ago) | output, last line "lock; waiting"`,
		"commits |  | nothing",
		"cpu | 05:31:40 | sign of life",
		"board |  | nothing",
		"gate |  | passes on HEAD dfc0702",
	}, "\n")
	if got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	// An agent's own reason names no layer: it is said whole.
	own := "cannot reach the database; the credentials in .env are stale"
	if ev := ParseEvidence(own); ev.Head != own || len(ev.Rows) != 0 {
		t.Errorf("an agent's reason became %q", ev.String())
	}
}

// A nudged session's card shows when each layer last showed life, from
// the session's JSON; the layers that showed nothing say so.
func TestSessionEvidence(t *testing.T) {
	at := time.Date(2026, 1, 2, 5, 31, 40, 0, time.Local)
	si := supervisor.SessionInfo{State: supervisor.SessNudged, Why: "no output for 5 min",
		LastOutputAt: at.Add(-time.Minute), Evidence: map[string]time.Time{"cpu": at, "issue": at}}
	got := SessionEvidence(si).String()
	want := strings.Join([]string{
		"no output for 5 min",
		"console | 05:30:40 | output",
		"commits |  | nothing",
		"cpu | 05:31:40 | sign of life",
		"board |  | nothing",
		"issue | 05:31:40 | sign of life",
	}, "\n")
	if got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
}

// A nudged card's evidence is the nudge notice's: the console's last line
// before the nudge, as the notice quoted it, on the card's console row.
func TestNudgedCardQuotesTheNoticesLastLine(t *testing.T) {
	fake := newFake()
	d := openFullBoard(t, fake)
	s := fullBoard(t0)
	for i := range s.Sessions {
		if s.Sessions[i].TaskID == "t2" {
			nudged := t0.Add(-time.Minute)
			s.Sessions[i].State, s.Sessions[i].NudgedAt = supervisor.SessNudged, &nudged
			s.Sessions[i].LastLine = "Running migration 0042..."
		}
	}
	d.u.apply(s)
	card := strings.Join(texts(cardOf(t, d, "t2")), "\n")
	if !strings.Contains(card, "last line 'Running migration 0042...'") {
		t.Errorf("the nudged card does not quote the line its notice did:\n%s", card)
	}
}

// The card's evidence reads whole at the board's width: the quoted line
// wraps instead of ending in "…", and the console is one row, not two
// (the station's console layer is the row's own).
func TestNudgedCardEvidenceReadsWhole(t *testing.T) {
	fake := newFake()
	d := openFullBoard(t, fake)
	d.win.Resize(fyne.NewSize(1280, 800))
	s := fullBoard(t0)
	for i := range s.Sessions {
		if s.Sessions[i].TaskID == "t2" {
			nudged := t0.Add(-time.Minute)
			s.Sessions[i].State, s.Sessions[i].NudgedAt = supervisor.SessNudged, &nudged
			s.Sessions[i].LastLine = "Running migration 0042 of 0050 on the orders table..."
			s.Sessions[i].Evidence = map[string]time.Time{"console": t0.Add(-time.Minute)}
		}
	}
	d.u.apply(s)
	var consoles int
	walk(cardOf(t, d, "t2"), func(o fyne.CanvasObject) bool {
		if l, ok := o.(*widget.Label); ok {
			if l.Text == "console" {
				consoles++
			}
			if strings.Contains(l.Text, "last line") && l.Wrapping == fyne.TextWrapOff {
				t.Errorf("the quoted line is cut to the column: %q", l.Text)
			}
		}
		return false
	})
	if consoles != 1 {
		t.Errorf("the nudged card has %d console rows, want 1", consoles)
	}
}
