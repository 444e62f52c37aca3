package station

import (
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/buildstation/buildstation/supervisor"
)

// Each notice is withdrawn by the first event that ends what it announced,
// and by nothing before that.
func TestNoticeBookWithdrawsWhatIsOver(t *testing.T) {
	nudge := supervisor.Notice{Kind: supervisor.NoticeNudge, TaskID: "t1", SessionID: "t1.1", Title: "Nudged"}
	perm := supervisor.Notice{Kind: supervisor.NoticePermission, TaskID: "t2", SessionID: "t2.1", Title: "Needs you"}
	block := supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: "t3", SessionID: "t3.1", Title: "Blocked"}
	notice := func(n supervisor.Notice) supervisor.Event {
		return supervisor.Event{Kind: supervisor.EventNotice, Notice: &n}
	}
	sess := func(id, task string, st supervisor.SessionState) supervisor.Event {
		return supervisor.Event{Kind: supervisor.EventSession, Session: &supervisor.SessionInfo{ID: id, TaskID: task, State: st}}
	}
	task := func(id string, st supervisor.TaskState) supervisor.Event {
		return supervisor.Event{Kind: supervisor.EventTask, Task: &supervisor.Task{ID: id, State: st}}
	}
	steps := []struct {
		name string
		e    supervisor.Event
		over []string // titles
	}{
		{"nudge shown", notice(nudge), nil},
		{"session is nudged", sess("t1.1", "t1", supervisor.SessNudged), nil},
		{"another session works", sess("t9.1", "t9", supervisor.SessWorking), nil},
		{"nudged session works again", sess("t1.1", "t1", supervisor.SessWorking), []string{"Nudged"}},
		{"permission shown", notice(perm), nil},
		{"still waiting", sess("t2.1", "t2", supervisor.SessNeedsPermission), nil},
		{"its task still works", task("t2", supervisor.TaskWorking), nil},
		{"dialog answered", sess("t2.1", "t2", supervisor.SessWorking), []string{"Needs you"}},
		{"nudge again", notice(nudge), nil},
		{"same nudge again replaces", notice(nudge), nil},
		{"the nudged task is blocked", notice(supervisor.Notice{Kind: supervisor.NoticeBlock, TaskID: "t1", SessionID: "t1.1", Title: "Blocked t1"}), []string{"Nudged"}},
		{"block shown", notice(block), nil},
		{"the blocked session ends", sess("t3.1", "t3", supervisor.SessEnded), nil},
		{"the task is still blocked", task("t3", supervisor.TaskBlocked), nil},
		{"the task is requeued", task("t3", supervisor.TaskTodo), []string{"Blocked"}},
		{"requeued twice: nothing left", task("t3", supervisor.TaskTodo), nil},
		{"t1 cancelled", task("t1", supervisor.TaskCancelled), []string{"Blocked t1"}},
	}
	var b supervisor.NoticeBook
	for _, s := range steps {
		var got []string
		for _, n := range b.Over(s.e) {
			got = append(got, n.Title)
		}
		if !slices.Equal(got, s.over) {
			t.Errorf("%s: over %q, want %q", s.name, got, s.over)
		}
	}
}

func TestSpoken(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0 s", 40 * time.Second: "40 s", 40*time.Second + 400*time.Millisecond: "40 s",
		5 * time.Minute: "5 min", 5*time.Minute + 30*time.Second: "5 min 30 s",
		time.Hour: "1 h", 65 * time.Minute: "1 h 5 min",
	} {
		if got := spoken(d); got != want {
			t.Errorf("spoken(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestLastLineText(t *testing.T) {
	if got := lastLineText("  Taking the schema lock…  ", ""); got != " — last line: 'Taking the schema lock…'" {
		t.Errorf("got %q", got)
	}
	if got := lastLineText("", "."); got != " — it printed nothing." {
		t.Errorf("got %q", got)
	}
	if got := lastLineText(strings.Repeat("x", 200), ""); len([]rune(got)) != len([]rune(" — last line: ''"))+80 {
		t.Errorf("a long line is not cut: %q", got)
	}
}

// The card and the notice say the same: a nudged session's record carries
// the console's last line as the nudge notice quotes it, so the card's
// evidence shows what the notice showed.
func TestNudgedSessionCarriesTheNoticesLastLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, project("web", 5*time.Minute, 5*time.Minute))
		task := h.add("web", "migrate")
		p := h.proc()
		p.say("Running migration 0042...\r\n")
		advance(5*time.Minute + time.Millisecond)
		var nudge supervisor.Notice
		for _, n := range h.notes.all() {
			if n.Kind == supervisor.NoticeNudge {
				nudge = n
			}
		}
		if !strings.Contains(nudge.Body, "last line: 'Running migration 0042...'") {
			t.Fatalf("the nudge notice says %q", nudge.Body)
		}
		s := h.session(task.ID)
		if s.State != supervisor.SessNudged || s.LastLine != "Running migration 0042..." {
			t.Errorf("the nudged session (%s) carries last line %q; the notice quoted 'Running migration 0042...'", s.State, s.LastLine)
		}
	})
}
