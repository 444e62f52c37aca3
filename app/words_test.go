package app

import (
	"strings"
	"testing"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// A card's badge says its state in words, never a code word
// ("needs-permission", "todo"), and in the count's own word: a card counted
// under Idle says idle, one counted under Needs you says needs you, so the
// figures at the top and the cards below agree.
func TestBadgesSayTheStateInWords(t *testing.T) {
	sessions := map[supervisor.SessionState]string{
		supervisor.SessStarting:        "starting",
		supervisor.SessWorking:         "working",
		supervisor.SessQuiet:           "working quietly",
		supervisor.SessReviewing:       "reviewing",
		supervisor.SessIdle:            "idle",
		supervisor.SessNudged:          "idle · nudged",
		supervisor.SessWaiting:         "idle · waits for input",
		supervisor.SessNeedsPermission: "needs you",
	}
	// The count each group of sessions is shown under (Counts.Header).
	countWord := map[supervisor.SessionGroup]string{
		supervisor.GroupWorking:    "working",
		supervisor.GroupReviewing:  "reviewing",
		supervisor.GroupIdle:       "idle",
		supervisor.GroupPermission: "needs you",
	}
	header := strings.ToLower(Count(Snapshot{}).Header())
	for st, want := range sessions {
		si := supervisor.SessionInfo{ID: "t1.1", TaskID: "t1", State: st}
		c := CardFor(supervisor.Task{ID: "t1", Project: "web", State: supervisor.TaskWorking}, &si, time.Now())
		if c.Badge != want {
			t.Errorf("a %s session's badge says %q, want %q", st, c.Badge, want)
		}
		if w := countWord[st.Group()]; st != supervisor.SessStarting && (!strings.HasPrefix(c.Badge, w) || !strings.Contains(header, w)) {
			t.Errorf("a %s session's badge %q does not say the count it is under (%q in %q)", st, c.Badge, w, header)
		}
		// The tray's line for the session says the same words.
		lines := TrayLines(Snapshot{Connected: true, Sessions: []supervisor.SessionInfo{si}, Tasks: []supervisor.Task{{ID: "t1", Title: "Fix it", State: supervisor.TaskWorking}}})
		found := false
		for _, l := range lines {
			if l.Action == ActConsole && strings.Contains(l.Label, want) && !strings.Contains(l.Label, "needs-permission") {
				found = true
			}
		}
		if !found {
			t.Errorf("the tray's line for a %s session does not say %q: %+v", st, want, lines)
		}
	}
	tasks := map[supervisor.TaskState]string{
		supervisor.TaskTodo:      "to do",
		supervisor.TaskWorking:   "in progress",
		supervisor.TaskReview:    "in review",
		supervisor.TaskBlocked:   "blocked",
		supervisor.TaskDone:      "done",
		supervisor.TaskCancelled: "cancelled",
	}
	for st, want := range tasks {
		if got := CardFor(supervisor.Task{ID: "t1", State: st}, nil, time.Now()).Badge; got != want {
			t.Errorf("a %s task's badge says %q, want %q", st, got, want)
		}
	}
}

// The board's card says what a person scans for — title, state, project —
// and leaves the task's id and its branch to the detail view (the pane):
// no "t4 · web · attempt 1" beside the badge, no "bs/t4" under the title.
func TestIdsAndBranchLiveInTheDetailView(t *testing.T) {
	fake := newFake()
	fake.works = map[string]*supervisor.TaskWork{
		"t4": {Branch: "bs/fb1mwi/t4", Base: "3333333cccc", Head: "4444444dddd", MergeInto: "main", Commits: []string{"4444444 healthz"}, DiffStat: "1 file changed, 4 insertions(+)"},
	}
	d := openFullBoard(t, fake)
	card := strings.Join(texts(cardOf(t, d, "t4")), "\n")
	for _, code := range []string{"t4 ·", "bs/fb1mwi", "attempt 1"} { // its title is "Task t4"
		if strings.Contains(card, code) {
			t.Errorf("the board's card shows %q:\n%s", code, card)
		}
	}
	if !strings.Contains(card, "web") || !strings.Contains(card, "1 commit") {
		t.Errorf("the board's card lost its project or its commits:\n%s", card)
	}
	d.focus("t4")
	pane := strings.Join(texts(d.pane.root), "\n")
	for _, detail := range []string{"t4 ·", "bs/fb1mwi/t4"} {
		if !strings.Contains(pane, detail) {
			t.Errorf("the detail view does not show %q:\n%s", detail, pane)
		}
	}
}
